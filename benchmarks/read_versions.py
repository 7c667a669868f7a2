"""Reading a long game at any past version: build a Corsairs game of about 2,000 stored events
through Parley's application, then load it at random versions.

    .venv/bin/python benchmarks/read_versions.py [--events 2000] [--reads 200] [--store postgres|sqlite]

Prints the median and 99th-percentile time of one read (a load of the aggregate at that
version, snapshots every 100 events as the service runs). Figures, not tests.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _pg import fresh_schema  # noqa: E402

from domain.registry import all_rulesets  # noqa: E402
from service.application import Parley  # noqa: E402


def build(app: Parley, events: int, rng: random.Random):
    rulesets = all_rulesets()
    ruleset = rulesets["corsairs-of-valeria"]
    game = app.create_game("corsairs-of-valeria", ["Kira", "David", "Will"], "server").game
    while True:
        if game.version >= events or ruleset.status(game.state).finished:
            if game.version >= events:
                return game
            game = app.create_game("corsairs-of-valeria", ["Kira", "David", "Will"], "server").game
        seat = ruleset.status(game.state).to_move[0]
        commands = ruleset.legal_commands(game.state, seat)
        game, _ = app.execute(game.id, seat, rng.choice(commands), game=game)


def measure(env: dict, events: int, reads: int) -> tuple[int, list[float]]:
    app = Parley(all_rulesets(), env=env)
    rng = random.Random(1)
    game = build(app, events, rng)
    times = []
    for _ in range(reads):
        v = rng.randint(1, game.version)
        start = time.perf_counter()
        loaded = app.get_game(game.id, version=v)
        times.append((time.perf_counter() - start) * 1000)
        assert loaded.version == v
    app.close()
    return game.version, times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--reads", type=int, default=200)
    ap.add_argument("--store", choices=["postgres", "sqlite"], default="postgres")
    args = ap.parse_args()
    if args.store == "postgres":
        with fresh_schema("versions") as (_, env):
            version, times = measure(env, args.events, args.reads)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            version, times = measure({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                      "SQLITE_DBNAME": os.path.join(tmp, "v.sqlite")}, args.events, args.reads)
    times.sort()
    print(f"{args.store}: a game of {version} events, {args.reads} reads at random versions: "
          f"median {statistics.median(times):.2f} ms, p99 {times[int(len(times) * 0.99) - 1]:.2f} ms, "
          f"max {times[-1]:.2f} ms")


if __name__ == "__main__":
    main()
