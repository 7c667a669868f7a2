"""A command on a game this worker keeps is decided without first asking the store for newer
events (GameCache.peek): its insert at the next version proves the kept game was current.
When another worker stored events meanwhile, whatever the stale game led to (an insert that
fails, a rejection, a version or If-Match mismatch) must give way to the same command decided
on the caught-up game: the answer is always the one the game's real state gives.

Two Flask apps on one SQLite file stand for two gunicorn workers."""
from __future__ import annotations

import os
import uuid

import pytest

from service import create_app
from tests.fakes import hoard
from tests.fakes.http import Seated, create

PROBLEM = "application/problem+json"


@pytest.fixture
def workers(tmp_path):
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
           "SQLITE_DBNAME": os.path.join(tmp_path, "shared.sqlite")}
    apps = [create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "PERSISTENCE": env,
                        "SNAPSHOT_INTERVAL": 4}) for _ in range(2)]
    yield apps
    for app in apps:
        app.extensions["parley"].close()


def parley(app):
    return app.extensions["parley"]


def workers_of(game: Seated):
    return game.client.application


@pytest.fixture
def stale(workers):
    """Worker A served seat 0's draw and keeps the game (seat 1 to move); then worker B stored
    seat 1's draw, so the true game has seat 0 to move while A's kept game still says seat 1."""
    a, b = workers
    game_a = create(a.test_client(), ruleset=hoard.RULESET.id)
    assert game_a.send({"type": "draw"}, game_a.seat(0)).status_code == 200
    game_b = Seated(b.test_client(), game_a.created)
    assert game_b.send({"type": "draw"}, game_b.seat(1)).status_code == 200
    kept, caught_up = parley(a).game_for_command(uuid.UUID(game_a.id))
    true_version = game_b.view()["version"]
    assert not caught_up and kept.version < true_version and kept.state.turn == 1
    return game_a, game_b, kept.version, true_version


def test_a_command_legal_only_in_the_true_state_is_accepted(stale):
    game_a, game_b, _, true_version = stale
    answer = game_a.send({"type": "draw"}, game_a.seat(0))
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["events"][0]["version"] == true_version + 1
    assert body["events"][0]["event"] == {"type": "CardDrawn", "seat": 0,
                                          "card": body["events"][0]["event"]["card"]}
    assert game_b.view(game_b.seat(0)) == game_a.view(game_a.seat(0))
    replayed = parley(workers_of(game_b)).replay(uuid.UUID(game_b.id))
    assert replayed.version == body["version"] and replayed.state.hands[0][-1] == body["events"][0]["event"]["card"]


def test_a_command_legal_only_in_the_stale_state_is_refused_for_the_true_reason(stale):
    game_a, game_b, _, true_version = stale
    refused = game_a.send({"type": "draw"}, game_a.seat(1))
    assert refused.status_code == 422 and refused.content_type == PROBLEM
    assert refused.get_json()["code"] == "NOT_YOUR_TURN"
    assert game_b.view()["version"] == true_version


def test_expected_version_is_checked_against_the_true_version(stale):
    game_a, game_b, stale_version, true_version = stale
    conflict = game_a.send({"type": "draw", "expected_version": stale_version}, game_a.seat(0))
    assert conflict.status_code == 409 and conflict.get_json()["version"] == true_version
    accepted = game_a.send({"type": "draw", "expected_version": true_version}, game_a.seat(0))
    assert accepted.status_code == 200, accepted.get_json()
    assert game_b.view()["version"] == accepted.get_json()["version"] > true_version


def test_if_match_is_checked_against_the_true_version(stale):
    game_a, game_b, stale_version, true_version = stale
    refused = game_a.send({"type": "draw"}, game_a.seat(0), {"If-Match": f'"{stale_version}"'})
    assert refused.status_code == 412 and refused.headers["ETag"] == f'"{true_version}"'
    accepted = game_a.send({"type": "draw"}, game_a.seat(0), {"If-Match": f'"{true_version}"'})
    assert accepted.status_code == 200, accepted.get_json()


def test_a_retry_on_another_worker_answers_the_first_result(stale):
    """Seat 1's keyed command was stored by B; the retry reaches A, whose kept game neither
    knows the key nor the command: deciding it there succeeds, its insert must not."""
    game_a, game_b, _, _ = stale
    assert game_b.send({"type": "draw"}, game_b.seat(0)).status_code == 200  # seat 1 to move
    headers = {"Idempotency-Key": f"k-{uuid.uuid4().hex}"}
    first = game_b.send({"type": "draw"}, game_b.seat(1), headers)
    assert first.status_code == 200
    events = game_b.all_events()
    retried = game_a.send({"type": "draw"}, game_a.seat(1), headers)
    assert retried.status_code == 200 and retried.headers["Idempotent-Replayed"] == "true"
    assert retried.get_json() == first.get_json()
    assert game_b.all_events() == events


def test_after_another_worker_wrote_the_game_commands_catch_up_first_for_a_while(stale, workers):
    game_a, _, _, _ = stale
    a = workers[0]
    game_id = uuid.UUID(game_a.id)
    assert game_a.send({"type": "draw"}, game_a.seat(0)).status_code == 200
    # A met B's events: the game is contested, and A catches up before deciding.
    assert parley(a).game_for_command(game_id)[1] is True
    # Once the contested time has passed, A decides on its kept game again.
    parley(a)._games._games[game_id].contested_until = 0.0
    kept, caught_up = parley(a).game_for_command(game_id)
    assert caught_up is False and kept.version == game_a.view()["version"]


def test_a_worker_alone_on_a_game_skips_the_catch_up_query_and_keeps_it_exact(workers, monkeypatch):
    a, _ = workers
    app = parley(a)
    game = create(a.test_client(), ruleset=hoard.RULESET.id)
    game_id = uuid.UUID(game.id)
    assert game.send({"type": "draw"}, game.seat(0)).status_code == 200
    queries = []
    real = app._events_after
    monkeypatch.setattr(app, "_events_after", lambda *args: queries.append(args) or real(*args))
    for seat in (1, 0, 1):
        assert game.send({"type": "draw"}, game.seat(seat)).status_code == 200
    assert queries == []
    kept, caught_up = app.game_for_command(game_id)
    fresh = app._load_game(game_id)
    assert not caught_up and kept.version == fresh.version
    assert hoard.RULESET.dump_state(kept.state) == hoard.RULESET.dump_state(fresh.state)
    assert kept.head_hash == fresh.head_hash
