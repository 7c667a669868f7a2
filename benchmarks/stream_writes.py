"""What one pushed message costs a gevent worker, apart from everything else a command costs:
streams woken through service/live.py's Hub and written with gunicorn's chunked write, as
GET /games/{id}/stream does, at a command's rhythm, with and without the writes.

    .venv/bin/python benchmarks/stream_writes.py                  # about 30 s
    .venv/bin/python benchmarks/stream_writes.py --streams 1000 --per-game 4 --rate 600

One process (monkey-patched by gevent, as a worker is) holds --streams loopback connections,
--per-game of them on each game; a separate process reads them all. A driver "stores" one
event on the next game every 1/--rate seconds (Hub.stored, as a command does), so each command
wakes that game's streams, which render nothing (a fixed message) and write it. The same run
without the writes gives the cost of the waking alone; the difference over the messages sent
is the cost of a write, system call included. Each phase runs --seconds; the CPU is this
process's (user + system), so the reader's is not in it. The figures are the floor under
benchmarks/streams.py's "streams receiving" phase, where the server also parses, stores and
renders, and shares the 2 cores with PostgreSQL, the load generator and the reader.
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402  (after gevent's patching, as in a worker)
import contextlib  # noqa: E402
import os  # noqa: E402
import selectors  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from gunicorn import util  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from service.live import Hub  # noqa: E402

MESSAGE = b"id: 12\ndata: " + b'{"version":12,"event":{"type":"DiceRolled"}}'.ljust(300, b" ") + b"\n\n"


@dataclass
class Stored:
    originator_version: int


def reader(port: int, count: int) -> None:
    """Connect `count` sockets, say so, then read whatever comes until stdin closes."""
    selector = selectors.DefaultSelector()
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    selector.register(sys.stdin, selectors.EVENT_READ)
    print("ready", flush=True)
    while True:
        for key, _ in selector.select(1):
            if key.fileobj is sys.stdin:
                return
            with contextlib.suppress(BlockingIOError):
                key.fileobj.recv(65536)


def phase(hub: Hub, conns: list, per_game: int, rate: float, seconds: float, write: bool,
          watched: bool = True) -> dict:
    games = len(conns) // per_game
    sent = [0]
    stop = [False]

    def stream(game: str, sock) -> None:
        at = 0
        with hub.watching(game, 0) as watch:
            while not stop[0]:
                if not hub.wait(watch, at, 1):
                    continue
                events = hub.events_after(watch, at, lambda after: [])
                at = events[-1].originator_version if events else watch.version
                if write:
                    util.write(sock, MESSAGE * len(events), True)
                sent[0] += 1

    prefix = f"w{int(write)}{int(watched)}-"
    greenlets = [gevent.spawn(stream, f"{prefix}{i % games}", s) for i, s in enumerate(conns)]
    if not watched:  # the streams wait on games nobody plays: the driver's own cost
        prefix = "unwatched-"
    gevent.sleep(0.5)
    versions = [0] * games
    commands = 0
    started, cpu0 = time.monotonic(), os.times()
    interval = 1 / rate
    while time.monotonic() - started < seconds:
        game = commands % games
        versions[game] += 1
        hub.stored(f"{prefix}{game}", [Stored(versions[game])])
        commands += 1
        gevent.sleep(max(0.0, started + commands * interval - time.monotonic()))
    cpu1, elapsed = os.times(), time.monotonic() - started
    stop[0] = True
    gevent.joinall(greenlets, timeout=5)
    cpu = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    return {"commands": commands, "woken": sent[0], "cpu": cpu, "elapsed": elapsed,
            "system": cpu1.system - cpu0.system}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--streams", type=int, default=1000)
    ap.add_argument("--per-game", type=int, default=4, help="streams on each game")
    ap.add_argument("--rate", type=float, default=600, help="commands a second")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--reader", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.reader:
        reader(args.reader, args.count)
        return
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(args.streams + 10)
    port = listener.getsockname()[1]
    read = subprocess.Popen([sys.executable, __file__, "--reader", str(port), "--count", str(args.streams)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    conns = [listener.accept()[0] for _ in range(args.streams)]
    assert read.stdout is not None and read.stdout.readline().strip() == b"ready"
    hub = Hub(lambda ids: {}, poll_seconds=3600)  # no poller: only this process's "commands"
    print(f"stream writes: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}; {args.streams} streams, {args.per_game} a game, {args.rate:g} commands/s, "
          f"{args.seconds:g} s a phase")
    try:
        idle = phase(hub, conns, args.per_game, args.rate, args.seconds, write=False, watched=False)
        quiet = phase(hub, conns, args.per_game, args.rate, args.seconds, write=False)
        loud = phase(hub, conns, args.per_game, args.rate, args.seconds, write=True)
    finally:
        read.communicate(b"", timeout=10)
    for label, r in (("streams idle (the driver alone)", idle), ("woken, not written", quiet),
                     ("woken and written", loud)):
        print(f"  {label}: {r['commands']:,} commands, {r['woken']:,} wakes; CPU {r['cpu'] * 1e6 / r['commands']:.0f} us "
              f"a command ({r['system'] * 1e6 / r['commands']:.0f} us system)")
    def per_command(r: dict) -> float:
        return r["cpu"] / r["commands"]

    wakes = quiet["woken"] / quiet["commands"]
    writes = loud["woken"] / loud["commands"]
    waking = per_command(quiet) - per_command(idle)
    writing = per_command(loud) - per_command(quiet)
    print(f"a wake: {waking * 1e6 / wakes:.1f} us of CPU ({wakes:.1f} a command: {waking * 1e6:.0f} us a command)")
    print(f"a write: {writing * 1e6 / writes:.1f} us of CPU ({writes:.1f} a command: {writing * 1e6:.0f} us a command)")


if __name__ == "__main__":
    main()
