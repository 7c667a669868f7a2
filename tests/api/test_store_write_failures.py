"""When the store cannot write: a worker whose SQLite connections were opened while the file
could not be written recovers once it can (service/recorders.py), and a snapshot that cannot be
stored does not turn a stored command into a refusal (service/application.py _take_snapshots)."""
from __future__ import annotations

import logging
import random
import sqlite3
from uuid import UUID

import pytest
from eventsourcing.persistence import OperationalError, ProgrammingError

from service import create_app
from service.game import Game
from tests.fakes import hoard
from tests.fakes.http import create

PROBLEM = "application/problem+json"


@pytest.fixture
def sqlite_app(tmp_path):
    app = create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "SNAPSHOT_INTERVAL": 4, "STREAM_SECONDS": 0.2,
                      "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                      "SQLITE_DBNAME": str(tmp_path / "parley.sqlite")}})
    yield app
    app.extensions["parley"].close()


def _pool(app):
    return app.extensions["parley"].recorder.datastore.pool


def _read_only(path: str) -> sqlite3.Connection:
    """A connection as SQLite opens one when the file cannot be written: read-only, for good."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False, isolation_level=None)
    conn.row_factory = sqlite3.Row   # as eventsourcing's pool makes them
    return conn


def _open_read_only(app, count: int) -> None:
    """`count` of the pool's connections made as a worker started while the database's file could
    not be written would have made them, and left idle in the pool."""
    pool = _pool(app)
    taken = [pool.get_connection(is_writer=False) for _ in range(count)]
    for conn in taken:
        conn._sqlite_conn.close()
        conn._sqlite_conn = _read_only(pool.db_name)
    for conn in taken:
        pool.put_connection(conn)


def test_connections_opened_read_only_are_replaced_once_the_file_can_be_written(sqlite_app, tmp_path):
    client = sqlite_app.test_client()
    game = create(client)
    _open_read_only(sqlite_app, 5)   # every connection the pool keeps (pool_size)
    legal = game.legal()[0]
    answer = game.send(legal)
    assert answer.status_code == 200, answer.get_json()
    assert [e["version"] for e in game.all_events()] == list(range(1, answer.get_json()["version"] + 1))
    # and a creation, which writes the list too
    assert client.post("/games", json={"ruleset": hoard.RULESET.id, "players": [{"name": "A"}, {"name": "B"}],
                                       "chance": "server"}).status_code == 201


def test_snapshots_are_stored_through_connections_opened_read_only_too(sqlite_app):
    """The snapshots' recorder shares the pool: it replaces a read-only connection as the events'
    does, so no snapshot is lost to one."""
    client = sqlite_app.test_client()
    game = create(client, players=("Kira", "David", "Will"))
    parley = sqlite_app.extensions["parley"]
    rng = random.Random(11)
    while game.view()["version"] in {s.originator_version for s in parley.snapshots.get(UUID(game.id))}:
        assert game.send(rng.choice(game.legal())).status_code == 200   # a version with no snapshot yet
    played = parley.get_game(UUID(game.id))
    _open_read_only(sqlite_app, 5)
    parley.snapshots.put([Game.Snapshot.take(played)])
    assert [s.originator_version for s in parley.snapshots.get(UUID(game.id))][-1] == played.version


def test_while_the_file_cannot_be_written_commands_get_a_503_and_then_succeed_without_a_restart(
        sqlite_app, monkeypatch):
    client = sqlite_app.test_client()
    game = create(client)
    version = game.view()["version"]
    pool = _pool(sqlite_app)
    path = pool.db_name
    _open_read_only(sqlite_app, 5)
    monkeypatch.setattr(pool, "db_name", f"file:{path}?mode=ro", raising=True)   # every new one too
    command = game.legal()[0]
    refused = game.send(command)
    assert refused.status_code == 503 and refused.mimetype == PROBLEM, refused.get_json()
    assert refused.get_json()["code"] == "STORE_UNAVAILABLE" and refused.headers["Retry-After"]
    assert game.view()["version"] == version            # nothing stored; reads still answer
    monkeypatch.setattr(pool, "db_name", path)           # the file can be written again
    answer = game.send(command)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["version"] > version


@pytest.mark.parametrize("error, level", [
    (OperationalError("database or disk is full"), logging.WARNING),           # the store full or away
    (ProgrammingError("no such table: parley_snapshots"), logging.ERROR),    # the table itself: see to it
], ids=["store-away", "table-refuses"])
def test_a_snapshot_that_cannot_be_stored_does_not_refuse_the_stored_command(app, client, monkeypatch, caplog,
                                                                             error, level):
    """The events are stored, so the command stands; the lost snapshot is logged, as a warning
    when the store is full, read-only or away, as an error when the snapshots' table refuses."""
    parley = app.extensions["parley"]

    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(parley.snapshots, "put", refuse)
    game = create(client, players=("Kira", "David", "Will"))
    rng = random.Random(7)
    with caplog.at_level(logging.WARNING, logger="parley.store"):
        while game.view()["version"] < 12 and game.legal():      # snapshots due at 4, 8 and 12
            answer = game.send(rng.choice(game.legal()))
            assert answer.status_code == 200, answer.get_json()
    assert game.view()["version"] >= 12
    assert {r.levelno for r in caplog.records if "not stored" in r.getMessage()} == {level}
    assert list(parley.snapshots.get(UUID(game.id))) == []
    assert [e["version"] for e in game.all_events()] == list(range(1, game.view()["version"] + 1))
