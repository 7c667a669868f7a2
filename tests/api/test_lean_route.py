"""The command route without Flask's request context (service/api/commands.py LeanRoute)
answers exactly as Flask's path does.

Two apps play the same games with the same seeds, one with the lean route and one without
(LEAN_COMMAND_ROUTE False), and every answer is compared: status, every header, and the body
byte for byte, once what must differ between two apps is set aside (game ids, record times
and the hash chain's links, which cover the record times). Refusals are rendered by Flask
in both, so they are compared too, and the request log line and the rate limit with them.
"""
from __future__ import annotations

import hashlib
import io
import json
import logging
import random
import re

import pytest

import domain.chance
from domain.registry import all_rulesets
from service import create_app
from service.logs import JsonFormatter
from tests.fakes import hoard
from tests.fakes.http import bearer, progressing

RULESETS = {hoard.RULESET.id: hoard.RULESET, **all_rulesets()}
BUDGET = 400  # each app's whole budget a minute: spent by the last test's burst


@pytest.fixture
def apps(monkeypatch):
    # The same server seed for every game: both apps' games play alike.
    monkeypatch.setattr(domain.chance, "new_seed", lambda: hashlib.sha256(b"lean route").hexdigest())
    made = []
    for lean in (True, False):
        made.append(create_app({"RULESETS": RULESETS, "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"},
                                "SNAPSHOT_INTERVAL": 5, "LEAN_COMMAND_ROUTE": lean, "RATE_LIMITS": "on",
                                "RATE_LIMIT_DEFAULT": f"{BUDGET} per minute", "RATE_LIMIT_STORAGE": "memory://"}))
    lean_app, flask_app = made
    taken = []
    route = lean_app.lean_route

    def counting(environ, start_response):
        answered = route(environ, start_response)
        taken.append(answered is not None)
        return answered

    lean_app.lean_route = counting
    assert flask_app.lean_route is None
    yield lean_app, flask_app, taken
    for app in made:
        app.extensions["parley"].close()


class SlowBody(io.RawIOBase):
    """A request body whose client stopped sending: reading it times out, as gunicorn's does."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        from service.serving import BodyTimeout

        raise BodyTimeout(30)


class Lines(logging.Handler):
    """The request log lines as JsonFormatter writes them, formatted when logged (in the
    request: its request id and game id are in the line then)."""

    def __init__(self):
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[dict] = []

    def emit(self, record):
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def caplog():
    handler = Lines()
    logger = logging.getLogger("parley.requests")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel("INFO")
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


class Pair:
    """One game created alike in both apps; every request is sent to both and compared."""

    def __init__(self, apps, ruleset: str, caplog):
        self.lean, self.flask = (app.test_client() for app in apps)
        self.caplog = caplog
        body = {"ruleset": ruleset, "players": [{"name": "Kira"}, {"name": "Zoë"}], "chance": "server"}
        self.created = [client.post("/games", json=body).get_json() for client in (self.lean, self.flask)]
        assert all("id" in c for c in self.created), self.created
        self.path = [f"/games/{c['id']}/commands" for c in self.created]

    def token(self, side: int, who) -> dict:
        created = self.created[side]
        return bearer(created["host_token"] if who == "host" else created["seats"][who]["token"])

    def read(self, tail: str) -> dict:
        """A read, from both apps (each spends its budget alike); the lean app's answer."""
        answers = [client.get(f"/games/{c['id']}{tail}", headers=self.token(side, "host")).get_json()
                   for side, (client, c) in enumerate(zip((self.lean, self.flask), self.created, strict=True))]
        return answers[0]

    def send(self, command=None, who="host", headers=None, path_tail="", **kwargs) -> dict:
        answers, lines = [], []
        for side, client in enumerate((self.lean, self.flask)):
            self.caplog.lines.clear()
            sent_headers = {**self.token(side, who), "X-Request-ID": "compare-1", **(headers or {})}
            if command is not None:
                kwargs["json"] = command
            answers.append(client.post(self.path[side] + path_tail, headers=sent_headers, **kwargs))
            lines.append(list(self.caplog.lines))
        lean, flask = answers
        assert lean.status_code == flask.status_code, (command, lean.get_json(), flask.get_json())
        assert self._headers(lean, 0) == self._headers(flask, 1), command
        assert self._body(lean, 0) == self._body(flask, 1), command
        assert [self._line(line, 0) for line in lines[0]] == [self._line(line, 1) for line in lines[1]]
        assert len(lines[0]) == 1 and lines[0][0]["request_id"] == "compare-1"  # one line a request
        if lines[0][0]["path"].endswith("/commands"):  # the route matched: the line names the game
            assert "game_id" in lines[0][0]
        return lean.get_json()

    def _same(self, text: str, side: int) -> str:
        """What must differ between the two apps set aside: the game's id, the record times
        and the hash chain's links (they cover the times)."""
        text = text.replace(self.created[side]["id"], "<game>")
        text = re.sub(r'"recorded_at":"[^"]*"', '"recorded_at":"<time>"', text)
        return re.sub(r'"hash":"[0-9a-f]{64}"', '"hash":"<link>"', text)

    def _body(self, response, side: int) -> str:
        return self._same(response.get_data(as_text=True), side)

    def _headers(self, response, side: int) -> list:
        headers = []
        for name, value in response.headers.items():
            if name == "Content-Length":
                assert int(value) == len(response.get_data())
                continue
            if name == "X-RateLimit-Reset":
                value = "<reset>"  # a second apart at most: the clock moved between the two
            headers.append((name, value))
        return sorted(headers)

    def _line(self, line: dict, side: int) -> dict:
        line = {k: v for k, v in line.items() if k not in ("ts", "pid", "duration_ms")}
        return json.loads(self._same(json.dumps(line, separators=(",", ":")), side))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_answer_to_a_plain_command_is_the_one_flask_gives(apps, ruleset, caplog):
    lean_app, flask_app, taken = apps
    pair = Pair((lean_app, flask_app), ruleset, caplog)
    chosen = random.Random(ruleset)
    commands = 0
    for sent in range(24):
        legal = pair.read("/legal-commands")["commands"]
        if not legal:
            break
        command = chosen.choice(progressing(legal))
        headers: dict = {}
        if sent % 3 == 1:
            headers["Prefer"] = "return=minimal"
        if sent % 4 == 2:
            headers["If-Match"] = f'"{pair.read("")["version"]}"'
        if sent % 5 == 3:
            headers["Idempotency-Key"] = f"key-{sent}"
            pair.send(command, headers=headers)
            pair.send(command, headers=headers)  # the replay: Idempotent-Replayed
            commands += 2
            continue
        pair.send(command, headers=headers)
        commands += 1
    assert commands >= 3 and sum(taken) == commands  # the lean route answered every command


def test_refusals_and_requests_only_flask_takes_answer_alike(apps, caplog):
    lean_app, flask_app, taken = apps
    pair = Pair((lean_app, flask_app), hoard.RULESET.id, caplog)
    pair.send({"type": "draw", "seat": 0})
    # Refusals raised on the lean route, rendered by Flask in both apps:
    pair.send({"type": "draw", "seat": 1}, who=0)  # NOT_YOUR_SEAT
    pair.send({"type": "no_such_command", "seat": 0})  # 422
    pair.send({"type": "draw", "seat": 0, "extra": 1})  # the schema's 422
    pair.send({"type": "draw"})  # SEAT_REQUIRED
    pair.send({"type": "draw", "seat": 0, "expected_version": 1})  # VERSION_CONFLICT
    pair.send({"type": "draw", "seat": 0}, headers={"If-Match": '"1"'})  # 412
    pair.send({"type": "draw", "seat": 0}, headers={"Idempotency-Key": "bad key"})  # 400
    pair.send({"type": "draw", "seat": 0}, headers={"Authorization": "Bearer nope"})  # 401
    pair.send({"type": "draw", "seat": 0}, headers={"Authorization": "Basic x"})  # 401
    pair.send(None, headers={"Content-Type": "application/json; charset=utf-8"},
              data=json.dumps({"type": "stand", "seat": 0}))
    lean_refusals = sum(taken)
    # Requests the lean route leaves to Flask: a dry run, a body the schema must answer,
    # malformed JSON, another media type, a path only Flask routes.
    pair.send({"type": "draw", "seat": 1}, path_tail="?dry_run=true")
    pair.send({"type": "draw", "seat": "1"})  # 400: seat is not an integer
    pair.send([1, 2])
    pair.send(None, data=b'{"type": "draw",', headers={"Content-Type": "application/json"})
    pair.send(None, data=b'{"type":"draw","seat":0}', headers={"Content-Type": "text/plain"})
    pair.send({"type": "draw", "seat": 0}, path_tail="/")
    # Headers werkzeug reads otherwise than str methods would: a media type followed by a
    # no-break space (gunicorn passes it as latin-1), a length in other digits.
    pair.send(None, data=b'{"type":"draw","seat":0}', headers={"Content-Type": "application/json\xa0"})
    pair.send(None, data=b'{"type":"draw","seat":0}', headers={"Content-Type": "application/json"},
              environ_overrides={"CONTENT_LENGTH": "\u00b2"})
    pair.send(None, data=b'{"type":"draw","seat":0}', headers={"Content-Type": "application/json"},
              environ_overrides={"CONTENT_LENGTH": "\u0662\u0664"})
    assert sum(taken) == lean_refusals  # none of those was the lean route's
    # A body read too slowly (service/serving.py BodyTimeout): the 408 Flask's route gives,
    # after its hooks (the request id, the budget spent).
    pair.send(None, headers={"Content-Type": "application/json"},
              environ_overrides={"CONTENT_LENGTH": "30", "wsgi.input": SlowBody()})
    # A server that gives no REMOTE_ADDR: counted as "unknown" on both routes.
    pair.send({"type": "stand", "seat": 0}, environ_overrides={"REMOTE_ADDR": None})
    # An unknown game, with a token of another game.
    for side in (0, 1):
        pair.path[side] = "/games/00000000-0000-4000-8000-000000000000/commands"
    pair.send({"type": "draw", "seat": 0})  # 404
    # The whole budget spent: the refusal and its headers, on both routes.
    for side in (0, 1):
        pair.path[side] = f"/games/{pair.created[side]['id']}/commands"
    while True:
        answer = pair.send({"type": "no_such_command", "seat": 0})
        if answer["status"] == 429:
            break
        assert answer["status"] == 422
