"""The hostile corpus against the real thing: gunicorn from the Procfile on PostgreSQL. And
the token and secret tests again with games stored in PostgreSQL (every row of the schema is
searched for a plaintext token)."""
from __future__ import annotations

import json
from dataclasses import replace

import requests

from tests.api.test_hostile_input import CORPUS, Target, check_refusal
from tests.api.test_tokens_and_secrets import *  # noqa: F401,F403
from tests.fakes.http import Seated, bearer
from tests.postgres.test_gunicorn import server  # noqa: F401

# requests will not send a header holding NUL. Two entries never reach Parley on the real
# server: gunicorn refuses a request line over 4094 bytes (414) and a header over 8190 (431)
# itself, answering a problem too (deploy/gunicorn.conf.py).
LIVE = [name for name in CORPUS if name != "token of NULs"]
BY_THE_HTTP_SERVER = {"100 kB token": (431, "HEADERS_TOO_LARGE"),
                      "?version with 5000 digits": (414, "URI_TOO_LONG")}
FOR_THE_FAKE = {"dice on a server game", "unknown field", "unknown option", "too many players"}


class LiveGame(Seated):
    """A created game (its id and tokens, as Seated has them) on the live server."""

    def __init__(self, base: str, created: dict):
        super().__init__(client=None, created=created)
        self.base, self.session = base, requests.Session()

    def log(self) -> tuple[int, int]:
        view = self.session.get(f"{self.base}/games/{self.id}", headers=self.host, timeout=30).json()
        events = self.session.get(f"{self.base}/games/{self.id}/events", headers=self.host,
                                  params={"limit": 1000}, timeout=30).json()["events"]
        return view["version"], len(events)


def listed(base: str) -> list[str]:
    return [g["id"] for g in requests.get(f"{base}/games", params={"limit": 200}, timeout=30).json()["games"]]


def test_the_hostile_corpus_against_gunicorn_and_postgres(server):  # noqa: F811
    created = requests.post(f"{server.base}/games", timeout=30, json={
        "ruleset": "corsairs-of-valeria", "players": [{"name": "Kira"}, {"name": "David"}]})
    assert created.status_code == 201, created.text
    game = LiveGame(server.base, created.json())
    before, games_before = game.log(), listed(server.base)
    target = Target(game.session, server.base)
    for name in LIVE:
        entry = CORPUS[name]
        if entry.body is not None:   # the fake's "draw" is Corsairs' "roll_dice"
            entry = replace(entry, body=entry.body.replace(b'"type": "draw"', b'"type": "roll_dice"'))
        status, headers, body = target.send(game, entry)
        if name in BY_THE_HTTP_SERVER:
            entry = replace(entry, status=BY_THE_HTTP_SERVER[name][0], code=BY_THE_HTTP_SERVER[name][1])
        if name in FOR_THE_FAKE:
            # Written for the Hidden Hoard fake (its commands and options): Corsairs answers
            # with its own code; it must still be a clean 4xx problem that stores nothing.
            entry = replace(entry, status=status, code=json.loads(body)["code"])
            assert 400 <= status < 500, (name, status, body[:300])
        check_refusal(name, entry, status, headers, body)
    assert game.log() == before
    assert listed(server.base) == games_before


def test_an_events_cursor_past_any_bigint_is_version_not_found_on_postgres(server):  # noqa: F811
    """The cursor goes to PostgreSQL as it is (no upper bound in the contract): a value past
    bigint is past the game's latest version, 404 VERSION_NOT_FOUND, not a database error."""
    created = requests.post(f"{server.base}/games", timeout=30, json={
        "ruleset": "corsairs-of-valeria", "players": [{"name": "Kira"}, {"name": "David"}]}).json()
    for after in (2**63, 10**40):
        page = requests.get(f"{server.base}/games/{created['id']}/events", params={"after": after},
                            headers=bearer(created["host_token"]), timeout=30)
        assert page.status_code == 404 and page.json()["code"] == "VERSION_NOT_FOUND", page.text


def test_the_http_servers_own_refusals_carry_the_headers_every_answer_carries(server):  # noqa: F811
    """docs/api.md: every answer, errors included, is no-store, carries the security headers and a
    request id. gunicorn's own 414 and 431 are written by service/errors.py problem_bytes, which
    the outside audit found without them."""
    for params, headers, status in (({"player": "a" * 5000}, {}, 414), ({}, {"X-Big": "b" * 9000}, 431)):
        answer = requests.get(f"{server.base}/games", params=params, headers=headers, timeout=30)
        assert answer.status_code == status, answer.text
        assert answer.headers["Content-Type"] == "application/problem+json"
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
        assert len(answer.headers["X-Request-ID"]) == 32
