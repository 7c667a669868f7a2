"""Complete random games per second in the domain alone, one core, per ruleset.

    python benchmarks/domain_games.py [--games N] [--players P]

Each game: setup with server chance, then uniformly random legal commands until it ends.
Prints games/s and commands/s; no assertions (figures, not tests).
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.chance import ServerChance  # noqa: E402
from domain.registry import all_rulesets  # noqa: E402


class Unfinished(Exception):
    """A random game still running after the command limit (random play can circle forever)."""


def play(ruleset, game_no: int, players: int, limit: int | None = None) -> int:
    """One complete random game; returns its number of commands. Raises Unfinished after
    `limit` commands."""
    rng = random.Random(game_no)
    seed = hashlib.sha256(b"bench-%d" % game_no).hexdigest()
    events = ruleset.setup([f"P{i}" for i in range(players)], None, None, ServerChance(seed, 0), None)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    version, commands = len(events), 0
    while True:
        status = ruleset.status(state)
        if status.finished:
            return commands
        if limit is not None and commands >= limit:
            raise Unfinished(f"{ruleset.id} game {game_no}: not finished after {commands} commands")
        seat = status.to_move[0]
        command = rng.choice(ruleset.legal_commands(state, seat))
        new = ruleset.decide(state, seat, command, ServerChance(seed, version))
        for e in new:
            state = ruleset.evolve(state, e)
        version += len(new)
        commands += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=3)
    args = ap.parse_args()
    for rid, ruleset in all_rulesets().items():
        start = time.perf_counter()
        commands = sum(play(ruleset, g, args.players) for g in range(args.games))
        elapsed = time.perf_counter() - start
        print(f"{rid}: {args.games} games, {args.players} players, {elapsed:.2f} s: "
              f"{args.games / elapsed:.1f} games/s, {commands / elapsed:.0f} commands/s, "
              f"{commands / args.games:.0f} commands/game")


if __name__ == "__main__":
    main()
