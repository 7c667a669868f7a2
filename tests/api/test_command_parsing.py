"""POST /games/{id}/commands parses its own body and query (service/api/commands.py): a body
that plainly matches CommandSchema is taken as sent, anything else goes through webargs and
the schema. Either way the view gets what webargs gave it before, key order included (the
command is stored as loaded), and every malformed request meets the same 400."""
from __future__ import annotations

import json

import marshmallow as ma
import pytest

from service.api import Blueprint
from service.api.commands import CommandSchema, DryRunQuerySchema, _command_body, _dry_run
from service.errors import Problem
from tests.fakes.http import create

BODIES = [
    {"type": "draw"},
    {"type": "draw", "seat": 1},
    {"seat": 0, "type": "move", "to": [1, 2], "expected_version": 7},
    {"x": {"deep": [1, {"y": None}]}, "expected_version": 0, "type": "pass", "seat": 2},
    {"type": "", "seat": -1},
    {"type": "draw", "seat": 10**30},
    # the schema's: each goes through webargs, to the same 400 as before
    {},
    {"seat": 0},
    {"type": 5},
    {"type": None},
    {"type": "draw", "seat": True},
    {"type": "draw", "seat": 1.0},
    {"type": "draw", "seat": "1"},
    {"type": "draw", "seat": None},
    {"type": "draw", "expected_version": False},
    {"type": "draw", "expected_version": "3"},
    [],
    ["draw"],
    "draw",
    17,
    None,
]
RAW = [b"", b"{", b'{"type": NaN}', b'{"type": "\\ud800"}', b"[" * 100 + b"]" * 100]
QUERIES = ["", "dry_run=true", "dry_run=false", "dry_run=1", "dry_run=maybe", "dry_run=", "other=1",
           "dry_run=true&dry_run=false"]


def outcome(parse):
    try:
        return "loaded", list(parse().items()) if isinstance(parse(), dict) else parse()
    except ma.ValidationError as error:
        return "invalid", error.messages
    except Problem as error:
        return "problem", error.status, error.detail
    except Exception as error:  # webargs' abort: werkzeug's HTTPException with the messages
        return "error", type(error).__name__, getattr(error, "code", None), getattr(error, "data", None)


def parsed_by_webargs(schema, location):
    return lambda: Blueprint.ARGUMENTS_PARSER.parse(schema, location=location)


@pytest.mark.parametrize("data", [json.dumps(b).encode() for b in BODIES] + RAW)
def test_the_body_is_loaded_as_the_schema_loads_it(app, data):
    with app.test_request_context("/games/x/commands", method="POST", data=data,
                                  content_type="application/json"):
        ours = outcome(_command_body)
    with app.test_request_context("/games/x/commands", method="POST", data=data,
                                  content_type="application/json"):
        theirs = outcome(parsed_by_webargs(CommandSchema, "json"))
    assert ours == theirs


@pytest.mark.parametrize("query", QUERIES)
def test_the_query_is_loaded_as_the_schema_loads_it(app, query):
    with app.test_request_context(f"/games/x/commands?{query}", method="POST"):
        ours = outcome(_dry_run)
    with app.test_request_context(f"/games/x/commands?{query}", method="POST"):
        theirs = outcome(lambda: parsed_by_webargs(DryRunQuerySchema, "query")()["dry_run"])
    assert ours == theirs


def test_a_plain_command_is_not_loaded_through_marshmallow(app, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("loaded through the schema")

    monkeypatch.setattr(CommandSchema, "load", refuse)
    body = {"to": 3, "type": "move", "seat": 1}
    with app.test_request_context("/games/x/commands", method="POST", json=body):
        assert list(_command_body().items()) == [("type", "move"), ("seat", 1), ("to", 3)]
        assert _dry_run() is False
    with app.test_request_context("/games/x/commands", method="POST", json={"type": "move", "seat": "1"}), \
            pytest.raises(AssertionError, match="through the schema"):
        _command_body()


def test_malformed_commands_answer_400_over_http(client):
    game = create(client)
    for body in ({"type": 5}, {"type": "draw", "seat": True}, [], "draw"):
        answer = game.send(body, game.seat(0))
        assert answer.status_code == 400, (body, answer.get_json())
        assert answer.mimetype == "application/problem+json"
    answer = client.post(f"/games/{game.id}/commands?dry_run=maybe", json={"type": "draw"}, headers=game.seat(0))
    assert answer.status_code == 400 and "dry_run" in json.dumps(answer.get_json())
    assert game.send({"type": "draw"}, game.seat(0)).status_code == 200
