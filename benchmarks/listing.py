"""Issue 16's figures: the stored game list at 100,000 games, and inserts without the table lock.

    .venv/bin/python benchmarks/listing.py                      # about 2 minutes here
    .venv/bin/python benchmarks/listing.py --games 20000 --seconds 3   # shorter

In order, in one run, each part on its own throwaway PostgreSQL schema (dropped on exit):

1. list: GAMES games stored straight through Parley's recorder (service/store.py), BATCH
   games per insert: each game is the Created event and first setup event of one real
   Corsairs game, cloned with a fresh id and its own two players (names drawn from a pool of
   NAMES; their hash chains do not verify: only the list is read), with the game list's
   changes for it, as Parley.save writes them; one game in ten finished. Then gunicorn from
   the Procfile (2 workers) starts cold on that schema: the first GET /games?limit=50, then
   the median of REQUESTS requests each of ?limit=50, ?player=<a name in about 1 game in
   NAMES/2>, ?player=<a name in one game>, ?ruleset=...&status=finished, and a page deep in
   the list (?after=<the 90,000th game>); each worker's resident memory afterwards. Then the
   one-time backfill (the listing's tables dropped, made again from the events: what the
   first start of this code on a database from before costs).
2. insert: WRITERS processes (as workers of several nodes are), each with its own recorder
   and connection, each inserting one event at a time into its own game, for SECONDS: Parley's
   insert (no table lock, no NOTIFY); the same with the library's EXCLUSIVE table lock and
   NOTIFY put back (the code before this change); with the lock only; without the list's
   change (an insert of events only, as before the list was stored); and a raw psycopg
   autocommit INSERT of one small row into an ordinary table, WRITERS processes, each its own
   connection. Alternated ROUNDS times. (Threads of one process measured the GIL instead: about
   2,200 inserts/s with or without the lock.)

Figures, not tests: rates move with whatever else shares the machine.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import psycopg  # noqa: E402
from _pg import DSN, fresh_schema  # noqa: E402
from eventsourcing.persistence import StoredEvent  # noqa: E402
from eventsourcing.utils import Environment  # noqa: E402
from issue5 import free_port, rss_of, start_server, stop_server, workers_of  # noqa: E402

from domain.registry import all_rulesets  # noqa: E402
from service import listing, store  # noqa: E402
from service.application import Parley  # noqa: E402

CORSAIRS = all_rulesets()["corsairs-of-valeria"]
LOCK = "    LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
NOTIFY = "    NOTIFY parley_events; "
UNLISTED = "-- the insert without its change to the list\n"


def recorder(env: dict, before_insert: str = "", create: bool = True):
    """Parley's PostgreSQL recorder; `before_insert` is run first in its insert function. With
    `create`, its tables, functions and the (empty) list are made."""
    cls = type("BenchRecorder", (store.FailFastApplicationRecorder,), {"before_insert": before_insert})
    factory = type("BenchFactory", (store.FailFastPostgresFactory,), {"application_recorder_class": cls})
    made = factory(Environment("parley", {**env, "CREATE_TABLE": "y" if create else "n"})).application_recorder()
    if create:
        made.create_listing(lambda notifications: [])
    return made


def template(env: dict) -> list[StoredEvent]:
    """The Created event and first Happened event of one real Corsairs game."""
    app = Parley({CORSAIRS.id: CORSAIRS}, env=env)
    try:
        game = app.create_game(CORSAIRS.id, ["A", "B"], "server").game
        return list(app.recorder.select_events(game.id))[:2]
    finally:
        app.close()


def clone(events: list[StoredEvent], players: list[str], ended: bool) -> tuple[list[StoredEvent], dict]:
    game_id = uuid.uuid4()
    created = json.loads(events[0].state)
    created["seats"] = players
    stored = [StoredEvent(game_id, 1, events[0].topic, json.dumps(created).encode()),
              StoredEvent(game_id, 2, events[1].topic, events[1].state)]
    change = {"id": str(game_id), "version": 2, "finished": ended, "ruleset": CORSAIRS.id, "players": players,
              "names": listing.folded(players), "created_at": datetime.now(UTC).isoformat()}
    return stored, change


def fill(made, events: list[StoredEvent], games: int, names: int, batch: int) -> tuple[float, list[str]]:
    """Store `games` games through the recorder; the rate, and every game id in order."""
    ids, start = [], time.perf_counter()
    for first in range(0, games, batch):
        stored, changes = [], []
        for n in range(first, min(first + batch, games)):
            players = ["Lone Wolf"] if n == games // 2 else [f"Captain {n % names}", f"Mate {(n * 7) % names}"]
            s, c = clone(events, players, ended=n % 10 == 0)
            stored += s
            changes.append(c)
            ids.append(c["id"])
        made.insert_events(stored, listing=changes)
    return games / (time.perf_counter() - start), ids


def get(port: int, path: str) -> float:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    assert response.status == 200, (path, response.status, body[:300])
    conn.close()
    return (time.perf_counter() - start) * 1000


def list_part(args, report: list) -> None:
    with fresh_schema("list") as (schema, env):
        made = recorder(env)
        rate, ids = fill(made, template(env), args.games, args.names, args.batch)
        made.datastore.close()
        report.append((f"store {args.games:,} games through the recorder, {args.batch} a statement", f"{rate:,.0f} games/s"))
        port = free_port()
        proc = start_server(ROOT, env, port, 2)
        try:
            paths = {"?limit=50": "/games?limit=50",
                     f"?player=<a name in ~{2 * args.games // args.names} games>": "/games?player=Captain%207",
                     "?player=<a name in one game>": "/games?player=lone%20wolf",
                     "?ruleset=corsairs-of-valeria&status=finished": "/games?ruleset=corsairs-of-valeria&status=finished",
                     "?after=<the game 90% down the list>&limit=50": f"/games?after={ids[int(len(ids) * 0.9)]}&limit=50"}
            first = get(port, paths["?limit=50"])
            report.append(("cold node: its first GET /games?limit=50", f"{first:.1f} ms"))
            medians = {}
            for name, path in paths.items():
                times = [get(port, path) for _ in range(args.requests)]
                medians[name] = statistics.median(times)
                report.append((f"GET /games{name}, median of {args.requests} (new connection each)",
                               f"{medians[name]:.2f} ms (p90 {statistics.quantiles(times, n=10)[-1]:.2f} ms)"))
            for name in list(paths)[1:]:
                report.append((f"  ratio {name} / ?limit=50", f"{medians[name] / medians['?limit=50']:.2f}"))
            rss = [rss_of(pid) / 2**20 for pid in workers_of(proc.pid)]
            report.append(("worker resident memory after these requests", ", ".join(f"{r:.0f} MB" for r in rss)))
        finally:
            stop_server(proc)
        if args.backfill:
            backfill_part(env, schema, report)


def backfill_part(env: dict, schema: str, report: list) -> None:
    with psycopg.connect(DSN, autocommit=True) as conn:
        events = conn.execute(f'SELECT count(*) FROM "{schema}".parley_events').fetchone()[0]
        conn.execute(f'DROP TABLE "{schema}".{listing.PLAYERS}, "{schema}".{listing.GAMES}')
    start = time.perf_counter()
    app = Parley({CORSAIRS.id: CORSAIRS}, env=env)  # makes the list again, from the events
    seconds = time.perf_counter() - start
    app.close()
    report.append((f"one-time backfill: a process's start on a store of {events:,} events with no list", f"{seconds:.1f} s"))


def _insert_writer(env: dict, before: str, game: str, event: StoredEvent, seconds: float, ready, counts, i: int) -> None:
    """One writer process: its own recorder (one connection), one event per insert into its game."""
    if before:
        # A command skips the insert function now (service/store.py, COMMAND_INSERT); the
        # variants that change the function must go through it to measure the change.
        store.COMMAND_ROWS = 0
    made = recorder({**env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0"}, before, create=False)
    game_id, version, done = uuid.UUID(game), 2, 0
    ready.wait()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        version += 1
        made.insert_events([StoredEvent(game_id, version, event.topic, event.state)],
                           listing=[{"id": game, "version": version, "finished": False}] if before != UNLISTED else [])
        done += 1
    counts[i] = done
    made.datastore.close()


def _raw_writer(schema: str, seconds: float, ready, counts, i: int) -> None:
    with psycopg.connect(DSN, autocommit=True) as conn:
        done = 0
        ready.wait()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            conn.execute(f'INSERT INTO "{schema}".bench_rows (body) VALUES (%s)', ('{"type": "Ticked", "by": 1}',))
            done += 1
        counts[i] = done


def in_processes(target, writers: int, seconds: float, arguments) -> float:
    """Rows per second of `writers` processes running target(*arguments(i), ...) together."""
    ready, counts = multiprocessing.Barrier(writers), multiprocessing.Array("i", writers)
    processes = [multiprocessing.Process(target=target, args=(*arguments(i), seconds, ready, counts, i))
                 for i in range(writers)]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    return sum(counts) / seconds


def raw_rate(schema: str, writers: int, seconds: float) -> float:
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(f'CREATE TABLE "{schema}".bench_rows (id bigserial PRIMARY KEY, body jsonb)')
    return in_processes(_raw_writer, writers, seconds, lambda i: (schema,))


def insert_part(args, report: list) -> None:
    variants = {"Parley's recorder: no table lock, no NOTIFY": "",
                "the same with the library's table lock and NOTIFY (before this change)": LOCK + NOTIFY,
                "the same with the table lock only": LOCK,
                "no table lock, and no change to the list (what the list costs a command)": UNLISTED}
    rates: dict = {name: [] for name in variants}
    raw: list = []
    for _ in range(args.rounds):  # alternated, so that a change in the machine's load hits each alike
        for name, before in variants.items():
            rates[name].append(insert_rate(args, before))
            print(f"  {name}: {rates[name][-1]:,.0f} inserts/s", flush=True)
        with fresh_schema("raw") as (schema, _):
            raw.append(raw_rate(schema, args.writers, args.seconds))
        print(f"  raw INSERT: {raw[-1]:,.0f} inserts/s", flush=True)

    def figures(values: list) -> str:
        return ", ".join(f"{v:,.0f}" for v in values) + " inserts/s"

    for name in variants:
        report.append((f"{args.writers} writer processes, one event per insert, own games: {name}", figures(rates[name])))
    report.append((f"raw psycopg autocommit INSERT, {args.writers} writer processes", figures(raw)))
    plain, locked, lock_only, unlisted = (statistics.median(rates[name]) for name in variants)
    report.append(("  ratio of medians: no lock / lock and NOTIFY", f"{plain / locked:.2f}"))
    report.append(("  ratio of medians: no lock / lock only", f"{plain / lock_only:.2f}"))
    report.append(("  ratio of medians: with the list's change / without", f"{plain / unlisted:.2f}"))
    report.append(("  ratio of medians: Parley's recorder / raw INSERT", f"{plain / statistics.median(raw):.2f}"))


def insert_rate(args, before: str) -> float:
    with fresh_schema("insert") as (_, env):
        made = recorder({**env, "POSTGRES_POOL_SIZE": str(args.writers)}, before)
        events = template(env)
        games = []
        for _ in range(args.writers):
            stored, change = clone(events, ["A", "B"], ended=False)
            made.insert_events(stored, listing=[change])
            games.append(change["id"])
        made.datastore.close()
        return in_processes(_insert_writer, args.writers, args.seconds, lambda i: (env, before, games[i], events[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--names", type=int, default=1000, help="the pool of player names")
    parser.add_argument("--batch", type=int, default=500, help="games per insert while filling")
    parser.add_argument("--requests", type=int, default=50, help="requests per listing figure")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5, help="per insert variant")
    parser.add_argument("--rounds", type=int, default=2, help="of the insert variants, alternated")
    parser.add_argument("--no-backfill", dest="backfill", action="store_false")
    parser.add_argument("--only", choices=["list", "insert"])
    args = parser.parse_args()
    report: list = []
    with open("/proc/loadavg") as f:
        print(f"load average at the start: {f.read().split()[:3]}", flush=True)
    started = time.perf_counter()
    for name, part in (("list", list_part), ("insert", insert_part)):
        if args.only in (None, name):
            shown = len(report)
            part(args, report)
            for line in report[shown:]:
                print(f"{line[0]}: {line[1]}", flush=True)
            print(flush=True)
    with open("/proc/loadavg") as f:
        print(f"load average at the end: {f.read().split()[:3]}; {time.perf_counter() - started:.0f} s")
    print("\n| figure | measured |\n| --- | --- |")
    for name, value in report:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
