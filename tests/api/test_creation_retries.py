"""A creation sent with an Idempotency-Key may be retried: the same key and body answer the game
the first request created, with the same tokens, from any node, and create nothing again (the
multi-node audit of 2026-12-03: a node killed mid-creation stored a game whose tokens its client
never saw, and a retry made a second game)."""
from __future__ import annotations

import threading
import uuid

import pytest

from service import create_app
from tests.fakes import hoard

BODY = {"ruleset": "hidden-hoard", "players": [{"name": "Kira"}, {"name": "David"}], "chance": "server"}


def keyed(key: str | None = None) -> dict:
    return {"Idempotency-Key": key or f"create-{uuid.uuid4()}"}


def listed(client, name: str) -> list:
    return client.get(f"/games?player={name}").get_json()["games"]


def test_a_retried_creation_answers_the_first_game_and_its_tokens(client):
    headers = keyed()
    first = client.post("/games", json=BODY, headers=headers)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = client.post("/games", json=BODY, headers=headers)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"] and again.headers["ETag"] == first.headers["ETag"]
    assert len(listed(client, "Kira")) == 1
    game = first.get_json()
    token = again.get_json()["seats"][0]["token"]
    assert client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}).get_json()["you"] == 0


def test_the_retry_answers_as_the_first_answer_did_after_the_game_moved_on(client):
    headers = keyed()
    first = client.post("/games", json=BODY, headers=headers).get_json()
    host = {"Authorization": f"Bearer {first['host_token']}"}
    legal = client.get(f"/games/{first['id']}/legal-commands", headers=host).get_json()["commands"]
    moved = client.post(f"/games/{first['id']}/commands", json=legal[0], headers=host)
    assert moved.status_code == 200 and moved.get_json()["version"] > first["version"]
    again = client.post("/games", json=BODY, headers=headers)
    assert again.status_code == 201 and again.get_json() == first   # the creation's version, not today's


def test_the_same_key_with_another_body_is_refused_and_creates_nothing(client):
    headers = keyed()
    assert client.post("/games", json=BODY, headers=headers).status_code == 201
    other = client.post("/games", json={**BODY, "players": [{"name": "Ana"}, {"name": "Diego"}]}, headers=headers)
    assert other.status_code == 422 and other.content_type == "application/problem+json"
    assert other.get_json()["code"] == "IDEMPOTENCY_KEY_REUSED" and not listed(client, "Ana")


@pytest.mark.parametrize("key", ["short-key", "x" * 256, "sixteen chars ok", "a-long-key-one-0001,a-long-key-two-0002"])
def test_a_creation_key_is_a_long_secret_of_visible_characters(client, key):
    answer = client.post("/games", json=BODY, headers={"Idempotency-Key": key})
    assert answer.status_code == 400 and answer.get_json()["code"] == "INVALID_IDEMPOTENCY_KEY"
    assert "random" in answer.get_json()["detail"] and not listed(client, "Kira")


def test_without_a_key_each_creation_makes_a_game(client):
    assert client.post("/games", json=BODY).status_code == 201
    assert client.post("/games", json=BODY).status_code == 201
    assert len(listed(client, "Kira")) == 2


SHARED_KEY = "ZGrvGrK1ZsYQw0e4uW1D1xWmF5T0Yq0bRk2mN3pQ7sE="


def _node(path, seed_keys: str = SHARED_KEY):
    return create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET},
                       "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path),
                                       "PARLEY_SEED_KEYS": seed_keys}})


OTHER_KEY = "3vas0PZfgfeAK3ukKta5SrJI5aSki2RnvWyGC0KQPJQ="


def test_the_game_id_is_the_servers_secret_not_the_keys_hash(tmp_path):
    """The game list shows every id: an id derived from the key alone would let anyone test
    guesses of a weak key offline (the contract audit of 2026-12-03 found one in 100,000 tries)
    and then fetch the game's tokens. The same key on servers with other seed keys gives other
    ids; after a rotation (a new key first, the old kept) a retry still finds its game."""
    a = _node(tmp_path / "one.sqlite")
    other = _node(tmp_path / "two.sqlite", seed_keys=OTHER_KEY)
    try:
        headers = keyed("weak-but-long-key-1")
        first = a.test_client().post("/games", json=BODY, headers=headers).get_json()
        elsewhere = other.test_client().post("/games", json=BODY, headers=headers).get_json()
        assert first["id"] != elsewhere["id"]
        assert uuid.UUID(first["id"]).version == 4   # like any game's: it does not say it was keyed
    finally:
        a.extensions["parley"].close()
        other.extensions["parley"].close()
    rotated = _node(tmp_path / "one.sqlite", seed_keys=f"{OTHER_KEY},{SHARED_KEY}")
    try:
        again = rotated.test_client().post("/games", json=BODY, headers=headers)
        assert again.status_code == 201 and again.get_json() == first and again.headers["Idempotent-Replayed"] == "true"
        assert len(listed(rotated.test_client(), "Kira")) == 1
    finally:
        rotated.extensions["parley"].close()


def test_a_retry_on_another_node_answers_the_first_game(tmp_path):
    """Two processes on one store: the retry reaches the other one, which holds nothing of the
    game in memory, and still answers it, tokens unsealed with the keys the nodes share."""
    a, b = _node(tmp_path / "shared.sqlite"), _node(tmp_path / "shared.sqlite")
    try:
        headers = keyed()
        first = a.test_client().post("/games", json=BODY, headers=headers)
        again = b.test_client().post("/games", json=BODY, headers=headers)
        assert first.status_code == again.status_code == 201 and again.get_json() == first.get_json()
        assert again.headers["Idempotent-Replayed"] == "true"
        assert len(listed(b.test_client(), "Kira")) == 1
    finally:
        a.extensions["parley"].close()
        b.extensions["parley"].close()


def test_two_nodes_creating_with_one_key_at_once_make_one_game(tmp_path, monkeypatch):
    """Both look for the key's game before either stores it; the second insert meets the first
    game in the store (the same id) and is answered as its retry."""
    a, b = _node(tmp_path / "race.sqlite"), _node(tmp_path / "race.sqlite")
    try:
        both_looked = threading.Barrier(2, timeout=10)
        for node in (a, b):
            parley = node.extensions["parley"]
            looked = parley.replayed_creation

            def first_look_finds_nothing(retry, looked=looked, calls=[]):  # noqa: B006  # one list per node
                calls.append(retry)
                if len(calls) == 1:
                    assert looked(retry) is None
                    both_looked.wait()
                    return None
                return looked(retry)
            monkeypatch.setattr(parley, "replayed_creation", first_look_finds_nothing)
        headers, answers = keyed(), {}

        def post(name, node):
            answers[name] = node.test_client().post("/games", json=BODY, headers=headers)
        threads = [threading.Thread(target=post, args=(n, node)) for n, node in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert {answers["a"].status_code, answers["b"].status_code} == {201}
        assert answers["a"].get_json() == answers["b"].get_json()
        assert sorted("Idempotent-Replayed" in answers[n].headers for n in "ab") == [False, True]
        assert len(listed(a.test_client(), "Kira")) == 1
    finally:
        a.extensions["parley"].close()
        b.extensions["parley"].close()


def test_a_creation_key_answers_its_retries_for_a_day_only(client, monkeypatch):
    """A key leaked later (a log, a shared script) must not hand out the game's tokens for ever:
    past CREATION_RETRY_WINDOW (24 hours) a retry is 422 IDEMPOTENCY_KEY_EXPIRED, nothing made."""
    import datetime

    from service import application as module

    assert datetime.timedelta(hours=24) == module.CREATION_RETRY_WINDOW
    headers = keyed()
    assert client.post("/games", json=BODY, headers=headers).status_code == 201
    monkeypatch.setattr(module, "CREATION_RETRY_WINDOW", datetime.timedelta(0))
    late = client.post("/games", json=BODY, headers=headers)
    assert late.status_code == 422 and late.get_json()["code"] == "IDEMPOTENCY_KEY_EXPIRED"
    assert "token" not in late.get_data(as_text=True) and len(listed(client, "Kira")) == 1
