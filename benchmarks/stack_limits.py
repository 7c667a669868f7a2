"""The limits of Parley's stack: the bare eventsourcing save rate (one event per save) on each
store, the same through Parley's PostgreSQL recorder (service/store.py: the insert in one
round trip), and a raw psycopg autocommit INSERT loop on the same PostgreSQL.

    .venv/bin/python benchmarks/stack_limits.py [--seconds S]

Prints saves (or inserts) per second. Figures, not tests.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402
from _pg import DSN, fresh_schema  # noqa: E402
from eventsourcing.application import Application  # noqa: E402
from eventsourcing.domain import Aggregate, event  # noqa: E402


class Counter(Aggregate):
    def __init__(self):
        self.n = 0

    @event("Ticked")
    def tick(self, by: int):
        self.n += by


class Bare(Application):
    name = "bare"


PARLEY_RECORDER = "service.store:FailFastPostgresFactory"


def save_rate(env: dict, seconds: float) -> float:
    """Saves per second of one aggregate, one event each, by one thread."""
    app = Bare(env=env)
    agg = Counter()
    app.save(agg)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        agg.tick(by=1)
        app.save(agg)
        n += 1
    elapsed = time.perf_counter() - start
    app.close()
    return n / elapsed


def insert_rate(seconds: float, schema: str) -> float:
    """Autocommit INSERTs of one small jsonb row into an ordinary table of `schema`: each commit
    waits for its WAL flush, as an eventsourcing save's does. (A TEMP table, as this first
    used, writes no WAL, so its commits never wait for the disk: about 70x faster here.)"""
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(f'CREATE TABLE "{schema}".bench_rows (id bigserial PRIMARY KEY, body jsonb)')
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            conn.execute(f'INSERT INTO "{schema}".bench_rows (body) VALUES (%s)', ('{"type": "Ticked", "by": 1}',))
            n += 1
        return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    rates = {"popo": save_rate({"PERSISTENCE_MODULE": "eventsourcing.popo"}, args.seconds)}
    with tempfile.TemporaryDirectory() as tmp:
        rates["sqlite"] = save_rate({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                     "SQLITE_DBNAME": os.path.join(tmp, "bench.sqlite")}, args.seconds)
    with fresh_schema("limits") as (schema, env):
        rates["postgres"] = save_rate(env, args.seconds)
        rates["postgres, Parley's recorder"] = save_rate({**env, "PERSISTENCE_MODULE": PARLEY_RECORDER},
                                                         args.seconds)
        raw = insert_rate(args.seconds, schema)
    for store, rate in rates.items():
        print(f"eventsourcing save, one event per save, {store}: {rate:,.0f} saves/s")
    print(f"raw psycopg autocommit INSERT, postgres: {raw:,.0f} inserts/s")
    print(f"ratio eventsourcing postgres / raw INSERT: {rates['postgres'] / raw:.2f}")


if __name__ == "__main__":
    main()
