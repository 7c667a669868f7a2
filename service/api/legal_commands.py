"""GET /games/{id}/legal-commands: every command the caller may send now, ready to POST."""
from __future__ import annotations

import copy
from uuid import UUID

import marshmallow as ma

from domain.ruleset import TooManyToList
from service.api import Blueprint, authenticate
from service.api.games import BEARER_AUTH
from service.errors import Problem
from service.game import SPECTATOR

blp = Blueprint("legal_commands", __name__, url_prefix="/games",
                description="What the caller may do now, as complete command bodies.")


# What one field a table reports carries (docs/api.md section 7), as JSON Schema for the contract;
# the answer passes through as the rulesets give it (a Dict, not a nested schema, which would
# drop the keys only one ruleset has).
COUNT = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}],
         "description": "How many items to list; in words where it depends on the command (see by_command) or on "
                        "what turns up"}
TABLE_INPUT_SPEC = {
    "type": "object",
    "description": "One field the table reports with this command",
    "required": ["description"],
    "properties": {
        "count": COUNT,
        "description": {"type": "string", "description": "What the field carries, the rulebook section, who reports it"},
        "what": {"type": "string", "description": "The items, in a few words"},
        "from": {"type": "string", "description": "What they are taken from"},
        "one_of": {"type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                   "description": "The faces a die may show"},
        "order": {"type": "string", "description": "The order to list them in"},
        "stable": {"type": "integer", "minimum": 0, "description": "Chrono Corsairs 'plans': how many from the Stable deck"},
        "unstable": {"type": "integer", "minimum": 0,
                     "description": "Chrono Corsairs 'plans': how many from the Unstable deck"},
        "backs": {"type": "array", "items": {"type": "string"},
                  "description": "Chrono Corsairs 'event_tokens': the back of each token flipped, in order"},
        "for_seats": {"type": "array", "items": {"type": "integer"},
                      "description": "Chrono Corsairs 'artifacts': the seat each card goes to, in order"},
        "by_command": {"type": "array", "description": "Where the count depends on the command: each legal command "
                                                       "that takes some, with its count (a legal command not listed "
                                                       "takes none)",
                       "items": {"type": "object", "required": ["command"],
                                 "properties": {"command": {"type": "object", "description": "The command, without "
                                                                                              "'seat'"},
                                                "count": copy.deepcopy(COUNT),
                                                "items": {"type": "array", "items": {"type": "string"},
                                                          "description": "Valeria and Crimson Seas 'revealed': what "
                                                                         "each item is turned up from, in order, "
                                                                         "ending with the host view's list of its "
                                                                         "ids ('one of nameable.goods_supply')"}}}},
    },
    # League of Pirates' 'rolls' holds two specs of this shape, 'skills' and 'dice'
    "additionalProperties": True,
}


class TableInputsSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    inputs = ma.fields.Dict(required=True, metadata={
        "description": "By command type, then by field: the chance fields a table-mode client must add",
        "additionalProperties": {"type": "object", "additionalProperties": TABLE_INPUT_SPEC}})
    host_reports = ma.fields.Dict(metadata={
        "description": "To a seat's token, by command type: the fields drawn from a hidden pool, "
                       "which only the host token may report (docs/rulings.md TM-1); the host "
                       "sends such a command for the seat, with 'seat'. Left out of 'inputs'."})
    host_report_descriptions = ma.fields.Dict(metadata={
        "description": "With 'host_reports', by command type and field: what each field the host reports "
                       "carries (each spec under 'inputs' has its own 'description')."})


class LegalCommandsSchema(ma.Schema):
    commands = ma.fields.List(ma.fields.Dict(), required=True, metadata={
        "description": "Each a body POST /games/{id}/commands accepts as it is (the host's carry 'seat'); in "
                       "table mode, once the fields table_inputs lists for its type are added"})
    table_inputs = ma.fields.List(ma.fields.Nested(TableInputsSchema), metadata={
        "description": "Table mode only: what was rolled or drawn must be added to these commands"})


# Each legal command can be sent back as it is: a link schemathesis follows to play on.
PLAY_LINK = {"PlayFirstLegalCommand": {
    "operationId": "sendCommand",
    "parameters": {"path.game_id": "$request.path.game_id",
                   "header.Authorization": "$request.header.Authorization"},
    "requestBody": "$response.body#/commands/0"}}


@blp.route("/<uuid:game_id>/legal-commands")
@blp.doc(operationId="listLegalCommands", security=BEARER_AUTH,
         responses={200: {"links": PLAY_LINK}})
@blp.response(200, LegalCommandsSchema)
@blp.problems(401, 404, 422, 503)
def list_legal_commands(game_id: UUID):
    """Every command you may send right now (the host token: every seat's, with 'seat')."""
    # A token is asked even on a public game: only acting needs this answer, and a
    # spectator's token gets that it may send nothing.
    game, caller = authenticate(game_id)
    ruleset, state = game.ruleset, game.state
    finished = ruleset.status(state).finished
    # A spectator acts for nobody: no command and no table input is theirs to send.
    seats = range(len(game.seats)) if caller == "host" else [] if caller == SPECTATOR else [caller]
    try:
        return _listing(game, caller, seats, finished)
    except TooManyToList as error:   # crafted content only: the reference contents list far fewer
        raise Problem(422, f"More than {error.most:,} commands are legal now (each way to pay is one): too many to "
                      "list. Send the command you mean: it is judged as always, and a dry run "
                      "(?dry_run=true) tells you first whether it would be accepted.", "TOO_MANY_COMMANDS") from None


def _listing(game, caller, seats, finished: bool) -> dict:
    ruleset, state = game.ruleset, game.state
    commands, inputs = [], []
    for seat in seats:
        legal = [] if finished else ruleset.legal_commands(state, seat)
        commands += [{**c, "seat": seat} if caller == "host" else dict(c) for c in legal]
        if game.chance_mode == "table" and not finished:
            needed = ruleset.table_inputs(state, seat)
            if needed:
                inputs.append(_for_caller(needed, ruleset.drawn_fields, caller))
                inputs[-1]["seat"] = seat
    body = {"commands": commands}
    if game.chance_mode == "table":
        body["table_inputs"] = inputs
    return body


def _for_caller(needed: dict, drawn: frozenset, caller) -> dict:
    """The table inputs as the caller may send them: the host reports everything; a seat
    reports its own dice, and is told which fields of which commands the host reports, and
    what each carries (docs/rulings.md TM-1: a seat that sends a draw is refused)."""
    if caller == "host":
        return {"inputs": needed}
    own = {kind: {f: spec for f, spec in fields.items() if f not in drawn}
           for kind, fields in needed.items()}
    host = {kind: sorted(f for f in fields if f in drawn) for kind, fields in needed.items()}
    out: dict[str, dict] = {"inputs": {kind: fields for kind, fields in own.items() if fields}}
    host = {kind: fields for kind, fields in host.items() if fields}
    if host:
        out["host_reports"] = host
        out["host_report_descriptions"] = {kind: {f: needed[kind][f].get("description", "") for f in fields}
                                           for kind, fields in host.items()}
    return out
