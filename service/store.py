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

Two more changes. A save's events are inserted in one round trip, with the game list's
changes (service/listing.py) in the same autocommitted transaction: a command's (its events,
all of one game, and that game's version in the list) as one prepared statement
(COMMAND_INSERT), a game's creation through `parley_insert_and_list_<id type>`, which inserts
the events and calls `parley_list_games_<id type>` under the creations' lock. The function
took about twice the CPU, client and server, of the statement for a command: passing events as
an array of a composite type (dumped by psycopg in Python, parsed by the server) and the
list's changes as JSON walked by PL/pgSQL (docs/performance.md, "Writers and the database's
cost per command"). Without the function a command sets no lock timeout of its own:
POSTGRES_LOCK_TIMEOUT is every pooled connection's lock_timeout (a startup option), and the
two waits that may rightly last longer (for another process's table creation or list
backfill) lift it for themselves.

And no insert takes a table lock: the library's insert locks the events table (EXCLUSIVE) so
that notification ids are issued in commit order, for readers that follow the notification
log; Parley has none (the game list is stored, not followed), so inserts into different games
run side by side, on every node. Two commands at one game's version still meet at the events'
primary key: the second fails (IntegrityError), as before. The library's NOTIFY is dropped
too: nothing listens, and PostgreSQL serializes the commits of transactions that notified.
docs/performance.md has what each costs.
"""
from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from functools import wraps
from typing import Any

from eventsourcing.persistence import InterfaceError, Notification, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresFactory
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier, Literal
from psycopg.types.json import Jsonb
from psycopg_pool import PoolTimeout

from service.listing import BATCH, GAMES, LISTING, PLAYERS, BackfillFunction, Filters, Listed, ListingSQL

COMMAND_ROWS = 8      # a command's events inserted by one prepared statement (more: the function)
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


def _key(name: str) -> int:
    """A bigint advisory lock key for a name."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


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
        key = _key(f"parley-create:{self.datastore.schema}")
        with self.datastore.get_connection() as conn:
            conn.execute("SET lock_timeout = 0")  # another process may create for a while
            try:
                conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            finally:
                conn.execute("RESET lock_timeout")  # the connection's own (POSTGRES_LOCK_TIMEOUT)
            try:
                super().create_table()  # type: ignore[misc]
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


class FailFastAggregateRecorder(OneAtATimeCreation, PostgresAggregateRecorder):
    insert_events = _fail_fast(PostgresAggregateRecorder.insert_events)
    select_events = _fail_fast(PostgresAggregateRecorder.select_events)


# The listing (service/listing.py): one row per game, one per (casefolded player name, game).
# `seq` is the creation order the list is paged in. Created with the backfill, in one
# transaction (FailFastApplicationRecorder.create_listing): the table's existence says the
# stored games are in it.
LISTING_TABLES = (
    "CREATE TABLE {schema}.{games} ("
    "    seq bigserial PRIMARY KEY, id {id_type} NOT NULL UNIQUE, ruleset text NOT NULL, "
    "    players text[] NOT NULL, created_at text NOT NULL, version bigint NOT NULL, "
    "    finished boolean NOT NULL, public boolean NOT NULL DEFAULT false)",
    "CREATE INDEX {games_by_ruleset} ON {schema}.{games} (ruleset, seq)",
    "CREATE INDEX {games_by_status} ON {schema}.{games} (finished, seq)",
    "CREATE INDEX {games_by_public} ON {schema}.{games} (public, seq)",
    "CREATE TABLE {schema}.{players} (name text NOT NULL, seq bigint NOT NULL, PRIMARY KEY (name, seq))",
)
# A list stored before it had `public` (2026-12-03): the column and its index, in the listing's
# transaction; the public games are then set from the stored creations (create_listing).
ADD_PUBLIC = (
    "ALTER TABLE {schema}.{games} ADD COLUMN public boolean NOT NULL DEFAULT false",
    "CREATE INDEX {games_by_public} ON {schema}.{games} (public, seq)",
)

# Applies a list of changes (service/listing.py, as JSON) to the listing. A game's row is
# inserted under a lock that only creations take, held to the end of the transaction: rows
# get their `seq` in commit order, so a client paging with a cursor never misses a game.
# Created (or replaced) by create_listing once the table has every column the function writes.
LIST_FUNCTION = (
    "CREATE OR REPLACE FUNCTION {schema}.{function}(listing jsonb) "
    "RETURNS void LANGUAGE plpgsql AS $BODY$ "
    "DECLARE change jsonb; created bigint; "
    "BEGIN "
    "    FOR change IN SELECT value FROM jsonb_array_elements(listing) LOOP "
    "        IF change ? 'ruleset' THEN "
    "            PERFORM pg_advisory_xact_lock({creation_lock}); "
    "            INSERT INTO {schema}.{games} (id, ruleset, players, created_at, version, finished, public) "
    "            VALUES ((change->>'id')::{id_type}, change->>'ruleset', "
    "                    ARRAY(SELECT jsonb_array_elements_text(change->'players')), "
    "                    change->>'created_at', (change->>'version')::bigint, (change->>'finished')::boolean, "
    "                    COALESCE((change->>'public')::boolean, false)) "
    "            RETURNING seq INTO created; "
    "            INSERT INTO {schema}.{players} (name, seq) "
    "            SELECT DISTINCT name, created FROM jsonb_array_elements_text(change->'names') AS name; "
    "        ELSE "
    "            UPDATE {schema}.{games} SET version = GREATEST(version, (change->>'version')::bigint), "
    "                finished = finished OR (change->>'finished')::boolean "
    "            WHERE id = (change->>'id')::{id_type}; "
    "        END IF; "
    "    END LOOP; "
    "END; $BODY$")

# A command's events and their listing changes, in one statement (one transaction). No table
# lock: inserts into different games run side by side; two commands at one game's version
# still meet at the events' primary key, and the second fails. No NOTIFY: nothing in Parley
# listens, and PostgreSQL serializes the commits of transactions that notified (each takes,
# at commit, one lock shared by all of them).
INSERT_FUNCTION = (
    "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[], listing jsonb) "
    "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
    "BEGIN "
    "    SET LOCAL lock_timeout = '{lock_timeout}s'; "
    "{before_insert}"
    "    RETURN QUERY "
    "    INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
    "    SELECT originator_id, originator_version, topic, state FROM unnest(events) "
    "    RETURNING notification_id; "
    "    PERFORM {schema}.{list_function}(listing); "
    "END; $BODY$")


# A command's events (all of one game) and that game's new version in the list: one statement,
# one autocommitted transaction. Both data-modifying parts always run to completion, whether
# or not the SELECT reads them; if the INSERT fails (a version already stored), neither is kept.
COMMAND_INSERT = (
    "WITH inserted AS ("
    "    INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
    "    VALUES {rows} RETURNING notification_id), "
    "listed AS ("
    "    UPDATE {schema}.{games} SET version = GREATEST(version, %s::bigint), finished = finished OR %s::boolean "
    "    WHERE id = %s::{id_type}) "
    "SELECT notification_id FROM inserted")
COMMAND_ROW = "(%s::{id_type}, %s::bigint, %s::text, %s::bytea)"


def _command_params(stored_events, changes) -> tuple | None:
    """The parameters of COMMAND_INSERT for these events and list changes, or None when they
    are not one command's: every event of one game, at most COMMAND_ROWS of them, and one list
    change, for that game, that does not create it (a creation goes through the function, which
    takes the creations' lock)."""
    if not 0 < len(stored_events) <= COMMAND_ROWS or len(changes) != 1 or "ruleset" in changes[0]:
        return None
    game_id = stored_events[0].originator_id
    if str(game_id) != changes[0]["id"] or any(e.originator_id != game_id for e in stored_events):
        return None
    params: list = []
    for e in stored_events:
        params += (e.originator_id, e.originator_version, e.topic, e.state)
    return (*params, changes[0]["version"], changes[0]["finished"], game_id)


def _insert_in_one_round_trip(self, stored_events, **kwargs):
    """The events and their listing changes in one statement: a command's as COMMAND_INSERT,
    anything else (a creation) through the function (its transaction)."""
    if not stored_events:
        return None
    changes = kwargs.get(LISTING) or []
    params = _command_params(stored_events, changes)
    if params is not None:
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(self.command_inserts[len(stored_events) - 1], params, prepare=True)
            return [row[0] for row in curs.fetchall()]
    rows = [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for e in stored_events]
    listing = Jsonb(changes)
    with self.datastore.get_connection() as conn, conn.cursor() as curs:
        curs.execute(self.insert_in_one_statement, (rows, listing), prepare=True)
        return [row[self.insert_function_name] for row in curs.fetchall()]


def _select_games(self, filters: Filters) -> list[Listed]:
    sql, params = self.listing_sql.select(filters)
    with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
        curs.execute(sql, params, prepare=True)
        return [Listed(str(i), r, list(p), c, v, f, pub) for i, r, p, c, v, f, pub in curs.fetchall()]


def _select_versions(self, game_ids: list[str]) -> dict[str, int]:
    """The stored version of each of these games that exists (service/live.py): one indexed
    query, whatever the number of ids."""
    with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
        curs.execute(self.select_versions_sql, (list(game_ids),), prepare=True)
        return {str(i): v for i, v in curs.fetchall()}


# The most events one read of the moved games returns (service/live.py): after a long pause a
# game's later events are read by its waiters themselves, a page at a time.
EVENTS_AFTER_LIMIT = 5000


def _select_events_after(self, after: dict[str, int]) -> list[StoredEvent]:
    """The stored events of these games after the version given for each (service/live.py), in
    one query, in order by game and version: at most EVENTS_AFTER_LIMIT of them."""
    with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
        curs.execute(self.select_events_after_sql, (list(after), list(after.values())), prepare=True)
        return [StoredEvent(originator_id=r[0], originator_version=r[1], topic=r[2], state=bytes(r[3]))
                for r in curs.fetchall()]


class FailFastApplicationRecorder(OneAtATimeCreation, PostgresApplicationRecorder):
    """The application's events, and the game list written with them (service/listing.py)."""

    # What the insert function runs before the insert: nothing. benchmarks/listing.py puts
    # the library's table lock back here to measure what it cost.
    before_insert = ""

    def __init__(self, datastore, **kwargs):
        super().__init__(datastore, **kwargs)
        id_type = datastore.originator_id_type
        self.insert_function_name = f"parley_insert_and_list_{id_type}"
        schema = Identifier(datastore.schema)
        names = {"schema": schema, "games": Identifier(GAMES), "players": Identifier(PLAYERS),
                 "id_type": SQL(id_type), "games_by_ruleset": Identifier(f"{GAMES}_by_ruleset"),
                 "games_by_status": Identifier(f"{GAMES}_by_status"),
                 "games_by_public": Identifier(f"{GAMES}_by_public")}
        self.listing_tables = [SQL(s).format(**names) for s in LISTING_TABLES]
        self.add_public = [SQL(s).format(**names) for s in ADD_PUBLIC]
        self.list_function = SQL("{schema}.{function}").format(
            schema=schema, function=Identifier(f"parley_list_games_{id_type}"))
        self.create_list_function = SQL(LIST_FUNCTION).format(
            function=Identifier(f"parley_list_games_{id_type}"),
            creation_lock=_key(f"parley-creation:{datastore.schema}"), **names)
        # Made with the library's create statements (under their lock: the insert function calls
        # it, whether or not create_listing ever runs), but only where the list has every column
        # it writes or is not there yet: on a list from before a column, create_listing adds the
        # column and replaces the function, in one transaction, so that no process ever runs one
        # writing a missing column. The function's text is passed as a literal (no dollar quote
        # a schema's name could end).
        when_current = SQL(
            "BEGIN IF to_regclass({games}) IS NULL OR EXISTS (SELECT 1 FROM information_schema.columns "
            "WHERE table_schema = {schema} AND table_name = {table} AND column_name = 'public') "
            "THEN EXECUTE {function}; END IF; END").format(
            games=Literal(SQL("{schema}.{games}").format(**names).as_string(None)),
            schema=Literal(datastore.schema), table=Literal(GAMES),
            function=Literal(self.create_list_function.as_string(None)))
        self.sql_create_statements.append(SQL("DO {}").format(Literal(when_current.as_string(None))))
        self.sql_create_statements.append(SQL(INSERT_FUNCTION).format(
            schema=schema, function=Identifier(self.insert_function_name),
            event=Identifier(self.stored_event_type_name),
            table=Identifier(self.events_table_name), lock_timeout=datastore.lock_timeout,
            before_insert=SQL(self.before_insert).format(schema=schema, table=Identifier(self.events_table_name)),
            list_function=Identifier(f"parley_list_games_{id_type}")))
        # Rendered once: psycopg would compose a composed query again on every call.
        self.insert_in_one_statement = SQL("SELECT * FROM {schema}.{function}(%s, %s)").format(
            schema=schema, function=Identifier(self.insert_function_name)).as_string(None)
        row = SQL(COMMAND_ROW).format(id_type=SQL(id_type))
        self.command_inserts = [SQL(COMMAND_INSERT).format(
            table=Identifier(self.events_table_name), rows=SQL(", ").join([row] * n), **names).as_string(None)
            for n in range(1, COMMAND_ROWS + 1)]
        self.listing_sql = ListingSQL(SQL("{schema}.{games}").format(**names).as_string(None),
                                      SQL("{schema}.{players}").format(**names).as_string(None), "%s")
        self.select_events_after_sql = SQL(
            "SELECT e.originator_id, e.originator_version, e.topic, e.state FROM {schema}.{table} e "
            "JOIN unnest(%s::text[]::{id_type}[], %s::bigint[]) AS w(id, after) "
            "ON e.originator_id = w.id AND e.originator_version > w.after "
            f"ORDER BY e.originator_id, e.originator_version LIMIT {EVENTS_AFTER_LIMIT}").format(
            table=Identifier(self.events_table_name), **names).as_string(None)
        self.select_versions_sql = SQL("SELECT id, version FROM {schema}.{games} WHERE id = ANY(%s::{id_type}[])").format(
            **names).as_string(None)

    insert_events = _fail_fast(_insert_in_one_round_trip)
    select_events = _fail_fast(PostgresApplicationRecorder.select_events)
    select_notifications = _fail_fast(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _fail_fast(PostgresApplicationRecorder.max_notification_id)
    select_games = _fail_fast(_select_games)
    select_versions = _fail_fast(_select_versions)
    select_events_after = _fail_fast(_select_events_after)

    def create_listing(self, backfill: BackfillFunction) -> None:
        """The listing's tables, filled from the events stored so far, unless they exist (and
        `public`, set from the stored creations, on a list stored before it had one, with the
        function that writes it): in one transaction, under a lock per schema, so that of
        several processes starting at once one creates and fills them and the others then find
        them. create_table made the function already, unless the list lacked the column: it is
        replaced here only then, so that two processes booting never replace it at once under
        two different locks."""
        with self.datastore.get_connection() as conn, conn.transaction():
            conn.execute("SET LOCAL lock_timeout = 0")  # another process's backfill may take minutes
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_key(f"parley-listing:{self.datastore.schema}"),))
            found = conn.execute("SELECT to_regclass(format('%%I.%%I', %s::text, %s::text)) AS found",
                                 (self.datastore.schema, GAMES)).fetchone()
            if found is None or found["found"] is None:
                for statement in self.listing_tables:
                    conn.execute(statement)
                self._backfill(conn, backfill)   # through the function create_table made
                return
            column = conn.execute("SELECT 1 FROM information_schema.columns WHERE table_schema = %s "
                                  "AND table_name = %s AND column_name = 'public'",
                                  (self.datastore.schema, GAMES)).fetchone()
            if column is None:
                for statement in self.add_public:
                    conn.execute(statement)
                self._set_public(conn, backfill)
                conn.execute(self.create_list_function)

    def _set_public(self, conn, backfill: BackfillFunction) -> None:
        update = SQL("UPDATE {schema}.{games} SET public = true WHERE id = ANY(%s::{id_type}[])").format(
            schema=Identifier(self.datastore.schema), games=Identifier(GAMES),
            id_type=SQL(self.datastore.originator_id_type))
        for notifications in self._stored(conn, "AND topic LIKE '%%Game.Created'"):
            public = backfill.public_ids(notifications)
            if public:
                conn.execute(update, (public,))

    def _backfill(self, conn, backfill: BackfillFunction) -> None:
        apply = SQL("SELECT {function}(%s)").format(function=self.list_function)
        for notifications in self._stored(conn):
            conn.execute(apply, (Jsonb(backfill(notifications)),))

    def _stored(self, conn, condition: str = "") -> Iterator[list[Notification]]:
        """The stored events (those meeting `condition`), BATCH at a time, in notification order."""
        select = SQL("SELECT notification_id, originator_id, originator_version, topic, state "
                     "FROM {schema}.{table} WHERE notification_id > %s " + condition +
                     " ORDER BY notification_id LIMIT %s").format(
            schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
        after = 0
        while True:
            rows = conn.execute(select, (after, BATCH)).fetchall()
            if not rows:
                return
            yield [Notification(id=r["notification_id"], originator_id=r["originator_id"],
                                originator_version=r["originator_version"], topic=r["topic"],
                                state=bytes(r["state"])) for r in rows]
            after = rows[-1]["notification_id"]


class FailFastPostgresFactory(PostgresFactory):
    """The library's factory, whose pooled connections start with lock_timeout set to
    POSTGRES_LOCK_TIMEOUT: a command's insert (COMMAND_INSERT) sets none of its own, and its
    table locks are taken before any statement could set one (a prepared plan's locks are)."""

    aggregate_recorder_class = FailFastAggregateRecorder
    application_recorder_class = FailFastApplicationRecorder

    def __init__(self, env):
        super().__init__(env)
        seconds = self.datastore.lock_timeout
        if seconds:
            # Read by the pool for every connection it opens (psycopg_pool's documented kwargs).
            kwargs = self.datastore.pool.kwargs
            kwargs["options"] = f"{kwargs.get('options', '')} -c lock_timeout={int(seconds * 1000)}".strip()
