"""Instructions per command, counted by valgrind (callgrind): the CPU a command costs in one
process, in a figure that does not move with whatever else the machine is doing.

    .venv/bin/python benchmarks/instructions.py                        # this checkout
    .venv/bin/python benchmarks/instructions.py --root /work/other     # another checkout's service
    .venv/bin/python benchmarks/instructions.py --root A --root B      # several, one after the other
    .venv/bin/python benchmarks/instructions.py --server [--root A]    # the gunicorn worker's, whole

Timings on these shared 2-core machines move by 10-20% from run to run (other tenants, CPU
steal), more than most changes to the request path. Instruction counts do not: the same
build, inputs and seeds give the same count. This runs benchmarks/profile_commands.py (the
WSGI app called as gunicorn calls it, on PostgreSQL, the same seeded games every run) under
callgrind twice, with N and N + M commands, and prints (count(N + M) - count(N)) / M: start-up,
imports and warm-up cancel out. It counts the app's instructions only: gunicorn, gevent and
the database's own process are not in it (benchmarks/commands.py measures those, in time).
About 2.5 minutes a checkout (valgrind runs Python some 50 times slower).

--server counts the whole of a gunicorn worker instead: the Procfile's gunicorn (one worker)
runs under callgrind, 12 Corsairs games are played by benchmarks/issue5.py's players, one
request at a time, and the server is stopped; two such runs, one with --commands more
commands than the other, give the worker's instructions per command: gunicorn's parsing and
writing, gevent, psycopg and the app. Server chance is the server's own, so two runs play
different games: expect a spread of a few per cent. About 6 minutes a checkout.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(root: Path, commands: int, warm_up: int, prefer: str | None, rate_limits: bool = False) -> int:
    with tempfile.TemporaryDirectory() as out:
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/callgrind.out",
                sys.executable, str(ROOT / "benchmarks" / "profile_commands.py"), "--root", str(root),
                "--commands", str(commands), "--warm-up", str(warm_up)]
        if prefer:
            argv += ["--prefer", prefer]
        if rate_limits:
            argv += ["--rate-limits"]
        run = subprocess.run(argv, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run failed ({run.returncode}):\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    return int(found.group(1))


def worker_count(root: Path, commands: int, warm_up: int, prefer: str | None, rate_limits: bool = False,
                 keep: Path | None = None) -> int:
    """Instructions the gunicorn worker spent from its start to its exit, having served
    `warm_up` + `commands` commands (--server: the difference of two such runs is per command)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import issue5
    from _pg import fresh_schema

    web = next(line.split(":", 1)[1].strip() for line in (root / "Procfile").read_text().splitlines()
               if line.startswith("web:"))
    with tempfile.TemporaryDirectory() as out, fresh_schema("instructions") as (_, env):
        port = issue5.free_port()
        valgrind = f"valgrind --tool=callgrind --trace-children=yes --callgrind-out-file={out}/callgrind.%p"
        limits = ({"PARLEY_RATE_LIMITS": "on", "PARLEY_RATE_LIMIT_DEFAULT": "1000000 per minute"} if rate_limits
                  else {"PARLEY_RATE_LIMITS": "off"})
        full = {**limits, **env, "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "1",
                "GUNICORN_TIMEOUT": "900", "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}"}
        server = subprocess.Popen(["bash", "-c", f"exec {valgrind} {web}"], cwd=root, env={**os.environ, **full},
                                  stdout=subprocess.DEVNULL, stderr=open(f"{out}/server.log", "wb"),  # noqa: SIM115
                                  start_new_session=True)
        try:
            _wait_for(port, server, Path(out, "server.log"))
            (worker,) = issue5.workers_of(server.pid)
            players = [issue5.Player(port, seed) for seed in range(12)]
            for player in players:
                player.command_headers = {"Prefer": prefer} if prefer else {}
            sent = 0
            while sent < warm_up + commands:
                player = players[sent % len(players)]
                sent += player.send(player.next_command())
            # The worker alone is told to stop (SIGTERM: it finishes and exits; callgrind then
            # writes its counts), before the master, whose stop would kill a slow worker.
            os.kill(worker, signal.SIGTERM)
            dump = Path(out, f"callgrind.{worker}")
            for _ in range(600):
                if dump.exists() and not _alive(worker):
                    break
                time.sleep(0.2)
            totals = dump.read_text()
            if keep is not None:  # for callgrind_annotate: where the worker's instructions went
                shutil.copy(dump, keep)
        finally:
            issue5.stop_server(server)
    found = re.search(r"^(?:summary|totals): (\d+)", totals, re.MULTILINE)
    if found is None:
        raise SystemExit(f"no totals in the worker's callgrind output ({worker})")
    return int(found.group(1))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def _wait_for(port: int, server: subprocess.Popen, log: Path) -> None:
    import http.client

    for _ in range(1800):  # valgrind's gunicorn takes a minute or two to boot
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
        if server.poll() is not None:
            break
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
    raise SystemExit(f"the server under valgrind did not start; its log ends:\n{tail}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", action="append", default=None, help="a checkout whose service is counted")
    ap.add_argument("--commands", type=int, default=300, help="M: the commands counted")
    ap.add_argument("--base", type=int, default=100, help="N: the commands of the run subtracted")
    ap.add_argument("--warm-up", type=int, default=100)
    ap.add_argument("--prefer", default=None, help="a Prefer header to send, e.g. return=minimal")
    ap.add_argument("--server", action="store_true", help="count the gunicorn worker, whole (see above)")
    ap.add_argument("--keep", type=Path, default=None,
                    help="--server: copy the longer run's callgrind output here (callgrind_annotate reads it)")
    ap.add_argument("--rate-limits", action="store_true",
                    help="every request counted in the rate limits, as by default (a budget this one address never spends)")
    args = ap.parse_args()
    for root in [Path(r).resolve() for r in (args.root or [str(ROOT)])]:
        if args.server:
            # Two servers, each booted, played in (the same 12 games' first commands) and stopped:
            # the one that served M more commands spent the difference on them.
            per = (worker_count(root, args.commands, args.base + args.warm_up, args.prefer, args.rate_limits,
                                args.keep)
                   - worker_count(root, 0, args.base + args.warm_up, args.prefer, args.rate_limits)) / args.commands
            print(f"{root}: {per:,.0f} instructions of the gunicorn worker per command (callgrind, "
                  f"{args.commands} commands, Prefer: {args.prefer or '(none)'}, rate limits "
                  f"{'on' if args.rate_limits else 'off'})", flush=True)
            continue
        short = collected(root, args.base, args.warm_up, args.prefer, args.rate_limits)
        long = collected(root, args.base + args.commands, args.warm_up, args.prefer, args.rate_limits)
        per = (long - short) / args.commands
        print(f"{root}: {per:,.0f} instructions per command (callgrind, {args.commands} commands, "
              f"Prefer: {args.prefer or '(none)'}, rate limits {'on' if args.rate_limits else 'off'})", flush=True)


if __name__ == "__main__":
    main()
