"""Instructions per command, counted by valgrind (callgrind): the CPU a command costs in one
process, in a figure that does not move with whatever else the machine is doing.

    .venv/bin/python benchmarks/instructions.py                        # this checkout
    .venv/bin/python benchmarks/instructions.py --root /work/other     # another checkout's service
    .venv/bin/python benchmarks/instructions.py --root A --root B      # several, one after the other

Timings on these shared 2-core machines move by 10-20% from run to run (other tenants, CPU
steal), more than most changes to the request path. Instruction counts do not: the same
build, inputs and seeds give the same count. This runs benchmarks/profile_commands.py (the
WSGI app called as gunicorn calls it, on PostgreSQL, the same seeded games every run) under
callgrind twice, with N and N + M commands, and prints (count(N + M) - count(N)) / M: start-up,
imports and warm-up cancel out. It counts the app's instructions only: gunicorn, gevent and
the database's own process are not in it (benchmarks/commands.py measures those, in time).
About 2.5 minutes a checkout (valgrind runs Python some 50 times slower).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(root: Path, commands: int, warm_up: int, prefer: str | None) -> int:
    with tempfile.TemporaryDirectory() as out:
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/callgrind.out",
                sys.executable, str(ROOT / "benchmarks" / "profile_commands.py"), "--root", str(root),
                "--commands", str(commands), "--warm-up", str(warm_up)]
        if prefer:
            argv += ["--prefer", prefer]
        run = subprocess.run(argv, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run failed ({run.returncode}):\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", action="append", default=None, help="a checkout whose service is counted")
    ap.add_argument("--commands", type=int, default=300, help="M: the commands counted")
    ap.add_argument("--base", type=int, default=100, help="N: the commands of the run subtracted")
    ap.add_argument("--warm-up", type=int, default=100)
    ap.add_argument("--prefer", default=None, help="a Prefer header to send, e.g. return=minimal")
    args = ap.parse_args()
    for root in [Path(r).resolve() for r in (args.root or [str(ROOT)])]:
        short = collected(root, args.base, args.warm_up, args.prefer)
        long = collected(root, args.base + args.commands, args.warm_up, args.prefer)
        per = (long - short) / args.commands
        print(f"{root}: {per:,.0f} instructions per command (callgrind, {args.commands} commands, "
              f"Prefer: {args.prefer or '(none)'})", flush=True)


if __name__ == "__main__":
    main()
