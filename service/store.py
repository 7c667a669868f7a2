"""eventsourcing's PostgreSQL persistence, failing fast when the database is away.

eventsourcing's PostgreSQL recorders retry every read and write up to ten times on a
connection error, and each attempt waits for the connection pool (POSTGRES_CONNECT_TIMEOUT)
to give up: with the database stopped, requests hung for 12 s and more. Parley's recorders
retry after a broken connection (stale pooled connections once the database is back; each
fails at once), never after the pool timed out, and a breaker answers at once for a second
after a timeout,
so that clients get a 503 with Retry-After within a few seconds (service/errors.py).

Parley uses this factory whenever PERSISTENCE_MODULE says eventsourcing.postgres
(service/application.py).

One more change: a command's events are inserted in one round trip. The library's default
insert is a transaction of several (BEGIN; lock timeout, table lock, NOTIFY and INSERT
pipelined; COMMIT), and its optional database function skips the table lock that keeps
notification ids in commit order. `parley_insert_events_<id type>` does all of the default's
statements, lock included, inside one function called in one autocommitted statement: the
same rows, the same lock, the same NOTIFY, the same unique-key violation when another command
took the version first (docs/performance.md has what it saves).
"""
from __future__ import annotations

import hashlib
import threading
import time
from functools import wraps
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresFactory
from psycopg.sql import SQL, Identifier
from psycopg_pool import PoolTimeout

ATTEMPTS = 10         # a broken connection fails at once: the next pooled one is tried
WAIT = 0.05           # before each retry of a call that met a broken connection
BREAKER_SECONDS = 1.0  # after the pool gave up waiting, calls fail at once for this long
TOPIC = "service.store:FailFastPostgresFactory"


class Breaker:
    """Once the pool has waited its full timeout for a connection, the database is away:
    for BREAKER_SECONDS every call fails at once instead of waiting again. The first call
    after that tries the database again (and reopens it if the database is still away)."""

    def __init__(self):
        self.open_until = 0.0
        self.lock = threading.Lock()

    def check(self) -> None:
        if time.monotonic() < self.open_until:
            raise OperationalError("the event store did not answer moments ago")

    def trip(self) -> None:
        with self.lock:
            self.open_until = time.monotonic() + BREAKER_SECONDS


BREAKER = Breaker()


def _pool_gave_up(error: Exception) -> bool:
    return isinstance(error.__cause__, PoolTimeout)


def _connection_broke(error: Exception) -> bool:
    """A connection that failed (no SQLSTATE: the client lost it; class 08: connection
    exception; 57P: the server shut down), not a statement the server refused (a lock or
    statement timeout would take as long again if retried)."""
    sqlstate = getattr(error.__cause__, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith(("08", "57P"))


def _fail_fast(method):
    """The method (the library's, without its own retries), retried after a broken connection
    (each pooled connection that went stale while the database was away fails at once when
    used), never after the pool timed out waiting for a connection (the database is away:
    answer now)."""
    inner = getattr(method, "__wrapped__", method)

    @wraps(inner)
    def call(*args, **kwargs):
        BREAKER.check()
        for attempt in range(ATTEMPTS):
            try:
                return inner(*args, **kwargs)
            except (InterfaceError, OperationalError) as error:
                if _pool_gave_up(error):
                    BREAKER.trip()
                    raise
                if attempt == ATTEMPTS - 1 or not _connection_broke(error):
                    raise
            time.sleep(WAIT)

    return call


class OneAtATimeCreation:
    """Tables, types and functions created by one process at a time, per schema.

    Every gunicorn worker creates them at boot (IF NOT EXISTS, CREATE OR REPLACE); workers
    booting together on a fresh database collide in PostgreSQL's catalogue (a duplicate type
    name, "tuple concurrently updated"), 15 of 16 in a test here. A session advisory lock,
    held while one recorder creates its objects, makes the others wait and then find them."""

    datastore: Any  # the recorder's, which this class is mixed into

    def create_table(self) -> None:
        if self.datastore.pool.max_size < 2:
            # The lock's connection and the creating one are two: a pool of one would wait
            # for itself. Create without the lock (the boot retries in application.py).
            super().create_table()  # type: ignore[misc]  # the recorder's, after this mixin
            return
        name = f"parley-create:{self.datastore.schema}"
        key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)
        with self.datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                super().create_table()  # type: ignore[misc]
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


class FailFastAggregateRecorder(OneAtATimeCreation, PostgresAggregateRecorder):
    insert_events = _fail_fast(PostgresAggregateRecorder.insert_events)
    select_events = _fail_fast(PostgresAggregateRecorder.select_events)


INSERT_FUNCTION = (
    "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
    "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
    "BEGIN "
    "    SET LOCAL lock_timeout = '{lock_timeout}s'; "
    "    LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
    "    NOTIFY {channel}; "
    "    RETURN QUERY "
    "    INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
    "    SELECT originator_id, originator_version, topic, state FROM unnest(events) "
    "    RETURNING notification_id; "
    "END; $BODY$")


def _insert_in_one_round_trip(self, stored_events, **kwargs):
    """The events in one statement (the function holds the library's transaction)."""
    if not stored_events:
        return None
    rows = [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for e in stored_events]
    with self.datastore.get_connection() as conn, conn.cursor() as curs:
        curs.execute(self.insert_in_one_statement, (rows,), prepare=True)
        return [row[self.insert_function_name] for row in curs.fetchall()]


class FailFastApplicationRecorder(OneAtATimeCreation, PostgresApplicationRecorder):
    def __init__(self, datastore, **kwargs):
        super().__init__(datastore, **kwargs)
        self.insert_function_name = f"parley_insert_events_{datastore.originator_id_type}"
        schema = Identifier(datastore.schema)
        self.sql_create_statements.append(SQL(INSERT_FUNCTION).format(
            schema=schema, function=Identifier(self.insert_function_name),
            event=Identifier(self.stored_event_type_name),
            table=Identifier(self.events_table_name), channel=Identifier(self.channel_name),
            lock_timeout=datastore.lock_timeout))
        # Rendered once: psycopg would compose a composed query again on every call.
        self.insert_in_one_statement = SQL("SELECT * FROM {schema}.{function}((%s))").format(
            schema=schema, function=Identifier(self.insert_function_name)).as_string(None)

    insert_events = _fail_fast(_insert_in_one_round_trip)
    select_events = _fail_fast(PostgresApplicationRecorder.select_events)
    select_notifications = _fail_fast(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _fail_fast(PostgresApplicationRecorder.max_notification_id)


class FailFastPostgresFactory(PostgresFactory):
    aggregate_recorder_class = FailFastAggregateRecorder
    application_recorder_class = FailFastApplicationRecorder
