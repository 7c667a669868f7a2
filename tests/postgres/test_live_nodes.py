"""Live updates across nodes: two gunicorn servers from the Procfile (gevent workers, two each)
on one PostgreSQL database. Streams opened on either node, for seats, the host and the
spectator, receive every event of a game played through the other node (and through their
own), each within 2 s of the command's answer, redacted exactly as that token's /events; a
long poll on one node is answered by a command stored through the other."""
from __future__ import annotations

import random
import threading
import time

import pytest

from tests.fakes.http import progressing
from tests.fakes.sse import Stream
from tests.postgres.live import HTTP

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

ARRIVES_WITHIN = 2.0


def log(http: HTTP, game_id: str, token: str) -> list[dict]:
    entries, after = [], 0
    while after is not None:
        page = http.get(f"/games/{game_id}/events?after={after}&limit=1000", token).json()
        entries += page["events"]
        after = page["next"]
    return entries


def test_every_event_reaches_every_stream_on_both_nodes_within_two_seconds(nodes):
    a, b = HTTP(nodes[0].base), HTTP(nodes[1].base)
    created = a.post("/games", {"ruleset": "tesoros-del-rey-pirata", "chance": "server",
                                "players": [{"name": n} for n in ("Ana", "Ben", "Cy")]})
    assert created.status_code == 201, created.text
    game = created.json()
    readers = {"seat 0": game["seats"][0]["token"], "seat 2": game["seats"][2]["token"],
               "host": game["host_token"], "spectator": game["spectator_token"]}
    streams = [(who, node, Stream(f"{node.base}/games/{game['id']}/stream", {"Authorization": f"Bearer {token}"}))
               for who, token in readers.items() for node in (a, b)]
    try:
        for _, _, stream in streams:
            assert stream.until_status() == 200
        rng, host = random.Random(7), game["host_token"]
        answered = []
        for step in range(16):
            node = (a, b)[step % 3 == 0]  # mostly through A; the streams on A hear B's too
            legal = node.get(f"/games/{game['id']}/legal-commands", host).json()["commands"]
            sent = node.post(f"/games/{game['id']}/commands", rng.choice(progressing(legal)), host)
            assert sent.status_code == 200, sent.text
            answered.append((sent.json()["version"], time.monotonic()))
        for version, at in answered:
            for who, node, stream in streams:
                arrived = stream.arrival(version, ARRIVES_WITHIN + 3)
                assert arrived - at <= ARRIVES_WITHIN, (who, node.base, version, arrived - at)
        for who, node, stream in streams:
            assert [m.entry for m in stream.messages] == log(b, game["id"], readers[who]), (who, node.base)
    finally:
        for _, _, stream in streams:
            stream.close()


def test_a_long_poll_on_one_node_is_answered_by_a_command_on_the_other(nodes):
    a, b = HTTP(nodes[0].base), HTTP(nodes[1].base)
    game = a.post("/games", {"ruleset": "corsairs-of-valeria", "chance": "server",
                             "players": [{"name": "Ana"}, {"name": "Ben"}]}).json()
    token = game["seats"][1]["token"]
    version = a.get(f"/games/{game['id']}", token).json()["version"]
    answer = {}

    def poll():
        started = time.monotonic()
        answer["page"] = b.get(f"/games/{game['id']}/events?after={version}&wait=25", token)
        answer["took"] = time.monotonic() - started

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(1)
    command = a.get(f"/games/{game['id']}/legal-commands", game["host_token"]).json()["commands"][0]
    assert a.post(f"/games/{game['id']}/commands", command, game["host_token"]).status_code == 200
    poller.join(30)
    page = answer["page"].json()
    assert page["events"] and page["events"][0]["version"] == version + 1
    assert answer["took"] < 25


def test_the_moved_games_events_are_read_in_one_query_on_postgres(persistence):
    from domain.registry import all_rulesets
    from service import create_app
    from tests.api.test_events_after_query import assert_reads_events_after

    app = create_app({"RULESETS": all_rulesets(), "PERSISTENCE": persistence})
    try:
        assert_reads_events_after(app)
    finally:
        app.extensions["parley"].close()
