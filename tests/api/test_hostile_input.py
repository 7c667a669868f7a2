"""A corpus of hostile requests. Each one must be refused with a 4xx problem+json (RFC 9457
members, a stable code), say nothing of the server's insides, and store nothing: the game's
version and its event count stay as they were, and no game appears in the listing.

The table is data: (name, request) -> (status, code). tests/postgres/test_hostile_live.py
sends part of it to gunicorn on PostgreSQL.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from http import HTTPStatus

import pytest

from tests.fakes.http import bearer, create

PROBLEM = "application/problem+json"
RFC9457 = ("type", "title", "status", "detail", "instance")
# What a body must never show: a stack trace, a source path, or the libraries underneath.
INTERNALS = ("Traceback", "File \"", ".py", "/srv/", "/work/", "site-packages", "psycopg",
             "sqlalchemy", "sqlite", "eventsourcing", "werkzeug", "marshmallow", "webargs",
             "RecursionError", "ValueError", "KeyError", "TypeError", "UnicodeEncodeError",
             "Exception", "0x7f")

JSON = "application/json"
# A problem's title names its status as RFC 9110 section 15 does: three of Python's phrases are
# the names RFC 9110 replaced.
RFC9110_TITLES = {413: "Content Too Large", 414: "URI Too Long", 422: "Unprocessable Content"}
NEW_GAME = {"ruleset": "hidden-hoard", "players": [{"name": "Kira"}, {"name": "David"}]}


@dataclass
class Hostile:
    """One hostile request. `path` may hold {game} (the game's id); `token` is "host",
    "seat0", "seat1", "none", or any other string sent as it is."""

    method: str
    path: str
    status: int
    code: str
    body: bytes | None = None
    content_type: str | None = JSON
    token: str = "host"
    headers: dict = field(default_factory=dict)


def raw(text: str) -> bytes:
    return text.encode("utf-8")


def command(**fields) -> bytes:
    return json.dumps({"type": "draw", "seat": 0, **fields}).encode()


def new_game(**fields) -> bytes:
    return json.dumps({**NEW_GAME, **fields}).encode()


def named(*names: str) -> bytes:
    return json.dumps({**NEW_GAME, "players": [{"name": n} for n in names]}).encode()


CMD = "/games/{game}/commands"
GAME = "/games/{game}"

CORPUS: dict[str, Hostile] = {
    # Not JSON at all, or not the JSON we take -------------------------------------------
    "malformed json": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('{"type": "draw",')),
    "json with trailing garbage": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('{"type": "draw"} x')),
    "single quotes": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw("{'type': 'draw'}")),
    "empty body": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", b""),
    "body is null": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw("null")),
    "body is an array": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('[{"type": "draw"}]')),
    "body is a string": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('"draw"')),
    "not utf-8": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", b'{"type": "dr\xff\xfeaw", "seat": 0}'),
    "utf-16 declared": Hostile("POST", CMD, 415, "UNSUPPORTED_MEDIA_TYPE", '{"type": "draw"}'.encode("utf-16"),
                               content_type="application/json; charset=utf-16"),
    "byte-order mark": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", b"\xef\xbb\xbf" + command()),
    "creation not json": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", raw("{ruleset: hidden-hoard}")),
    # Wrong content type ------------------------------------------------------------------
    "text/plain": Hostile("POST", CMD, 415, "UNSUPPORTED_MEDIA_TYPE", command(), content_type="text/plain"),
    "no content type": Hostile("POST", CMD, 415, "UNSUPPORTED_MEDIA_TYPE", command(), content_type=None),
    "form encoded": Hostile("POST", CMD, 415, "UNSUPPORTED_MEDIA_TYPE", raw("type=draw&seat=0"),
                            content_type="application/x-www-form-urlencoded"),
    "xml": Hostile("POST", "/games", 415, "UNSUPPORTED_MEDIA_TYPE", raw("<game/>"), content_type="application/xml"),
    "JSON labelled UTF-16": Hostile("POST", "/games", 415, "UNSUPPORTED_MEDIA_TYPE", new_game(),
                                    content_type="application/json; charset=utf-16"),
    "a command labelled Latin-1": Hostile("POST", CMD, 415, "UNSUPPORTED_MEDIA_TYPE", raw('{"type": "draw", "seat": 0}'),
                                          content_type="application/json; charset=latin-1"),
    "multipart": Hostile("POST", CMD, 415, "UNSUPPORTED_MEDIA_TYPE",
                         raw('--b\r\nContent-Disposition: form-data; name="type"\r\n\r\ndraw\r\n--b--\r\n'),
                         content_type="multipart/form-data; boundary=b"),
    # Too large -----------------------------------------------------------------------------
    "command over 1 MiB": Hostile("POST", CMD, 413, "BODY_TOO_LARGE",
                                  command(padding="x" * (1024 * 1024))),
    "creation over 1 MiB": Hostile("POST", "/games", 413, "BODY_TOO_LARGE",
                                   new_game(options={"hand_limit": 2, "x": "y" * (1024 * 1024)})),
    # Too deep --------------------------------------------------------------------------------
    "100k levels of [": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw("[" * 100_000)),
    "100k levels, closed": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw("[" * 100_000 + "]" * 100_000)),
    "deep inside a command": Hostile("POST", CMD, 400, "MALFORMED_REQUEST",
                                     raw('{"type": "draw", "seat": 0, "x": ' + "[" * 5000 + "]" * 5000 + "}")),
    "deep objects in options": Hostile("POST", "/games", 400, "MALFORMED_REQUEST",
                                       raw(new_game().decode()[:-1] + ', "options": '
                                           + '{"a": ' * 900 + "1" + "}" * 900 + "}")),
    "100k levels of a creation, closed": Hostile("POST", "/games", 400, "MALFORMED_REQUEST",
                                                 raw("[" * 100_000 + "]" * 100_000)),
    "5k levels of objects in a creation": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", raw('{"a": ' * 5000)),
    "deep verification": Hostile("POST", "/verifications", 400, "MALFORMED_REQUEST", raw("[" * 100_000)),
    "deep replay": Hostile("POST", "/replays", 400, "MALFORMED_REQUEST", raw('{"a": ' * 50_000)),
    # Names twice in one object (readers differ on which wins) -------------------------------
    "seat named twice": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('{"type": "draw", "seat": 1, "seat": 0}')),
    "a name twice inside options": Hostile("POST", "/games", 400, "MALFORMED_REQUEST",
                                           raw(new_game().decode()[:-1] + ', "options": {"a": {"b": 1, "b": 2}}}')),
    # Numbers ---------------------------------------------------------------------------------
    "seat 1e400": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('{"type": "draw", "seat": 1e400}')),
    "seat with 5000 digits": Hostile("POST", CMD, 400, "MALFORMED_REQUEST",
                                     raw('{"type": "draw", "seat": ' + "9" * 5000 + "}")),
    "expected_version with 5000 digits": Hostile("POST", CMD, 400, "MALFORMED_REQUEST",
                                                 raw('{"type": "draw", "seat": 0, "expected_version": '
                                                     + "1" * 5000 + "}")),
    "seat NaN": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('{"type": "draw", "seat": NaN}')),
    "expected_version Infinity": Hostile("POST", CMD, 400, "MALFORMED_REQUEST",
                                         raw('{"type": "draw", "seat": 0, "expected_version": Infinity}')),
    "-Infinity in options": Hostile("POST", "/games", 400, "MALFORMED_REQUEST",
                                    raw(new_game().decode()[:-1] + ', "options": {"hand_limit": -Infinity}}')),
    "seat -0.0": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('{"type": "draw", "seat": -0.0}')),
    "seat 1.5": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(seat=1.5)),
    "seat true": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(seat=True)),
    "seat as a string": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(seat="0")),
    "seat -1": Hostile("POST", CMD, 422, "NO_SUCH_SEAT", command(seat=-1)),
    "seat 2 of 2": Hostile("POST", CMD, 422, "NO_SUCH_SEAT", command(seat=2)),
    "seat 2**63": Hostile("POST", CMD, 422, "NO_SUCH_SEAT", command(seat=2**63)),
    "another seat's seat, -0": Hostile("POST", CMD, 403, "NOT_YOUR_SEAT",
                                       raw('{"type": "draw", "seat": -0}'), token="seat1"),
    # expected_version and If-Match -----------------------------------------------------------
    "expected_version -1": Hostile("POST", CMD, 409, "VERSION_CONFLICT", command(expected_version=-1)),
    "expected_version 0": Hostile("POST", CMD, 409, "VERSION_CONFLICT", command(expected_version=0)),
    "expected_version in the future": Hostile("POST", CMD, 409, "VERSION_CONFLICT", command(expected_version=10**18)),
    "expected_version 5.5": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(expected_version=5.5)),
    "expected_version as a string": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(expected_version="5")),
    "expected_version null": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(expected_version=None)),
    "If-Match -1": Hostile("POST", CMD, 412, "VERSION_MISMATCH", command(), headers={"If-Match": '"-1"'}),
    "If-Match 0": Hostile("POST", CMD, 412, "VERSION_MISMATCH", command(), headers={"If-Match": '"0"'}),
    "If-Match in the future": Hostile("POST", CMD, 412, "VERSION_MISMATCH", command(), headers={"If-Match": '"99999"'}),
    "If-Match 5.0": Hostile("POST", CMD, 412, "VERSION_MISMATCH", command(), headers={"If-Match": '"5.0"'}),
    "If-Match weak": Hostile("POST", CMD, 412, "VERSION_MISMATCH", command(), headers={"If-Match": 'W/"5"'}),
    "If-Match garbage": Hostile("POST", CMD, 412, "VERSION_MISMATCH", command(), headers={"If-Match": '"", ,;"'}),
    # Commands the rules do not know, or that do not fit -----------------------------------
    "unknown command type": Hostile("POST", CMD, 422, "UNKNOWN_COMMAND", command(type="summon_kraken")),
    "type is a number": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(type=7)),
    "type is null": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", command(type=None)),
    "no type": Hostile("POST", CMD, 400, "MALFORMED_REQUEST", raw('{"seat": 0}')),
    "unknown field": Hostile("POST", CMD, 422, "INVALID_COMMAND", command(kraken=True)),
    "dice on a server game": Hostile("POST", CMD, 422, "CHANCE_FROM_SERVER",
                                     command(type="roll_bonus", dice=["6"])),
    "unknown creation field": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", new_game(kraken=1)),
    "unknown ruleset": Hostile("POST", "/games", 422, "INVALID_GAME", new_game(ruleset="no-such-game")),
    "unknown chance mode": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", new_game(chance="dice-bag")),
    "unknown option": Hostile("POST", "/games", 422, "INVALID_GAME", new_game(options={"kraken": 1})),
    "too many players": Hostile("POST", "/games", 422, "INVALID_GAME", named(*"ABCDE")),
    # Unicode oddities --------------------------------------------------------------------
    "lone surrogate in a command": Hostile("POST", CMD, 400, "MALFORMED_REQUEST",
                                           raw('{"type": "\\ud800", "seat": 0}')),
    "lone surrogate as a key": Hostile("POST", CMD, 400, "MALFORMED_REQUEST",
                                       raw('{"type": "draw", "seat": 0, "\\udfff": 1}')),
    "lone surrogate in a name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST",
                                        raw('{"ruleset": "hidden-hoard", "players": [{"name": "\\ud800"}, {"name": "B"}]}')),
    "reversed surrogate pair": Hostile("POST", "/games", 400, "MALFORMED_REQUEST",
                                       raw('{"ruleset": "hidden-hoard", "players": [{"name": "\\ude00\\ud83d"}, {"name": "B"}]}')),
    "NUL in a name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", named("Ki\x00ra", "David")),
    "newline in a name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", named("Kira\nAdmin", "David")),
    "right-to-left override in a name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST",
                                                named("\u202eariK", "David")),
    "byte-order mark in a name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", named("\ufeffKira", "David")),
    "zero-width space in a name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", named("Ki\u200bra", "David")),
    "65-character name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", named("K" * 65, "David")),
    "10k-character name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", named("\U0001F3F4" * 10_000, "David")),
    "empty name": Hostile("POST", "/games", 400, "MALFORMED_REQUEST", named("", "David")),
    "NUL in a command type": Hostile("POST", CMD, 422, "UNKNOWN_COMMAND", command(type="dr\x00aw")),
    "NUL in the ruleset": Hostile("POST", "/games", 422, "INVALID_GAME", new_game(ruleset="hidden-hoard\x00")),
    # Wrong methods -----------------------------------------------------------------------
    "PUT a command": Hostile("PUT", CMD, 405, "METHOD_NOT_ALLOWED", command()),
    "DELETE a game": Hostile("DELETE", GAME, 405, "METHOD_NOT_ALLOWED", None, content_type=None),
    "PATCH a game": Hostile("PATCH", GAME, 405, "METHOD_NOT_ALLOWED", command()),
    "GET the commands": Hostile("GET", CMD, 405, "METHOD_NOT_ALLOWED", None, content_type=None),
    "POST the events": Hostile("POST", "/games/{game}/events", 405, "METHOD_NOT_ALLOWED", command()),
    "DELETE the games": Hostile("DELETE", "/games", 405, "METHOD_NOT_ALLOWED", None, content_type=None),
    "POST a ruleset": Hostile("POST", "/rulesets/hidden-hoard", 405, "METHOD_NOT_ALLOWED", new_game()),
    # Bad ids -----------------------------------------------------------------------------
    "not a uuid": Hostile("GET", "/games/not-a-uuid", 404, "NOT_FOUND", None, content_type=None),
    "uuid too long": Hostile("POST", "/games/{game}0/commands", 404, "NOT_FOUND", command()),
    "uuid with a traversal": Hostile("GET", "/games/..%2F..%2Fetc%2Fpasswd", 404, "NOT_FOUND", None, content_type=None),
    "no such game": Hostile("POST", "/games/00000000-0000-4000-8000-000000000000/commands", 404,
                            "GAME_NOT_FOUND", command()),
    "no such ruleset": Hostile("GET", "/rulesets/%00%ff", 404, "RULESET_NOT_FOUND", None, content_type=None),
    # Reading at versions -----------------------------------------------------------------
    "?version=-1": Hostile("GET", GAME + "?version=-1", 400, "MALFORMED_REQUEST", None, content_type=None),
    "?version=0": Hostile("GET", GAME + "?version=0", 400, "MALFORMED_REQUEST", None, content_type=None),
    "?version past the end": Hostile("GET", GAME + "?version=1000000", 404, "VERSION_NOT_FOUND", None, content_type=None),
    "?version=2**63": Hostile("GET", GAME + f"?version={2**63}", 404, "VERSION_NOT_FOUND", None, content_type=None),
    "?version with 5000 digits": Hostile("GET", GAME + "?version=" + "9" * 5000, 400, "MALFORMED_REQUEST",
                                         None, content_type=None),
    "?version=1e3": Hostile("GET", GAME + "?version=1e3", 400, "MALFORMED_REQUEST", None, content_type=None),
    "?version=NaN": Hostile("GET", GAME + "?version=NaN", 400, "MALFORMED_REQUEST", None, content_type=None),
    # Query-string garbage ----------------------------------------------------------------
    "?after=-1 on events": Hostile("GET", "/games/{game}/events?after=-1", 400, "MALFORMED_REQUEST",
                                   None, content_type=None),
    "?limit=0 on events": Hostile("GET", "/games/{game}/events?limit=0", 400, "MALFORMED_REQUEST",
                                  None, content_type=None),
    "?limit=10**6 on events": Hostile("GET", "/games/{game}/events?limit=1000000", 400, "MALFORMED_REQUEST",
                                      None, content_type=None),
    "?after=%00 on events": Hostile("GET", "/games/{game}/events?after=%00", 400, "MALFORMED_REQUEST",
                                    None, content_type=None),
    "?dry_run=maybe": Hostile("POST", CMD + "?dry_run=maybe", 400, "MALFORMED_REQUEST", command()),
    "?limit=NaN on games": Hostile("GET", "/games?limit=NaN", 400, "MALFORMED_REQUEST", None, content_type=None),
    "?after=not-a-uuid on games": Hostile("GET", "/games?after=%ff%fe", 400, "MALFORMED_REQUEST",
                                          None, content_type=None),
    "?status=everything on games": Hostile("GET", "/games?status=everything", 400, "MALFORMED_REQUEST",
                                           None, content_type=None),
    "?at=0 on replays": Hostile("POST", "/replays?at=0", 400, "MALFORMED_REQUEST", raw("{}")),
    "?seat=-1 on replays": Hostile("POST", "/replays?seat=-1", 400, "MALFORMED_REQUEST", raw("{}")),
    # Tokens -------------------------------------------------------------------------------
    "no token": Hostile("POST", CMD, 401, "UNAUTHENTICATED", command(), token="none"),
    "basic auth": Hostile("POST", CMD, 401, "UNAUTHENTICATED", command(), token="none",
                          headers={"Authorization": "Basic a2lyYTpodW50ZXIy"}),
    "token of NULs": Hostile("GET", GAME, 401, "UNAUTHENTICATED", None, content_type=None, token="none",
                             headers={"Authorization": "Bearer \x00\x00"}),
    "100 kB token": Hostile("GET", GAME, 401, "INVALID_TOKEN", None, content_type=None, token="A" * 100_000),
    "seat acting for another seat": Hostile("POST", CMD, 403, "NOT_YOUR_SEAT", command(seat=1), token="seat0"),
}


class Target:
    """Sends corpus entries to a Flask test client or to a live server (requests)."""

    def __init__(self, client, live_base: str | None = None):
        self.client = client
        self.base = live_base

    def send(self, game, entry: Hostile):
        headers = dict(entry.headers)
        if entry.token == "host":
            headers.update(game.host)
        elif entry.token.startswith("seat") and entry.token[4:].isdigit():
            headers.update(game.seat(int(entry.token[4:])))
        elif entry.token != "none":
            headers.update(bearer(entry.token))
        if entry.content_type is not None:
            headers["Content-Type"] = entry.content_type
        path = entry.path.replace("{game}", game.id)
        if self.base is None:
            response = self.client.open(path, method=entry.method, data=entry.body, headers=headers)
            return response.status_code, response.headers, response.get_data()
        response = self.client.request(entry.method, self.base + path, data=entry.body,
                                       headers=headers, timeout=60)
        return response.status_code, response.headers, response.content


def log_of(game) -> tuple[int, int]:
    """The game's version and how many events its log holds, as the host reads them."""
    view = game.view()
    return view["version"], len(game.all_events())


def listed(client) -> list[str]:
    return [g["id"] for g in client.get("/games", query_string={"limit": 200}).get_json()["games"]]


def check_refusal(name: str, entry: Hostile, status: int, headers, body: bytes) -> dict:
    assert status == entry.status, (name, status, body[:300])
    assert headers["Content-Type"] == PROBLEM, (name, headers["Content-Type"])
    problem = json.loads(body)
    for member in RFC9457 + ("code",):
        assert member in problem, (name, member, problem)
    assert problem["status"] == status and problem["code"] == entry.code, (name, problem)
    assert problem["title"] == RFC9110_TITLES.get(status, HTTPStatus(status).phrase), (name, problem["title"])
    assert problem["type"].endswith("/" + entry.code.lower().replace("_", "-")) or problem["type"].endswith(
        "/" + problem["code"].lower().replace("_", "-")), problem
    text = body.decode("utf-8", "replace")
    for leak in INTERNALS:
        assert leak not in text, (name, leak, text[:500])
    return problem


@pytest.fixture
def played(client):
    """A Hidden Hoard game at version 5 (creation and its setup events), nothing sent yet."""
    game = create(client)
    assert game.view()["version"] == 5
    return game


@pytest.mark.parametrize("name", list(CORPUS))
def test_a_hostile_request_is_a_clean_4xx_problem_and_stores_nothing(client, played, name):
    entry = CORPUS[name]
    games_before, log_before = listed(client), log_of(played)
    status, headers, body = Target(client).send(played, entry)
    check_refusal(name, entry, status, headers, body)
    assert log_of(played) == log_before
    assert listed(client) == games_before


def test_the_corpus_covers_every_route_and_every_refusal_status():
    statuses = {e.status for e in CORPUS.values()}
    assert statuses >= {400, 401, 403, 404, 405, 409, 412, 413, 415, 422}
    paths = {e.path.split("?")[0] for e in CORPUS.values()}
    assert {"/games", GAME, CMD, "/games/{game}/events", "/verifications", "/replays"} <= paths


def test_hostile_commands_to_a_finished_game_are_refused_and_store_nothing(client):
    import random

    game = create(client)
    game.play_to_the_end(random.Random(3))
    before = log_of(game)
    for body in ({"type": "draw", "seat": 0}, {"type": "stand", "seat": 1},
                 {"type": "summon_kraken", "seat": 0}, {"type": "draw", "seat": 0, "expected_version": before[0]}):
        response = game.send(body)
        problem = check_refusal("finished", Hostile("POST", CMD, 422, response.get_json()["code"]),
                                response.status_code, response.headers, response.get_data())
        assert problem["code"] in ("GAME_FINISHED", "UNKNOWN_COMMAND")
    assert game.send({"type": "draw", "seat": 0}).get_json()["code"] == "GAME_FINISHED"
    assert game.send({"type": "draw", "seat": 0}, headers={"If-Match": f'"{before[0]}"'}).status_code == 422
    assert log_of(game) == before


def test_a_hostile_dry_run_stores_nothing_either(client, played):
    before = log_of(played)
    for body in ({"type": "draw", "seat": 0}, {"type": "summon_kraken", "seat": 0}):
        played.client.post(f"/games/{played.id}/commands?dry_run=true", json=body, headers=played.host)
    assert log_of(played) == before


def test_a_body_under_the_limit_but_deep_enough_to_matter_is_still_taken_when_shallow(client, played):
    """The depth limit refuses abuse, not ordinary documents: 60 levels of a harmless field
    reach the command's own schema check (422), not the JSON guard (400)."""
    nested = {"type": "draw", "seat": 0, "x": json.loads("[" * 60 + "]" * 60)}
    response = played.send(nested)
    assert response.status_code == 422 and response.get_json()["code"] == "INVALID_COMMAND"
    emoji = client.post("/games", json={**NEW_GAME, "players": [{"name": "Kira \U0001F3F4\u200d\u2620\ufe0f"},
                                                                  {"name": "\u05d3\u05d5\u05d3"}]})
    assert emoji.status_code == 201, emoji.get_json()
