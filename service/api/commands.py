"""POST /games/{id}/commands: one command for one seat, adjudicated by the game's rules.

The view parses the request (the caller from its token, If-Match, the Idempotency-Key) and
hands it to the use case, service/commands.py, which answers a typed outcome; ANSWERS maps
each outcome to its HTTP answer."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from uuid import UUID

import marshmallow as ma
from flask import jsonify, request

from domain.adjudication import SERVICE_RULE
from service import commands
from service.api import Blueprint, application, authenticate, loads_strictly, operations
from service.api.games import BEARER_AUTH, ETAG_HEADER, GameViewSchema
from service.api.render import event_entry, game_view
from service.errors import Problem
from service.game import Game

blp = Blueprint("commands", __name__, url_prefix="/games",
                description="Send a seat's command; the rules answer with events or a rejection.")


class CommandSchema(ma.Schema):
    """Any command of the game's ruleset (GET /rulesets/{id} has each one's schema)."""

    class Meta:
        unknown = ma.INCLUDE

    type = ma.fields.String(required=True, metadata={"description": "The command type, e.g. roll_dice"})
    seat = ma.fields.Integer(strict=True, metadata={
        "description": "The seat acted for: required with the host token, optional (your own) otherwise"})
    expected_version = ma.fields.Integer(strict=True, metadata={
        "description": "Refuse (409) unless the game is still at this version"})


class StoredCommandSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    body = ma.fields.Dict(required=True)


class EventEntrySchema(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={"description": "The stored event's number (1 = creation)"})
    recorded_at = ma.fields.String(required=True)
    hash = ma.fields.String(allow_none=True, metadata={
        "description": "The record's link in the game's hash chain (docs/disputes.md)"})
    event = ma.fields.Dict(required=True, metadata={"description": "The event as you may see it; its 'type' names it"})
    command = ma.fields.Nested(StoredCommandSchema, metadata={
        "description": "On the first event of a command's batch: the command that produced it"})


class CommandResultSchema(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={
        "description": "The game's version after the command (a dry run: the version it would reach)"})
    events = ma.fields.List(ma.fields.Nested(EventEntrySchema), required=True)
    game = ma.fields.Nested(GameViewSchema, metadata={
        "description": "Your view of the game after the command; left out when the request says "
                       "'Prefer: return=minimal'"})
    dry_run = ma.fields.Boolean(metadata={"description": "True when nothing was stored"})


class DryRunQuerySchema(ma.Schema):
    dry_run = ma.fields.Boolean(load_default=False, metadata={
        "description": "Answer what the command would produce (or why it is refused) and store "
                       "nothing. It is decided on the game as your seat may imagine it: what the "
                       "rules hide from you (other hands, sealed choices, face-down decks) is "
                       "re-dealt at random, and server chance draws from a throwaway seed, so "
                       "hidden outcomes shown are examples, not the real ones (docs/api.md)."})


# flask-smorest's `doc(parameters=...)` replaces the parameters it would generate from
# DryRunQuerySchema: the query's is documented here, beside the headers.
DRY_RUN = {"in": "query", "name": "dry_run", "required": False, "schema": {"type": "boolean", "default": False},
           "description": DryRunQuerySchema._declared_fields["dry_run"].metadata["description"]}
IF_MATCH = {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
            "description": 'Refuse (412) unless the game is still at this version: "<version>"'}


IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": r"^[\x21-\x7e]+$"},
    "description": "Retry safely: a command accepted with this key is not applied again; "
                   "the same key with the same body answers the first result (header "
                   "Idempotent-Replayed: true), with another body 422 IDEMPOTENCY_KEY_REUSED. "
                   "Keys are per game and per token; only accepted commands are remembered."}


PREFER = {
    "in": "header", "name": "Prefer", "required": False, "schema": {"type": "string"},
    "examples": {"minimal": {"value": "return=minimal"}, "representation": {"value": "return=representation"}},
    "description": "RFC 7240. 'return=minimal': the answer leaves out `game` (your new view) and carries "
                   "the version and the events as you may see them; 'return=representation' or none: the "
                   "whole answer. The preference applied is named in Preference-Applied; others are ignored."}

PREFERENCE_APPLIED = {"Preference-Applied": {
    "description": "The Prefer return preference this answer follows (RFC 7240), when the request sent one",
    "schema": {"type": "string", "enum": ["return=minimal", "return=representation"]}}}


@blp.route("/<uuid:game_id>/commands", methods=["POST"])
@blp.documented(
    blp.doc(operationId="sendCommand", security=BEARER_AUTH, parameters=[DRY_RUN, IF_MATCH, IDEMPOTENCY_KEY, PREFER]),
    blp.arguments(CommandSchema),
    blp.arguments(DryRunQuerySchema, location="query"),
    blp.response(200, CommandResultSchema, headers={**ETAG_HEADER, **PREFERENCE_APPLIED}),
    blp.problems(400, 401, 403, 404, 409, 412, 413, 415, 422, 503))
def send_command(game_id: UUID):
    """Send one command; answers the events it produced and your new view.

    With ?dry_run=true nothing is stored: the answer is what the command would produce, or
    the 422 it would meet, decided on what your seat may know: hidden parts are re-dealt at
    random (an Idempotency-Key is ignored: there is nothing to repeat).
    With an Idempotency-Key, a command already accepted with that key and body is answered
    with its first result and not applied again.
    With 'Prefer: return=minimal' the answer leaves out your new view of the game (`game`)."""
    body = _command_body()
    dry_run = _dry_run()
    loaded: dict = {}

    def load(game_id: UUID) -> Game:
        game, loaded["caught_up"] = commands.game_to_decide_on(application(), game_id, dry_run)
        return game

    game, caller = authenticate(game_id, load)
    key = request.headers.get("Idempotency-Key")
    sent = commands.CommandRequest(game_id, caller, body, dry_run, _if_match(), key,
                                   _request_hash() if key is not None else None)
    prefer = preferred_return()
    with operations.command_metrics(game.ruleset_id) as metric:
        outcome = commands.send(application(), sent, game, loaded["caught_up"])
        metric["outcome"] = OUTCOME_LABELS.get(type(outcome), metric["outcome"])
        answer = ANSWERS[type(outcome)](outcome, caller, prefer)
        if isinstance(answer, Problem):
            raise answer
        body, status, headers = answer
        if prefer is not None:
            headers["Preference-Applied"] = f"return={prefer}"
        # The body is built for the caller already (render.py): flask-smorest's dump through
        # CommandResultSchema would copy it unchanged (tests/api/test_prefer.py holds that).
        return jsonify(body), status, headers


def _command_body() -> dict:
    """The command as CommandSchema loads it (webargs, as blp.arguments would). A body that
    plainly matches the schema (an object whose `type` is a string, with `seat` and
    `expected_version` integers when sent) is taken as sent, in the order marshmallow gives
    (its declared fields, then the others as sent); anything else goes through the schema,
    for the same 400 it has always met. Malformed JSON is refused by loads_strictly either way."""
    data = request.get_data(cache=True)
    sent = loads_strictly(data) if data else None
    if (type(sent) is dict and type(sent.get("type")) is str and type(sent.get("seat", 0)) is int
            and type(sent.get("expected_version", 0)) is int):
        loaded = {name: sent[name] for name in ("type", "seat", "expected_version") if name in sent}
        loaded.update(sent)  # the others, after them, in the order sent
        return loaded
    return Blueprint.ARGUMENTS_PARSER.parse(CommandSchema, location="json")


def _dry_run() -> bool:
    """?dry_run as DryRunQuerySchema loads it (false without a query)."""
    if not request.query_string:
        return False
    return Blueprint.ARGUMENTS_PARSER.parse(DryRunQuerySchema, location="query")["dry_run"]


def preferred_return() -> str | None:
    """The request's `return` preference (RFC 7240): "minimal", "representation", or None.

    Preferences are comma-separated, each `name[=value]` and `;` parameters; names are
    case-insensitive, values as sent (a quoted value unquoted). Only the first `return`
    counts (RFC 7240, section 2); a value other than the two is ignored, as is any other
    preference."""
    # WSGI holds one value per header name (a server joins repeated headers with commas);
    # read straight from the environ: werkzeug's getlist walks every header of the request.
    header = request.environ.get("HTTP_PREFER")
    if header:
        for preference in header.split(","):
            name, _, value = preference.split(";", 1)[0].partition("=")
            if name.strip().lower() != "return":
                continue
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            return value if value in ("minimal", "representation") else None
    return None


def _if_match() -> commands.IfMatch | None:
    if "If-Match" not in request.headers:
        return None
    return commands.IfMatch(request.if_match.star_tag, frozenset(request.if_match.as_set()))


def _request_hash() -> str:
    """What an Idempotency-Key's command is compared by: the body as sent, canonical JSON."""
    body = json.dumps(request.get_json(silent=True), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


# Outcomes as HTTP answers: (body, status, headers), or the problem raised ------------------

def _result(game: Game, events: list, caller, prefer: str | None, **extra) -> dict:
    """The answer's body, in CommandResultSchema's order; without the view for return=minimal
    (the events are the same: as the caller may see them)."""
    body = {"version": game.version, "events": [event_entry(game, e, caller) for e in events]}
    if prefer != "minimal":
        body["game"] = game_view(game, caller, reveal_seed=not extra.get("dry_run"))
    body.update(extra)
    return body


# outcome type -> (outcome, caller, the return preference) -> (body, status, headers) or a Problem
ANSWERS: dict[type, Callable[..., tuple[dict, int, dict] | Problem]] = {
    commands.Accepted: lambda o, caller, prefer: (_result(o.game, o.events, caller, prefer), 200,
                                                  {"ETag": f'"{o.game.version}"'}),
    commands.DryRunAnswer: lambda o, caller, prefer: (_result(o.game, o.events, caller, prefer, dry_run=True), 200,
                                                      {"ETag": f'"{o.version}"'}),
    commands.Replayed: lambda o, caller, prefer: (_result(o.game, o.events, caller, prefer), 200,
                                                  {"ETag": f'"{o.game.version}"', "Idempotent-Replayed": "true"}),
    commands.SeatRequired: lambda o, *_: Problem(
        422, "The host token acts for a seat: add \"seat\" to the command.", "SEAT_REQUIRED", section=SERVICE_RULE),
    commands.NotYourSeat: lambda o, *_: Problem(403, "Your token acts for your own seat only.", "NOT_YOUR_SEAT"),
    commands.SpectatorsOnlyRead: lambda o, *_: Problem(
        403, "A spectator's token reads the game; it cannot send commands, not even a dry run.",
        "SPECTATOR_CANNOT_ACT"),
    commands.BadIdempotencyKey: lambda o, *_: Problem(
        400, "An Idempotency-Key is 1 to 255 visible ASCII characters.", "INVALID_IDEMPOTENCY_KEY"),
    commands.KeyReused: lambda o, *_: Problem(
        422, "This Idempotency-Key was already used for another command in this game; send a new key for a new "
        "command.", "IDEMPOTENCY_KEY_REUSED", section=SERVICE_RULE),
    commands.PreconditionFailed: lambda o, *_: Problem(
        412, f"The game is at version {o.version}, not the one in If-Match.", "VERSION_MISMATCH",
        headers={"ETag": f'"{o.version}"'}, version=o.version),
    commands.Refused: lambda o, *_: Problem(
        422, o.rejection.detail, o.rejection.code, section=o.rejection.rule, ruling=o.rejection.ruling),
    commands.DoesNotMatchSchema: lambda o, *_: Problem(
        422, o.rejection.detail, o.rejection.code, section=o.rejection.rule, problems=o.rejection.problems),
    commands.VersionConflict: lambda o, *_: Problem(
        409, f"The game is at version {o.actual}, not {o.expected}.", "VERSION_CONFLICT", version=o.actual),
    commands.Overtaken: lambda o, *_: Problem(
        409, "Another command was stored first; read the game and try again.", "VERSION_CONFLICT"),
}
OUTCOME_LABELS = {commands.Replayed: "replayed", commands.DryRunAnswer: "dry_run"}
