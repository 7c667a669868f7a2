"""The real thing: gunicorn started from the Procfile, on PostgreSQL, played over HTTP."""
from __future__ import annotations

import random

import pytest

from tests.fakes.http import progressing
from tests.postgres.conftest import postgres_env
from tests.postgres.live import HTTP, Gunicorn


@pytest.fixture
def server(postgres_schema):
    gunicorn = Gunicorn(postgres_env(postgres_schema)).start()
    try:
        yield HTTP(gunicorn.base)
    finally:
        gunicorn.stop()


def all_events(server: HTTP, path: str, token: str) -> list[dict]:
    events, after = [], 0
    while after is not None:
        page = server.get(path + "/events", token, params={"after": after, "limit": 500})
        assert page.status_code == 200
        events += page.json()["events"]
        after = page.json()["next"]
        if after is not None:
            assert page.headers["Link"].endswith('; rel="next"')
    return events


def test_a_whole_corsairs_game_is_played_over_http_against_gunicorn_and_postgres(server):
    created = server.post("/games", {"ruleset": "corsairs-of-valeria", "chance": "server",
                                     "players": [{"name": "Kira"}, {"name": "David"}]})
    assert created.status_code == 201, created.text
    game = created.json()
    path, host = f"/games/{game['id']}", game["host_token"]
    rng = random.Random(4)
    # The server's seed differs per run: of 300 games with this policy the longest took 3,261
    # commands (docs: tests/contract/test_generated_client.py); the loop ends with the game.
    for _ in range(10000):
        commands = server.get(path + "/legal-commands", host).json()["commands"]
        if not commands:
            break
        sent = server.post(path + "/commands", rng.choice(progressing(commands)), host)
        assert sent.status_code == 200, sent.text
    view = server.get(path, game["seats"][0]["token"])
    assert view.status_code == 200 and view.json()["status"] == "finished"
    assert view.headers["ETag"] == f'"{view.json()["version"]}"'
    assert view.json()["result"]["winners"]
    assert [e["version"] for e in all_events(server, path, host)] == list(range(1, view.json()["version"] + 1))


def test_metrics_add_up_every_worker_and_every_log_line_is_json(postgres_schema):
    import json
    from concurrent.futures import ThreadPoolExecutor

    from tests.api.test_operations import sample

    gunicorn = Gunicorn(postgres_env(postgres_schema)).start()
    try:
        server = HTTP(gunicorn.base)
        created = server.post("/games", {"ruleset": "league-of-pirates",
                                         "players": [{"name": "Kira"}, {"name": "David"}]})
        assert created.status_code == 201
        game = created.json()
        path, host = f"/games/{game['id']}", game["host_token"]

        def read(i):
            answer = HTTP(gunicorn.base).get(path, host, headers={"X-Request-ID": f"count-{i}"})
            return answer.status_code, answer.headers["X-Request-ID"]

        def serving_pids() -> set:
            logged = [json.loads(line) for line in gunicorn.log_path.read_text().splitlines()
                      if line.startswith("{")]
            return {line["pid"] for line in logged if line.get("request_id", "").startswith("count-")}

        # Concurrent requests on fresh connections, until more than one worker has served
        # some (the kernel decides which worker accepts a connection).
        sent = 0
        with ThreadPoolExecutor(6) as pool:
            while sent == 0 or (len(serving_pids()) < 2 and sent < 600):
                answers = list(pool.map(read, range(sent, sent + 30)))
                assert answers == [(200, f"count-{i}") for i in range(sent, sent + 30)]
                sent += 30
        assert len(serving_pids()) > 1, f"{sent} requests, all served by one worker"
        command = server.get(path + "/legal-commands", host).json()["commands"][0]
        first = server.post(path + "/commands", command, host, {"Idempotency-Key": "live-1"})
        again = server.post(path + "/commands", command, host, {"Idempotency-Key": "live-1"})
        assert first.status_code == again.status_code == 200
        assert again.headers["Idempotent-Replayed"] == "true" and again.json() == first.json()
        text = server.session.get(gunicorn.base + "/metrics").text
        assert sample(text, "parley_http_requests_total", method="GET",
                      route="/games/<uuid:game_id>", status="200") == sent
        assert sample(text, "parley_http_requests_total", method="POST", route="/games",
                      status="201") == 1
        assert sample(text, "parley_command_duration_seconds_count", ruleset="league-of-pirates",
                      outcome="replayed") == 1
    finally:
        gunicorn.stop()
    lines = [json.loads(line) for line in gunicorn.log_path.read_text().splitlines() if line.strip()]
    counted = [line for line in lines if line.get("request_id", "").startswith("count-")]
    assert len(counted) == sent and {line["game_id"] for line in counted} == {game["id"]}
    assert all(line["logger"] == "parley.requests" and line["status"] == 200 for line in counted)
    assert any(line["logger"].startswith("gunicorn") for line in lines)


def test_a_large_body_the_app_refuses_unread_closes_the_connection_and_says_so(server):
    # A body refused before it came whole would be read as the connection's next request:
    # the answer says "Connection: close" and ends it (service/serving.py).
    import http.client
    import json
    from urllib.parse import urlsplit

    address = urlsplit(server.base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    body = json.dumps({"ruleset": "corsairs-of-valeria", "players": [{"name": "x" * (2 << 20)}]})
    connection.request("POST", "/games", body=body, headers={"Content-Type": "application/json"})
    refused = connection.getresponse()
    refused.read()
    assert refused.status == 413 and refused.getheader("Connection") == "close"
    connection.close()
    # A small body refused unread keeps the connection: gunicorn drains it.
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    for _ in range(3):
        connection.request("POST", "/games/00000000-0000-0000-0000-000000000000/commands",
                           body=json.dumps({"type": "x", "pad": "y" * 30000}),
                           headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 401 and answer.getheader("Connection") != "close"
    connection.close()


def test_a_kept_alive_connection_is_closed_after_keepalive_requests(postgres_schema):
    """deploy/gunicorn.conf.py answers the 200th request on a connection with "Connection:
    close", so that connections opened while the server was idle (which can all land on one
    worker) are opened again, and spread, under load."""
    import http.client

    gunicorn = Gunicorn(postgres_env(postgres_schema), workers=2).start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", gunicorn.port, timeout=30)
        closes = []
        for _ in range(201):
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 200
            closes.append(answer.getheader("Connection") == "close")
        # http.client opened a new connection for the 201st request.
        assert closes == [False] * 199 + [True, False]
        connection.close()
    finally:
        gunicorn.stop()
