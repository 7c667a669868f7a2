"""The real thing: gunicorn started from the Procfile, on PostgreSQL, played over HTTP."""
from __future__ import annotations

import random
import threading

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
    for _ in range(3000):
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


def test_two_clients_racing_on_one_version_across_workers_one_wins(server):
    created = server.post("/games", {"ruleset": "corsairs-of-valeria",
                                     "players": [{"name": "Kira"}, {"name": "David"}]}).json()
    path, host = f"/games/{created['id']}", created["host_token"]
    for round_ in range(5):
        version = server.get(path, host).json()["version"]
        commands = server.get(path + "/legal-commands", host).json()["commands"]
        if not commands:
            break
        barrier, statuses = threading.Barrier(2), []

        def send(body, precondition):
            client = HTTP(server.base)
            barrier.wait()
            if precondition == "If-Match":
                response = client.post(path + "/commands", body, host, {"If-Match": f'"{version}"'})
            else:
                response = client.post(path + "/commands", {**body, "expected_version": version}, host)
            statuses.append(response.status_code)

        kinds = ["If-Match", "expected_version"]
        threads = [threading.Thread(target=send, args=(commands[0], kinds[(round_ + i) % 2])) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) in ([200, 409], [200, 412]), statuses
        assert server.get(path, host).json()["version"] > version
    events = all_events(server, path, host)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
