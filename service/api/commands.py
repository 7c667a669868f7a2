"""POST /games/{id}/commands: one command for one seat, adjudicated by the game's rules.

The view parses the request (the caller from its token, If-Match, the Idempotency-Key) and
hands it to the use case, service/commands.py, which answers a typed outcome; ANSWERS maps
each outcome to its HTTP answer."""
from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from uuid import UUID

import marshmallow as ma
from flask import jsonify, request
from werkzeug.http import parse_etags, parse_options_header
from werkzeug.routing.converters import UUIDConverter
from werkzeug.wsgi import get_content_length

from domain.adjudication import SERVICE_RULE
from service import UTF_8, commands, security_headers
from service.api import Blueprint, application, authenticate, loads_strictly, operations, request_hash
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
    hash = ma.fields.String(required=True, allow_none=True, metadata={
        "description": "The record's link in the game's hash chain (docs/disputes.md); null only on a "
                       "record stored without one"})
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
REPLAYED = {"Idempotent-Replayed": {"description": "'true' on the answer to a retry whose Idempotency-Key "
                                                   "was accepted before: the first answer, nothing applied again",
                                    "schema": {"type": "string", "enum": ["true"]}}}
IF_MATCH = {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
            "description": 'Refuse (412) unless the game is still at this version: "<version>"'}


IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": f"^{commands.KEY_CHARACTERS}+$"},
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
    blp.response(200, CommandResultSchema, headers={**ETAG_HEADER, **PREFERENCE_APPLIED, **REPLAYED}),
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
    answer, status, headers = answer_command(
        game_id, body, dry_run, request.headers.get("Authorization", ""), request.headers.get("Idempotency-Key"),
        request.headers.get("If-Match"), preferred_return(request.environ.get("HTTP_PREFER")),
        lambda: request_hash(request.get_json(silent=True)))
    # The body is built for the caller already (render.py): flask-smorest's dump through
    # CommandResultSchema would copy it unchanged (tests/api/test_prefer.py holds that).
    return jsonify(answer), status, headers


def answer_command(game_id: UUID, body: dict, dry_run: bool, authorization: str, key: str | None,
                   if_match: str | None, prefer: str | None,
                   hashed: Callable[[], str]) -> tuple[dict, int, dict]:
    """The command's answer (body, status, headers), or the problem raised: the request as
    parsed (the body as CommandSchema loads it; the Authorization, Idempotency-Key and
    If-Match headers as sent, None when not; the `return` preference), `hashed` giving the
    body's request_hash when an Idempotency-Key asks for it. Both routes to it (the view, and
    LeanRoute for a plain command) answer through here."""
    loaded: dict = {}

    def load(game_id: UUID) -> Game:
        game, loaded["caught_up"] = commands.game_to_decide_on(application(), game_id, dry_run)
        return game

    game, caller = authenticate(game_id, load, authorization=authorization)
    sent = commands.CommandRequest(game_id, caller, body, dry_run, _if_match(if_match), key,
                                   hashed() if key is not None else None)
    with operations.command_metrics(game.ruleset_id) as metric:
        outcome = commands.send(application(), sent, game, loaded["caught_up"])
        metric["outcome"] = OUTCOME_LABELS.get(type(outcome), metric["outcome"])
        answer = ANSWERS[type(outcome)](outcome, caller, prefer)
        if isinstance(answer, Problem):
            raise answer
        answer_body, status, headers = answer
        if prefer is not None:
            headers["Preference-Applied"] = f"return={prefer}"
        return answer_body, status, headers


def _plainly_a_command(sent) -> dict | None:
    """The command as CommandSchema would load it, when the body plainly matches the schema (an
    object whose `type` is a string, with `seat` and `expected_version` integers when sent):
    in the order marshmallow gives (its declared fields, then the others as sent). None for
    anything else, which only the schema may answer."""
    if (type(sent) is dict and type(sent.get("type")) is str and type(sent.get("seat", 0)) is int
            and type(sent.get("expected_version", 0)) is int):
        loaded = {name: sent[name] for name in ("type", "seat", "expected_version") if name in sent}
        loaded.update(sent)  # the others, after them, in the order sent
        return loaded
    return None


def _command_body() -> dict:
    """The command as CommandSchema loads it (webargs, as blp.arguments would): a plain one
    taken as sent (_plainly_a_command), anything else through the schema, for the same 400 it
    has always met. Malformed JSON is refused by loads_strictly either way."""
    data = request.get_data(cache=True)
    plain = _plainly_a_command(loads_strictly(data) if data else None)
    if plain is not None:
        return plain
    return Blueprint.ARGUMENTS_PARSER.parse(CommandSchema, location="json")


def _dry_run() -> bool:
    """?dry_run as DryRunQuerySchema loads it (false without a query)."""
    if not request.query_string:
        return False
    return Blueprint.ARGUMENTS_PARSER.parse(DryRunQuerySchema, location="query")["dry_run"]


def preferred_return(header: str | None) -> str | None:
    """The `return` preference (RFC 7240) of a Prefer header: "minimal", "representation", or None.

    Preferences are comma-separated, each `name[=value]` and `;` parameters; names are
    case-insensitive, values as sent (a quoted value unquoted). Only the first `return`
    counts (RFC 7240, section 2); a value other than the two is ignored, as is any other
    preference. WSGI holds one value per header name (a server joins repeated headers with
    commas): read it straight from the environ (werkzeug's getlist walks every header)."""
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


def _if_match(header: str | None) -> commands.IfMatch | None:
    if header is None:
        return None
    tags = parse_etags(header)  # as werkzeug's request.if_match
    return commands.IfMatch(tags.star_tag, frozenset(tags.as_set()))


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
        400, "An Idempotency-Key is 1 to 255 visible ASCII characters but the comma, sent once.", "INVALID_IDEMPOTENCY_KEY"),
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


# The command route without Flask's per-request machinery ------------------------------------

def _path_pattern(rule: str) -> re.Pattern:
    """The route's rule (/games/<uuid:game_id>/commands) as a pattern, its one argument matched
    by werkzeug's own uuid converter: the path the route takes, from the route itself."""
    before, found, after = rule.partition("<uuid:game_id>")
    if not found:
        raise ValueError(f"the command route {rule!r} no longer takes <uuid:game_id>: LeanRoute must follow it")
    return re.compile(f"{re.escape(before)}({UUIDConverter.regex}){re.escape(after)}\\Z")


class LeanRoute:
    """POST /games/{id}/commands for a plain command, answered without Flask's request context.

    Commands are most of what a busy node serves, and Flask's own work for each (the request
    and response objects, URL matching, the hooks' lookups through context locals) was about
    a third of a command's CPU (docs/performance.md). A request this route takes: POST to the
    route's exact path, no query (so no dry run), a JSON body of a stated length within
    MAX_CONTENT_LENGTH that plainly matches CommandSchema (_plainly_a_command). Anything else
    is left to Flask (the body, once read, handed back), and so is every refusal: a problem
    raised here is rendered by Flask's own error handlers and after-request hooks, in a request
    context pushed then. An accepted command's answer carries what Flask's path gives it: the
    same body and headers (the view's, the security headers, the rate limit's, the request id),
    counted in the same metrics and logged in the same line (tests/api/test_lean_route.py
    compares the two routes answer for answer)."""

    def __init__(self, app):
        self.app = app
        self.route = next(rule.rule for rule in app.url_map.iter_rules() if rule.endpoint == "commands.send_command")
        self.path = _path_pattern(self.route)
        self.security = list(security_headers(public=False, page=False).items())

    def __call__(self, environ: dict, start_response) -> Iterable[bytes] | None:
        """The answer, or None: the request is Flask's. Its headers are read as werkzeug reads
        them (the content length, the media type), so that what this route takes is exactly
        what Flask's route would take as a plain command."""
        started = time.perf_counter()  # Flask's route times the body's upload too
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
            return None
        matched = self.path.match(environ.get("PATH_INFO", ""))
        if matched is None or environ.get("HTTP_TRANSFER_ENCODING") or environ.get("HTTP_CONTENT_ENCODING"):
            return None  # Flask's route reads it, or refuses its codings (service._codings_understood)
        mimetype, params = parse_options_header(environ.get("CONTENT_TYPE", ""))
        mimetype = mimetype.lower()
        if not (mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))):
            return None  # as werkzeug's request.is_json
        if params.get("charset", "utf-8").lower() not in UTF_8:
            return None  # Flask's route refuses it (415)
        length = get_content_length(environ)
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if not length or (limit is not None and length > limit):
            return None
        try:
            data = environ["wsgi.input"].read(length)
        except Exception as error:  # a body read too slowly (408), a client gone
            # Flask's route meets the same failure when its view reads the body, after its
            # before-request hooks: handed over with a body that fails the same way.
            environ["wsgi.input"] = _Failing(error)
            return None
        environ["wsgi.input"] = io.BytesIO(data)  # for Flask, should the request be its after all
        if len(data) != length:
            return None
        try:
            sent = loads_strictly(data)
        except Problem:
            return None
        body = _plainly_a_command(sent)
        if body is None:
            return None
        return self._serve(environ, start_response, UUID(matched.group(1)), body, sent, started)

    def _serve(self, environ: dict, start_response, game_id: UUID, body: dict, sent,
               started: float) -> Iterable[bytes]:
        app = self.app
        context = app.app_context()
        context.push()
        try:
            local = context.g
            local.started = started
            local.request_id = operations.request_id_for(environ)
            local.game_id = str(game_id)  # for the log lines of this request (service/logs.py)
            try:
                limits = app.extensions.get("parley.limits")
                if limits is not None:
                    limits.spend(environ.get("REMOTE_ADDR"))  # None: counted as werkzeug's remote_addr is
                answer, status, headers = answer_command(
                    game_id, body, False, environ.get("HTTP_AUTHORIZATION", ""), environ.get("HTTP_IDEMPOTENCY_KEY"),
                    environ.get("HTTP_IF_MATCH"), preferred_return(environ.get("HTTP_PREFER")),
                    lambda: request_hash(sent))
                payload = f"{app.json.dumps(answer, **_dump_args(app))}\n".encode()
                sent_headers = [("Content-Type", app.json.mimetype), ("Content-Length", str(len(payload))),
                                *headers.items(), *self.security]
                counted = local.get("rate_limit")
                if counted is not None:
                    sent_headers += limits.budgets.headers(counted).items()
            except Exception as error:
                return self._by_flask(environ, start_response, error)
            sent_headers.append(("X-Request-ID", local.request_id))
            operations.account("POST", environ["PATH_INFO"], self.route, status, time.perf_counter() - started)
            start_response(f"{status} {HTTPStatus(status).phrase}", sent_headers)
            return [payload]
        finally:
            context.pop()

    def _by_flask(self, environ: dict, start_response, error: Exception) -> Iterable[bytes]:
        """The refusal (or failure) `error`, answered as Flask's path answers it: its error
        handlers, then its after-request hooks, in a request context of its own."""
        app = self.app
        with app.request_context(environ):
            try:
                response = app.finalize_request(app.handle_user_exception(error))
            except Exception as unhandled:  # as Flask's wsgi_app: a handler that failed
                response = app.handle_exception(unhandled)
            return response(environ, start_response)


class _Failing(io.RawIOBase):
    """A request body whose every read raises what reading the real one raised."""

    def __init__(self, error: Exception):
        super().__init__()
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise self.error


def _dump_args(app) -> dict:
    """The arguments Flask's JSON provider gives json.dumps for a response (jsonify)."""
    provider = app.json
    if (provider.compact is None and app.debug) or provider.compact is False:
        return {"indent": 2}
    return {"separators": (",", ":")}
