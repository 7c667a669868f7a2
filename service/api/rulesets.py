"""GET /rulesets and /rulesets/{id}: the games Parley adjudicates, and how to talk to them."""
from __future__ import annotations

import hashlib
import json

import marshmallow as ma
from flask import current_app, request

from service.api import Blueprint
from service.errors import Problem

blp = Blueprint("rulesets", __name__, url_prefix="/rulesets",
                description="The games Parley adjudicates: options, content and commands.")


class RulesetSummarySchema(ma.Schema):
    id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    version = ma.fields.String(required=True)
    min_players = ma.fields.Integer(required=True)
    max_players = ma.fields.Integer(required=True)
    summary = ma.fields.String(required=True)


class RulesetListSchema(ma.Schema):
    rulesets = ma.fields.List(ma.fields.Nested(RulesetSummarySchema), required=True)


class VariantSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata={"description": "As the rulebook names it"})
    section = ma.fields.String(required=True, metadata={"description": "The rulebook section that prints it"})
    options = ma.fields.Dict(required=True, metadata={
        "description": "The creation options that choose it (a number stands for any value the option admits)"})
    min_players = ma.fields.Integer(required=True)
    max_players = ma.fields.Integer(required=True)
    summary = ma.fields.String(required=True)


class RulesetSchema(RulesetSummarySchema):
    options_schema = ma.fields.Dict(required=True, metadata={
        "description": "JSON Schema of the creation options (house rules), with defaults"})
    content_schema = ma.fields.Dict(required=True, metadata={
        "description": "JSON Schema of the component content the rulebook does not print"})
    default_content = ma.fields.Dict(required=True, metadata={
        "description": "The reference content used when a game is created without any"})
    setup_schema = ma.fields.Dict(required=True, allow_none=True, metadata={
        "description": "Table mode: JSON Schema of the setup outcomes sent as 'setup' at creation"})
    variants = ma.fields.List(ma.fields.Nested(VariantSchema), required=True, metadata={
        "description": "Every variant the rulebook prints, and the creation options that choose it"})
    commands = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Dict(), required=True,
                              metadata={"description": "JSON Schema of each command body, by type"})


# The rulesets change only with a deploy: each answer carries an ETag of its contents, and a
# cache (answers are Cache-Control: no-cache) revalidates with If-None-Match for a 304, not the
# whole document again (about 20 KB a ruleset).
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                 "description": "The ETag of this answer as you got it before (or \"*\"): 304 while it is unchanged"}
ETAG_HEADER = {"ETag": {"description": "A digest of the answer's contents: it changes when they do",
                        "schema": {"type": "string"}}}
NOT_MODIFIED = "Not Modified: the If-None-Match sent names this answer's ETag, so the copy you hold is current; no body"


def tagged(body: dict):
    """The answer with its ETag, or 304 when If-None-Match names it (weak comparison, RFC 9110 13.1.2)."""
    tag = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()[:32]
    if request.if_none_match.contains_weak(tag):
        return current_app.response_class(status=304, headers={"ETag": f'"{tag}"'})
    return body, 200, {"ETag": f'"{tag}"'}


def rulesets() -> dict:
    return current_app.config["RULESETS"]


def summary(ruleset) -> dict:
    return {"id": ruleset.id, "name": ruleset.name, "version": ruleset.version,
            "min_players": ruleset.min_players, "max_players": ruleset.max_players,
            "summary": ruleset.summary}


@blp.route("")
@blp.doc(operationId="listRulesets", parameters=[IF_NONE_MATCH])
@blp.response(200, RulesetListSchema, headers=ETAG_HEADER)
@blp.documented(blp.alt_response(304, description=NOT_MODIFIED, headers=ETAG_HEADER))
@blp.problems()
def list_rulesets():
    """Every ruleset this service adjudicates."""
    return tagged({"rulesets": [summary(r) for r in rulesets().values()]})


@blp.route("/<string:ruleset_id>")
@blp.doc(operationId="getRuleset", parameters=[IF_NONE_MATCH])
@blp.response(200, RulesetSchema, headers=ETAG_HEADER)
@blp.documented(blp.alt_response(304, description=NOT_MODIFIED, headers=ETAG_HEADER))
@blp.problems(404)
def get_ruleset(ruleset_id: str):
    """One ruleset: its options, content schema, default content and command schemas."""
    ruleset = rulesets().get(ruleset_id)
    if ruleset is None:
        raise Problem(404, "There is no ruleset with this id; GET /rulesets lists them.",
                      "RULESET_NOT_FOUND")
    return tagged({**summary(ruleset), "options_schema": ruleset.options_schema,
                   "content_schema": ruleset.content_schema, "default_content": ruleset.default_content,
                   "setup_schema": getattr(ruleset, "table_setup_schema", None),
                   "variants": [variant_answer(v) for v in ruleset.variants],
                   "commands": ruleset.command_schemas})


def variant_answer(variant) -> dict:
    return {"name": variant.name, "section": str(variant.section), "options": dict(variant.options),
            "min_players": variant.min_players, "max_players": variant.max_players, "summary": variant.summary}
