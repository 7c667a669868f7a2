"""A command's events go to PostgreSQL in one statement (service/store.py's insert function),
with the game list's changes (service/listing.py) in the same transaction. It takes no table
lock: inserts into different games do not wait for each other; two inserts at one game's
version still meet at the primary key, and the second is refused. Only a game's creation takes
a lock (so that list positions follow commit order), which commands never wait for."""
from __future__ import annotations

import threading

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from domain.registry import all_rulesets
from service.application import Parley
from service.store import _key
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


def in_open_transaction(app, schema, conn, game_id):
    """Insert the next command's events for a game through the insert function on `conn`, in
    a transaction left open: it holds whatever locks the insert takes."""
    game, seat, command = next_command(app, game_id)
    before = game.version
    events = app.execute(game_id, seat, command, game=game, dry_run=True)[0].collect_events()
    assert events and events[0].originator_version == before + 1
    recorder = app.recorder
    stored = [app.mapper.to_stored_event(e) for e in events]
    rows = [recorder.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state) for e in stored]
    conn.execute(f'SELECT * FROM "{schema}".parley_insert_and_list_uuid(%s, %s)',
                 (rows, psycopg.types.json.Jsonb([])))


def finishes(work, seconds: float) -> bool:
    done = threading.Event()
    thread = threading.Thread(target=lambda: (work(), done.set()), daemon=True)
    thread.start()
    finished = done.wait(seconds)
    return finished


def test_an_insert_does_not_wait_for_an_uncommitted_insert_into_another_game(parley):
    app, schema = parley
    held, other = (app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id for _ in range(2))
    game, seat, command = next_command(app, other)
    before = game.version
    with psycopg.connect(**CONNINFO) as holder:
        holder.execute("SELECT 1")  # a transaction is open from here
        in_open_transaction(app, schema, holder, held)
        # With the library's EXCLUSIVE table lock, this insert waited until the holder ended.
        assert finishes(lambda: app.execute(other, seat, command, game=game), 10)
        assert app.stored_events(other)[-1].originator_version > before
        holder.rollback()
    assert app.stored_events(held)[-1].originator_version == app.get_game(held).version


def test_nothing_locks_the_events_table(parley):
    """An insert passes a lock that conflicts with EXCLUSIVE (the library's table lock)."""
    app, schema = parley
    game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    game, seat, command = next_command(app, game_id)
    with psycopg.connect(**CONNINFO) as holder:
        holder.execute(f'LOCK TABLE "{schema}".parley_events IN ROW SHARE MODE')
        assert finishes(lambda: app.execute(game_id, seat, command, game=game), 10)
        holder.rollback()


def test_a_creation_waits_for_an_uncommitted_creation_and_a_command_does_not(parley):
    """Creations take a lock to the end of their transaction, so that list positions are
    handed out in commit order; commands never take it."""
    app, schema = parley
    playing = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    game, seat, command = next_command(app, playing)
    created = threading.Event()
    with psycopg.connect(**CONNINFO) as holder:
        holder.execute("SELECT 1")  # a transaction is open from here
        key = _key(f"parley-creation:{schema}")
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (key,))
        creator = threading.Thread(target=lambda: (app.create_game(CORSAIRS.id, ["C", "D"], "server"), created.set()),
                                   daemon=True)
        creator.start()
        assert finishes(lambda: app.execute(playing, seat, command, game=game), 10)
        assert not created.wait(0.8), "a creation did not wait for the creation lock"
        holder.rollback()
    assert created.wait(10)
    creator.join(10)


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

    # Two connections each (the lock's and the creating one): sixteen pools of the usual four
    # held 64 of the server's 100 connections, and the suite's other worker ran out beside them.
    env = Environment("parley", {**postgres_env(postgres_schema), "CREATE_TABLE": "n",
                                 "POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "0"})
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
                             "WHERE n.nspname = %s AND p.proname = 'parley_insert_and_list_uuid'",
                             (postgres_schema,)).fetchone()[0]
    assert found == 1
    for recorder in recorders:
        recorder.datastore.close()


def test_an_application_that_never_lists_saves_through_the_recorder_on_a_fresh_schema(postgres_schema):
    """The insert function calls the list's function, so create_table makes it too: an
    eventsourcing application on Parley's recorder that never calls create_listing (the bare
    save rate of benchmarks/commands.py) saves, with no list change to write."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Counter(Aggregate):
        def __init__(self):
            self.n = 0

        @event("Ticked")
        def tick(self):
            self.n += 1

    env = {**postgres_env(postgres_schema), "PERSISTENCE_MODULE": "service.store:FailFastPostgresFactory"}
    app = Application(env=env)
    try:
        counter = Counter()
        counter.tick()
        app.save(counter)
        assert app.repository.get(counter.id).n == 1
    finally:
        app.close()


def test_on_a_list_without_public_only_create_listing_replaces_the_function_writing_it(postgres_schema):
    """create_table makes the list's function only where the list has every column it writes: on
    a list from before `public` it leaves the old function (which still works), and create_listing
    adds the column, sets it, and then replaces the function, in one transaction."""
    from service import create_app, listing
    from tests.api.test_listing_store import forget_public

    def written_by_the_function() -> str:
        with psycopg.connect(**CONNINFO) as conn:
            return conn.execute("SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON "
                                "n.oid = p.pronamespace WHERE n.nspname = %s AND p.proname = "
                                "'parley_list_games_uuid'", (postgres_schema,)).fetchone()[0]

    app = create_app({"PERSISTENCE": postgres_env(postgres_schema)})
    try:
        assert "public" in written_by_the_function()
        forget_public(app)
        assert "public" not in written_by_the_function()
        recorder = app.extensions["parley"].recorder
        recorder.create_table()
        assert "public" not in written_by_the_function()   # the column is not there: left alone
        recorder.create_listing(listing.Backfill(app.extensions["parley"].mapper))
        assert "public" in written_by_the_function()
        recorder.create_table()
        assert "public" in written_by_the_function()       # the column is there: made as it is
    finally:
        app.extensions["parley"].close()
