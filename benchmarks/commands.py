"""Issue 16, item 4: HTTP commands/s through gunicorn against the bare save rate through
Parley's own recorder, in one run, with the gunicorn workers' CPU per command.

    .venv/bin/python benchmarks/commands.py                       # about 2 min 30 s
    .venv/bin/python benchmarks/commands.py --root /work/main     # the same against another checkout
    .venv/bin/python benchmarks/commands.py --py-spy /tmp/spy     # and py-spy profiles of the workers

In turn, --rounds times (3), so that no two parts overlap, each part judged by its median:

1. the bare save rate on PostgreSQL, one event per save, one process: through Parley's
   recorder (service/store.py), the target's reference, and eventsourcing's own;
2. gunicorn from the Procfile (of --root) on a throwaway schema, --clients connections each
   playing its own Corsairs game with random legal commands (benchmarks/issue5.py's load
   generator), at saturation, one phase per kind of answer: the default answer, then
   `Prefer: return=minimal` (a build that ignores Prefer answers the default to both).
   The load generator shares the two cores with the server; it talks through
   benchmarks/wire.py (the same request bytes as http.client, about half its CPU per command);
   --http-client stdlib plays through http.client, as the figures before 2026-12-02 14:00 UTC.

Each phase prints commands/s, the ratio to the recorder's save rate (target 0.8), and the CPU
per command of the gunicorn workers, of their PostgreSQL backends and of the load generator,
read from /proc and getrusage: CPU per command moves much less than rates when other work
shares the cores. --py-spy DIR records each worker during each phase (py-spy, raw format).
"""
from __future__ import annotations

import argparse
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _pg import fresh_schema
from issue5 import TICK, CpuMeter, Player, _interrupted, app_name, free_port, pct, saturate, start_server, stop_server, workers_of
from stack_limits import PARLEY_RECORDER, save_rate

TARGET = 0.8
ANSWERS = {"default": None, "minimal": "return=minimal"}


def user_system(pids: list[int]) -> tuple[float, float]:
    """User and system CPU seconds these processes have used so far (/proc/<pid>/stat)."""
    user = system = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        user, system = user + int(fields[11]) / TICK, system + int(fields[12]) / TICK
    return user, system


def spy(directory: str | None, pids: list[int], label: str, seconds: float) -> list[subprocess.Popen]:
    if directory is None:
        return []
    os.makedirs(directory, exist_ok=True)
    exe = ROOT / ".venv" / "bin" / "py-spy"
    return [subprocess.Popen([str(exe), "record", "-p", str(pid), "-f", "raw", "-r", "200", "-d", str(int(seconds)),
                              "-o", os.path.join(directory, f"{label}-{pid}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in pids]


def phase(players: list[Player], server, args, label: str, own: float, name: str) -> dict:
    prefer = ANSWERS[label]
    for p in players:
        p.command_headers = {"Prefer": prefer} if prefer else {}
    meter = CpuMeter(server.pid, app_name())
    spies = spy(args.py_spy, workers_of(server.pid), name, args.seconds + 2)
    workers = workers_of(server.pid)
    split0 = user_system(workers)
    meter.start()
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    rate, sat = saturate(players, args.seconds)
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    workers_cpu, pg_cpu = meter.stop()
    split1 = user_system(workers)
    for s in spies:
        s.wait()
    sent = max(1, sat.sent)
    client_ms = ((cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)) * 1000 / sent
    row = {"answer": label, "rate": rate, "ratio": rate / own, "own": own, "worker_ms": workers_cpu * 1000 / sent,
           "pg_ms": pg_cpu * 1000 / sent, "user_ms": (split1[0] - split0[0]) * 1000 / sent,
           "system_ms": (split1[1] - split0[1]) * 1000 / sent, "client_ms": client_ms, "p50": statistics.median(sat.latencies),
           "p99": pct(sat.latencies, 0.99), "errors": sat.errors}
    print(f"  {label} answer: {rate:,.0f} commands/s, {row['ratio']:.2f} of the recorder's save rate "
          f"(target {TARGET}: {'PASS' if row['ratio'] >= TARGET else 'MISS'}); CPU per command: workers "
          f"{row['worker_ms']:.2f} ms ({row['user_ms']:.2f} user, {row['system_ms']:.2f} system), "
          f"PostgreSQL {row['pg_ms']:.2f} ms, load generator {client_ms:.2f} ms; "
          f"p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, non-200: {sat.errors}", flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stack-seconds", type=float, default=5)
    ap.add_argument("--seconds", type=float, default=15, help="each HTTP phase")
    ap.add_argument("--rounds", type=int, default=3, help="times the save rate and each HTTP phase are measured, in turn")
    ap.add_argument("--clients", type=int, default=12, help="connections (games) at saturation")
    ap.add_argument("--answers", nargs="+", choices=list(ANSWERS), default=list(ANSWERS))
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose Procfile and code serve (A/B runs)")
    ap.add_argument("--py-spy", default=None, metavar="DIR", help="record each worker with py-spy into DIR")
    ap.add_argument("--http-client", choices=["wire", "stdlib"], default="wire",
                    help="the load generator's HTTP client: benchmarks/wire.py, or http.client as before 2026-12-02")
    args = ap.parse_args()
    Player.http_client = args.http_client
    signal.signal(signal.SIGTERM, _interrupted)
    root = Path(args.root).resolve()
    print(f"issue 16 commands run: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} at the start; serving {root}", flush=True)
    rows, saves = [], []
    with fresh_schema("i16stack") as (_, stack_env), fresh_schema("i16http") as (_, env):
        port = free_port()
        server = start_server(root, env, port, None)
        try:
            players = [Player(port, i) for i in range(args.clients)]
            print(f"http: gunicorn from {root / 'Procfile'}, {len(workers_of(server.pid))} workers, "
                  f"{args.clients} connections ({args.http_client} client), {args.seconds:g} s a phase, "
                  f"{args.rounds} rounds", flush=True)
            # The save rate and the HTTP phases take turns, --rounds times, and each is judged by
            # its median: on these shared machines a rate moves by a fifth within minutes, and
            # one measurement of each, in a fixed order, compares two moments of the machine.
            for turn in range(args.rounds):
                own = save_rate({**stack_env, "PERSISTENCE_MODULE": PARLEY_RECORDER}, args.stack_seconds)
                bare = save_rate(stack_env, args.stack_seconds)
                saves.append(own)
                print(f"  round {turn + 1}: bare save through Parley's recorder: {own:,.0f} saves/s (eventsourcing's "
                      f"own: {bare:,.0f} saves/s)", flush=True)
                for label in args.answers:
                    rows.append(phase(players, server, args, label, own, f"{label}{turn + 1}"))
        finally:
            stop_server(server)
    save = statistics.median(saves)
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")
    print(f"medians over {args.rounds} rounds: the recorder's bare save {save:,.0f} saves/s "
          f"({', '.join(f'{x:,.0f}' for x in saves)}); target {TARGET} x {save:,.0f} = {TARGET * save:,.0f} commands/s")
    for label in args.answers:
        mine = [r for r in rows if r["answer"] == label]
        rate = statistics.median(r["rate"] for r in mine)
        rates = ", ".join(f"{r['rate']:,.0f}" for r in mine)
        cpus = ", ".join(f"{r['worker_ms']:.2f}" for r in mine)
        print(f"  {label} answer: {rate:,.0f} commands/s ({rates}), "
              f"{rate / save:.2f} of the save rate (target {TARGET}: {'PASS' if rate / save >= TARGET else 'MISS'}); "
              f"worker CPU per command {statistics.median(r['worker_ms'] for r in mine):.2f} ms "
              f"({cpus})")
    print()
    print("| answer | commands/s | ratio to the recorder's save rate | worker CPU / command (user + system) | "
          "PostgreSQL CPU / command | load generator CPU / command | p50 / p99 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['answer']} | {r['rate']:,.0f} | {r['ratio']:.2f} of {r['own']:,.0f} | {r['worker_ms']:.2f} ms "
              f"({r['user_ms']:.2f} + {r['system_ms']:.2f}) | "
              f"{r['pg_ms']:.2f} ms | {r['client_ms']:.2f} ms | {r['p50']:.1f} / {r['p99']:.1f} ms |")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("\ninterrupted: its PostgreSQL schemas dropped and its gunicorn stopped", file=sys.stderr)
        sys.exit(130)
