"""Two nodes: two gunicorn servers started from the Procfile, on two ports, over one PostgreSQL
database. Both list the same games; a game created on one is played on the other (commands,
reads, idempotent retries, dry runs, exports); and when one node is killed (SIGKILL, the whole
process group) in the middle of games, the other continues them, nothing acknowledged lost."""
from __future__ import annotations

import os
import random
import signal
import time
import uuid

import pytest

from tests.fakes.http import progressing
from tests.postgres.conftest import postgres_env
from tests.postgres.live import (
    ARBITER,
    HTTP,
    Gunicorn,
    Players,
    assert_every_ack_is_stored_and_every_game_verifies,
)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def listed(http: HTTP, **params) -> list[dict]:
    games, after = [], None
    while True:
        page = http.session.get(http.base + "/games", params={**params, **({"after": after} if after else {}),
                                                               "limit": 2}, timeout=30)
        assert page.status_code == 200, page.text
        games += page.json()["games"]
        after = page.json()["next"]
        if after is None:
            return games


def create(http: HTTP, ruleset: str, players: list[str]) -> dict:
    created = http.post("/games", {"ruleset": ruleset, "chance": "server",
                                   "players": [{"name": p} for p in players]})
    assert created.status_code == 201, created.text
    return created.json()


def test_both_nodes_list_the_same_games_and_play_each_others(nodes):
    a, b = HTTP(nodes[0].base), HTTP(nodes[1].base)
    made = [create(a, "corsairs-of-valeria", ["Kira", "David"]), create(b, "league-of-pirates", ["Anne", "Ben"]),
            create(a, "league-of-pirates", ["kira", "Zoë"]), create(b, "corsairs-of-valeria", ["Ben", "KIRA"])]
    ids = [g["id"] for g in made]
    assert [g["id"] for g in listed(a)] == [g["id"] for g in listed(b)] == ids
    assert [g["id"] for g in listed(b, player="KIRA")] == [ids[0], ids[2], ids[3]]
    assert [g["id"] for g in listed(a, ruleset="league-of-pirates")] == [ids[1], ids[2]]

    game = made[0]  # created on A, played on B
    path, host = f"/games/{game['id']}", game["host_token"]
    command = b.get(path + "/legal-commands", host).json()["commands"][0]
    dry = b.post(path + "/commands?dry_run=true", command, host)
    assert dry.status_code == 200 and dry.json()["dry_run"] is True
    key = {"Idempotency-Key": f"two-nodes-{uuid.uuid4().hex}"}
    sent = b.post(path + "/commands", command, host, key)
    assert sent.status_code == 200, sent.text
    retried = a.post(path + "/commands", command, host, key)
    assert retried.status_code == 200 and retried.headers["Idempotent-Replayed"] == "true"
    assert retried.json() == sent.json()
    view = a.get(path, host)
    assert view.status_code == 200 and view.json()["version"] == sent.json()["version"]
    assert {g["id"]: g["version"] for g in listed(a)}[game["id"]] == sent.json()["version"]
    rng = random.Random(7)
    for turn in range(40):  # alternate nodes command by command
        node = (a, b)[turn % 2]
        commands = node.get(path + "/legal-commands", host).json()["commands"]
        answer = node.post(path + "/commands", rng.choice(progressing(commands)), host)
        assert answer.status_code == 200, answer.text
    version = answer.json()["version"]
    assert a.get(path, host).json()["version"] == b.get(path, host).json()["version"] == version
    document = a.get(path + "/export", ARBITER)
    assert document.status_code == 200 and document.json()["version"] == version
    verdict = b.post("/verifications", document.json())
    assert verdict.status_code == 200 and verdict.json()["verdict"] == "valid", verdict.text
    assert {g["id"]: g["version"] for g in listed(b)}[game["id"]] == version


def test_a_creation_retried_on_the_other_node_answers_the_first_game(nodes):
    """A creation whose answer was lost (its node died) is retried on the other node with its
    Idempotency-Key: the same game and tokens, nothing created twice; sent to both nodes at
    once, the store's uniqueness leaves one game, and both answers carry its tokens."""
    from concurrent.futures import ThreadPoolExecutor

    a, b = HTTP(nodes[0].base), HTTP(nodes[1].base)
    body = {"ruleset": "corsairs-of-valeria", "chance": "server", "players": [{"name": "Retry A"}, {"name": "Retry B"}]}
    key = {"Idempotency-Key": f"create-{uuid.uuid4()}"}
    first = a.post("/games", body, headers=key)
    again = b.post("/games", body, headers=key)
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    assert again.json() == first.json() and again.headers["Idempotent-Replayed"] == "true"
    assert b.get(f"/games/{first.json()['id']}", again.json()["host_token"]).status_code == 200
    for attempt in range(5):
        raced = {**body, "players": [{"name": f"Race {attempt}"}, {"name": "Other"}]}
        key = {"Idempotency-Key": f"create-{uuid.uuid4()}"}
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda node, raced=raced, key=key: node.post("/games", raced, headers=key),
                                    (HTTP(a.base), HTTP(b.base))))
        assert [r.status_code for r in answers] == [201, 201], [r.text for r in answers]
        assert answers[0].json() == answers[1].json()
        assert len(listed(a, player=f"Race {attempt}")) == 1


def test_games_continue_on_the_other_node_when_one_is_killed_mid_game(nodes):
    a, b = nodes
    killed = []

    def kill_node_a(players: Players):
        time.sleep(4)
        os.killpg(a.process.pid, signal.SIGKILL)  # the master and its workers, at once
        killed.append(time.monotonic())

    players = Players(a.base, clients=4, timeout=5)
    players.run(6, during=kill_node_a)
    a.process.wait(10)
    assert killed and players.acks, players.statuses()
    assert not [s for s in players.statuses() if isinstance(s, int) and s >= 500], players.statuses()
    other = HTTP(b.base)
    # Every command A acknowledged is stored, and every game's log verifies, read through B.
    assert_every_ack_is_stored_and_every_game_verifies(other, players)
    rows = {g["id"]: g for g in listed(other)}
    assert set(players.games) <= set(rows)
    rng = random.Random(3)
    finish = next(iter(players.games))
    for game_id, host in players.games.items():
        path = f"/games/{game_id}"
        for _ in range(3000 if game_id == finish else 10):
            commands = other.get(path + "/legal-commands", host).json()["commands"]
            if not commands:
                break
            answer = other.post(path + "/commands", rng.choice(progressing(commands)), host,
                                {"Idempotency-Key": uuid.uuid4().hex})
            assert answer.status_code == 200, answer.text
        view = other.get(path, host).json()
        assert {g["id"]: g for g in listed(other)}[game_id]["version"] == view["version"]
    # The list says finished exactly for the games whose view does (random play may end a short
    # game besides the one played to its end).
    finished = {game_id for game_id, host in players.games.items()
                if other.get(f"/games/{game_id}", host).json()["status"] == "finished"}
    assert finish in finished
    assert {g["id"] for g in listed(other, status="finished")} == finished
    document = other.get(f"/games/{finish}/export", ARBITER).json()
    assert other.post("/verifications", document).json()["verdict"] == "valid"


def test_a_node_started_on_a_store_from_before_the_list_fills_it_before_it_listens(postgres_schema):
    """gunicorn's master fills the list (deploy/gunicorn.conf.py) before it opens its port and
    boots workers: while the filling waits (its lock is held here), the port refuses
    connections rather than queueing requests behind workers still booting. Then the games
    stored before are listed."""
    import socket
    import threading

    import psycopg

    from domain.registry import all_rulesets
    from service import listing
    from service.application import Parley
    from service.store import _key
    from tests.postgres.conftest import CONNINFO

    env = postgres_env(postgres_schema)
    app = Parley(all_rulesets(), env=env)
    games = [str(app.create_game("league-of-pirates", ["Anne", f"P{i}"], "server").game.id) for i in range(5)]
    app.close()
    node = Gunicorn(env, workers=2)
    with psycopg.connect(**CONNINFO) as holder:
        holder.execute(f'DROP TABLE "{postgres_schema}".{listing.PLAYERS}, "{postgres_schema}".{listing.GAMES}')
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (_key(f"parley-listing:{postgres_schema}"),))
        starting = threading.Thread(target=node.start, kwargs={"wait": 120}, daemon=True)
        starting.start()
        try:
            time.sleep(6)
            assert node.process.poll() is None
            with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", node.port), timeout=2):
                pass
            holder.commit()
            starting.join(120)
            assert [g["id"] for g in listed(HTTP(node.base))] == games
        finally:
            holder.rollback()
            starting.join(120)
            node.stop()
