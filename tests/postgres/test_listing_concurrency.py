"""The stored game list on PostgreSQL with writers at once: commands into different games run
side by side (no table lock) and every game is listed at its true version; a stale writer is
still refused; processes starting together on a store from before the list was stored fill
it once."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from domain.registry import all_rulesets
from service import listing
from service.application import Parley
from service.listing import Filters
from tests.postgres.conftest import CONNINFO, postgres_env
from tests.postgres.test_insert_function import in_open_transaction, next_command

pytestmark = [pytest.mark.postgres]

CORSAIRS = all_rulesets()["corsairs-of-valeria"]
ROOT = Path(__file__).resolve().parents[2]
WRITERS = 8
COMMANDS = 12


@pytest.fixture
def parley(postgres_schema):
    app = Parley({CORSAIRS.id: CORSAIRS}, env=postgres_env(postgres_schema))  # 4 pooled, up to 14
    yield app, postgres_schema
    app.close()


def everything(app) -> list:
    rows, after = [], None
    while True:
        page, cursor = app.list_games(Filters(after=after, limit=200))
        rows += page
        if cursor is None:
            return rows
        after = cursor


def play(app, game_id, commands, errors):
    try:
        for _ in range(commands):
            game, seat, command = next_command(app, game_id)
            app.execute(game_id, seat, command, game=game)
    except Exception as error:  # noqa: BLE001 - every failure is the finding
        errors.append(repr(error))


def create(app, created, errors):
    try:
        created.append(app.create_game(CORSAIRS.id, ["Kira", "David"], "server").game.id)
    except Exception as error:  # noqa: BLE001
        errors.append(repr(error))


def test_writers_on_different_games_at_once_are_all_listed_at_their_versions(parley):
    app, schema = parley
    held, *games = [app.create_game(CORSAIRS.id, ["A", f"P{i}"], "server").game.id for i in range(WRITERS + 1)]
    errors: list = []
    created: list = []
    with psycopg.connect(**CONNINFO) as holder:
        holder.execute("SELECT 1")
        # An uncommitted insert stays open throughout: with a table lock every writer would wait for it.
        in_open_transaction(app, schema, holder, held)
        threads = [threading.Thread(target=play, args=(app, g, COMMANDS, errors)) for g in games]
        threads += [threading.Thread(target=create, args=(app, created, errors)) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not any(t.is_alive() for t in threads), "writers waited for the open insert"
        holder.rollback()
    assert errors == []
    rows = {row.id: row for row in everything(app)}
    assert set(rows) == {str(g) for g in [held, *games, *created]} and len(everything(app)) == len(rows)
    for game_id in [held, *games, *created]:
        assert rows[str(game_id)].version == app.stored_events(game_id)[-1].originator_version
    for game_id in games:
        assert rows[str(game_id)].version >= COMMANDS
    # A stale writer is refused, and the list keeps the true version.
    stale = app._load_game(games[0], version=rows[str(games[0])].version - 1)
    seat = stale.status.to_move[0]
    with pytest.raises(IntegrityError):
        app.execute(games[0], seat, CORSAIRS.legal_commands(stale.state, seat)[0], game=stale)
    assert {r.id: r.version for r in everything(app)}[str(games[0])] == rows[str(games[0])].version


def test_list_positions_follow_commit_order_so_a_cursor_never_skips_a_game(parley):
    """Creations racing each other: once a page has handed out a cursor, every game created
    later comes after it."""
    app, _ = parley
    stop, errors, created, cursors = threading.Event(), [], [], []

    def creating():
        while not stop.is_set():
            create(app, created, errors)

    threads = [threading.Thread(target=creating) for _ in range(4)]
    for thread in threads:
        thread.start()
    seen: list = []
    after = None
    try:
        for _ in range(40):
            page, _cursor = app.list_games(Filters(after=after, limit=3))
            seen += [row.id for row in page]
            if page:
                after = page[-1].id
                cursors.append(after)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
    assert errors == []
    while True:
        page, _ = app.list_games(Filters(after=after, limit=200))
        if not page:
            break
        seen += [row.id for row in page]
        after = page[-1].id
    assert sorted(seen) == sorted(str(g) for g in created) and len(seen) == len(set(seen))


BOOT = """
import sys, json
from domain.registry import all_rulesets
from service.application import Parley
from service.listing import Filters
env = json.loads(sys.argv[1])
app = Parley(all_rulesets(), env=env)
print(json.dumps([r.id for r in app.list_games(Filters(limit=200))[0]]))
app.close()
"""


def test_processes_starting_together_on_a_store_from_before_the_list_fill_it_once(parley):
    app, schema = parley
    games = [str(app.create_game(CORSAIRS.id, ["Kira", f"P{i}"], "server").game.id) for i in range(30)]
    before = [vars(row) for row in everything(app)]
    with psycopg.connect(**CONNINFO, autocommit=True) as conn:
        conn.execute(f'DROP TABLE "{schema}".{listing.PLAYERS}, "{schema}".{listing.GAMES}')
    env = json.dumps(postgres_env(schema))
    processes = [subprocess.Popen([sys.executable, "-c", BOOT, env], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(3)]
    answers = [p.communicate(timeout=120) for p in processes]
    assert [p.returncode for p in processes] == [0, 0, 0], [err[-2000:] for _, err in answers]
    assert all(json.loads(out) == games for out, _ in answers)
    assert [vars(row) for row in everything(app)] == before
    with psycopg.connect(**CONNINFO) as conn:
        names = conn.execute(f'SELECT count(*) FROM "{schema}".{listing.PLAYERS}').fetchone()[0]
    assert names == 2 * len(games)
