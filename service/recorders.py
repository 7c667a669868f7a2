"""eventsourcing's SQLite and in-memory (POPO) application recorders, writing the game list
(service/listing.py) in the same transaction as the events it reflects.

Parley uses these factories whenever PERSISTENCE_MODULE says eventsourcing.sqlite or
eventsourcing.popo (Parley.construct_factory); PostgreSQL's recorder is in service/store.py.
"""
from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Notification, OperationalError, StoredEvent
from eventsourcing.popo import POPOApplicationRecorder, POPOFactory
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteApplicationRecorder, SQLiteDatastore, SQLiteFactory

from service.listing import (
    BATCH,
    GAMES,
    LISTING,
    PLAYERS,
    BackfillFunction,
    Change,
    Filters,
    Listed,
    ListingSQL,
    apply_in_memory,
    select_in_memory,
)

SQLITE_TABLES = (
    f"CREATE TABLE {GAMES} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ruleset TEXT NOT NULL, "
    "players TEXT NOT NULL, created_at TEXT NOT NULL, version INTEGER NOT NULL, finished INTEGER NOT NULL, "
    "public INTEGER NOT NULL DEFAULT 0)",
    f"CREATE INDEX {GAMES}_by_ruleset ON {GAMES} (ruleset, seq)",
    f"CREATE INDEX {GAMES}_by_status ON {GAMES} (finished, seq)",
    f"CREATE INDEX {GAMES}_by_public ON {GAMES} (public, seq)",
    f"CREATE TABLE {PLAYERS} (name TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (name, seq)) WITHOUT ROWID",
)
# A list stored before it had `public` (2026-12-03): the column, its index, then the public games
# set from the stored creations (ListingSQLiteRecorder._add_public).
SQLITE_ADD_PUBLIC = (
    f"ALTER TABLE {GAMES} ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
    f"CREATE INDEX {GAMES}_by_public ON {GAMES} (public, seq)",
)
INSERT_GAME = (f"INSERT INTO {GAMES} (id, ruleset, players, created_at, version, finished, public) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)")
INSERT_NAME = f"INSERT OR IGNORE INTO {PLAYERS} (name, seq) VALUES (?, ?)"
UPDATE_GAME = f"UPDATE {GAMES} SET version = MAX(version, ?), finished = (finished OR ?) WHERE id = ?"
EVENTS_AFTER_LIMIT = 5000  # events per query of select_events_after (a long pause: waiters read the rest)
VERSIONS_BATCH = 500  # ids per SELECT of select_versions (SQLite allows 32,766 parameters)
BUSY_SECONDS = 600  # how long a process starting on SQLite waits for another's backfill


def _list_in_sqlite(cursor, batch: list[Change]) -> None:
    for change in batch:
        if "ruleset" in change:
            cursor.execute(INSERT_GAME, (change["id"], change["ruleset"], json.dumps(change["players"]),
                                         change["created_at"], change["version"], change["finished"],
                                         change.get("public", False)))
            seq = cursor.lastrowid
            cursor.executemany(INSERT_NAME, [(name, seq) for name in change["names"]])
        else:
            cursor.execute(UPDATE_GAME, (change["version"], change["finished"], change["id"]))


def read_only(error: BaseException) -> bool:
    """SQLite refused a write on a connection that cannot write (SQLITE_READONLY and its
    extended codes: the file could not be opened for writing, or was moved or replaced)."""
    cause = error.__cause__ if isinstance(error, OperationalError) else error
    return isinstance(cause, sqlite3.OperationalError) and \
        (getattr(cause, "sqlite_errorname", "") or "").startswith("SQLITE_READONLY")


class WritesOnWritableConnections:
    """A recorder's insert_events, on a connection that can write."""

    # SQLite opens a file it cannot write read-only, silently, and such a connection stays
    # read-only once the file can be written again. The library's pool keeps its connections,
    # so a worker that opened them while the database's file could not be written (its
    # permissions, a read-only mount) refused every write for as long as it lived, while the
    # other workers had recovered. A write that finds its connection read-only closes it (the
    # pool drops a closed connection) and is sent again on another, up to this many times: every
    # connection the pool keeps idle (eventsourcing's pool_size, 5) may have been opened then.
    READ_ONLY_ATTEMPTS = 7
    datastore: SQLiteDatastore
    _insert_events: Any   # the recorder's, which this class is mixed into

    def insert_events(self, stored_events: Any, **kwargs: Any) -> Any:
        """The library's insert_events, on a connection that can write (READ_ONLY_ATTEMPTS)."""
        for attempt in range(self.READ_ONLY_ATTEMPTS):
            with self.datastore.get_connection(commit=True) as conn:
                try:
                    with conn.transaction(commit=True) as c:
                        return self._insert_events(c, stored_events, **kwargs)
                except OperationalError as error:
                    if not read_only(error):
                        raise
                    conn.close()
                    if attempt == self.READ_ONLY_ATTEMPTS - 1:
                        raise
        raise AssertionError("unreachable")


class SnapshotSQLiteRecorder(WritesOnWritableConnections, SQLiteAggregateRecorder):
    """The snapshots' recorder: on the same pool as the events', so it closes the read-only
    connections it meets too."""


class ListingSQLiteRecorder(WritesOnWritableConnections, SQLiteApplicationRecorder):
    """SQLite runs one writing transaction at a time: positions follow commit order."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name)
        self.listing_sql = ListingSQL(GAMES, PLAYERS, "?")

    def _insert_events(self, c: Any, stored_events: Any, **kwargs: Any) -> Any:
        notification_ids = super()._insert_events(c, stored_events, **kwargs)
        _list_in_sqlite(c, kwargs.get(LISTING) or [])
        return notification_ids

    def select_games(self, filters: Filters) -> list[Listed]:
        sql, params = self.listing_sql.select(filters, after=str(filters.after) if filters.after else None)
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return [Listed(i, r, json.loads(p), c_at, v, bool(f), bool(pub))
                    for i, r, p, c_at, v, f, pub in c.fetchall()]

    def select_versions(self, game_ids: list[str]) -> dict[str, int]:
        """The stored version of each of these games that exists (service/live.py)."""
        found: dict[str, int] = {}
        with self.datastore.transaction(commit=False) as c:
            for start in range(0, len(game_ids), VERSIONS_BATCH):
                batch = game_ids[start:start + VERSIONS_BATCH]
                c.execute(f"SELECT id, version FROM {GAMES} WHERE id IN ({', '.join('?' * len(batch))})", batch)
                found.update((i, v) for i, v in c.fetchall())
        return found

    def select_events_after(self, after: dict[str, int]) -> list[StoredEvent]:
        """The stored events of these games after the version given for each (service/live.py:
        one query per VERSIONS_BATCH games, each at most EVENTS_AFTER_LIMIT events), in order by
        game and version."""
        found: list[StoredEvent] = []
        items = list(after.items())
        with self.datastore.transaction(commit=False) as c:
            for start in range(0, len(items), VERSIONS_BATCH):
                batch = items[start:start + VERSIONS_BATCH]
                c.execute(f"WITH w(id, after) AS (VALUES {', '.join(['(?, ?)'] * len(batch))}) "
                          f"SELECT e.originator_id, e.originator_version, e.topic, e.state FROM {self.events_table_name} e "
                          "JOIN w ON e.originator_id = w.id AND e.originator_version > w.after "
                          f"ORDER BY e.originator_id, e.originator_version LIMIT {EVENTS_AFTER_LIMIT}",
                          [p for game_id, version in batch for p in (UUID(game_id).hex, version)])
                found += [StoredEvent(originator_id=self.convert_originator_id(r[0]), originator_version=r[1],
                                      topic=r[2], state=r[3]) for r in c.fetchall()]
        return found

    def create_listing(self, backfill: BackfillFunction) -> None:
        """The listing's tables, filled from the events stored so far, unless they exist (and
        `public`, set from the stored creations, on a list stored before it had one): in one write
        transaction (BEGIN IMMEDIATE: one process at a time; the others wait, then find them)."""
        deadline = time.monotonic() + BUSY_SECONDS
        with self.datastore.get_connection(commit=True) as conn:
            cursor = conn.cursor()
            while True:
                try:
                    cursor.execute("BEGIN IMMEDIATE")
                    break
                except Exception as error:  # sqlite3.OperationalError: another process's backfill
                    if "locked" not in str(error) or time.monotonic() > deadline:
                        raise
            try:
                cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (GAMES,))
                if cursor.fetchone() is None:
                    for statement in SQLITE_TABLES:
                        cursor.execute(statement)
                    self._backfill(cursor, backfill)
                else:
                    cursor.execute(f"SELECT 1 FROM pragma_table_info('{GAMES}') WHERE name = 'public'")
                    if cursor.fetchone() is None:
                        self._add_public(cursor, backfill)
                conn.commit()
            except BaseException:
                conn.rollback()
                raise

    def _add_public(self, cursor, backfill: BackfillFunction) -> None:
        for statement in SQLITE_ADD_PUBLIC:
            cursor.execute(statement)
        for notifications in self._stored(cursor, "AND topic LIKE '%Game.Created'"):
            cursor.executemany(f"UPDATE {GAMES} SET public = 1 WHERE id = ?",
                               [(i,) for i in backfill.public_ids(notifications)])

    def _backfill(self, cursor, backfill: BackfillFunction) -> None:
        for notifications in self._stored(cursor):
            _list_in_sqlite(cursor, backfill(notifications))

    def _stored(self, cursor, condition: str = "") -> Iterator[list[Notification]]:
        """The stored events (those meeting `condition`), BATCH at a time, in the order stored."""
        select = (f"SELECT rowid, originator_id, originator_version, topic, state FROM {self.events_table_name} "
                  f"WHERE rowid > ? {condition} ORDER BY rowid LIMIT ?")
        after = 0
        while True:
            cursor.execute(select, (after, BATCH))
            rows = cursor.fetchall()
            if not rows:
                return
            yield [Notification(id=r[0], originator_id=self.convert_originator_id(r[1]), originator_version=r[2],
                                topic=r[3], state=bytes(r[4])) for r in rows]
            after = rows[-1][0]


class ListingPOPORecorder(POPOApplicationRecorder):
    """In memory (tests): the list is a dict in creation order, changed under the store's lock."""

    def __init__(self) -> None:
        super().__init__()
        self._games: dict[str, Listed] | None = None   # None: the listing was never created
        self._names: dict[str, list[str]] = {}

    def _insert_events(self, stored_events: Any, **kwargs: Any) -> Any:
        with self._database_lock:
            self._assert_uniqueness(stored_events, **kwargs)
            self._list(kwargs.get(LISTING) or [])
            return self._update_table(stored_events, **kwargs)

    def _list(self, batch: list[Change]) -> None:
        """Apply the changes, or none of them (then the events are not stored either)."""
        assert self._games is not None, "create_listing() first"
        before = {c["id"]: self._games.get(c["id"]) for c in batch}
        kept = {i: (r.version, r.finished) for i, r in before.items() if r is not None}
        try:
            apply_in_memory(self._games, self._names, batch)
        except BaseException:
            for game_id, row in before.items():
                if row is None:
                    self._games.pop(game_id, None)
                    self._names.pop(game_id, None)
                else:
                    row.version, row.finished = kept[game_id]
            raise

    def select_games(self, filters: Filters) -> list[Listed]:
        with self._database_lock:
            assert self._games is not None, "create_listing() first"
            return select_in_memory(self._games, self._names, filters)

    def select_versions(self, game_ids: list[str]) -> dict[str, int]:
        with self._database_lock:
            assert self._games is not None, "create_listing() first"
            return {i: self._games[i].version for i in game_ids if i in self._games}

    def select_events_after(self, after: dict[str, int]) -> list[StoredEvent]:
        return [e for game_id, version in after.items() for e in self.select_events(UUID(game_id), gt=version)]

    def create_listing(self, backfill: BackfillFunction) -> None:
        with self._database_lock:
            if self._games is not None:
                return
            self._games, self._names = {}, {}
            after = 0
            while batch := self.select_notifications(start=after + 1, limit=BATCH):
                apply_in_memory(self._games, self._names, backfill(batch))
                after = batch[-1].id


class ListingSQLiteFactory(SQLiteFactory):
    application_recorder_class = ListingSQLiteRecorder
    aggregate_recorder_class = SnapshotSQLiteRecorder


class ListingPOPOFactory(POPOFactory):
    def application_recorder(self) -> ListingPOPORecorder:
        return ListingPOPORecorder()
