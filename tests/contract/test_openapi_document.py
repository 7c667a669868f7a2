"""openapi.yaml is the HTTP contract: it must be exactly what the app serves."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from service import create_app

ROOT = Path(__file__).resolve().parents[2]
REGENERATE = ("PERSISTENCE_MODULE=eventsourcing.popo flask --app 'service:create_app()' "
              "openapi write --format yaml openapi.yaml")


def served() -> dict:
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    return app.test_client().get("/openapi.json").get_json()


def test_the_committed_openapi_yaml_is_what_the_app_serves():
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert committed == served(), f"openapi.yaml is stale; regenerate it with: {REGENERATE}"


def test_the_contract_is_valid_openapi_3_0_3_as_a_strict_validator_reads_it():
    document = served()
    assert document["openapi"] == "3.0.3"
    validate(document)
    # A 3.1 keyword in a 3.0 document (as the stream's schema once had) is refused: the check can fail.
    document["components"]["schemas"]["StreamMessage"]["properties"]["data"]["contentMediaType"] = "application/json"
    with pytest.raises(OpenAPIValidationError):
        validate(document)


def test_every_error_response_is_documented_as_problem_json():
    document = served()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            errors = {int(s) for s in operation["responses"] if int(s) >= 400}
            if operation["operationId"] not in ("listRulesets", "replayViewer", "health"):  # nothing to get wrong there
                assert errors, f"{method} {path} documents no error"
            assert "default" not in operation["responses"]
    for name, response in document["components"]["responses"].items():
        assert list(response["content"]) == ["application/problem+json"], name


def test_a_new_game_links_to_every_game_operation_with_its_tokens():
    created = served()["paths"]["/games"]["post"]["responses"]["201"]
    assert "content" in created and "Location" in created["headers"]
    targets = {link["operationId"] for link in created["links"].values()}
    assert targets == {"getGame", "listEvents", "listLegalCommands", "sendCommand", "exportGame"}


def test_an_export_links_to_its_verification():
    exported = served()["paths"]["/games/{game_id}/export"]["get"]["responses"]["200"]
    assert exported["links"]["VerifyThisExport"]["operationId"] == "verifyExport"


def test_every_kind_of_401_carries_the_www_authenticate_the_contract_declares():
    """RFC 6750 section 3: a 401 names the Bearer scheme. The contract requires the header on
    every 401, with a pattern; each way to earn one answers with a header that matches it."""
    import re

    header = served()["components"]["responses"]["UNAUTHORIZED"]["headers"]["WWW-Authenticate"]
    assert header["required"] is True
    pattern = re.compile(header["schema"]["pattern"])
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}, "METRICS_TOKEN": "m" * 40})
    client = app.test_client()
    created = client.post("/games", json={"ruleset": "corsairs-of-valeria", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                          "chance": "server"}).get_json()
    game = f"/games/{created['id']}"
    refusals = {
        "no token on a private game": client.get(game),
        "a token of no game": client.get(f"{game}/events", headers={"Authorization": "Bearer " + "x" * 43}),
        "a command without a token": client.post(f"{game}/commands", json={"type": "roll"}),
        "metrics without their token": client.get("/metrics"),
        "metrics with another token": client.get("/metrics", headers={"Authorization": "Bearer wrong"}),
    }
    seen = set()
    for what, answer in refusals.items():
        assert answer.status_code == 401, (what, answer.status_code)
        value = answer.headers.get("WWW-Authenticate", "")
        assert pattern.match(value), (what, value)
        seen.add(value)
    # both realms and the invalid_token error are among them: the pattern is not met by one shape only
    assert any('realm="parley-metrics"' in v for v in seen) and any('error="invalid_token"' in v for v in seen)
    assert not pattern.match("Basic realm=\"parley\"")


@pytest.mark.parametrize("operation, header", [
    ("sendCommand", "If-Match"), ("sendCommand", "Idempotency-Key"), ("sendCommand", "Prefer"),
    ("createGame", "Idempotency-Key"), ("getGame", "If-None-Match"), ("streamEvents", "Last-Event-ID"),
    ("listRulesets", "If-None-Match"), ("getRuleset", "If-None-Match"),
])
def test_each_request_header_an_operation_honours_is_declared_on_it(operation, header):
    """A generated client sends only the headers the contract declares: one the server honours but
    the contract leaves out (getGame's If-None-Match, which its 304 depends on) is out of reach."""
    document = served()
    found = [op for ops in document["paths"].values() for op in ops.values()
             if isinstance(op, dict) and op.get("operationId") == operation]
    assert len(found) == 1, operation
    declared = {p["name"] for p in found[0].get("parameters", []) if p["in"] == "header"}
    assert header in declared, (operation, sorted(declared))
    if operation == "getGame":   # the hand-written list keeps the query parameter as the schema gives it
        from marshmallow.validate import Range

        from service.api.games import VersionQuerySchema
        field = VersionQuerySchema._declared_fields["version"]
        least = next(v.min for v in field.validators if isinstance(v, Range))
        (version,) = [p for p in found[0]["parameters"] if p["in"] == "query"]
        assert (version["name"], version["schema"]) == ("version", {"type": "integer", "minimum": least})
        assert version["description"] == field.metadata["description"]


def test_every_answer_declares_its_request_id_and_a_counted_ones_its_budget():
    """Every answer carries X-Request-ID, and every answer of an operation the rate limits
    count (one that may answer 429) its budget's X-RateLimit-* (tests/api/test_rate_limits.py
    sees them on served answers): the contract says so on each, not on the 429 alone."""
    document = served()
    headers = document["components"]["headers"]
    assert headers["X-Request-ID"]["required"] is True
    budget = {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}
    counted = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":   # the path's own, not an operation
                continue
            limited = "429" in operation["responses"]
            counted += limited
            for status, response in operation["responses"].items():
                if "$ref" in response:
                    response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
                declared = set(response.get("headers", {}))
                assert "X-Request-ID" in declared, (method, path, status)
                assert not limited or budget <= declared, (method, path, status)
    assert counted >= 12 and "429" not in document["paths"]["/healthz"]["get"]["responses"]
