"""Private answers are never cached: every answer, success or error, says Cache-Control:
no-store, but for the public documents that opt in (service.PUBLIC_ENDPOINTS)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from service import DATA_POLICY, PAGE_POLICY, create_app, send_public_file
from tests.fakes import hoard
from tests.fakes.http import bearer, create

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"

PROBLEM = "application/problem+json"
UNKNOWN_GAME = "00000000-0000-4000-8000-000000000000"
# The same for everyone, secret to no one: the only answers a cache may keep (and revalidate).
PUBLIC = {"rulesets.list_rulesets", "rulesets.get_ruleset", "api-docs.openapi_json", "replays.viewer",
          "static"}
NEW_GAME = {"ruleset": hoard.RULESET.id, "players": [{"name": "Kira"}, {"name": "David"}]}


def successes(client) -> dict[str, list[tuple[str, str, dict]]]:
    """For every endpoint, requests a seat, the host or anyone sends that succeed."""
    game = create(client)
    seat, path = game.seat(0), f"/games/{game.id}"
    export = client.get(f"{path}/export", headers=game.host).get_json()
    return {
        "games.create_game": [("POST", "/games", {"json": NEW_GAME})],
        "games.list_games": [("GET", "/games", {})],
        "games.get_game": [("GET", path, {"headers": seat}), ("GET", f"{path}?version=2", {"headers": seat}),
                           ("GET", path, {"headers": game.host})],
        "events.list_events": [("GET", f"{path}/events", {"headers": seat})],
        "events.stream_events": [("GET", f"{path}/stream", {"headers": seat})],
        "legal_commands.list_legal_commands": [("GET", f"{path}/legal-commands", {"headers": seat})],
        "exports.export_game": [("GET", f"{path}/export", {"headers": seat}),
                                ("GET", f"{path}/export", {"headers": game.host})],
        "commands.send_command": [("POST", f"{path}/commands?dry_run=true", {"headers": seat, "json": {"type": "draw"}}),
                                  ("POST", f"{path}/commands", {"headers": seat, "json": {"type": "draw"}})],
        "replays.replay_export": [("POST", "/replays?at=3", {"json": export})],
        "verifications.verify_export": [("POST", "/verifications", {"json": export})],
        "rulesets.list_rulesets": [("GET", "/rulesets", {})],
        "rulesets.get_ruleset": [("GET", f"/rulesets/{hoard.RULESET.id}", {})],
        "api-docs.openapi_json": [("GET", "/openapi.json", {})],
        "replays.viewer": [("GET", "/viewer", {})],
        "static": [("GET", "/static/viewer.js", {}), ("GET", "/static/viewer.css", {})],
        "operations.health": [("GET", "/healthz", {})],
        "operations.readiness": [("GET", "/readyz", {})],
        "operations.metrics": [("GET", "/metrics", {})],
    }


def failures(app, client) -> list[tuple[str, str, dict]]:
    """For every route and method of the app: the ways a request to it can go wrong."""
    game = create(client)
    other = create(client)
    values = {"game_id": game.id, "ruleset_id": hoard.RULESET.id, "filename": "viewer.js"}
    adapter = app.url_map.bind("localhost")
    out = []
    for rule in app.url_map.iter_rules():
        path = adapter.build(rule.endpoint, {a: values[a] for a in rule.arguments})
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out += [(method, path, {}),                                       # no token
                    (method, path, {"headers": bearer("not-a-token")}),
                    (method, path, {"headers": other.host}),                  # another game's token
                    (method, path, {"headers": game.seat(1), "data": b"{",   # not JSON
                                    "content_type": "application/json"}),
                    (method, path, {"headers": game.seat(1), "data": b"x", "content_type": "text/plain"}),
                    (method, path, {"headers": game.seat(1), "json": {"type": "stand"}}),  # not its turn
                    (method, path, {"headers": game.seat(1), "json": {"no": "type"}}),
                    (method, path.replace(game.id, UNKNOWN_GAME), {"headers": game.seat(1)})]
            if rule.endpoint == "rulesets.get_ruleset":
                out.append((method, "/rulesets/no-such-game", {}))
        out.append(("DELETE", path, {"headers": game.host}))                 # 405
    out += [("GET", f"/games/{game.id}?version=999", {"headers": game.seat(0)}),  # no such version
            ("POST", "/replays?at=999", {"json": client.get(f"/games/{game.id}/export",
                                                            headers=game.host).get_json()}),
            ("GET", "/no/such/path", {"headers": game.host}),
            ("GET", "/static/no-such-file.js", {})]
    return out


def expected(endpoint: str | None, status: int) -> str:
    return "no-cache" if endpoint in PUBLIC and status < 400 else "no-store"


@pytest.fixture
def app(persistence):
    app = create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "PERSISTENCE": persistence,
                      "METRICS_TOKEN": "metrics-token"})
    yield app
    app.extensions["parley"].close()


def test_every_endpoint_is_checked_with_a_request_that_succeeds(app, client):
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    missing = endpoints - set(successes(client))
    assert not missing, f"add a succeeding request for {missing} to successes(), and decide: public?"


def test_what_a_seat_or_host_is_answered_is_never_stored(app, client):
    checked = set()
    for endpoint, requests in successes(client).items():
        for method, path, kwargs in requests:
            if endpoint == "operations.metrics":
                kwargs = {"headers": bearer("metrics-token")}
            response = client.open(path, method=method, **kwargs)
            assert response.status_code < 300, (method, path, response.get_json())
            assert response.headers["Cache-Control"] == expected(endpoint, response.status_code), (method, path)
            answered_tokens = response.is_json and "host_token" in response.get_json()
            if "headers" in kwargs or answered_tokens:  # whatever a token reads or a token itself
                assert response.headers["Cache-Control"] == "no-store", (method, path)
            checked.add(endpoint)
    assert checked == {rule.endpoint for rule in app.url_map.iter_rules()}


def test_every_error_of_every_route_is_never_stored(app, client):
    statuses = set()
    for method, path, kwargs in failures(app, client):
        response = client.open(path, method=method, **kwargs)
        if response.status_code < 400:
            continue  # this way of going wrong does not apply to this route
        statuses.add(response.status_code)
        assert response.content_type == PROBLEM, (method, path, response.status_code)
        assert response.headers["Cache-Control"] == "no-store", (method, path, response.status_code)
    assert {400, 401, 404, 405, 415, 422} <= statuses, statuses


def test_a_public_document_is_stored_only_to_be_revalidated(client):
    viewer = client.get("/viewer")
    assert viewer.headers["Cache-Control"] == "no-cache" and viewer.headers["ETag"]
    again = client.get("/viewer", headers={"If-None-Match": viewer.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "no-cache"
    assert client.get("/rulesets").headers["Cache-Control"] == "no-cache"
    assert client.get("/rulesets/nope").headers["Cache-Control"] == "no-store"  # errors never



def test_a_304_carries_the_security_policy_of_the_answer_it_revalidates(client):
    """A cache puts a 304's headers on the copy it keeps (RFC 9111 4.3.4): the viewer's page
    keeps the page's policy, and data (a ruleset, a script, a game's view or export) the data
    policy, though a 304 has no body and so no type of its own."""
    game = create(client)
    cases = {"/viewer": PAGE_POLICY, "/rulesets": DATA_POLICY, "/static/viewer.js": DATA_POLICY,
             f"/games/{game.id}": DATA_POLICY, f"/games/{game.id}/export": DATA_POLICY}
    for path, policy in cases.items():
        auth = game.host if path.startswith("/games") else {}
        first = client.get(path, headers=auth)
        assert first.status_code == 200 and first.headers["Content-Security-Policy"] == policy, path
        again = client.get(path, headers={**auth, "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.headers["Content-Security-Policy"] == policy, path


@pytest.mark.parametrize("path, file", [("/viewer", "viewer.html"), ("/static/viewer.js", "viewer.js"),
                                        ("/static/boards/svg.js", "boards/svg.js")])
def test_the_viewers_files_are_tagged_with_a_digest_of_their_contents(app, client, path, file, tmp_path):
    """Two nodes serving the same build from different checkouts give a file the same ETag, so a
    cache behind a balancer revalidates it on any node (docs/api.md): the tag is a digest of the
    contents, not of the file's path or modification time (an outside review found Werkzeug's)."""
    source = STATIC / file
    tag = client.get(path).headers["ETag"]
    assert tag == f'"{hashlib.sha256(source.read_bytes()).hexdigest()[:32]}"'
    other = tmp_path / "checkout" / file   # the same file in another checkout, written a day later
    other.parent.mkdir(parents=True)
    other.write_bytes(source.read_bytes())
    os.utime(other, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 86_400 * 10**9))
    with app.test_request_context(path, headers={"If-None-Match": tag}):
        again = send_public_file(str(tmp_path / "checkout"), file)   # conditional on the request, as served
        assert (again.status_code, again.headers["ETag"]) == (304, tag)
    assert client.get("/static/no-such.js").status_code == 404
    assert client.get("/static/../__init__.py").status_code == 404


@pytest.mark.parametrize("path", ["/rulesets", f"/rulesets/{hoard.RULESET.id}"])
def test_a_ruleset_is_revalidated_with_its_etag_for_a_304(client, path):
    """A client keeps a ruleset (about 20 KB) and asks again with If-None-Match: 304, no body,
    while it is unchanged; any other tag gets the whole answer, with the same ETag."""
    first = client.get(path)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag.startswith('"') and first.headers["Cache-Control"] == "no-cache"
    same = client.get(path, headers={"If-None-Match": tag})
    assert (same.status_code, same.data, same.headers["ETag"]) == (304, b"", tag)
    assert same.headers["Cache-Control"] == "no-cache"
    assert client.get(path, headers={"If-None-Match": "W/" + tag}).status_code == 304   # weak comparison
    other = client.get(path, headers={"If-None-Match": '"0"'})
    assert other.status_code == 200 and other.get_json() == first.get_json() and other.headers["ETag"] == tag


def test_a_rulesets_etag_is_of_its_contents():
    """Two rulesets' answers have different tags; two servers serving the same rulesets give the
    same tag, so a cache in front of several nodes revalidates across them."""
    a, b = create_app(), create_app()
    tags = {client.get(f"/rulesets/{rid}").headers["ETag"] for client in (a.test_client(),)
            for rid in ("corsairs-of-valeria", "league-of-pirates")}
    assert len(tags) == 2
    assert a.test_client().get("/rulesets").headers["ETag"] == b.test_client().get("/rulesets").headers["ETag"]


@pytest.mark.parametrize("path", ["/games", "/healthz", "/readyz"])
def test_public_but_changing_answers_are_not_stored_either(client, path):
    assert client.get(path).headers["Cache-Control"] == "no-store"
