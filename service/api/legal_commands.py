"""GET /games/{id}/legal-commands: every command the caller may send now, ready to POST."""
from __future__ import annotations

from uuid import UUID

import marshmallow as ma

from service.api import Blueprint, authenticate
from service.api.games import BEARER_AUTH

blp = Blueprint("legal_commands", __name__, url_prefix="/games",
                description="What the caller may do now, as complete command bodies.")


class TableInputsSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    inputs = ma.fields.Dict(required=True, metadata={
        "description": "By command type: the chance fields a table-mode client must add"})


class LegalCommandsSchema(ma.Schema):
    commands = ma.fields.List(ma.fields.Dict(), required=True, metadata={
        "description": "Each a body POST /games/{id}/commands accepts unchanged (the host's carry 'seat')"})
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
@blp.problems(401, 404, 503)
def list_legal_commands(game_id: UUID):
    """Every command you may send right now (the host token: every seat's, with 'seat')."""
    game, caller = authenticate(game_id)
    ruleset, state = game.ruleset, game.state
    finished = ruleset.status(state).finished
    seats = range(len(game.seats)) if caller == "host" else [caller]
    commands, inputs = [], []
    for seat in seats:
        legal = [] if finished else ruleset.legal_commands(state, seat)
        commands += [{**c, "seat": seat} if caller == "host" else dict(c) for c in legal]
        if game.chance_mode == "table" and not finished:
            needed = ruleset.table_inputs(state, seat)
            if needed:
                inputs.append({"seat": seat, "inputs": needed})
    body = {"commands": commands}
    if game.chance_mode == "table":
        body["table_inputs"] = inputs
    return body
