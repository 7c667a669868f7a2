"""A web app on its own site calls Parley from the browser (CORS): every answer may be read by
any origin (credentials are bearer tokens, never cookies), the headers an app needs are exposed,
and a preflight names the route's methods and the request headers a page may send."""
from __future__ import annotations

from tests.fakes.http import create

ORIGIN = {"Origin": "https://spectators.example"}


def exposed(answer) -> set[str]:
    return {h.strip().lower() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}


def test_every_answer_may_be_read_by_a_page_of_any_site(client):
    game = create(client)
    answers = [client.get("/rulesets", headers=ORIGIN),
               client.get(f"/games/{game.id}", headers={**ORIGIN, **game.seat(0)}),
               client.get(f"/games/{game.id}", headers=ORIGIN),                       # 401
               client.post(f"/games/{game.id}/commands", json={"type": "nope"}, headers={**ORIGIN, **game.host}),
               client.get("/no-such-route", headers=ORIGIN)]
    assert [a.status_code for a in answers] == [200, 200, 401, 422, 404]
    for answer in answers:
        assert answer.headers["Access-Control-Allow-Origin"] == "*"
        assert "Access-Control-Allow-Credentials" not in answer.headers
        assert {"etag", "location", "link", "retry-after", "x-ratelimit-remaining", "x-request-id",
                "preference-applied", "idempotent-replayed"} <= exposed(answer)


def test_an_accepted_command_carries_them_too(client):
    game = create(client)
    command = game.legal(game.seat(0))[0]
    answer = client.post(f"/games/{game.id}/commands", json=command, headers={**ORIGIN, **game.seat(0)})
    assert answer.status_code == 200 and answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "etag" in exposed(answer)


def test_a_preflight_allows_the_routes_methods_and_the_headers_an_app_sends(client):
    game = create(client)
    answer = client.options(f"/games/{game.id}/commands", headers={
        **ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key, prefer"})
    assert answer.status_code == 204 and answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in answer.headers["Access-Control-Allow-Headers"].split(",")}
    # X-Request-ID too: docs/api.md invites an app to send its own (an outside review found it missing)
    assert {"authorization", "content-type", "idempotency-key", "prefer", "if-match", "last-event-id",
            "x-request-id"} <= allowed
    assert int(answer.headers["Access-Control-Max-Age"]) > 0
    plain = client.options(f"/games/{game.id}/commands")          # not a preflight
    assert "Access-Control-Allow-Methods" not in plain.headers


def test_options_answers_no_content_with_the_methods_allowed(client):
    """OPTIONS has nothing to say but its headers: 204, with neither a body nor a content type
    (Flask's own answer is an empty text/html page), on any route, preflight or not."""
    game = create(client)
    for path in ("/games", f"/games/{game.id}/commands", "/rulesets"):
        for headers in ({}, {**ORIGIN, "Access-Control-Request-Method": "GET"}):
            answer = client.options(path, headers=headers)
            assert answer.status_code == 204, path
            assert answer.data == b"" and "Content-Type" not in answer.headers, path
            assert "Content-Length" not in answer.headers, path
            assert "OPTIONS" in answer.headers["Allow"] and len(answer.headers["Allow"].split(",")) >= 2, path
