"""A seat reads the game as it may see it; the host sees everything."""
from __future__ import annotations

import hashlib
import random
import uuid

from tests.fakes.http import bearer, create


def test_a_seat_sees_its_own_cards_and_only_a_count_of_the_others(client):
    game = create(client)
    kira = game.view(game.seat(0))
    assert kira["you"] == 0 and kira["status"] == "active" and kira["to_move"] == [0]
    assert isinstance(kira["state"]["hands"][0], list) and kira["state"]["hands"][1] == 1
    assert kira["state"]["deck"] == 10
    assert kira["result"] is None and kira["chance"]["seed"] is None


def test_the_host_sees_as_the_arbiter(client):
    view = create(client).view()
    assert view["you"] == "host"
    assert len(view["state"]["deck"]) == 10 and all(len(h) == 1 for h in view["state"]["hands"])


def test_credentials_are_checked_before_the_game_is_looked_up(client):
    unknown = f"/games/{uuid.uuid4()}"
    assert client.get(unknown).status_code == 401
    assert client.get(unknown, headers={"Authorization": "Basic abc"}).status_code == 401
    missing = client.get(unknown, headers=bearer("whatever"))
    assert missing.status_code == 404 and missing.get_json()["code"] == "GAME_NOT_FOUND"


def test_a_token_of_another_game_is_401(client):
    one, other = create(client), create(client)
    response = one.get("", other.host)
    assert response.status_code == 401 and response.get_json()["code"] == "INVALID_TOKEN"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_the_etag_is_the_version_shown(client):
    game = create(client)
    response = game.get("")
    assert response.headers["ETag"] == '"5"' and response.get_json()["version"] == 5


def test_if_none_match_with_the_version_shown_answers_304_without_a_body(client):
    game = create(client)
    seat = game.seat(0)
    first = game.get("", seat)
    tag = first.headers["ETag"]
    same = game.get("", {**seat, "If-None-Match": tag})
    assert same.status_code == 304 and same.data == b"" and same.headers["ETag"] == tag
    assert same.headers["Cache-Control"] == "no-store"
    assert game.get("", {**seat, "If-None-Match": f'W/{tag}, "1"'}).status_code == 304  # weak comparison
    assert game.get("", {**seat, "If-None-Match": "*"}).status_code == 304
    game.send({"type": "draw"}, seat)
    moved = game.get("", {**seat, "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] == f'"{moved.get_json()["version"]}"' != tag
    # A past version never changes: its tag answers 304 however far the game has gone on.
    assert game.get("", {**seat, "If-None-Match": tag}, query_string={"version": 5}).status_code == 304
    assert game.get("", {**seat, "If-None-Match": moved.headers["ETag"]}, query_string={"version": 5}).status_code == 200


def test_if_match_answers_only_while_the_game_is_at_that_version(client):
    """RFC 9110 13.1.1: a read with If-Match naming another version is 412 with the current
    ETag, before any If-None-Match; "*" and a list naming the version hold. The export too."""
    game = create(client)
    seat = game.seat(0)
    tag = game.get("", seat).headers["ETag"]
    for held in (tag, "*", f'"1", {tag}'):
        assert game.get("", {**seat, "If-Match": held}).status_code == 200, held
    assert game.get("", {**seat, "If-Match": tag, "If-None-Match": tag}).status_code == 304
    assert game.get("", {**seat, "If-Match": f"W/{tag}"}).status_code == 412  # strong comparison
    game.send({"type": "draw"}, seat)
    stale = game.get("", {**seat, "If-Match": tag, "If-None-Match": tag})
    problem = stale.get_json()
    assert stale.status_code == 412 and problem["code"] == "VERSION_MISMATCH"
    assert stale.headers["ETag"] == f'"{problem["version"]}"' != tag
    assert game.get("", {**seat, "If-Match": tag}, query_string={"version": 5}).status_code == 200  # a past version's tag
    past = game.get("", {**seat, "If-Match": stale.headers["ETag"]}, query_string={"version": 5})
    assert past.status_code == 412 and past.headers["ETag"] == tag            # the tag of what was asked for
    assert past.get_json()["version"] == problem["version"] and f"version {problem['version']}" in past.get_json()["detail"]
    assert game.get("/export", {**seat, "If-Match": tag}).status_code == 412
    assert game.get("/export", {**seat, "If-Match": stale.headers["ETag"]}).status_code == 200
    assert game.get("", {"Authorization": "Bearer nope", "If-Match": tag}).status_code == 401


def test_if_none_match_is_answered_only_after_the_token_is_checked(client):
    game = create(client)
    tag = game.get("").headers["ETag"]
    refused = game.get("", {"Authorization": "Bearer nope", "If-None-Match": tag})
    assert refused.status_code == 401
    assert game.get("", {**game.seat(0), "If-None-Match": tag}, query_string={"version": 99}).status_code == 404


def test_a_past_version_shows_the_game_as_it_stood_then(client):
    game = create(client)
    before = game.view(game.seat(0))
    game.send({"type": "draw"}, game.seat(0))
    past = game.get("", game.seat(0), query_string={"version": 5})
    assert past.status_code == 200 and past.headers["ETag"] == '"5"'
    assert past.get_json() == before
    assert game.get("", query_string={"version": 1}).get_json()["state"]["players"] == []


def test_a_version_beyond_the_log_is_404_and_version_zero_is_400(client):
    game = create(client)
    assert game.get("", query_string={"version": 99}).status_code == 404
    assert game.get("", query_string={"version": 0}).status_code == 400


def test_the_seed_is_revealed_once_finished_and_matches_the_commitment(client):
    game = create(client)
    commitment = game.created["chance"]["commitment"]
    game.play_to_the_end(random.Random(3))
    view = game.view(game.seat(1))
    assert view["status"] == "finished" and view["result"]["winners"]
    seed = view["chance"]["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
