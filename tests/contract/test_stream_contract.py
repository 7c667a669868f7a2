"""GET /games/{id}/stream answers as openapi.yaml documents it, judged by schemathesis itself.

Schemathesis reads a `text/event-stream` response's schema as the schema of each event
({"data", "event", "id", "retry"}). A stream that carries events is rare in its generated runs
(it needs a real game id: a CI run met one and failed, the schema then saying `string`), so here
played games' streams are validated the way its check ST108 does it. OpenAPI 3.0 cannot say
that `data` holds an EventEntry as JSON, so each payload is checked against EventEntry here.
"""
from __future__ import annotations

import json
import random

import pytest
import schemathesis
from openapi_schema_validator import OAS30Validator
from schemathesis.core.failures import FailureGroup

from service import create_app
from tests.fakes.http import create, progressing

POPO = {"PERSISTENCE_MODULE": "eventsourcing.popo"}


@pytest.fixture(scope="module")
def app():
    app = create_app({"PERSISTENCE": POPO, "STREAM_SECONDS": 0.2})
    yield app
    app.extensions["parley"].close()


def _played(client, commands: int) -> dict:
    game = create(client, "corsairs-of-valeria", players=("Ana", "Ben"))
    game.play(random.Random(7), commands, progressing)
    return game.created


def _validate(app, game: dict, token: str, after: int = 0):
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    operation = schema["/games/{game_id}/stream"]["GET"]
    case = operation.Case(path_parameters={"game_id": game["id"]}, query={"after": after},
                          headers={"Authorization": f"Bearer {token}"})
    response = case.call()
    assert response.status_code == 200
    case.validate_response(response)
    payloads = [json.loads(line.removeprefix("data: ")) for line in response.text.splitlines()
                if line.startswith("data: ")]
    entry = _entry_validator(schema.raw_schema)
    for payload in payloads:
        entry.validate(payload)
    return payloads


def _entry_validator(document: dict) -> OAS30Validator:
    return OAS30Validator({"$ref": "#/components/schemas/EventEntry", "components": document["components"]})


def test_every_event_a_stream_pushes_matches_the_documented_event_and_entry_schemas(app):
    client = app.test_client()
    game = _played(client, 12)
    for token in (game["host_token"], game["spectator_token"], *(s["token"] for s in game["seats"])):
        payloads = _validate(app, game, token)
        assert len(payloads) >= 3, payloads  # creation, and the commands' events: something was judged


def test_a_resumed_stream_matches_too(app):
    client = app.test_client()
    game = _played(client, 6)
    version = client.get(f"/games/{game['id']}",
                         headers={"Authorization": f"Bearer {game['host_token']}"}).get_json()["version"]
    assert _validate(app, game, game["host_token"], after=version - 1)


def test_the_checks_can_fail(app):
    """A message that is not one (no id) fails schemathesis's check; a payload that is not an
    event entry fails the EventEntry check."""
    client = app.test_client()
    game = _played(client, 2)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    case = schema["/games/{game_id}/stream"]["GET"].Case(
        path_parameters={"game_id": game["id"]}, query={"after": 0},
        headers={"Authorization": f"Bearer {game['host_token']}"})
    case.validate_response(case.call())
    answer = client.get(f"/games/{game['id']}/stream", headers=case.headers)
    answer.set_data(b'retry: 2000\n\ndata: {"version": 1}\n\n')
    with pytest.raises(FailureGroup, match="SSE event violates schema"):
        case.validate_response(answer)
    with pytest.raises(Exception, match="is not of type 'integer'"):
        _entry_validator(schema.raw_schema).validate({"version": "one", "recorded_at": "x", "hash": "y",
                                                      "event": {"type": "GameCreated"}})
