"""Every error as RFC 9457 problem details (application/problem+json).

Each problem has type, title, status, detail, instance and a stable `code`. Rules
rejections add `section` (the rulebook section) and `ruling` (docs/rulings.md) when the rule
is ours. Bodies never carry stack traces: an unexpected error is logged and answered 500.
"""
from __future__ import annotations

import http
import logging

import marshmallow as ma
from flask import Flask, request
from werkzeug.exceptions import HTTPException

from domain.ruleset import InvalidCreation, Rejected

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://parley.invalid/problems/"  # identifiers, not links to follow

log = logging.getLogger(__name__)

# The error statuses the API documents (405 cannot be documented per operation). 414 and 431
# come from the HTTP server itself (gunicorn's request-line and header limits), as problems too
# (deploy/gunicorn.conf.py).
DOCUMENTED = (400, 401, 403, 404, 408, 409, 412, 413, 414, 415, 417, 422, 429, 431, 501, 503)
# The HTTP server's own refusals, possible on any operation: a malformed request (400: its
# request line, headers or framing), a request read too slowly (408, service/serving.py), a
# request line or header too long (414, 431), an Expect it cannot meet (417), a transfer coding
# it does not read (501; service._codings_understood refuses the ones gunicorn passes on).
SERVER_LIMITS = (400, 408, 414, 417, 431, 501)
# Every operation but the probes' may meet a rate limit (service/limits.py).
RATE_LIMITED = 429

CODES = {
    400: "MALFORMED_REQUEST",
    401: "UNAUTHENTICATED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    408: "REQUEST_TIMEOUT",
    409: "VERSION_CONFLICT",
    412: "PRECONDITION_FAILED",
    413: "BODY_TOO_LARGE",
    414: "URI_TOO_LONG",
    415: "UNSUPPORTED_MEDIA_TYPE",
    417: "EXPECTATION_FAILED",
    422: "UNPROCESSABLE",
    429: "RATE_LIMITED",
    431: "HEADERS_TOO_LARGE",
    500: "INTERNAL_ERROR",
    501: "NOT_IMPLEMENTED",
    503: "STORE_UNAVAILABLE",
}


# RFC 9110 15 renamed three statuses; Python 3.11's http.HTTPStatus still has the old phrases
# ("Request Entity Too Large"). A problem's title is the status's name (RFC 9457 3.1.3).
RENAMED = {413: "Content Too Large", 414: "URI Too Long", 422: "Unprocessable Content"}


def phrase(status: int) -> str:
    """The status's reason phrase as RFC 9110 names it."""
    return RENAMED.get(status) or http.HTTPStatus(status).phrase


class CauseSchema(ma.Schema):
    """One thing wrong with a creation request (INVALID_GAME)."""

    field = ma.fields.String(required=True, metadata={
        "description": "The part of the request at fault: 'players', 'options.first_player', "
                       "'content.coins', 'setup.track'... ('' when the problem is the whole request)"})
    detail = ma.fields.String(required=True, metadata={"description": "What is wrong, in a player's words"})
    section = ma.fields.String(metadata={
        "description": "The rulebook section the check enforces, where the rulebook has one"})
    ruling = ma.fields.String(metadata={"description": "The ruling id(s) in docs/rulings.md the check applies"})


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details, as Parley sends them (extension members may be added)."""

    class Meta:
        unknown = ma.INCLUDE

    type = ma.fields.String(required=True)
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True)
    instance = ma.fields.String(required=True)
    code = ma.fields.String(required=True, metadata={"description": (
        "Stable machine code: docs/api.md, Errors, lists every code outside the rules; any other "
        "is a rule of the game, with its section")})
    section = ma.fields.String(metadata={"description": "Rulebook section enforced (422 rules rejections)"})
    ruling = ma.fields.String(metadata={"description": "Ruling id in docs/rulings.md, when the rule is ours"})
    problems = ma.fields.List(ma.fields.String(), metadata={"description": "Every problem found (INVALID_GAME, INVALID_COMMAND)"})
    causes = ma.fields.List(ma.fields.Nested(CauseSchema), metadata={
        "description": "INVALID_GAME: the same problems, one object each, in the same order"})
    errors = ma.fields.Dict(metadata={"description": "Fields that failed validation (400)"})
    version = ma.fields.Integer(metadata={"description": "The game's current version (409, 412)"})


class Problem(Exception):
    """Raise to answer with a problem; extra keyword arguments become extension members."""

    def __init__(self, status: int, detail: str, code: str | None = None,
                 headers: dict | None = None, **extensions):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.code = code or CODES.get(status, "ERROR")
        self.headers = headers or {}
        self.extensions = extensions


def problem_response(status: int, detail: str, code: str | None = None,
                     headers: dict | None = None, **extensions):
    body = {
        "type": TYPE_BASE + (code or CODES.get(status, "ERROR")).lower().replace("_", "-"),
        "title": phrase(status),
        "status": status,
        "detail": detail,
        "instance": request.path,
        "code": code or CODES.get(status, "ERROR"),
    }
    body.update({k: v for k, v in extensions.items() if v is not None})
    return body, status, {"Content-Type": PROBLEM_JSON, **(headers or {})}


# gunicorn's own refusals, in words: its messages quote the exception's own text, a Python
# tuple for an HTTP version ("Invalid HTTP Version 'Invalid HTTP Version: (2, 0)'").
_SERVER_WORDS = (
    ("Invalid HTTP Version", "Only HTTP/1.0 and HTTP/1.1 are served."),
    ("Invalid Request Line", "The request line is not of the form: METHOD /path HTTP/1.1."),
    ("Invalid Method", "The request's method is not a valid HTTP method."),
    ("Error parsing headers", "The request has too many header fields, or one too large."),
)


def server_words(status: int, detail: str) -> str:
    """The HTTP server's refusal (its message) in the words of Parley's own problems."""
    for prefix, words in _SERVER_WORDS:
        if detail.startswith(prefix):
            return words
    if status == 417:
        return "Only 'Expect: 100-continue' is understood."
    return detail


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """A whole HTTP/1.1 response carrying a problem, for the HTTP server's own refusals (the
    request never reached Flask, so its path is unknown: instance is empty). It carries what
    every answer of Parley's carries (docs/api.md): no-store, the security headers, and a
    request id, a new one, since the request's own headers were not read."""
    import json
    import uuid
    from email.utils import formatdate

    from service import security_headers

    try:  # gunicorn names a 501 (a transfer coding it does not know) "Bad Request"
        known = http.HTTPStatus(status)
        reason, code = phrase(status), CODES.get(status, known.name)
    except ValueError:
        code = CODES.get(status, "ERROR")
    body = json.dumps({"type": TYPE_BASE + code.lower().replace("_", "-"), "title": reason,
                       "status": status, "detail": server_words(status, detail), "instance": "", "code": code}).encode()
    headers = {"Date": formatdate(usegmt=True),  # RFC 9110 6.6.1: an origin server with a clock sends it
               "Connection": "close", "Content-Type": PROBLEM_JSON, "Content-Length": str(len(body)),
               **security_headers(public=False, page=False), "X-Request-ID": uuid.uuid4().hex}
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    return head.encode("latin-1") + body


def _http_exception(error: HTTPException):
    status = error.code or 500
    headers = {}
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            headers[name] = value
    data = getattr(error, "data", None) or {}
    extensions = {}
    detail = error.description or http.HTTPStatus(status).description
    messages = data.get("messages") or data.get("errors")
    if messages:
        # webargs: {"json": {"field": ["message"]}} -> {"field": ["message"]}
        if isinstance(messages, dict) and len(messages) == 1:
            messages = next(iter(messages.values()))
        extensions["errors"] = messages if isinstance(messages, dict) else {"_body": messages}
        detail = "The request does not match the API's schema: see 'errors'."
    if data.get("message"):
        detail = data["message"]
    if messages and "Invalid JSON body." in str(messages):
        detail = "The body is not valid JSON."
    if status == 413:
        detail = _too_large() or detail
    headers.update(data.get("headers") or {})
    return problem_response(status, detail, None, headers, **extensions)


def _size(limit: int) -> str:
    for unit, size in (("MiB", 2**20), ("KiB", 2**10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit:,} bytes"


def _too_large() -> str | None:
    """werkzeug's 413 in words that name the limit this operation applied (docs/api.md, "Anonymous
    work"), and for an export sent without the arbiter's token the limit with it."""
    from flask import current_app

    from service.api import EXPORT_ENDPOINTS, arbiter_request

    limit = request.max_content_length
    if limit is None:
        return None
    words = f"The request's body is larger than this operation accepts: at most {_size(limit)}."
    if request.endpoint in EXPORT_ENDPOINTS and not arbiter_request():
        words += (f" An export sent with the arbiter's token may hold "
                  f"{_size(current_app.config['EXPORT_MAX_LENGTH'])}.")
    return words


def register(app: Flask) -> None:
    @app.errorhandler(Problem)
    def _problem(error: Problem):
        return problem_response(error.status, error.detail, error.code, error.headers,
                                **error.extensions)

    @app.errorhandler(Rejected)
    def _rejected(error: Rejected):
        return problem_response(422, error.detail, error.code, section=error.rule,
                                ruling=error.ruling)

    @app.errorhandler(InvalidCreation)
    def _invalid_creation(error: InvalidCreation):
        return problem_response(422, "The game cannot be created as asked: see 'problems'.",
                                "INVALID_GAME", problems=list(error.problems), causes=error.causes)

    from service.seeds import SeedUnavailable

    @app.errorhandler(SeedUnavailable)
    def _seed_unavailable(error: SeedUnavailable):
        log.error("a game's seed cannot be opened: %s", error)
        return problem_response(503, "This game's server seed cannot be opened on this server (its "
                                "key is missing from the server's seed keys), so its next outcome "
                                "cannot be decided. The operator has been told.", "SEED_UNAVAILABLE")

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        if isinstance(error, HTTPException):
            return _http_exception(error)
        from eventsourcing.persistence import InterfaceError, OperationalError

        if isinstance(error, (OperationalError, InterfaceError)):
            log.warning("event store unavailable: %s", error)
            return problem_response(503, "The event store is unavailable; try again shortly.",
                                    headers={"Retry-After": "5"})
        log.exception("unexpected error on %s %s", request.method, request.path)
        return problem_response(500, "Something went wrong on our side; the error was logged.")

    app.register_error_handler(HTTPException, _http_exception)
