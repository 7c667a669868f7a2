"""POST /replays: an export as it stood at any version (the replay viewer's engine); nothing
is stored. GET /viewer: the replay viewer page."""
from __future__ import annotations

import marshmallow as ma
from flask import current_app

from disputes.replay import replay
from disputes.verify import MalformedExport, Unverifiable
from service import send_public_file
from service.api import QueryInteger
from service.api.exports import EXPORT_BODY, ExportTakingBlueprint, export_body, malformed_export
from service.api.games import result_doc
from service.errors import Problem
from service.serving import offload

blp = ExportTakingBlueprint("replays", __name__, description="Replay an export to any version; the viewer page.")


class ReplayQuerySchema(ma.Schema):
    at = QueryInteger(validate=ma.validate.Range(min=1), metadata={
        "description": "The version to show (default: the last)"})
    seat = QueryInteger(validate=ma.validate.Range(min=0), metadata={
        "description": "Show it as this seat sees it (default: everything, as the arbiter)"})


class ReplaySchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(["active", "finished"]))
    phase = ma.fields.String(required=True)
    to_move = ma.fields.List(ma.fields.Integer(), required=True)
    last_command = ma.fields.Dict(allow_none=True, required=True, metadata={
        "description": "The latest command at or before this version: its version, seat and body"})
    viewer = ma.fields.Raw(required=True)
    state = ma.fields.Dict(required=True)
    result = ma.fields.Dict(allow_none=True, required=True, metadata=result_doc())


@blp.route("/replays", methods=["POST"])
@blp.doc(operationId="replayExport", requestBody=EXPORT_BODY)
@blp.arguments(ReplayQuerySchema, location="query")
@blp.response(200, ReplaySchema)
@blp.problems(400, 413, 415, 422)
def replay_export(query: dict):
    """The game in a complete export as it stood after version `at`. Replay folds the recorded
    events without judging them: POST /verifications says whether the rules agree. A malformed
    export is 400 MALFORMED_EXPORT; one replay cannot show (a record missing, a record the
    rules cannot apply) is 422 UNREPLAYABLE_EXPORT naming the record."""
    try:
        return offload(replay, export_body(), query.get("at"), query.get("seat"), current_app.config["RULESETS"])
    except MalformedExport as error:
        raise malformed_export(error) from None
    except Unverifiable as error:
        raise Problem(422, f"This export cannot be replayed: {error}", "UNREPLAYABLE_EXPORT") from None


PAGE_TAG = {"description": "A digest of the page's contents, the same on every node serving the same build",
            "schema": {"type": "string"}}
PAGE_IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                      "description": "The ETag of the page you hold: 304 while it is still the page served"}


@blp.route("/viewer", methods=["GET"])
@blp.doc(operationId="replayViewer", responses={
    200: {"description": "The replay viewer (HTML)", "content": {"text/html": {"schema": {"type": "string"}}},
          "headers": {"ETag": PAGE_TAG}},
    304: {"description": "Not Modified: the If-None-Match sent names the page's ETag; no body",
          "headers": {"ETag": PAGE_TAG}}}, parameters=[PAGE_IF_NONE_MATCH])
@blp.problems()
def viewer():
    """The replay viewer: the table at each version, as the token sees it.

    It draws the table as SVG, highlights what changed, shows the result, a verification badge
    and the timeline (docs/viewer.md)."""
    return send_public_file(current_app.root_path + "/static", "viewer.html", mimetype="text/html")
