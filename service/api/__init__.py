"""HTTP resources: one module per resource, schemas beside the views that use them.

Shared here: the flask-smorest Api with problem+json error responses, a Blueprint whose
schema errors answer 400, and the bearer-token authentication every game resource uses.
"""
from __future__ import annotations

import hashlib
import hmac
import http
import json
import math
import re
from collections.abc import Iterable
from urllib.parse import unquote_to_bytes
from uuid import UUID

import flask_smorest
import marshmallow as ma
from flask import current_app, request
from flask_smorest.utils import prepare_response
from webargs import core as webargs_core
from webargs.flaskparser import FlaskParser, is_json_request

from domain.ruleset import ARBITER
from service.application import GameNotFound, Parley
from service.errors import DOCUMENTED, PROBLEM_JSON, RATE_LIMITED, SERVER_LIMITS, Problem, ProblemSchema, phrase
from service.game import SPECTATOR, Game

BEARER = re.compile(r"^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$", re.IGNORECASE)


# Deeper than any document the API takes (an export nests about a dozen levels); far below the
# depth at which Python's own recursion (json, jsonschema, marshmallow) would fail.
MAX_JSON_DEPTH = 64


def _not_json(detail: str | None = None) -> Problem:
    return Problem(400, "The body is not valid JSON." if detail is None else
                   f"The body is not valid JSON: {detail}", "MALFORMED_REQUEST")


def _refuse_constant(name: str):
    raise _not_json(f"{name} is not a JSON number.")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _not_json(f"the number {text[:20]}... is too large.")
    return value


class _DuplicateName(ValueError):
    pass


def _object_without_duplicates(pairs: list) -> dict:
    """RFC 8259 section 4: names within an object SHOULD be unique; readers differ on which of two
    wins, so a body naming one twice (a seat, a type) is refused rather than read one way."""
    value = dict(pairs)
    if len(value) != len(pairs):
        names = [name for name, _ in pairs]
        raise _DuplicateName(next(name for k, name in enumerate(names) if name in names[:k]))
    return value


# One decoder for every body (json.loads with any keyword builds a new one, its scanner
# included, on every call: most of a command body's parse).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite,
                            object_pairs_hook=_object_without_duplicates)

SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def loads_strictly(data: bytes):
    """RFC 8259 JSON only: UTF-8, no NaN/Infinity, no number beyond a double (1e400) or of more
    than 4300 digits, no name twice in an object, no lone surrogate, at most MAX_JSON_DEPTH
    levels. Anything else is a 400 problem."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _not_json("it is not UTF-8.") from None
    try:
        value = _DECODER.decode(text)
    except _DuplicateName as twice:
        raise _not_json(f"an object names {str(twice)[:40]!r} twice.") from None
    except RecursionError:
        raise _not_json(f"it nests deeper than {MAX_JSON_DEPTH} levels.") from None
    except json.JSONDecodeError:
        raise _not_json() from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise _not_json("a number has too many digits.") from None
    stack = [(value, 1)]
    while stack:  # iterative, containers only: cheap even for a 64 MiB export
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise _not_json(f"it nests deeper than {MAX_JSON_DEPTH} levels.")
        if type(item) is dict:
            children: Iterable = item.values()
        elif type(item) is list:
            children = item
        else:
            continue
        stack.extend((child, depth + 1) for child in children if type(child) in (dict, list))
    # UTF-8 cannot carry a surrogate: one can only come from a backslash-u-D8..DF escape.
    if SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        raise _not_json("a string holds a lone surrogate (\\ud800-\\udfff).")
    return value


class Parser(FlaskParser):
    # A body or query that does not match the API's schema is a malformed request.
    DEFAULT_VALIDATION_STATUS = 400

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._schemas: dict = {}

    def _get_schema(self, argmap, req):
        # webargs builds a new schema object from a schema class on every request (fields
        # deep-copied): one per class serves them all, as loading keeps no state on it.
        if isinstance(argmap, type) and issubclass(argmap, ma.Schema):
            schema = self._schemas.get(argmap)
            if schema is None:
                schema = self._schemas.setdefault(argmap, argmap())
            return schema
        return super()._get_schema(argmap, req)

    def _raw_load_json(self, req):
        # webargs' json.loads lets a deep body raise RecursionError and a long integer
        # ValueError (both 500s), and takes NaN and lone surrogates the event store cannot keep.
        if not is_json_request(req):
            return webargs_core.missing
        data = req.get_data(cache=True)
        if not data:
            return webargs_core.missing
        return loads_strictly(data)


# A number in a query, as the contract's integer and number are written: ASCII digits (a minus
# sign, and for a number a fraction and an exponent, as JSON writes them: a generator such as
# schemathesis sends 1e-05). Python's int() and float() also take '１０' (full
# width), '١٠' (Arabic-Indic), '1_0', '+5' and ' 5 ', which other readers of the same URL (a
# proxy, JavaScript's parseInt) read otherwise or not at all; the Range validators then say
# what the value must be.
WHOLE_NUMBER = re.compile(r"-?[0-9]+")
DECIMAL_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


class QueryInteger(ma.fields.Integer):
    """A whole number in a query string: ASCII digits only (WHOLE_NUMBER)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not WHOLE_NUMBER.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class QueryFloat(ma.fields.Float):
    """A number in a query string: ASCII digits with an optional fraction and exponent (DECIMAL_NUMBER)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not DECIMAL_NUMBER.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()

    def problems(self, *statuses: int, limited: bool = True):
        """Document these error responses (problem+json) on an operation, the HTTP server's own
        refusals (a request read too slowly, 408; an over-long request line or header, 414,
        431) and, unless `limited` is False, the rate limit's 429 (service/limits.py).

        Documentation only: flask-smorest's alt_response wraps the view once per status in a
        function that only calls the next (about a dozen calls a request, each looking up the
        app and whether the view is a coroutine); here the documentation they build is put on
        the view itself, which is called directly."""
        listed = dict.fromkeys(statuses + SERVER_LIMITS + ((RATE_LIMITED,) if limited else ()))
        documenting = [self.alt_response(status, response=http.HTTPStatus(status).name) for status in listed]
        return self.documented(*reversed(documenting))  # applied in the order listed


    @staticmethod
    def documented(*decorators):
        """flask-smorest's decorators (arguments, response, doc, problems), in the order they
        would be stacked, for the documentation only: the view is called directly and parses
        its own request (for the hot path, POST /games/{id}/commands: each of these wraps the
        view in a function that calls the next, and webargs loads the body through marshmallow
        even when it plainly matches). The documentation they build is put on the view."""
        def decorator(func):
            documented = func
            for decorate in reversed(decorators):
                documented = decorate(documented)
            func._apidoc = documented._apidoc
            return func
        return decorator


class Api(flask_smorest.Api):
    """flask-smorest's Api with every documented error as application/problem+json."""

    DEFAULT_ERROR_RESPONSE_NAME = None  # else every operation "accepts" any status
    ERROR_SCHEMA = ProblemSchema

    def _register_error_handlers(self):
        pass  # service.errors registers problem+json handlers for everything

    def _register_pagination_header(self):
        pass  # no flask-smorest paging here (GET /games pages with a cursor and Link): no PaginationMetadata

    def _register_responses(self):
        for status in DOCUMENTED:
            response = {"description": phrase(status), "schema": ProblemSchema}
            # Every answer has an id; a refusal of a counted operation tells the budget too
            # (the probes' are not counted: they do not carry it, which an optional header allows).
            response["headers"] = {**_header_refs([*REQUEST_ID_HEADER, *BUDGET_HEADERS]), **ANSWER_HEADERS.get(status, {})}
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(http.HTTPStatus(status).name, response, lazy=True)

    def declare_answer_headers(self) -> None:
        """Put on every answer in the contract the headers every answer carries: X-Request-ID,
        and on an operation the rate limits count (one that may answer 429) the budget's
        X-RateLimit-* (service/limits.py; absent where an operator turned the limits off).
        Run once the blueprints are registered."""
        for name, header in {**REQUEST_ID_HEADER, **BUDGET_HEADERS}.items():
            self.spec.components.header(name, header)

        for operations in self.spec._paths.values():
            for operation in operations.values():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue
                counted = str(RATE_LIMITED) in operation["responses"]
                for response in operation["responses"].values():
                    if "$ref" not in response:  # a shared error response has them already
                        headers = response.setdefault("headers", {})
                        for name, ref in _header_refs([*REQUEST_ID_HEADER, *(BUDGET_HEADERS if counted else ())]).items():
                            headers.setdefault(name, ref)

    def query_parameters(self) -> dict[str, frozenset[str]]:
        """Each documented operation's endpoint and the query parameters the contract gives it
        (openapi.yaml), read from the spec once the blueprints are registered."""
        paths = self.spec.to_dict()["paths"]
        taken: dict[str, frozenset[str]] = {}
        for rule in self._app.url_map.iter_rules():
            operations = paths.get(_FLASK_VARIABLE.sub(r"{\1}", rule.rule), {})
            for method in rule.methods or ():
                operation = operations.get(method.lower())
                if operation is None:
                    continue
                names = {p["name"] for p in operation.get("parameters", []) + operations.get("parameters", [])
                         if p.get("in") == "query"}
                taken[rule.endpoint] = taken.get(rule.endpoint, frozenset()) | names
        return taken


_FLASK_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")  # /games/<uuid:game_id> is /games/{game_id}
# Not checked: the viewer page, whose query is its script's own (/viewer?game=...&token=...), and
# the probes and metrics, which take none and do the same whatever a monitor appends.
UNCHECKED_QUERY = frozenset({"replays.viewer", "operations.health", "operations.readiness", "operations.metrics"})


def install_query_check(app, taken: dict[str, frozenset[str]]) -> None:
    """Every query parameter of an operation is one the contract gives it, given once: 400
    MALFORMED_REQUEST otherwise. Read any other way, a misspelt `?dryRun=true` or a second
    `&dry_run=true` after `?dry_run=false` (readers differ on which of two wins, as with a body
    naming a field twice) would store a move meant as a dry run."""
    checked = {endpoint: names for endpoint, names in taken.items() if endpoint not in UNCHECKED_QUERY}

    def _query_as_declared() -> None:
        if not request.query_string or request.routing_exception is not None or request.method == "OPTIONS":
            return
        names = checked.get(request.endpoint or "")
        if names is None:
            return
        try:   # werkzeug would read a byte that is not UTF-8 as U+FFFD, a name no one sent
            unquote_to_bytes(request.query_string).decode("utf-8")
        except UnicodeDecodeError:
            raise Problem(400, "The request's query is not UTF-8: percent-encode each parameter's UTF-8 bytes.",
                          "MALFORMED_REQUEST") from None
        errors = {}
        for name, values in request.args.lists():
            if name not in names:
                errors[name] = ["This operation takes no such query parameter"
                                + (f" (it takes {', '.join(sorted(names))})." if names else ".")]
            elif len(values) > 1:
                errors[name] = [f"Given {len(values)} times: give it once."]
        if errors:
            raise Problem(400, "The request's query does not match the API's schema: see 'errors'.",
                          "MALFORMED_REQUEST", errors=errors)

    app.before_request(_query_as_declared)


def _header_refs(names) -> dict:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


def _digits() -> dict:  # a header holding a whole number
    return {"type": "string", "pattern": "^[0-9]+$"}
# Every answer's id (service/api/operations.py): the client's X-Request-ID when it is a sensible
# one, else a new one; the log line of the request carries it.
REQUEST_ID_HEADER = {"X-Request-ID": {
    "description": "This request's id, as the service's log names it: the X-Request-ID sent (up to 128 of "
                   "A-Z a-z 0-9 . _ : -), else a new one", "required": True,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,128}$"}}}
# The budget an answer of a counted operation was spent from (service/limits.py, docs/api.md
# "Rate limits"): on every such answer while the limits are on (the default).
BUDGET_HEADERS = {
    "X-RateLimit-Limit": {"description": "The budget's requests a window", "schema": _digits()},
    "X-RateLimit-Remaining": {"description": "What is left of it: 0, or less than the request costs (a game "
                                             "created with custom content costs 20)", "schema": _digits()},
    "X-RateLimit-Reset": {"description": "When the window frees a request, in seconds since the epoch",
                          "schema": _digits()}}
# The headers a refusal carries (docs/api.md, "Errors"): when to try again, and the budget spent.
ANSWER_HEADERS = {
    429: {"Retry-After": {"description": "Seconds until the budget spent allows a request again", "schema": _digits()},
          **{name: {**header, "required": True} for name, header in BUDGET_HEADERS.items()}},
    412: {"ETag": {"description": 'The tag of what was asked for: the game\'s current version, as "<version>" '
                                  '(a past version\'s own for GET /games/{id}?version=N)', "required": True,
                   "schema": {"type": "string", "pattern": '^"[0-9]+"$'}}},
    # RFC 6750 section 3: every 401 names the Bearer scheme (and says invalid_token when the token sent is not one).
    401: {"WWW-Authenticate": {"description": "The Bearer scheme and its realm (parley, or parley-metrics on "
                                              "/metrics), with error=\"invalid_token\" when the token sent is "
                                              "not one of the game's", "required": True,
                               "schema": {"type": "string",
                                          "pattern": '^Bearer realm="[a-z-]+"(, error="invalid_token")?$'}}},
    503: {"Retry-After": {"description": "Seconds after which the store may answer again", "schema": _digits()}},
}


def request_hash(sent) -> str:
    """What an Idempotency-Key's request is compared by: the body as sent, canonical JSON."""
    body = json.dumps(sent, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def application() -> Parley:
    return current_app.extensions["parley"]


def bearer_token(header: str | None = None) -> str:
    """The bearer token, or 401: credentials are checked before anything else is told.
    `header`: the Authorization header, when the caller has it (else the current request's)."""
    if header is None:
        header = request.headers.get("Authorization", "")
    match = BEARER.match(header)
    if not match:
        raise Problem(401, "Send a seat's, the host's or the spectator's token as 'Authorization: Bearer <token>'.",
                      headers={"WWW-Authenticate": 'Bearer realm="parley"'})
    return match.group(1)


def authenticate(game_id: UUID, load=None, *, reading: bool = False,
                 authorization: str | None = None) -> tuple[Game, int | str]:
    """Load the game (with `load`, by default its latest version) and tell whose token this
    is: a seat number, "host" or "spectator".

    `reading`: the request only reads the game, so a public game answers it without a token,
    as its spectator (SPECTATOR). Without a token, a game that is not public and a game that
    does not exist get the same 401: asking without a token does not tell which games are
    private (ids are not secret: GET /games lists them; with a token, a missing game is 404).
    `authorization`: the Authorization header, when the caller has it (else the request's)."""
    if reading and not request.headers.get("Authorization"):
        game = _public_game(game_id, load)
        if game is not None:
            return game, SPECTATOR
    token = bearer_token(authorization)
    try:
        game = (load or application().get_game)(game_id)
    except GameNotFound:
        raise Problem(404, "There is no game with this id.", "GAME_NOT_FOUND") from None
    caller = game.seat_for_token(token)
    if caller is None:
        raise Problem(401, "This token does not belong to this game.", "INVALID_TOKEN",
                      headers={"WWW-Authenticate": 'Bearer realm="parley", error="invalid_token"'})
    return game, caller


def _public_game(game_id: UUID, load=None) -> Game | None:
    try:
        game = (load or application().get_game)(game_id)
    except GameNotFound:
        return None
    return game if game.public else None


# The two operations that take a whole game's export as their body (service._exports_may_be_large).
EXPORT_ENDPOINTS = ("verifications.verify_export", "replays.replay_export")


def arbiter_request() -> bool:
    """Whether this request carries the arbiter's token (without asking for any token)."""
    header = request.headers.get("Authorization", "")
    return header[:7].lower() == "bearer " and is_arbiter_token(header[7:].strip())


def is_arbiter_token(token: str) -> bool:
    """The operator's arbiter token (config ARBITER_TOKEN), compared in constant time."""
    configured = current_app.config.get("ARBITER_TOKEN")
    return bool(configured) and hmac.compare_digest(token.encode(), str(configured).encode())


def authenticate_reader(game_id: UUID) -> tuple[Game, int | str]:
    """As authenticate() for a read, and the arbiter's token is accepted too (caller ARBITER)."""
    if request.headers.get("Authorization") and is_arbiter_token(bearer_token()):
        try:
            return application().get_game(game_id), ARBITER
        except GameNotFound:
            raise Problem(404, "There is no game with this id.", "GAME_NOT_FOUND") from None
    return authenticate(game_id, reading=True)


def viewer_for(caller: int | str):
    """The viewer the rules render for: the host sees as the arbiter, a spectator as nobody's
    seat (None: what every seat may see)."""
    if caller == "host":
        return ARBITER
    return None if caller == SPECTATOR else caller
