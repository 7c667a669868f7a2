"""Retries are safe: an Idempotency-Key makes a repeated command answer its first result."""
from __future__ import annotations

import uuid

import pytest

from service.game import Game
from tests.fakes.http import create

PROBLEM = "application/problem+json"


def key(name: str = "") -> dict:
    return {"Idempotency-Key": f"retry-{name}-{uuid.uuid4().hex}"}


def test_a_retried_command_answers_the_first_result_and_is_not_applied_twice(client):
    game = create(client)
    headers = key()
    first = game.send({"type": "draw"}, game.seat(0), headers)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    events_after_first = game.all_events()

    again = game.send({"type": "draw"}, game.seat(0), headers)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert again.headers["ETag"] == first.headers["ETag"]
    assert game.all_events() == events_after_first


def test_the_retry_answers_the_first_result_even_after_the_game_moved_on(client):
    game = create(client)
    headers = key()
    first = game.send({"type": "draw", "expected_version": 5}, game.seat(0), headers)
    assert first.status_code == 200
    moved = game.send({"type": "draw"}, game.seat(1))
    assert moved.status_code == 200
    # The dropped-connection case: the client never saw the answer and sends it again,
    # with the version it expected then.
    again = game.send({"type": "draw", "expected_version": 5}, game.seat(0), headers)
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert game.view()["version"] == moved.get_json()["version"]


def test_the_same_key_with_another_body_is_422_and_nothing_is_stored(client):
    game = create(client)
    headers = key()
    assert game.send({"type": "draw"}, game.seat(0), headers).status_code == 200
    version = game.view()["version"]
    other = game.send({"type": "stand"}, game.seat(1), headers)
    # A key is per token: seat 1 may use the same string for its own command.
    assert other.status_code == 200
    reused = game.send({"type": "stand"}, game.seat(0), headers)
    assert reused.status_code == 422 and reused.content_type == PROBLEM
    assert reused.get_json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert game.view()["version"] == version + len(other.get_json()["events"])


def test_keys_are_per_game(client):
    one, two = create(client), create(client)
    headers = {"Idempotency-Key": "same-string"}
    assert one.send({"type": "draw"}, one.seat(0), headers).status_code == 200
    second = two.send({"type": "draw"}, two.seat(0), headers)
    assert second.status_code == 200 and "Idempotent-Replayed" not in second.headers
    assert two.view()["version"] == one.view()["version"]


def test_a_rejected_command_is_not_remembered(client):
    game = create(client)
    headers = key()
    refused = game.send({"type": "stand"}, game.seat(1), headers)
    assert refused.status_code == 422 and refused.get_json()["code"] == "NOT_YOUR_TURN"
    assert game.send({"type": "stand"}, game.seat(1), headers).get_json()["code"] == "NOT_YOUR_TURN"


def test_a_dry_run_ignores_the_key(client):
    game = create(client)
    headers = key()
    response = client.post(f"/games/{game.id}/commands?dry_run=true", json={"type": "draw"},
                           headers={**game.seat(0), **headers})
    assert response.status_code == 200 and response.get_json()["dry_run"] is True
    real = game.send({"type": "draw"}, game.seat(0), headers)
    assert real.status_code == 200 and "Idempotent-Replayed" not in real.headers
    assert real.get_json()["version"] == 7


@pytest.mark.parametrize("bad", ["", " spaced key", "é", "x" * 256, "tab\there", "key-one,key-two"])
def test_a_malformed_key_is_400(client, bad):
    game = create(client)
    response = game.send({"type": "draw"}, game.seat(0), {"Idempotency-Key": bad})
    assert response.status_code == 400 and response.content_type == PROBLEM
    assert response.get_json()["code"] == "INVALID_IDEMPOTENCY_KEY"
    assert game.view()["version"] == 5
    # a dry run ignores a key, but not a malformed one: the header breaks the contract whatever
    # else the request holds (schemathesis sent one with an If-Match that did not hold: 412 before)
    dry = client.post(f"/games/{game.id}/commands?dry_run=true", json={"type": "draw"},
                      headers={**game.seat(0), "Idempotency-Key": bad, "If-Match": '"99"'})
    assert dry.status_code == 400 and dry.get_json()["code"] == "INVALID_IDEMPOTENCY_KEY"


def test_keys_survive_snapshots_and_reloading(app, client):
    # SNAPSHOT_INTERVAL is 4 in these tests: the game is reloaded from a snapshot and the
    # events after it, and still knows the key.
    game = create(client)
    headers = key()
    first = game.send({"type": "draw"}, game.seat(0), headers)
    for _ in range(3):
        game.send({"type": "draw"}, game.seat(1))
        game.send({"type": "draw"}, game.seat(0))
    parley = app.extensions["parley"]
    assert parley.snapshots is not None
    assert list(parley.snapshots.get(uuid.UUID(game.id)))
    again = game.send({"type": "draw"}, game.seat(0), headers)
    assert again.get_json() == first.get_json()


def test_old_events_and_snapshots_read_back_without_keys():
    # Stored events are forever: version-1 records (before keys existed) are upcast.
    happened = {"event": {"type": "X"}, "command": None, "salt": None, "hash": None}
    Game.Happened.upcast_v1_v2(happened)
    assert happened["idempotency"] is None
    snapshot = {"seats": []}
    Game.upcast_v1_v2(snapshot)
    assert snapshot["idempotency"] == {}


def test_a_key_whose_command_lost_the_race_is_not_remembered(app, client):
    # Two requests load the game (each a copy of the worker's kept game); the first stores
    # its command, the second's save conflicts. The second's key must not be remembered:
    # its command was never stored.
    from eventsourcing.persistence import IntegrityError

    game = create(client)
    parley = app.extensions["parley"]
    game_id = uuid.UUID(game.id)
    parley.get_game(game_id)  # kept by the worker from here on
    first, second = parley.get_game(game_id), parley.get_game(game_id)
    parley.execute(game_id, 0, {"type": "draw"}, game=first, idempotency=("k1", "r1"))
    with pytest.raises(IntegrityError):
        parley.execute(game_id, 0, {"type": "draw"}, game=second, idempotency=("k2", "r2"))
    assert set(parley.get_game(game_id).idempotency) == {"k1"}
    assert set(parley.replay(game_id).idempotency) == {"k1"}
