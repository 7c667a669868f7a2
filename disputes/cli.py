"""`parley`: check and replay an exported game offline, with no server and no database.

    parley verify game.json            exit 0 valid, 1 divergent, 2 incomplete, 3 unusable
    parley replay game.json --at 42    the state after record 42 (the arbiter's view)
    parley replay game.json --at 42 --seat 1    as seat 1 saw it
"""
from __future__ import annotations

import argparse
import json
import sys

from disputes.replay import replay
from disputes.verify import Unverifiable, verify

EXIT = {"valid": 0, "divergent": 1, "incomplete": 2}
UNUSABLE = 3


def _load(path: str) -> dict:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _print(value) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="parley", description="Check and replay Parley game exports offline.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="re-adjudicate an export: hash chain, seed, outcomes, commands")
    check.add_argument("export", help="an export file (GET /games/{id}/export), or - for stdin")
    show = commands.add_parser("replay", help="print the game as it stood at a version")
    show.add_argument("export", help="an export file, or - for stdin")
    show.add_argument("--at", type=int, default=None, help="the version (default: the last)")
    show.add_argument("--seat", type=int, default=None, help="that seat's view (default: everything)")
    args = parser.parse_args(argv)
    try:
        export = _load(args.export)
        if args.command == "verify":
            report = verify(export)
            _print(report.to_dict())
            return EXIT[report.verdict]
        _print(replay(export, at=args.at, seat=args.seat))
        return 0
    except (OSError, ValueError, Unverifiable) as error:
        print(f"parley {args.command}: {error}", file=sys.stderr)
        return UNUSABLE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
