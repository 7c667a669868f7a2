"""POST /verifications: re-adjudicate an export from scratch; nothing is stored."""
from __future__ import annotations

import marshmallow as ma
from flask import current_app

from disputes.verify import MalformedExport, Unverifiable, verify
from service.api.exports import EXPORT_BODY, ExportTakingBlueprint, export_body, malformed_export
from service.errors import Problem
from service.serving import offload

blp = ExportTakingBlueprint("verifications", __name__, url_prefix="/verifications",
                description="Check an export: hash chain, seed, every outcome and every command.")


class RejectionSchema(ma.Schema):
    code = ma.fields.String(required=True)
    rule = ma.fields.String(required=True)
    detail = ma.fields.String(required=True)
    ruling = ma.fields.String(allow_none=True)
    problems = ma.fields.List(ma.fields.String(), metadata={
        "description": "INVALID_COMMAND only: what breaks the body's schema, one line each, as a 422 lists it"})


class DivergenceSchema(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={"description": "The first record that diverges"})
    check = ma.fields.String(required=True, validate=ma.validate.OneOf(
        ["sequence", "hash_chain", "seed", "setup", "rules", "events", "status"]))
    detail = ma.fields.String(required=True)
    recorded = ma.fields.Raw(allow_none=True, metadata={"description": "What the export records"})
    expected = ma.fields.Raw(allow_none=True, metadata={
        "description": "What the chain or the rules produce instead"})
    rule = ma.fields.Nested(RejectionSchema, allow_none=True, metadata={
        "description": "When the rules refuse the recorded command: their code, rule and words"})


class VerificationSchema(ma.Schema):
    verdict = ma.fields.String(required=True, validate=ma.validate.OneOf(["valid", "divergent", "incomplete"]))
    valid = ma.fields.Boolean(required=True)
    version = ma.fields.Integer(required=True, metadata={"description": "The last version in the export"})
    checked = ma.fields.List(ma.fields.String(), required=True)
    notes = ma.fields.List(ma.fields.String(), required=True)
    divergence = ma.fields.Nested(DivergenceSchema, required=True, allow_none=True, metadata={
        "description": "The first record that diverges and how; null when valid or incomplete"})


@blp.route("", methods=["POST"])
@blp.doc(operationId="verifyExport", requestBody=EXPORT_BODY)
@blp.response(200, VerificationSchema)
@blp.problems(400, 413, 415, 422)
def verify_export():
    """Re-adjudicate an export (GET /games/{id}/export) from scratch; answers valid or the
    first divergence. Nothing is stored. A malformed export is 400 MALFORMED_EXPORT."""
    try:
        # Re-adjudicating a whole game holds the CPU: in a native thread (service/serving.py).
        report = offload(verify, export_body(), current_app.config["RULESETS"])
    except MalformedExport as error:
        raise malformed_export(error) from None
    except Unverifiable as error:
        raise Problem(422, f"This export cannot be verified: {error}", "UNVERIFIABLE_EXPORT") from None
    return report.to_dict()
