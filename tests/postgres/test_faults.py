"""Faults and load against the real service (gunicorn from the Procfile, PostgreSQL).

Racing clients, many games at once, a worker killed with SIGKILL, and PostgreSQL stopped
under load: nothing acknowledged is lost, nothing is half-applied (every game's log
re-adjudicates to itself), and the service answers with problem+json instead of hanging.

Durations are short in the suite; PARLEY_FAULT_SECONDS sets the load phases' length for a
longer run (scripts/faults runs them for a minute).
"""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from tests.postgres.conftest import postgres_env
from tests.postgres.live import (
    ARBITER,
    HTTP,
    Gunicorn,
    Players,
    assert_every_ack_is_stored_and_every_game_verifies,
    private_cluster_or_fail,
)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SECONDS = float(os.environ.get("PARLEY_FAULT_SECONDS", "12"))
PROBLEM = "application/problem+json"


@pytest.fixture
def gunicorn(postgres_schema):
    server = Gunicorn(postgres_env(postgres_schema)).start()
    try:
        yield server
    finally:
        server.stop()


def new_game(http: HTTP) -> tuple[str, str]:
    created = http.post("/games", {"ruleset": "corsairs-of-valeria", "chance": "server",
                                   "players": [{"name": "Kira"}, {"name": "David"}]})
    assert created.status_code == 201, created.text
    return f"/games/{created.json()['id']}", created.json()["host_token"]


@pytest.mark.parametrize("precondition", ["expected_version", "If-Match"])
def test_fifty_clients_send_the_same_command_at_once_and_exactly_one_is_accepted(gunicorn, precondition):
    http = HTTP(gunicorn.base)
    path, host = new_game(http)
    version = http.get(path, host).json()["version"]
    command = http.get(path + "/legal-commands", host).json()["commands"][0]
    barrier, statuses, lock = threading.Barrier(50), [], threading.Lock()

    def send():
        client = HTTP(gunicorn.base)
        barrier.wait()
        if precondition == "If-Match":
            response = client.post(path + "/commands", command, host, {"If-Match": f'"{version}"'})
        else:
            response = client.post(path + "/commands", {**command, "expected_version": version}, host)
        with lock:
            statuses.append(response.status_code)

    threads = [threading.Thread(target=send) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    loser = 409 if precondition == "expected_version" else 412
    assert statuses.count(200) == 1 and statuses.count(200) + statuses.count(loser) == 50, statuses
    document = http.get(path + "/export", ARBITER).json()
    verdict = http.post("/verifications", document).json()
    assert verdict["verdict"] == "valid" and document["version"] > version


def test_many_games_played_at_once_answer_no_5xx_and_lose_nothing(gunicorn):
    players = Players(gunicorn.base, clients=8)
    players.run(SECONDS)
    statuses = players.statuses()
    assert not [s for s in statuses if not isinstance(s, int) or s >= 500], statuses
    assert len(players.acks) > 50 and len(players.games) >= 8, statuses
    assert_every_ack_is_stored_and_every_game_verifies(HTTP(gunicorn.base), players)


def test_a_worker_killed_under_load_loses_nothing_acknowledged(gunicorn):
    killed = []

    def kill_one_worker(players: Players):
        time.sleep(SECONDS / 3)
        victim = gunicorn.workers()[0]
        os.kill(victim, signal.SIGKILL)
        killed.append((victim, time.monotonic()))

    players = Players(gunicorn.base, clients=6)
    players.run(SECONDS, during=kill_one_worker)
    (victim, at), = killed
    statuses = players.statuses()
    # A dropped connection is allowed; a server error is not.
    assert not [s for s in statuses if isinstance(s, int) and s >= 500], statuses
    assert [a for a in players.acks], statuses
    assert any(a.started > at and a.status == 200 for a in players.answers), "no recovery"
    deadline = time.monotonic() + 30
    while len(gunicorn.workers()) < 3 or victim in gunicorn.workers():
        assert time.monotonic() < deadline, "gunicorn did not replace the killed worker"
        time.sleep(0.2)
    assert_every_ack_is_stored_and_every_game_verifies(HTTP(gunicorn.base), players)


def test_postgres_stopped_under_load_gives_quick_503s_then_recovers_by_itself():
    cluster = private_cluster_or_fail()
    try:
        cluster.start()
        server = Gunicorn(cluster.env()).start()
        try:
            outage: dict = {}

            # played before the stop, with the database down (each request must be answered
            # within 5 s of being sent), and after the restart (the first success within 5 s):
            # the players stop when this has run, so each phase is as long as it says here
            before, down, after = 2, 6, max(SECONDS / 2, 7)

            def stop_the_database(players: Players):
                time.sleep(before)
                outage["stopped"] = time.monotonic()
                cluster.stop()
                time.sleep(down)
                ready = HTTP(server.base).session.get(server.base + "/readyz", timeout=10)
                outage["readyz"] = (ready.status_code, ready.headers.get("Retry-After"))
                cluster.start()
                outage["started"] = time.monotonic()
                time.sleep(after)

            players = Players(server.base, clients=4, timeout=15)
            players.run(0, during=stop_the_database)
            http = HTTP(server.base)
            assert http.session.get(server.base + "/readyz").status_code == 200
            assert_every_ack_is_stored_and_every_game_verifies(http, players)
        finally:
            server.stop()
    finally:
        cluster.remove()

    assert outage["readyz"][0] == 503 and outage["readyz"][1]
    down = [a for a in players.answers
            if outage["stopped"] + 1 < a.started and a.started + a.seconds < outage["started"]]
    assert down, "no request was answered while the database was down"
    for answer in down:
        assert answer.status == 503, answer
        assert answer.content_type == PROBLEM and answer.retry_after, answer
        assert answer.body["code"] == "STORE_UNAVAILABLE"
    # No hanging: every request sent while the database was down was answered quickly.
    during = [a for a in players.answers if outage["stopped"] < a.started < outage["started"]]
    assert max(a.seconds for a in during) < 5, [(round(a.started - outage["stopped"], 2), round(a.seconds, 2), a.status) for a in during]
    # Nothing but 503 (or success before the stop took effect) at any time, and recovery
    # within a few seconds of the database's return.
    assert not [a for a in players.answers if isinstance(a.status, int) and a.status >= 500
                and a.status != 503], players.statuses()
    back = [a for a in players.answers if a.started > outage["started"] and a.status == 200]
    print(f"outage: {len(down)} answers while down, slowest {max(a.seconds for a in during):.2f} s; "
          f"first success {min(a.started for a in back) - outage['started']:.2f} s after the "
          f"restart; statuses {players.statuses()}")
    assert back and min(a.started for a in back) - outage["started"] < 5, players.statuses()
