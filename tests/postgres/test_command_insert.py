"""A command's insert on PostgreSQL (service/store.py, COMMAND_INSERT): its events and its
game's new version in the list, in one statement and one transaction, without the insert
function (which creations still use). And POSTGRES_LOCK_TIMEOUT, now each pooled
connection's lock_timeout: an insert waits no longer than that for a lock, while the waits
for another process's table creation or list backfill may last as long as those take."""
from __future__ import annotations

import threading
import uuid

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent
from eventsourcing.utils import Environment

from domain.registry import all_rulesets
from service import store
from service.application import Parley
from service.store import FailFastPostgresFactory, _command_params, _key
from tests.postgres.conftest import CONNINFO, postgres_env

CORSAIRS = all_rulesets()["corsairs-of-valeria"]
TOPIC = "service.application:Game.Happened"


@pytest.fixture
def parley(postgres_schema):
    app = Parley({CORSAIRS.id: CORSAIRS}, env=postgres_env(postgres_schema))
    yield app, postgres_schema
    app.close()


def listed(schema: str, game_id) -> tuple:
    with psycopg.connect(**CONNINFO) as conn:
        return conn.execute(f'SELECT version, finished FROM "{schema}".parley_games WHERE id = %s',
                            (game_id,)).fetchone()


def play(app, game_id, commands: int) -> None:
    for _ in range(commands):
        game = app.get_game(game_id)
        seat = game.status.to_move[0]
        app.execute(game_id, seat, CORSAIRS.legal_commands(game.state, seat)[0], game=game)


def test_only_one_games_command_takes_the_one_statement():
    game, other = uuid.uuid4(), uuid.uuid4()
    events = [StoredEvent(game, v, TOPIC, b"{}") for v in (3, 4)]
    change = {"id": str(game), "version": 4, "finished": False}
    assert _command_params(events, [change]) == (game, 3, TOPIC, b"{}", game, 4, TOPIC, b"{}", 4, False, game)
    creation = {**change, "ruleset": "r", "players": ["A"], "names": ["a"], "created_at": "now"}
    assert _command_params(events, [creation]) is None
    assert _command_params(events, []) is None
    assert _command_params(events, [change, {"id": str(other), "version": 2, "finished": False}]) is None
    assert _command_params([*events, StoredEvent(other, 1, TOPIC, b"{}")], [change]) is None
    assert _command_params(events, [{**change, "id": str(other)}]) is None
    many = [StoredEvent(game, v, TOPIC, b"{}") for v in range(1, store.COMMAND_ROWS + 2)]
    assert _command_params(many, [change]) is None
    assert _command_params(many[:store.COMMAND_ROWS], [change]) is not None


def test_commands_are_stored_and_listed_without_the_insert_function(parley):
    """With the function gone, commands are still stored and move the list; a creation,
    which needs the function, fails."""
    app, schema = parley
    game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    with psycopg.connect(**CONNINFO, autocommit=True) as conn:
        conn.execute(f'DROP FUNCTION "{schema}".parley_insert_and_list_uuid')
    play(app, game_id, 5)
    version = app.get_game(game_id).version
    assert [e.originator_version for e in app.stored_events(game_id)] == list(range(1, version + 1))
    assert listed(schema, game_id) == (version, False)
    with pytest.raises(Exception, match="parley_insert_and_list_uuid"):
        app.create_game(CORSAIRS.id, ["C", "D"], "server")


def test_several_events_of_one_command_go_in_one_statement_with_their_list_change(parley):
    app, schema = parley
    game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    start = app.get_game(game_id).version
    events = [StoredEvent(game_id, start + i, TOPIC, b'{"n": %d}' % i) for i in (1, 2, 3)]
    ids = app.recorder.insert_events(events, listing=[{"id": str(game_id), "version": start + 3, "finished": True}])
    assert len(ids) == 3 and ids == sorted(ids)
    stored = app.recorder.select_events(game_id, gt=start)
    assert [(e.originator_version, e.state) for e in stored] == [(e.originator_version, e.state) for e in events]
    assert listed(schema, game_id) == (start + 3, True)


def test_a_refused_insert_leaves_the_list_as_it_was(parley):
    """The events' primary key refuses a version already stored; the list's change, made by
    the same statement, is not kept either."""
    app, schema = parley
    game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    play(app, game_id, 2)
    version = app.get_game(game_id).version
    before = app.stored_events(game_id)
    clash = [StoredEvent(game_id, version, TOPIC, b"{}"), StoredEvent(game_id, version + 1, TOPIC, b"{}")]
    with pytest.raises(IntegrityError):
        app.recorder.insert_events(clash, listing=[{"id": str(game_id), "version": version + 1, "finished": True}])
    assert app.stored_events(game_id) == before
    assert listed(schema, game_id) == (version, False)


def test_an_insert_waits_for_a_lock_no_longer_than_the_lock_timeout(postgres_schema):
    env = {**postgres_env(postgres_schema), "POSTGRES_LOCK_TIMEOUT": "1"}
    app = Parley({CORSAIRS.id: CORSAIRS}, env=env)
    try:
        game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
        version = app.get_game(game_id).version
        outcome: list = []

        def insert():
            try:
                app.recorder.insert_events([StoredEvent(game_id, version + 1, TOPIC, b"{}")],
                                           listing=[{"id": str(game_id), "version": version + 1, "finished": False}])
                outcome.append("stored")
            except Exception as error:  # noqa: BLE001 - the error is the finding
                outcome.append(error)

        with psycopg.connect(**CONNINFO) as holder:
            holder.execute(f'LOCK TABLE "{postgres_schema}".parley_games IN EXCLUSIVE MODE')
            thread = threading.Thread(target=insert, daemon=True)
            thread.start()
            thread.join(8)  # 1 s of lock timeout, on a busy machine
            holder.rollback()
        thread.join(10)
        assert len(outcome) == 1 and isinstance(outcome[0], OperationalError), outcome
        assert "lock timeout" in str(outcome[0])
        assert app.get_game(game_id).version == version
    finally:
        app.close()


def test_waiting_for_another_process_backfill_outlasts_the_lock_timeout(postgres_schema):
    """A process starting while another fills the list waits for it, however long it takes."""
    env = Environment("parley", {**postgres_env(postgres_schema), "POSTGRES_LOCK_TIMEOUT": "1"})
    recorder = FailFastPostgresFactory(env).application_recorder()
    done, errors = threading.Event(), []

    def start():
        try:
            recorder.create_listing(lambda notifications: [])
            done.set()
        except Exception as error:  # noqa: BLE001 - the failure is the finding
            errors.append(repr(error))

    try:
        with psycopg.connect(**CONNINFO) as holder:
            holder.execute("SELECT pg_advisory_xact_lock(%s)", (_key(f"parley-listing:{postgres_schema}"),))
            thread = threading.Thread(target=start, daemon=True)
            thread.start()
            assert not done.wait(2.5), "create_listing did not wait for the other process's backfill"
            holder.rollback()
        thread.join(10)
        assert errors == [] and done.is_set()
        with recorder.datastore.get_connection() as conn:
            assert conn.execute("SHOW lock_timeout").fetchone()["lock_timeout"] == "1s"
    finally:
        recorder.datastore.close()
