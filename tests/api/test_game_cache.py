"""Each process keeps the games it served last (service/cache.py, GameCache): a kept game
brought up to date must equal the game loaded afresh, whoever stored the events since, and
nothing a request does to its copy (a dry run, a rejected command) may reach the kept game."""
from __future__ import annotations

import os
import random
from uuid import UUID

import pytest

from domain.registry import all_rulesets
from domain.ruleset import Rejected
from service.application import Parley

CORSAIRS = all_rulesets()["corsairs-of-valeria"]


def comparable(game) -> dict:
    fields = {k: v for k, v in vars(game).items() if k not in ("state", "_pending_events", "_modified_on", "stored_now")}
    return {**fields, "state": game.ruleset.dump_state(game.state)}


@pytest.fixture
def two_workers(tmp_path):
    """Two applications on one SQLite file, as two gunicorn workers share one database."""
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": os.path.join(tmp_path, "g.sqlite")}
    first = Parley({CORSAIRS.id: CORSAIRS}, env=env, snapshot_interval=10)
    second = Parley({CORSAIRS.id: CORSAIRS}, env=env, snapshot_interval=10)
    yield first, second
    first.close()
    second.close()


def play(app, game_id, rng, commands: int) -> None:
    for _ in range(commands):
        game = app.get_game(game_id)
        if game.status.finished:
            return
        seat = game.status.to_move[0]
        app.execute(game_id, seat, rng.choice(CORSAIRS.legal_commands(game.state, seat)), game=game)


def test_a_kept_game_catches_up_with_events_another_worker_stored(two_workers):
    first, second = two_workers
    game_id = first.create_game(CORSAIRS.id, ["Kira", "David", "Will"], "server").game.id
    rng = random.Random(3)
    for _ in range(6):
        play(first, game_id, rng, 7)
        play(second, game_id, rng, 5)
        for app in (first, second):
            kept, fresh = app.get_game(game_id), app._load_game(game_id)
            assert comparable(kept) == comparable(fresh) == comparable(app.replay(game_id))
    assert first._games.size and game_id in first._games._games


def test_a_dry_run_or_a_rejection_does_not_reach_the_kept_game(two_workers):
    app, _ = two_workers
    game_id = app.create_game(CORSAIRS.id, ["Kira", "David", "Will"], "server").game.id
    play(app, game_id, random.Random(4), 12)
    before = comparable(app.get_game(game_id))
    game = app.get_game(game_id)
    seat = game.status.to_move[0]
    # Chosen before the dry run: it replaces game.state with the state it imagined, in which
    # this seat may have nothing left to do (it failed so, now and then, with an IndexError).
    command = CORSAIRS.legal_commands(game.state, seat)[0]
    dry, _ = app.execute(game_id, seat, command, game=game, dry_run=True)
    assert dry.version > before["_version"]
    with pytest.raises(Rejected):
        app.execute(game_id, (seat + 1) % 3, command)
    assert comparable(app.get_game(game_id)) == before == comparable(app._load_game(game_id))


def test_the_cache_keeps_at_most_its_size(two_workers):
    app, _ = two_workers
    app._games.size = 3
    ids = [app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id for _ in range(5)]
    for game_id in ids:
        app.get_game(game_id)
    assert list(app._games._games) == ids[-3:]


def test_a_game_with_custom_content_is_not_kept(two_workers):
    app, _ = two_workers
    content = CORSAIRS.default_content
    game_id = app.create_game(CORSAIRS.id, ["A", "B"], "server", content=content).game.id
    app.get_game(game_id)
    assert game_id not in app._games._games
    plain = app.create_game(CORSAIRS.id, ["A", "B"], "server").game.id
    app.get_game(plain)
    assert plain in app._games._games


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_the_kept_game_is_the_game_just_stored_and_answering_never_changes_it(ruleset_id):
    """After a command the cache keeps the very game the command was stored on (no copy): the
    answer rendered from it, and every seat's view read after it, leave it equal to the game
    replayed from the store."""
    from service import create_app
    from tests.fakes.http import create

    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    try:
        client = app.test_client()
        ruleset = all_rulesets()[ruleset_id]
        players = ["Kira", "David", "Will"][:max(ruleset.min_players, 2)]
        game = create(client, ruleset_id, players=players)
        game_id = UUID(game.id)
        parley = app.extensions["parley"]
        rng = random.Random(ruleset_id)
        for _ in range(25):
            commands = game.legal()
            if not commands:
                break
            answer = game.send(rng.choice(commands))
            assert answer.status_code == 200 and "game" in answer.get_json()
            for seat in range(len(players)):
                assert game.get("", game.seat(seat)).status_code == 200
            kept = parley._games._games[game_id].game
            assert kept.version == answer.get_json()["version"]
            assert comparable(kept) == comparable(parley.replay(game_id))
    finally:
        app.extensions["parley"].close()
