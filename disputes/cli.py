"""`parley`: check and replay an exported game offline, with no server and no database.

    parley verify game.json            exit 0 valid, 1 divergent, 2 incomplete, 3 unusable
    parley replay game.json --at 42    the state after record 42 (the arbiter's view)
    parley replay game.json --at 42 --seat 1    as seat 1 saw it
"""
from __future__ import annotations

import argparse
import json
import sys

from disputes.export import MalformedExport
from disputes.replay import replay
from disputes.verify import Unverifiable, verify

EXIT = {"valid": 0, "divergent": 1, "incomplete": 2}
UNUSABLE = 3


# As the HTTP API (service/api/__init__.py): deeper than any export nests, far below the depth at
# which Python's own recursion (copying, comparing, printing) would fail.
MAX_JSON_DEPTH = 64


class NotJSON(ValueError):
    pass


def _refuse_constant(name: str):
    raise NotJSON(f"{name} is not a JSON number")


def _load(path: str):
    """The file as strict JSON (RFC 8259: no NaN or Infinity) nested at most MAX_JSON_DEPTH
    levels, as the HTTP API reads a body."""
    try:
        if path == "-":
            value = json.load(sys.stdin, parse_constant=_refuse_constant)
        else:
            with open(path, encoding="utf-8") as f:
                value = json.load(f, parse_constant=_refuse_constant)
    except RecursionError:
        raise NotJSON("it nests too deeply") from None
    except json.JSONDecodeError as error:
        raise NotJSON(str(error)) from None
    except NotJSON:
        raise
    except UnicodeDecodeError:
        raise NotJSON("it is not UTF-8") from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise NotJSON("a number has too many digits") from None
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise NotJSON(f"it nests deeper than {MAX_JSON_DEPTH} levels")
        children = item.values() if type(item) is dict else item if type(item) is list else ()
        stack.extend((child, depth + 1) for child in children if type(child) in (dict, list))
    return value


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
    except NotJSON as error:
        print(f"parley {args.command}: {args.export} is not JSON: {error}", file=sys.stderr)
        return UNUSABLE
    except MalformedExport as error:
        lines = "".join(f"\n  {problem}" for problem in error.problems)
        print(f"parley {args.command}: {args.export} is not a well-formed export:{lines}", file=sys.stderr)
        return UNUSABLE
    except (OSError, Unverifiable) as error:
        print(f"parley {args.command}: {error}", file=sys.stderr)
        return UNUSABLE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
