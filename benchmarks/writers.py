"""Issue 16, items 4 and 5: what one Parley insert costs against a raw INSERT, where the
time goes, and what PostgreSQL spends per command over HTTP.

    .venv/bin/python benchmarks/writers.py                 # about 3 minutes here
    .venv/bin/python benchmarks/writers.py --seconds 3 --rounds 1 --parts cost,writers   # shorter

Everything runs in a scratch database of its own (created, then dropped), so that
pg_stat_database counts this run only. Each insert is one typical command's: one event of
EVENT_BYTES (the median of a Corsairs game's command events, 355 bytes; benchmarks/listing.py
used the 5.7 KB first setup event) into one game, with the game list's change.

1. cost: one connection, INSERTS inserts a variant, synchronous_commit off (so the disk's
   flush is left out): wall time, the client's CPU and the server backend's CPU (from /proc)
   per insert.
2. writers: WRITERS processes, each its own connection and its own game, for SECONDS a
   variant, synchronous_commit on (as deployed), variants alternated ROUNDS times. Meanwhile
   pg_stat_activity is sampled every 20 ms: what the backends of this database wait for
   (nothing: running; Client/ClientRead: waiting for the client; IO/WALSync and
   LWLock/WALWrite: the commit's flush; Lock/...: a lock held by another transaction).
3. http: gunicorn from the Procfile (2 workers) on the same database, CLIENTS closed-loop
   clients each playing its own Corsairs game: accepted commands/s, and PostgreSQL's
   statement time (pg_stat_database.active_time), transactions and waits per accepted command.

The variants:
- parley: Parley's recorder (service/store.py), a command as it is stored now (one statement);
- parley via the function: the same recorder, through the insert function (how commands were
  stored before: events as an array of a composite type, the list's change as JSON);
- raw same row + list: the same event row into a table like parley_events (same columns,
  primary key and notification id) and the same UPDATE of a game's list row, one statement,
  autocommit: like for like;
- raw same row: that row alone, one INSERT a transaction;
- raw small row: a 30-byte jsonb row into a table with one index (benchmarks/listing.py's).

Figures, not tests: rates move with whatever else shares the machine.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import multiprocessing
import os
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import psycopg  # noqa: E402
from _pg import DSN  # noqa: E402
from eventsourcing.persistence import StoredEvent  # noqa: E402
from eventsourcing.utils import Environment  # noqa: E402

from service import store  # noqa: E402

EVENT_BYTES = 355
TOPIC = "service.application:Game.Happened"
STATE = (b'{"event": {"type": "Moved", "to": "' + b"x" * EVENT_BYTES)[:EVENT_BYTES - 2] + b'"}'
TICK = os.sysconf("SC_CLK_TCK")
LIKE = ('CREATE TABLE {s}.like_events (originator_id uuid NOT NULL, originator_version bigint NOT NULL, '
        'topic text NOT NULL, state bytea, notification_id bigserial UNIQUE, PRIMARY KEY (originator_id, originator_version))',
        'CREATE TABLE {s}.small_rows (id bigserial PRIMARY KEY, body jsonb)')
RAW_LISTED = ('WITH inserted AS (INSERT INTO {s}.like_events (originator_id, originator_version, topic, state) '
              'VALUES (%s, %s, %s, %s) RETURNING notification_id), '
              'listed AS (UPDATE {s}.parley_games SET version = GREATEST(version, %s), finished = finished OR %s WHERE id = %s) '
              'SELECT notification_id FROM inserted')
RAW_ROW = 'INSERT INTO {s}.like_events (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)'
RAW_SMALL = 'INSERT INTO {s}.small_rows (body) VALUES (%s)'
VARIANTS = ("parley", "parley via the function", "raw same row + list", "raw same row", "raw small row")


@contextlib.contextmanager
def scratch_database():
    name = f"bench_writers_{os.getpid()}"
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": name, "POSTGRES_HOST": "127.0.0.1",
           "POSTGRES_PORT": "5432", "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": "", "POSTGRES_SCHEMA": "public",
           "POSTGRES_LOCK_TIMEOUT": "5"}
    try:
        yield name, env
    finally:
        with psycopg.connect(DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def dsn_of(env: dict) -> str:
    return f"host=127.0.0.1 port=5432 dbname={env['POSTGRES_DBNAME']} user=postgres"


def recorder(env: dict, create: bool = False):
    made = store.FailFastPostgresFactory(Environment("parley", {
        **env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0", "CREATE_TABLE": "y" if create else "n",
    })).application_recorder()
    if create:
        made.create_listing(lambda notifications: [])
    return made


def new_games(env: dict, count: int) -> list[uuid.UUID]:
    """Games in the list (a Created event each and its list row) through Parley's recorder."""
    made, ids = recorder(env, create=True), []
    for _ in range(count):
        game = uuid.uuid4()
        made.insert_events([StoredEvent(game, 1, "service.application:Game.Created", b"{}")], listing=[{
            "id": str(game), "version": 1, "finished": False, "ruleset": "corsairs-of-valeria",
            "players": ["A", "B"], "names": ["a", "b"], "created_at": "2026-12-01T00:00:00+00:00"}])
        ids.append(game)
    made.datastore.close()
    with psycopg.connect(dsn_of(env), autocommit=True) as conn:
        for statement in LIKE:
            conn.execute(statement.format(s="public"))
    return ids


class Writer:
    """One connection inserting one variant's rows into its own game, one insert at a time."""

    def __init__(self, env: dict, variant: str, game: uuid.UUID, start_version: int):
        self.variant, self.game, self.version = variant, game, start_version
        self.change = {"id": str(game), "finished": False}
        if variant.startswith("parley"):
            if variant == "parley via the function":
                store.COMMAND_ROWS = 0  # this process only: every insert goes through the function
            self.recorder = recorder(env)
            with self.recorder.datastore.get_connection() as conn:
                self.pid = conn.info.backend_pid
        else:
            self.conn = psycopg.connect(dsn_of(env), autocommit=True)
            self.pid = self.conn.info.backend_pid
            self.statement = {"raw same row + list": RAW_LISTED, "raw same row": RAW_ROW,
                              "raw small row": RAW_SMALL}[variant].format(s="public")

    def set(self, setting: str) -> None:
        if self.variant.startswith("parley"):
            with self.recorder.datastore.get_connection() as conn:
                conn.execute(setting)
        else:
            self.conn.execute(setting)

    def insert(self) -> None:
        self.version += 1
        v = self.version
        if self.variant.startswith("parley"):
            self.recorder.insert_events([StoredEvent(self.game, v, TOPIC, STATE)], listing=[{**self.change, "version": v}])
        elif self.variant == "raw same row + list":
            self.conn.execute(self.statement, (self.game, v, TOPIC, STATE, v, False, self.game), prepare=True).fetchall()
        elif self.variant == "raw same row":
            self.conn.execute(self.statement, (self.game, v, TOPIC, STATE), prepare=True)
        else:
            self.conn.execute(self.statement, ('{"type": "Ticked", "by": 1}',), prepare=True)

    def close(self) -> None:
        if self.variant.startswith("parley"):
            self.recorder.datastore.close()
        else:
            self.conn.close()


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def cost_part(args, env: dict, games: list[uuid.UUID], report: list) -> None:
    """Per insert, one connection, synchronous_commit off: wall, client CPU, server CPU."""
    for n, variant in enumerate(VARIANTS):
        writer = Writer(env, variant, games[n], 10_000_000 * (n + 1))
        writer.set("SET synchronous_commit = off")
        for _ in range(200):
            writer.insert()
        cpu, server, start = time.process_time(), backend_cpu(writer.pid), time.perf_counter()
        for _ in range(args.inserts):
            writer.insert()
        wall = (time.perf_counter() - start) / args.inserts * 1e6
        client = (time.process_time() - cpu) / args.inserts * 1e6
        backend = (backend_cpu(writer.pid) - server) / args.inserts * 1e6
        writer.close()
        store.COMMAND_ROWS = 8
        report.append((f"one connection, sync commit off: {variant}",
                       f"{wall:.0f} µs wall, {client:.0f} µs client CPU, {backend:.0f} µs server CPU"))
        print(f"  {report[-1][0]}: {report[-1][1]}", flush=True)


def _writer(env: dict, variant: str, game: str, first: int, seconds: float, ready, counts, i: int) -> None:
    writer = Writer(env, variant, uuid.UUID(game), first)
    done = 0
    ready.wait()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        writer.insert()
        done += 1
    counts[i] = done
    writer.close()


class Sampler(threading.Thread):
    """What this database's backends are doing, every 20 ms; and machine CPU over the run."""

    def __init__(self, env: dict):
        super().__init__(daemon=True)
        self.env, self.stop, self.seen = env, threading.Event(), collections.Counter()

    def run(self) -> None:
        with psycopg.connect(dsn_of(self.env), autocommit=True) as conn:
            while not self.stop.wait(0.02):
                for kind, event, state in conn.execute(
                        "SELECT wait_event_type, wait_event, state FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'"):
                    if state == "idle" and event == "ClientRead":
                        self.seen["idle: waiting for the client"] += 1
                    else:
                        self.seen[f"{kind}/{event}" if kind else "running (on CPU or runnable)"] += 1

    def shares(self) -> str:
        total = sum(self.seen.values()) or 1
        locks = sum(n for name, n in self.seen.items() if name.startswith("Lock/"))
        top = ", ".join(f"{name} {n / total:.0%}" for name, n in self.seen.most_common(5))
        return f"{top}; heavyweight lock waits (Lock/*) {locks} of {total} samples"



def database_counters(env: dict) -> tuple[float, int]:
    with psycopg.connect(dsn_of(env), autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        active, commits = conn.execute("SELECT active_time, xact_commit FROM pg_stat_database "
                                       "WHERE datname = current_database()").fetchone()
    return active, commits


def machine_busy() -> tuple[int, int]:
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[3] + fields[4], sum(fields)


def writers_run(args, env: dict, variant: str, games: list[uuid.UUID], base: int) -> dict:
    ready, counts = multiprocessing.Barrier(args.writers), multiprocessing.Array("i", args.writers)
    processes = [multiprocessing.Process(target=_writer, args=(env, variant, str(games[i]), base, args.seconds, ready, counts, i))
                 for i in range(args.writers)]
    sampler = Sampler(env)
    active, commits = database_counters(env)
    idle, total = machine_busy()
    for process in processes:
        process.start()
    sampler.start()
    for process in processes:
        process.join()
    sampler.stop.set()
    sampler.join()
    active2, commits2 = database_counters(env)
    idle2, total2 = machine_busy()
    inserts = sum(counts)
    return {"rate": inserts / args.seconds, "ms_per_insert": (active2 - active) / max(inserts, 1),
            "commits": (commits2 - commits) / max(inserts, 1), "busy": 1 - (idle2 - idle) / max(total2 - total, 1),
            "waits": sampler.shares()}


def writers_part(args, env: dict, games: list[uuid.UUID], report: list) -> None:
    runs: dict = {variant: [] for variant in VARIANTS}
    for r in range(args.rounds):
        for n, variant in enumerate(VARIANTS):
            run = writers_run(args, env, variant, games[n * args.writers:(n + 1) * args.writers],
                              100_000_000 * (r + 1) + 1_000_000 * n)
            runs[variant].append(run)
            print(f"  {variant}: {run['rate']:,.0f} inserts/s, {run['ms_per_insert'] * 1000:.0f} µs statement time "
                  f"per insert, machine CPU {run['busy']:.0%}; waits: {run['waits']}", flush=True)
    median = {variant: statistics.median(run["rate"] for run in runs[variant]) for variant in VARIANTS}
    for variant in VARIANTS:
        last = runs[variant][-1]
        report.append((f"{args.writers} writer processes, sync commit on: {variant}",
                       ", ".join(f"{run['rate']:,.0f}" for run in runs[variant]) + " inserts/s; statement time "
                       + ", ".join(f"{run['ms_per_insert'] * 1000:.0f}" for run in runs[variant])
                       + f" µs/insert; machine CPU {last['busy']:.0%}; waits (last round): {last['waits']}"))
    for variant in VARIANTS[1:]:
        report.append((f"  ratio of medians: parley / {variant}", f"{median['parley'] / median[variant]:.2f}"))


def http_part(args, env: dict, report: list) -> None:
    from issue5 import CpuMeter, Player, app_name, free_port, saturate, start_server, stop_server

    port = free_port()
    proc = start_server(ROOT, {**env, "PARLEY_RATE_LIMITS": "off", "POSTGRES_POOL_SIZE": "4"}, port, 2)
    try:
        players = [Player(port, seed) for seed in range(args.clients)]
        for player in players:
            player.new_game()
        sampler, meter = Sampler(env), CpuMeter(proc.pid, app_name())
        active, commits = database_counters(env)
        idle, total = machine_busy()
        sampler.start()
        meter.start()
        rate, phase = saturate(players, args.seconds * 2)
        workers_cpu, backends_cpu = meter.stop()
        sampler.stop.set()
        sampler.join()
        active2, commits2 = database_counters(env)
        idle2, total2 = machine_busy()
    finally:
        stop_server(proc)
    accepted = len(phase.latencies) - phase.errors
    # The counters span the warm-up and wind-down too: divide by every command sent.
    sent = max(phase.sent, 1)
    report.append((f"HTTP, {args.clients} clients, gunicorn 2 workers: accepted commands/s",
                   f"{rate:,.0f} ({accepted} accepted, {phase.errors} refused)"))
    report.append(("  PostgreSQL statement time per command sent (pg_stat_database.active_time)",
                   f"{(active2 - active) / sent * 1000:.0f} µs"))
    report.append(("  CPU per command sent: gunicorn workers / their PostgreSQL backends",
                   f"{workers_cpu / sent * 1000:.2f} / {backends_cpu / sent * 1000:.2f} ms"))
    report.append(("  transactions committed per command sent", f"{(commits2 - commits) / sent:.2f}"))
    report.append(("  machine CPU busy", f"{1 - (idle2 - idle) / max(total2 - total, 1):.0%}"))
    report.append(("  what the backends were doing (pg_stat_activity every 20 ms)", sampler.shares()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5, help="per writers variant (HTTP: twice this)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--inserts", type=int, default=3000, help="per variant, in the cost part")
    parser.add_argument("--clients", type=int, default=8, help="HTTP clients")
    parser.add_argument("--parts", default="cost,writers,http", help="comma-separated: cost, writers, http")
    args = parser.parse_args()
    report: list = []
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    started = time.perf_counter()
    with scratch_database() as (_, env):
        games = new_games(env, args.writers * len(VARIANTS))
        for name, part in (("cost", cost_part), ("writers", writers_part)):
            if name in args.parts:
                print(name, flush=True)
                part(args, env, games, report)
        if "http" in args.parts:
            print("http", flush=True)
            http_part(args, env, report)
    print(f"load average at the end: {os.getloadavg()}; {time.perf_counter() - started:.0f} s")
    print("\n| figure | measured |\n| --- | --- |")
    for name, value in report:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
