"""A command's events go to PostgreSQL in one statement (service/store.py's insert function),
which must do everything eventsourcing's own insert does: take the events table's EXCLUSIVE
lock (so notification ids are issued in commit order), NOTIFY the table's channel, and refuse
a version that is already stored."""
from __future__ import annotations

import threading
import time

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from domain.registry import all_rulesets
from service.application import Parley
from tests.postgres.conftest import CONNINFO, postgres_env

CORSAIRS = all_rulesets()["corsairs-of-valeria"]


@pytest.fixture
def parley(postgres_schema):
    app = Parley({CORSAIRS.id: CORSAIRS}, env=postgres_env(postgres_schema))
    yield app, postgres_schema
    app.close()


def next_command(app, game_id):
    game = app.get_game(game_id)
    seat = game.status.to_move[0]
    return game, seat, CORSAIRS.legal_commands(game.state, seat)[0]


def test_the_insert_waits_for_a_lock_that_conflicts_only_with_exclusive(parley):
    app, schema = parley
    game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    game, seat, command = next_command(app, game_id)
    done = threading.Event()
    with psycopg.connect(**CONNINFO) as holder:
        # ROW SHARE conflicts with EXCLUSIVE and ACCESS EXCLUSIVE only: a plain INSERT (ROW
        # EXCLUSIVE) would pass it, the table lock of eventsourcing's insert may not.
        holder.execute(f'LOCK TABLE "{schema}".parley_events IN ROW SHARE MODE')
        worker = threading.Thread(target=lambda: (app.execute(game_id, seat, command, game=game),
                                                  done.set()), daemon=True)
        worker.start()
        assert not done.wait(0.8), "the insert did not wait for the table lock"
        holder.rollback()
    assert done.wait(10)
    worker.join(10)
    assert app.get_game(game_id).version == game.version


def test_the_insert_notifies_the_tables_channel(postgres_schema, monkeypatch):
    # The channel is named after the table, the same in every schema: tests running beside
    # this one notify it too, so only notifications from this app's own backends count.
    name = f"parley-notify-{postgres_schema}"
    monkeypatch.setenv("PGAPPNAME", name)
    app = Parley({CORSAIRS.id: CORSAIRS}, env=postgres_env(postgres_schema))
    try:
        game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
        game, seat, command = next_command(app, game_id)
        with psycopg.connect(**CONNINFO, autocommit=True) as listener:
            listener.execute("LISTEN parley_events")
            app.execute(game_id, seat, command, game=game)
            ours = {row[0] for row in listener.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (name,))}
            assert ours
            deadline, heard = time.monotonic() + 5, []
            while not any(n.pid in ours for n in heard) and time.monotonic() < deadline:
                heard += listener.notifies(timeout=0.5)
        assert [n.channel for n in heard if n.pid in ours] == ["parley_events"]
    finally:
        app.close()


def test_a_version_already_stored_is_refused_and_nothing_is_added(parley):
    app, schema = parley
    game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    game, seat, command = next_command(app, game_id)
    same_version = app.get_game(game_id)
    app.execute(game_id, seat, command, game=game)
    stored = app.stored_events(game_id)
    with pytest.raises(IntegrityError):
        app.execute(game_id, seat, command, game=same_version)
    assert app.stored_events(game_id) == stored
    with psycopg.connect(**CONNINFO) as conn:
        ids = [row[0] for row in conn.execute(
            f'SELECT notification_id FROM "{schema}".parley_events ORDER BY originator_version')]
    assert ids == sorted(ids) and len(ids) == len(stored)


def test_workers_booting_together_on_a_fresh_schema_all_create_without_an_error(postgres_schema):
    """Every worker creates the tables, types and the insert function at boot. Sixteen at once
    collided in PostgreSQL's catalogue (15 of 16 failed) until creation took a lock per schema
    (service/store.py, OneAtATimeCreation)."""
    from eventsourcing.utils import Environment

    from service.store import FailFastPostgresFactory

    env = Environment("parley", {**postgres_env(postgres_schema), "CREATE_TABLE": "n"})
    recorders = [FailFastPostgresFactory(env).application_recorder() for _ in range(16)]
    start, errors = threading.Barrier(len(recorders)), []

    def boot(recorder):
        start.wait()
        try:
            recorder.create_table()
        except Exception as error:  # noqa: BLE001 - every failure is the finding
            errors.append(repr(error))

    threads = [threading.Thread(target=boot, args=(r,)) for r in recorders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    with psycopg.connect(**CONNINFO) as conn:
        found = conn.execute("SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                             "WHERE n.nspname = %s AND p.proname = 'parley_insert_events_uuid'",
                             (postgres_schema,)).fetchone()[0]
    assert found == 1
    for recorder in recorders:
        recorder.datastore.close()
