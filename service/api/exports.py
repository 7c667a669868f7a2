"""GET /games/{id}/export: the whole game as one self-contained document (docs/disputes.md).

Also what the operations that take an export as their body share (POST /verifications,
POST /replays): the body documented and checked as disputes/export.py defines an export, and
a malformed one answered 400 MALFORMED_EXPORT with every problem by its path.
"""
from __future__ import annotations

import re
import time
from uuid import UUID

import marshmallow as ma
from flask import current_app, request

from disputes.export import FORMAT, MAX_PROBLEMS, SCHEMA, MalformedExport
from service.api import Blueprint, application, arbiter_request, authenticate_reader, loads_strictly
from service.api.games import ETAG_HEADER, IF_MATCH, IF_NONE_MATCH, READ_AUTH, if_match_holds
from service.errors import Problem
from service.exports import export_head, export_parts

EXPORT_IF_NONE_MATCH = {**IF_NONE_MATCH, "description": 'The ETag of the export this token got before, "<version>" '
                        '(or "*"): 304 while the game is still at that version'}

blp = Blueprint("exports", __name__, url_prefix="/games",
                description="Export a game's log with its hash chain, to verify it anywhere.")


class ExportSeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)


class ExportChanceSchema(ma.Schema):
    mode = ma.fields.String(required=True, validate=ma.validate.OneOf(["server", "table"]))
    commitment = ma.fields.String(required=True, allow_none=True)


class ChainFields(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={"description": "The stored record's number"})
    recorded_at = ma.fields.String(metadata={"description": "When it was stored (not hashed)"})
    salt = ma.fields.String(allow_none=True, metadata={
        "description": "Hashed with the record; null when the record is redacted for you"})
    hash = ma.fields.String(allow_none=True, metadata={
        "description": "SHA-256 of the canonical record with the previous hash (docs/disputes.md)"})
    redacted = ma.fields.Boolean(metadata={
        "description": "True when you see less than was hashed: the link cannot be recomputed"})


class ExportCreationSchema(ChainFields):
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.String(required=True)
    seats = ma.fields.List(ma.fields.Nested(ExportSeatSchema), required=True)
    options = ma.fields.Dict(required=True, allow_none=True)
    content = ma.fields.Dict(required=True, allow_none=True)
    table_setup = ma.fields.Dict(required=True, allow_none=True)
    chance = ma.fields.Nested(ExportChanceSchema, required=True)


class ExportEventSchema(ChainFields):
    event = ma.fields.Dict(required=True, metadata={"description": "The domain event, its 'type' names it"})


class ExportCommandSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    body = ma.fields.Dict(required=True, metadata={"description": "The command as sent (seat apart)"})
    version_before = ma.fields.Integer(metadata={
        "description": "The game's version when it was decided: the server chance position"})
    redacted = ma.fields.Boolean()
    events = ma.fields.List(ma.fields.Nested(ExportEventSchema), required=True)


class ExportSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    format = ma.fields.String(required=True, validate=ma.validate.Equal(FORMAT))
    game_id = ma.fields.String(metadata={"description": "Informational; not hashed"})
    exported_for = ma.fields.Raw(metadata={
        "description": "A seat number, \"host\", \"spectator\" or \"arbiter\"",
        "oneOf": [{"type": "integer"}, {"type": "string", "enum": ["host", "spectator", "arbiter"]}]})
    complete = ma.fields.Boolean(metadata={"description": "False for a seat's or the spectator's export while the game "
                                                          "runs: each record as that reader may see it ('redacted' "
                                                          "marks one that hides something)"})
    status = ma.fields.String(validate=ma.validate.OneOf(["active", "finished"]))
    version = ma.fields.Integer()
    head_hash = ma.fields.String(allow_none=True, metadata={"description": "The latest record's hash"})
    creation = ma.fields.Nested(ExportCreationSchema, required=True)
    setup = ma.fields.List(ma.fields.Nested(ExportEventSchema), required=True, metadata={
        "description": "The events setup produced (versions 2..)"})
    commands = ma.fields.List(ma.fields.Nested(ExportCommandSchema), required=True)
    seed = ma.fields.String(allow_none=True, metadata={
        "description": "The server seed: once the game is finished, or for the arbiter"})


# An export can be sent to POST /verifications unchanged (schemathesis follows this too).
VERIFY_LINK = {"VerifyThisExport": {"operationId": "verifyExport", "requestBody": "$response.body"}}


@blp.route("/<uuid:game_id>/export")
@blp.doc(operationId="exportGame", security=READ_AUTH, responses={200: {"links": VERIFY_LINK}},
         parameters=[IF_MATCH, EXPORT_IF_NONE_MATCH])
@blp.response(200, ExportSchema, headers=ETAG_HEADER)
@blp.documented(blp.alt_response(304, description=(
    "Not Modified: the If-None-Match sent names the game's version (the ETag of the export this token "
    "got before), so that export is still the game's; no body"), headers=ETAG_HEADER))
@blp.problems(401, 404, 412, 503)
def export_game(game_id: UUID):
    """The whole game: creation, every command with its events and hashes, and the seed once over.

    A seat's export of a running game is redacted for that seat; the host's is complete but
    the seed; the arbiter's (the operator's token) and every export after the end are complete.
    With If-None-Match naming the game's version (the ETag of the export this token got
    before), an unchanged game answers 304 without a body.
    """
    game, caller = authenticate_reader(game_id)
    if_match_holds(game.version, game.version)
    if request.if_none_match.contains_weak(str(game.version)):  # RFC 9110 13.1.2: weak comparison
        return current_app.response_class(status=304, headers={"ETag": f'"{game.version}"'})
    parley = application()

    # The events of the game as loaded, not any stored since by another request: an export
    # must be one version of the game (its status and head hash are the loaded game's). Read a
    # page at a time and written as they come, so that a game of any length costs a page of
    # memory, and the worker's other connections are served between pages.
    def stored():
        after = 0
        while after < game.version:
            page = parley.stored_events(game_id, after=after, limit=min(EXPORT_PAGE, game.version - after))
            if not page:
                return
            yield from page
            after = page[-1].originator_version
            time.sleep(0)   # under gevent (the Procfile's worker): let the other greenlets run

    parts = export_parts(game, stored(), caller)
    first = next(parts, None)   # what fails before the first byte is an error answer, not a cut document
    return current_app.response_class(_written(current_app.json.dumps, export_head(game, caller), first, parts), 200,
                                      mimetype="application/json", headers={"ETag": f'"{game.version}"'})


# Records read from the store at a time while an export is written.
EXPORT_PAGE = 500


def _written(dumps, head: dict, first, parts):
    """The export document as JSON text, in pieces: the document build_export makes. It runs
    after the request has been answered, so it is handed what it needs (dumps: the app's JSON)."""
    records = ("creation", "setup", "commands")
    yield "{" + ",".join(f"{dumps(k)}:{dumps(v)}" for k, v in head.items() if k not in records)
    ahead = [first if first is not None else (None, None)]   # the next (kind, part) of parts

    def taken(kind: str):
        """The parts of this kind that come next, as JSON, comma-separated."""
        sep = ""
        while ahead[0][0] == kind:
            yield sep + dumps(ahead[0][1])
            sep = ","
            ahead[0] = next(parts, (None, None))
    creation = "".join(taken("creation"))
    yield ',"creation":' + (creation or "null") + ',"setup":['
    yield from taken("setup")
    yield '],"commands":['
    yield from taken("command")
    yield "]}"


# Operations that take an export --------------------------------------------------------------

EXPORT_DOCUMENT = "ExportDocument"
EXPORT_BODY = {"required": True, "description": "An export (GET /games/{id}/export), as it was written",
               "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{EXPORT_DOCUMENT}"}}}}


def openapi_schema(schema):
    """disputes/export.py's JSON Schema as OpenAPI 3.0 writes it: `nullable` for a "null" type."""
    if isinstance(schema, list):
        return [openapi_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: openapi_schema(v) for k, v in schema.items() if k != "$schema"}
    if isinstance(schema.get("type"), list):
        kinds = [t for t in schema["type"] if t != "null"]
        if len(kinds) != 1:
            raise ValueError(f"OpenAPI 3.0 has no schema of types {schema['type']}")
        out["type"] = kinds[0]
        out["nullable"] = "null" in schema["type"]
    return out


def export_document() -> dict:
    """The component ExportDocument: openapi_schema(SCHEMA) with its title as the description.
    Client generators name a model after its title (openapi-python-client made
    "A Parley game export (parley-export/1)" class Field1); the component's name is better."""
    document = openapi_schema(SCHEMA)
    document["description"] = document.pop("title")
    return document


class ExportTakingBlueprint(Blueprint):
    """A blueprint whose operations take an export as their body (@blp.doc(requestBody=EXPORT_BODY)):
    the format is documented once, as the component ExportDocument, from disputes/export.py."""

    def register_views_in_doc(self, api, app, spec, *, name, parameters):
        if EXPORT_DOCUMENT not in spec.components.schemas:
            spec.components.schema(EXPORT_DOCUMENT, export_document())
        super().register_views_in_doc(api, app, spec, name=name, parameters=parameters)


# A JSON string, its escapes included (unrolled: no backtracking on long strings).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def json_values(data: bytes) -> int:
    """About how many values (objects, arrays, strings, numbers, literals) a JSON text holds,
    counted without parsing it: each value but a container's first follows a comma. What a
    parse costs in memory grows with this far more than with the bytes ([{},{},...] is ~30
    times its size), so it is bounded before anything is parsed."""
    skeleton = _JSON_STRING.sub(b'""', data)
    return skeleton.count(b",") + skeleton.count(b"[") + skeleton.count(b"{") + 1


def export_body():
    """The request's body, parsed as strictly as every body (400 MALFORMED_REQUEST when it is
    not JSON). Whether it is a well-formed export is disputes.export.check's to say. An
    anonymous one (not the arbiter's) holds at most ANONYMOUS_EXPORT_MAX_VALUES values (413)."""
    data = request.get_data(cache=True)
    most = current_app.config["ANONYMOUS_EXPORT_MAX_VALUES"]
    if not arbiter_request() and json_values(data) > most:
        raise Problem(413, f"This export holds more than {most:,} JSON values; one sent without the "
                      "arbiter's token may hold at most that many.", "BODY_TOO_LARGE")
    return loads_strictly(data)


def malformed_export(error: MalformedExport) -> Problem:
    more = len(error.problems) - 1
    cut = len(error.problems) > MAX_PROBLEMS  # its last line says that more were found than are listed
    return Problem(400, f"This is not a well-formed {FORMAT} export: {error.problems[0]}"
                   + ((" (and more: see 'problems')" if cut else f" (and {more} more: see 'problems')") if more else ""),
                   "MALFORMED_EXPORT", problems=error.problems)
