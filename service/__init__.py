"""Parley's HTTP service: a thin Flask app over the event-sourced application.

create_app(config) builds it. Config keys (all optional):
    RULESETS            {id: ruleset}; default domain.registry.all_rulesets()
    PERSISTENCE         eventsourcing environment, e.g. {"PERSISTENCE_MODULE": "eventsourcing.popo"};
                        default: the process environment, else an SQLite file under ./var/
    SNAPSHOT_INTERVAL   store a snapshot every N events (default 100)
    MAX_CONTENT_LENGTH  largest request body in bytes (default 1 MiB)
    EXPORT_MAX_LENGTH   largest export the arbiter may send to /verifications or /replays
                        (default 64 MiB)
    ANONYMOUS_EXPORT_MAX_LENGTH   the same for anyone else (default: env
                        PARLEY_ANONYMOUS_EXPORT_MAX_BYTES, else 4 MiB)
    ANONYMOUS_EXPORT_MAX_VALUES   most JSON values (objects, arrays, strings, numbers...) in
                        such an export (default: env PARLEY_ANONYMOUS_EXPORT_MAX_VALUES, else
                        250,000: about 20 bytes each in a real export), counted before it is parsed
    ARBITER_TOKEN       the operator's token: complete exports of any game, and GET /games
                        sees every game (default: env PARLEY_ARBITER_TOKEN; none: no arbiter)
    METRICS_TOKEN       bearer token /metrics asks for (default: env PARLEY_METRICS_TOKEN;
                        none: /metrics is open)
    RATE_LIMITS, RATE_LIMIT_COSTLY, RATE_LIMIT_DEFAULT, RATE_LIMIT_STORAGE, TRUSTED_PROXIES
                        rate limits per client address (service/limits.py; env PARLEY_...)
    LEAN_COMMAND_ROUTE  plain commands answered without Flask's request context (default True;
                        service/api/commands.py LeanRoute): the same answers, for less CPU
"""
from __future__ import annotations

import codecs
import hashlib
import os
import re
import weakref
from typing import Any

import orjson
from flask import Flask, Response, current_app, request, send_from_directory
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

from service import errors
from service.errors import Problem

API_DESCRIPTION = """Parley adjudicates board games. Create a game, send each seat's commands,
and get back the events the rules produced, or a rejection naming the rule. Every error is
RFC 9457 problem details (application/problem+json).

Every answer is `Cache-Control: no-store` (answers carry tokens and what one seat may see),
errors included, but the public documents' successes: the rulesets, this document and the
replay viewer's files are `Cache-Control: no-cache`."""

# Answers carry tokens and what only one seat may see: no cache (browser, proxy, CDN) may keep
# one, errors included. Only these documents, the same for everyone and secret to no one, may
# be kept; a cache asks again before each use (a deploy changes them; the viewer's files answer
# 304 to If-None-Match). A new route is private until it is listed here.
PUBLIC_ENDPOINTS = frozenset({"rulesets.list_rulesets", "rulesets.get_ruleset",
                              "api-docs.openapi_json", "replays.viewer", "static"})

# The viewer (service/static/viewer.html) shows data from any export, and an export can be
# crafted: the page may run script and load styles only from this service's own files, never
# inline, and fetch only from it. It needs no image, font, frame or form.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
# Every other answer is data, never a page: should a browser open one, nothing in it loads or runs.
DATA_POLICY = "default-src 'none'; frame-ancestors 'none'"


# Cross-origin reads (CORS): a web app served from its own site (a spectator page, a table's
# companion) calls Parley from the browser. Every answer may be read by any origin: Parley's
# credentials are bearer tokens the app sends itself, never cookies or anything a browser adds
# on its own, so a page of another site learns nothing it was not given a token for (no
# Access-Control-Allow-Credentials). The headers an app reads are exposed to it.
EXPOSED = ("ETag, Location, Link, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, "
           "Preference-Applied, Idempotent-Replayed, X-Request-ID")
# What a preflight (OPTIONS with Access-Control-Request-Method) allows a page to send.
REQUEST_HEADERS = ("Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Prefer, Last-Event-ID, "
                   "X-Request-ID")
PREFLIGHT_SECONDS = "600"


def security_headers(public: bool, page: bool) -> dict[str, str]:
    """What every answer carries: whether a cache may keep it (`public`: a public document's
    success), what a browser may do with it (`page`: the viewer's HTML, else data), and that a
    page of any site may read it (CORS)."""
    return {"Cache-Control": "no-cache" if public else "no-store",
            "Content-Security-Policy": PAGE_POLICY if page else DATA_POLICY,
            "X-Content-Type-Options": "nosniff",
            # The viewer's own address may carry a token (/viewer?game=...&token=...).
            "Referrer-Policy": "no-referrer",
            "Access-Control-Allow-Origin": "*",
            "Access-Control-Expose-Headers": EXPOSED}


def _is_page(response: Response) -> bool:
    """Whether the answer is the viewer's page. A 304 has no body and no type of its own (a
    bare response is text/html), and a cache puts its headers on the copy it keeps (RFC 9111
    4.3.4): it carries the policy of the answer it revalidates."""
    if response.status_code == 304:
        return request.endpoint == "replays.viewer" or (request.endpoint == "static" and request.path.endswith(".html"))
    return response.mimetype == "text/html"


def _response_headers(response: Response) -> Response:
    if request.method == "OPTIONS" and response.status_code == 200 and "Allow" in response.headers \
            and response.is_sequence and not response.get_data():
        # Flask's automatic OPTIONS answers an empty text/html page; it has nothing to say but
        # its headers (Allow, and a preflight's below), so it says so: 204, no content type.
        response.status_code = 204
        del response.headers["Content-Type"]
    response.headers.update(security_headers(
        request.endpoint in PUBLIC_ENDPOINTS and response.status_code < 400, _is_page(response)))
    if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers and "Allow" in response.headers:
        # A browser's preflight, answered by Flask's automatic OPTIONS: the route's methods.
        response.headers["Access-Control-Allow-Methods"] = response.headers["Allow"]
        response.headers["Access-Control-Allow-Headers"] = REQUEST_HEADERS
        response.headers["Access-Control-Max-Age"] = PREFLIGHT_SECONDS
    return response


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, written by orjson where that gives the very same text, else by Flask.

    Answers are compact and keep their keys' order (sort_keys is off): orjson writes such a
    text byte for byte as the standard library does, but for characters outside printable
    ASCII, which Flask escapes (ensure_ascii: backslash-u00e4 for an a with umlaut, a surrogate
    pair past U+FFFF, backslash-u007f for DEL) and orjson writes as UTF-8: those are escaped here, after orjson, as Flask escapes
    them (they only occur inside strings). What orjson refuses (integers past 64 bits, keys
    that are not strings, nesting past 254, lone surrogates) is answered by Flask's own
    encoder. A float with an exponent is written as the same number (1e-7 for 1e-07)."""

    sort_keys = False
    _OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs == _COMPACT:  # as Flask's response() asks for it, but in debug
            try:
                written = orjson.dumps(obj, default=self.default, option=self._OPTIONS)
            except TypeError:
                pass
            else:
                if written.isascii() and b"\x7f" not in written:
                    return written.decode("ascii")
                # A captain's or player's name with an accent (Jäger): a third of a Corsairs
                # game's answers, which Flask's encoder wrote at several times orjson's cost.
                # The codec copies the ASCII at C speed and calls _ensure_ascii once for each
                # run of other characters (a regular expression tested every character: 16 us
                # against 4 us for a 3 KB view with one accent).
                return written.decode("utf-8").encode("ascii", _ENSURE_ASCII).replace(b"\x7f", b"\\u007f").decode("ascii")
        return super().dumps(obj, **kwargs)


_COMPACT = {"separators": (",", ":")}
# orjson escapes every control character as the standard library does; DEL (replaced after the
# codec, which passes it as ASCII) and non-ASCII it writes as they are.
_ENSURE_ASCII = "parley-json-ensure-ascii"


def _ensure_ascii(error: UnicodeError) -> tuple[str, int]:
    """The characters the ASCII codec could not write, as the standard library's ensure_ascii
    writes them: backslash-u and four lower-case hex digits, a surrogate pair past U+FFFF."""
    assert isinstance(error, UnicodeEncodeError)  # registered for encoding only
    out = []
    for character in error.object[error.start:error.end]:
        code = ord(character)
        if code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}")
    return "".join(out), error.end


codecs.register_error(_ENSURE_ASCII, _ensure_ascii)


# The content digest of each of the service's own files, by path, with the modification time
# and size it was taken at: one entry a file, however often it changes.
_DIGESTS: dict[str, tuple[int, int, str]] = {}


def send_public_file(directory: str, filename: str, **kwargs: Any) -> Response:
    """One of the service's own files (the viewer's), tagged with a digest of its contents, so
    that every node serving the same build gives it the same ETag and a cache revalidates it
    anywhere (304). Werkzeug's own tag is of the file's modification time and path, which two
    checkouts of one build do not share."""
    path = safe_join(directory, filename)
    if path is None or not os.path.isfile(path):
        raise NotFound()
    found = os.stat(path)
    kept = _DIGESTS.get(path)
    if kept is not None and kept[:2] == (found.st_mtime_ns, found.st_size):
        tag = kept[2]
    else:
        with open(path, "rb") as file:
            tag = hashlib.sha256(file.read()).hexdigest()[:32]
        _DIGESTS[path] = (found.st_mtime_ns, found.st_size, tag)
    return send_from_directory(directory, filename, etag=tag, **kwargs)


class ParleyFlask(Flask):
    """Flask, remembering which functions are coroutines: Flask asks inspect again before
    every call of every view and request hook (about ten times a request). Weakly: a function
    made for one request (after_this_request) leaves the cache with the request."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    json_provider_class = JSONProvider
    lean_route: Any = None  # service/api/commands.py LeanRoute, when create_app installs it

    def wsgi_app(self, environ, start_response):
        if self.lean_route is not None and host_is_valid(environ):
            answered = self.lean_route(environ, start_response)
            if answered is not None:
                return answered
        return super().wsgi_app(environ, start_response)

    def send_static_file(self, filename: str) -> Response:
        """/static/*, tagged with a digest of the file's contents (send_public_file)."""
        assert self.static_folder is not None, "Parley serves its viewer from service/static"
        return send_public_file(self.static_folder, filename, max_age=self.get_send_file_max_age(filename))

    def ensure_sync(self, func):
        try:
            sync = self._sync.get(func)
        except TypeError:  # not weakly referable (or unhashable): asked every time, as Flask does
            return super().ensure_sync(func)
        if sync is None:
            sync = super().ensure_sync(func)
            self._sync[func] = sync if sync is not func else _SAME
        return func if sync is _SAME else sync


_SAME = object()  # ensure_sync(func) is func itself (not kept as a value: it would keep func alive)


def create_app(config: dict | None = None) -> Flask:
    from service import limits
    from service.api import (
        Api,
        commands,
        events,
        exports,
        games,
        install_query_check,
        legal_commands,
        operations,
        replays,
        rulesets,
        verifications,
    )
    from service.application import Parley

    app = ParleyFlask(__name__)
    _configure(app, config or {})
    app.extensions["parley"] = Parley(app.config["RULESETS"], env=app.config.get("PERSISTENCE"),
                                      snapshot_interval=app.config.get("SNAPSHOT_INTERVAL"))

    api = Api(app)
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer",
                       "description": "A seat's, the host's or the spectator's token, from POST /games; "
                                      "or the operator's arbiter token (PARLEY_ARBITER_TOKEN), for a complete "
                                      "export and for exports up to 64 MiB sent to /verifications and /replays"})
    for module in (rulesets, games, commands, events, legal_commands, exports, verifications, replays,
                   operations):
        api.register_blueprint(module.blp)
    api.spec.components.schema("StreamMessage", events.STREAM_MESSAGE)
    api.declare_answer_headers()
    errors.register(app)
    operations.install(app)
    app.before_request(_host_required)  # before the rate limits: a request refused 400 spends no budget
    app.extensions["parley.query_parameters"] = api.query_parameters()
    install_query_check(app, app.extensions["parley.query_parameters"])  # a query not the contract's: 400 too
    limits.install(app)
    app.after_request(_response_headers)
    app.before_request(_codings_understood)
    app.before_request(_exports_may_be_large)
    app.before_request(_json_bodies_only)
    app.before_request(_bounded_unsized_body)  # after _exports_may_be_large: its limit
    if app.config["LEAN_COMMAND_ROUTE"]:
        app.lean_route = commands.LeanRoute(app)
    return app


def _configure(app: Flask, config: dict) -> None:
    """The app's settings: the documented defaults, then `config`, then the environment's."""
    app.config.update(
        API_TITLE="Parley",
        API_VERSION="0.1.0",
        OPENAPI_VERSION="3.0.3",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=1024 * 1024,
        JSON_SORT_KEYS=False,
        LEAN_COMMAND_ROUTE=True,
    )
    app.config.update(config)
    app.config.setdefault("ARBITER_TOKEN", os.environ.get("PARLEY_ARBITER_TOKEN") or None)
    app.config.setdefault("METRICS_TOKEN", os.environ.get("PARLEY_METRICS_TOKEN") or None)
    if app.config["ARBITER_TOKEN"] is not None and len(app.config["ARBITER_TOKEN"]) < 32:
        raise ValueError("ARBITER_TOKEN (PARLEY_ARBITER_TOKEN) must be at least 32 characters: "
                         "it reads every game")
    if "RULESETS" not in app.config:
        from domain.registry import all_rulesets

        app.config["RULESETS"] = all_rulesets()
    app.config.setdefault("EXPORT_MAX_LENGTH", 64 * 1024 * 1024)
    app.config.setdefault("ANONYMOUS_EXPORT_MAX_LENGTH",
                          int(os.environ.get("PARLEY_ANONYMOUS_EXPORT_MAX_BYTES") or 4 * 1024 * 1024))
    app.config.setdefault("ANONYMOUS_EXPORT_MAX_VALUES",
                          int(os.environ.get("PARLEY_ANONYMOUS_EXPORT_MAX_VALUES") or 250_000))


# RFC 9110 7.2 and RFC 3986 3.2.2: uri-host [ ":" port ], the host an IP literal in brackets (IPv6,
# with a zone id (RFC 6874), or IPvFuture) or a registered name (unreserved, percent-encoded and
# sub-delims characters; possibly empty). Its characters, not the whole grammar: what it refuses is
# what cannot be a host (spaces, controls, brackets astray, several hosts).
_HOST = re.compile(r"(\[[0-9A-Za-z\-._~!$&'()*+,;=%:]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(:[0-9]*)?")


def host_is_valid(environ: dict) -> bool:
    """RFC 9112 3.2: an HTTP/1.1 request has a Host header (gunicorn refuses one sent twice) and
    its value is a host. HTTP/1.0 may leave it out."""
    host = environ.get("HTTP_HOST")
    if host is None:
        return environ.get("SERVER_PROTOCOL") != "HTTP/1.1"
    return _HOST.fullmatch(host) is not None


def _host_required() -> None:
    """A request without a valid Host is 400, as RFC 9112 3.2 requires of a server, on every
    route (before the route is even matched: a 404 would answer a request the server must refuse)."""
    if not host_is_valid(request.environ):
        raise Problem(400, "An HTTP/1.1 request needs one Host header with a host name or address "
                           "(RFC 9112 3.2).")


def _codings_understood() -> None:
    """A body in a coding Parley does not undo is refused, never read as if it were plain JSON.
    gunicorn frames a body whose last transfer coding is chunked and passes the codings before
    it (gzip, deflate) on unapplied: 501, as for the codings gunicorn itself does not know (RFC
    9112 6.1). A content coding (Content-Encoding: gzip) is not undone either: 415 (RFC 9110
    8.4.1). Only for a route that exists with this method: otherwise 404/405 say more."""
    if request.routing_exception is not None:
        return
    environ = request.environ
    transfer = environ.get("HTTP_TRANSFER_ENCODING")
    if transfer is not None and [c.strip().lower() for c in transfer.split(",")] != ["chunked"]:
        raise Problem(501, "The only transfer coding Parley reads is chunked: send the body without "
                           f"'{transfer}', or with 'Transfer-Encoding: chunked' alone.")
    content = environ.get("HTTP_CONTENT_ENCODING")
    if content is not None and content.strip().lower() not in ("", "identity"):
        raise Problem(415, f"Parley reads bodies with no content coding: send the JSON without "
                           f"'Content-Encoding: {content}'.")


def _exports_may_be_large() -> None:
    # A whole game's export (thousands of events) is larger than any command: the two
    # operations that take one accept up to ANONYMOUS_EXPORT_MAX_LENGTH (4 MiB: the longest
    # games export under 1 MiB), and the arbiter up to EXPORT_MAX_LENGTH (64 MiB). Anyone
    # may send one, so an anonymous one is bounded in bytes and values (service/api/exports.py).
    from service.api import EXPORT_ENDPOINTS, arbiter_request

    if request.endpoint in EXPORT_ENDPOINTS:
        request.max_content_length = current_app.config[
            "EXPORT_MAX_LENGTH" if arbiter_request() else "ANONYMOUS_EXPORT_MAX_LENGTH"]


def _bounded_unsized_body() -> None:
    """A body sent without a Content-Length (Transfer-Encoding: chunked) is read here, whole,
    within the request's max_content_length. werkzeug reads such a body up to the limit and
    stops there without a word, so a longer one would be cut to its first MiB and acted on
    (413 for a body of stated length, but the first MiB of a longer chunked one served); and a
    malformed chunk is gunicorn's error, raised in the middle of a view (a 500). Here a body
    longer than the limit is 413, as with a Content-Length, and a malformed one 400."""
    if not request.environ.get("HTTP_TRANSFER_ENCODING") or request.routing_exception is not None:
        return
    from gunicorn.http.errors import ParseException
    from werkzeug.exceptions import RequestEntityTooLarge

    try:
        request.get_data(cache=True)  # through werkzeug's stream: at most max_content_length bytes
        more = request.max_content_length is not None and request.environ["wsgi.input"].read(1)
    except (OSError, ParseException):  # gunicorn's InvalidChunkSize, ChunkMissingTerminator, ...
        raise Problem(400, "The request's body is not valid chunked transfer coding.") from None
    if more:
        raise RequestEntityTooLarge()


# RFC 8259 section 8.1: JSON exchanged between systems is UTF-8. A body labelled with another
# charset would be read as UTF-8 all the same (a request read two ways): refused instead.
UTF_8 = ("utf-8", "utf8")


def _json_bodies_only() -> None:
    # Only for a route that exists with this method: otherwise 404/405 say more.
    if request.routing_exception is None and request.method == "POST" and (
            not request.is_json or request.mimetype_params.get("charset", "utf-8").lower() not in UTF_8):
        raise Problem(415, "Send the body as application/json, in UTF-8.")
