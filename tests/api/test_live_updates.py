"""Push instead of polling: GET /games/{id}/stream (Server-Sent Events) and the long poll
GET /games/{id}/events?after=N&wait=S, served by a real HTTP server in this process.

Each test checks what a client relies on: every event after its position arrives once, in
order, with `id: <version>`, redacted exactly as /events redacts it for the same token; it
resumes with Last-Event-ID or ?after; comments keep an idle stream open; a finished game's
stream ends, and reconnecting to it answers 204 (an EventSource then stops). Events stored by
another process reach the stream through the poller (service/live.py): two applications on
one SQLite file here, two gunicorn nodes on PostgreSQL in tests/postgres/test_live_nodes.py.
"""
from __future__ import annotations

import random
import threading
import time

import pytest
import requests
from werkzeug.serving import make_server

from domain.registry import all_rulesets
from service import create_app
from tests.fakes.http import progressing
from tests.fakes.sse import Stream

ARRIVES_WITHIN = 2.0  # issue 17: every event reaches every open stream within 2 s of the answer


class Served:
    def __init__(self, app):
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.http = requests.Session()

    def close(self):
        self.server.shutdown()
        self.app.extensions["parley"].close()

    def create(self, ruleset="corsairs-of-valeria", players=("Ana", "Ben"), **extra) -> dict:
        answer = self.http.post(self.base + "/games", json={
            "ruleset": ruleset, "players": [{"name": p} for p in players], **extra})
        assert answer.status_code == 201, answer.text
        return answer.json()

    def stream(self, game: dict, token: str | None, **headers) -> Stream:
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        stream = Stream(f"{self.base}/games/{game['id']}/stream" + headers.pop("query", ""), {**auth, **headers})
        self.opened.append(stream)
        return stream

    def play(self, game: dict, commands: int, rng: random.Random) -> list[tuple[int, float]]:
        """Send random legal commands as the host: (version, time of the answer) for each."""
        host = {"Authorization": f"Bearer {game['host_token']}"}
        answered = []
        for _ in range(commands):
            legal = self.http.get(f"{self.base}/games/{game['id']}/legal-commands", headers=host).json()["commands"]
            if not legal:
                break
            sent = self.http.post(f"{self.base}/games/{game['id']}/commands", json=rng.choice(progressing(legal)),
                                  headers=host)
            assert sent.status_code == 200, sent.text
            answered.append((sent.json()["version"], time.monotonic()))
        return answered

    def events(self, game: dict, token: str, **params) -> requests.Response:
        return self.http.get(f"{self.base}/games/{game['id']}/events", params=params,
                             headers={"Authorization": f"Bearer {token}"})

    def log(self, game: dict, token: str) -> list[dict]:
        entries, after = [], 0
        while after is not None:
            page = self.events(game, token, after=after, limit=1000).json()
            entries += page["events"]
            after = page["next"]
        return entries


def make_app(**config):
    return create_app({"RULESETS": all_rulesets(), "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"},
                       "STREAM_HEARTBEAT_SECONDS": 0.5, **config})


@pytest.fixture
def served():
    served = Served(make_app())
    served.opened = []
    yield served
    for stream in served.opened:
        stream.close()
    served.close()


def tokens(game: dict) -> dict:
    return {"seat 0": game["seats"][0]["token"], "seat 1": game["seats"][1]["token"],
            "host": game["host_token"], "spectator": game["spectator_token"]}


def test_every_event_arrives_once_in_order_redacted_as_events_redacts_it(served):
    """Tesoros hides each hand: every token's stream shows exactly its own /events."""
    game = served.create("tesoros-del-rey-pirata", ("Ana", "Ben", "Cy"))
    streams = {who: served.stream(game, token) for who, token in tokens(game).items()}
    answered = served.play(game, 12, random.Random(4))
    last = answered[-1][0]
    for who, stream in streams.items():
        stream.wait_for(lambda s: s.messages and s.messages[-1].id == str(last))
        assert stream.status == 200 and stream.content_type.startswith("text/event-stream")
        assert stream.response_headers["Cache-Control"] == "no-store"
        assert stream.retry == 2000
        assert [m.id for m in stream.messages] == [str(v) for v in range(1, last + 1)], who
        assert [m.entry for m in stream.messages] == served.log(game, tokens(game)[who]), who
    # what is hidden differs by token: the streams are not all one
    assert streams["seat 0"].messages[1].entry != streams["seat 1"].messages[1].entry or \
        [m.entry for m in streams["seat 0"].messages] != [m.entry for m in streams["seat 1"].messages]


def test_each_event_arrives_within_two_seconds_of_the_commands_answer(served):
    game = served.create()
    stream = served.stream(game, game["spectator_token"])
    stream.wait_for(lambda s: len(s.messages) >= 1)
    for version, answered_at in served.play(game, 10, random.Random(1)):
        arrived = stream.arrival(version, ARRIVES_WITHIN + 1)
        assert arrived - answered_at <= ARRIVES_WITHIN, (version, arrived - answered_at)


def test_it_resumes_after_last_event_id_or_after(served):
    game = served.create()
    answered = served.play(game, 5, random.Random(2))
    last = answered[-1][0]
    resumed = served.stream(game, game["host_token"], **{"Last-Event-ID": "3", "query": "?after=1"})
    by_after = served.stream(game, game["host_token"], query="?after=4")
    # empty, as the contract allows (no event received yet): as if not sent, ?after applies
    empty = served.stream(game, game["host_token"], **{"Last-Event-ID": "", "query": "?after=2"})
    # An EventSource polyfill (a token needs one) reconnects with ?lastEventId=, its default name,
    # beside the URL's own ?after: it is the header's value, and the header beats it.
    polyfill = served.stream(game, game["host_token"], query="?after=1&lastEventId=2")
    both = served.stream(game, game["host_token"], **{"Last-Event-ID": "4", "query": "?lastEventId=1"})
    for stream, first in ((resumed, 4), (by_after, 5), (empty, 3), (polyfill, 3), (both, 5)):
        stream.wait_for(lambda s: s.messages and s.messages[-1].id == str(last))
        assert [m.id for m in stream.messages] == [str(v) for v in range(first, last + 1)]
    bad = served.http.get(f"{served.base}/games/{game['id']}/stream",
                          headers={"Authorization": f"Bearer {game['host_token']}", "Last-Event-ID": "seven"})
    assert bad.status_code == 400 and bad.headers["Content-Type"] == "application/problem+json"
    # A position past the latest version is a wrong cursor, said at once (an outside review's
    # stream with ?after=50 at version 6 waited, and would have skipped versions 7 to 50).
    for headers, query in (({}, f"?after={last + 1}"), ({"Last-Event-ID": str(last + 40)}, "?after=1"),
                           ({}, f"?after=1&lastEventId={last + 2}")):
        past = served.http.get(f"{served.base}/games/{game['id']}/stream{query}",
                               headers={"Authorization": f"Bearer {game['host_token']}", **headers})
        assert past.status_code == 404 and past.json()["code"] == "VERSION_NOT_FOUND", (headers, query)
    at_the_end = served.stream(game, game["host_token"], query=f"?after={last}")   # the end: it waits
    served.play(game, 1, random.Random(3))
    at_the_end.wait_for(lambda s: len(s.messages) >= 1)
    assert at_the_end.messages[0].id == str(last + 1)


def test_an_idle_stream_sends_comments_to_stay_open(served):
    game = served.create()
    stream = served.stream(game, game["seats"][0]["token"])
    stream.wait_for(lambda s: len(s.comments) >= 2, 5)
    assert not stream.ended and set(stream.comments) == {"keep-alive"}


def test_a_finished_games_stream_ends_and_reconnecting_answers_204(served):
    game = served.create("tesoros-del-rey-pirata", ("Ana", "Ben"))
    stream = served.stream(game, game["spectator_token"])
    host = {"Authorization": f"Bearer {game['host_token']}"}
    served.play(game, 3000, random.Random(5))  # until no command is legal: the end
    view = served.http.get(f"{served.base}/games/{game['id']}", headers=host).json()
    assert view["status"] == "finished"
    final = view["version"]
    stream.wait_for(lambda s: s.ended, 15)
    assert stream.messages[-1].id == str(final) and stream.messages[-1].entry["event"]["type"] == "GameEnded"
    again = served.http.get(f"{served.base}/games/{game['id']}/stream",
                            headers={**host, "Last-Event-ID": str(final)})
    assert again.status_code == 204 and again.text == ""
    assert "Content-Type" not in again.headers   # no body, so no type
    started = time.monotonic()   # a long poll at the end of a finished game: nothing will come
    polled = served.events(game, game["host_token"], after=final, wait=20)
    assert polled.json() == {"events": [], "next": None, "resume_after": final} and time.monotonic() - started < 10


def test_the_stream_answers_only_its_readers(served):
    private, public = served.create(), served.create(public=True)
    anonymous = served.stream(public, None)
    assert anonymous.until_status() == 200
    anonymous.wait_for(lambda s: len(s.messages) >= 1)
    for token, status in ((None, 401), ("x" * 43, 401)):
        answer = served.http.get(f"{served.base}/games/{private['id']}/stream",
                                 headers={"Authorization": f"Bearer {token}"} if token else {})
        assert answer.status_code == status and answer.headers["Content-Type"] == "application/problem+json"
    missing = served.http.get(f"{served.base}/games/{'0' * 8}-0000-4000-8000-{'0' * 12}/stream",
                              headers={"Authorization": f"Bearer {private['host_token']}"})
    assert missing.status_code == 404


def test_a_long_poll_answers_as_soon_as_an_event_is_stored(served):
    game = served.create()
    token = game["seats"][1]["token"]
    version = served.events(game, token).json()["events"][-1]["version"]
    answers = {}

    def poll():
        started = time.monotonic()
        answers["page"] = served.events(game, token, after=version, wait=20)
        answers["took"] = time.monotonic() - started

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.5)
    answered = served.play(game, 1, random.Random(3))
    poller.join(25)
    page = answers["page"].json()
    assert answers["page"].status_code == 200 and page["events"], page
    assert page["events"][0]["version"] == version + 1 and page["events"][-1]["version"] == answered[-1][0]
    assert page["events"] == served.log(game, token)[version:]
    assert answers["took"] < 20  # answered by the event, not by the end of the wait


def test_a_long_poll_loop_on_resume_after_gets_every_event_once_in_order(served):
    """An app's loop: `after = page["resume_after"]`, never null, from the first page on, while
    another seat plays; short pages, empty waits and pages that end the log included. It sees
    exactly the log (`next` alone is null at the end: no cursor to wait on)."""
    game = served.create()
    token = game["seats"][1]["token"]
    player = threading.Thread(target=served.play, args=(game, 12, random.Random(5)))
    player.start()
    seen, after, pages = [], 0, []
    while player.is_alive() or not pages or pages[-1]["events"]:
        page = served.events(game, token, after=after, wait=1, limit=3).json()
        assert page["resume_after"] == (page["events"][-1]["version"] if page["events"] else after), page
        seen += page["events"]
        pages.append(page)
        after = page["resume_after"]
    player.join()
    assert seen == served.log(game, token)
    assert any(not p["events"] for p in pages) and any(p["events"] and p["next"] is None for p in pages)


def test_a_long_poll_with_nothing_new_answers_empty_after_its_wait(served):
    game = served.create()
    token = game["host_token"]
    version = served.events(game, token).json()["events"][-1]["version"]
    started = time.monotonic()
    page = served.events(game, token, after=version, wait=1)
    assert page.status_code == 200 and page.json() == {"events": [], "next": None, "resume_after": version}
    assert time.monotonic() - started >= 1
    too_long = served.events(game, token, after=version, wait=31)
    assert too_long.status_code == 400
    started = time.monotonic()
    past_the_end = served.events(game, token, after=version + 5, wait=20)   # a wrong cursor: said so, at once
    assert past_the_end.status_code == 404 and past_the_end.json()["code"] == "VERSION_NOT_FOUND"
    assert time.monotonic() - started < 10


def test_events_stored_by_another_process_reach_the_stream(tmp_path):
    """Two applications on one SQLite file, as two gunicorn workers are: a command stored by
    one reaches a stream served by the other, found by its poller (service/live.py)."""
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "shared.sqlite")}
    one, other = Served(make_app(PERSISTENCE=store)), Served(make_app(PERSISTENCE=store))
    one.opened = other.opened = []
    try:
        game = one.create()
        stream = other.stream(game, game["spectator_token"])
        for version, answered_at in one.play(game, 6, random.Random(6)):
            arrived = stream.arrival(version, ARRIVES_WITHIN + 1)
            assert arrived - answered_at <= ARRIVES_WITHIN
        assert [m.entry for m in stream.messages] == one.log(game, game["spectator_token"])
        stream.close()
    finally:
        one.close()
        other.close()


def test_a_position_another_process_stored_is_no_wrong_cursor(tmp_path):
    """A reader told version N by one worker reads after N from another at once: the position is
    judged against what is stored, whoever stored it."""
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "shared.sqlite")}
    one, other = Served(make_app(PERSISTENCE=store)), Served(make_app(PERSISTENCE=store))
    one.opened = other.opened = []
    try:
        game = one.create()
        token = game["host_token"]
        assert other.events(game, token).status_code == 200      # the other process keeps the game now
        last = one.play(game, 4, random.Random(4))[-1][0]
        for after in (last - 1, last):
            page = other.events(game, token, after=after)
            assert page.status_code == 200 and [e["version"] for e in page.json()["events"]] == list(
                range(after + 1, last + 1))
        assert other.events(game, token, after=last + 1).status_code == 404
        stream = other.stream(game, token, query=f"?after={last - 1}")
        stream.wait_for(lambda s: len(s.messages) >= 1)
        assert stream.messages[0].id == str(last)
        stream.close()
    finally:
        one.close()
        other.close()

def test_a_worker_holds_at_most_max_streams_open_and_says_when_to_come_back():
    """Streams alone never take every connection a worker has: past MAX_STREAMS
    (PARLEY_MAX_STREAMS) a new one is 503 TOO_MANY_STREAMS with Retry-After, and a stream
    that closes makes room again. Commands and reads are still answered meanwhile."""
    served = Served(make_app(MAX_STREAMS=2))
    served.opened = []
    try:
        game = served.create()
        first, second = (served.stream(game, game["spectator_token"]) for _ in range(2))
        for stream in (first, second):
            stream.wait_for(lambda s: len(s.messages) >= 1)
        refused = served.http.get(f"{served.base}/games/{game['id']}/stream",
                                  headers={"Authorization": f"Bearer {game['spectator_token']}"}, timeout=10)
        assert refused.status_code == 503 and refused.json()["code"] == "TOO_MANY_STREAMS"
        assert refused.headers["Retry-After"] == "5" and refused.headers["Content-Type"] == "application/problem+json"
        assert served.play(game, 1, random.Random(8))  # commands still go through
        first.close()
        deadline = time.monotonic() + 10
        while served.app.extensions["parley"].live.streams > 1 and time.monotonic() < deadline:
            time.sleep(0.1)  # the server notices the closed stream at its next write (a keep-alive)
        third = served.stream(game, game["spectator_token"])
        assert third.until_status() == 200
        third.wait_for(lambda s: len(s.messages) >= 1)
    finally:
        for stream in served.opened:
            stream.close()
        served.close()


def test_a_draining_process_ends_its_streams_with_every_event_and_answers_its_long_polls(served):
    """What a worker told to stop does (service/serving.py Worker.handle_exit, service/live.py
    Hub.drain): its streams end once they hold every stored event, its long polls answer now,
    and a stream opened meanwhile gets what is stored and ends."""
    game = served.create()
    last = served.play(game, 4, random.Random(5))[-1][0]
    streams = [served.stream(game, token) for token in tokens(game).values()]
    for stream in streams:
        stream.wait_for(lambda s: s.messages and s.messages[-1].id == str(last))
    polled: dict = {}
    poll = threading.Thread(target=lambda: polled.update(
        answer=served.events(game, game["host_token"], after=last, wait=25)))
    poll.start()
    time.sleep(0.3)
    assert poll.is_alive() and not any(stream.ended for stream in streams)  # all waiting

    served.app.extensions["parley"].live.drain()
    poll.join(10)
    assert not poll.is_alive()
    assert polled["answer"].status_code == 200 and polled["answer"].json() == {"events": [], "next": None, "resume_after": last}
    for stream in streams:
        stream.wait_for(lambda s: s.ended)
        assert [m.id for m in stream.messages] == [str(v) for v in range(1, last + 1)]
    late = served.stream(game, game["spectator_token"], query="?after=2")
    late.wait_for(lambda s: s.ended)
    assert late.status == 200 and [m.id for m in late.messages] == [str(v) for v in range(3, last + 1)]
