"""GET /games/{id}/events: the stored log, paged by cursor, as the caller may see it; with
`wait`, a long poll. GET /games/{id}/stream: the same log pushed as Server-Sent Events.

Both wait for new events in the process's live hub (service/live.py): a command stored by
this process wakes them at once, one stored by any other process or node within about
PARLEY_LIVE_POLL_SECONDS. A waiting request holds no database connection and, under the
Procfile's gevent workers, no thread.
"""
from __future__ import annotations

import json
import os
import re
import time
from uuid import UUID

import marshmallow as ma
from flask import Response, current_app, jsonify, request, url_for

from service.api import Blueprint, QueryFloat, QueryInteger, application, authenticate
from service.api.commands import EventEntrySchema
from service.api.games import READ_AUTH
from service.api.render import event_entry
from service.errors import Problem
from service.game import Game

blp = Blueprint("events", __name__, url_prefix="/games",
                description="The event log: creation, then every event with the command behind it; "
                            "long-polled, or pushed as Server-Sent Events.")

MAX_WAIT = 30                 # seconds a long poll may wait
HEARTBEAT_SECONDS = float(os.environ.get("PARLEY_STREAM_HEARTBEAT_SECONDS", "15"))
STREAM_SECONDS = float(os.environ.get("PARLEY_STREAM_SECONDS", "600"))
RETRY_MS = 2000               # how soon an EventSource reconnects after a stream ends
PAGE = 200                    # stored events read at a time by a stream
# Streams one worker holds open at once: below gunicorn's worker_connections (2,000), so that
# streams alone can never take every connection a worker has for commands and reads.
MAX_STREAMS = int(os.environ.get("PARLEY_MAX_STREAMS", "1500"))


class EventsQuerySchema(ma.Schema):
    after = QueryInteger(load_default=0, validate=ma.validate.Range(min=0),
                         metadata={"description": "Return events after this version (a cursor)"})
    limit = QueryInteger(load_default=100, validate=ma.validate.Range(min=1, max=1000))
    wait = QueryFloat(load_default=0, validate=ma.validate.Range(min=0, max=MAX_WAIT), metadata={
        "description": "A long poll: when 'after' is the game's latest version, wait up to this many seconds "
                       f"(at most {MAX_WAIT}) and answer as soon as an event is stored; an empty page if none came"})


class EventPageSchema(ma.Schema):
    events = ma.fields.List(ma.fields.Nested(EventEntrySchema), required=True)
    next = ma.fields.Integer(required=True, allow_none=True, metadata={
        "description": "Pass as 'after' for the next page; null at the end of the log"})
    resume_after = ma.fields.Integer(required=True, validate=ma.validate.Range(min=0), metadata={
        "description": "Where this page leaves you, never null: the last event's version, or the 'after' "
                       "sent when the page is empty. Pass it as 'after' to go on, with 'wait' to hear of "
                       "what comes next (a long poll's loop)"})


class StreamQuerySchema(ma.Schema):
    after = QueryInteger(validate=ma.validate.Range(min=0), metadata={
        "description": "Send the events stored after this version (default 0: the whole log). A "
                       "Last-Event-ID header, as an EventSource sends when it reconnects, takes precedence, "
                       "and so does lastEventId"})
    # An EventSource polyfill that sends a token (a browser's own EventSource cannot) reconnects
    # with ?lastEventId=<id> instead of the header (event-source-polyfill's default name).
    last_event_id = QueryInteger(data_key="lastEventId", validate=ma.validate.Range(min=0), metadata={
        "description": "The Last-Event-ID header's value, for a client that sends it in the query (an "
                       "EventSource polyfill reconnecting); the header, when sent, takes precedence"})


# Documented by hand beside the header: flask-smorest's `doc(parameters=...)` replaces the
# parameters it would generate from StreamQuerySchema, so the query's are listed here too.
AFTER_PARAMETER = {"in": "query", "name": "after", "required": False,
                   "schema": {"type": "integer", "minimum": 0},
                   "description": StreamQuerySchema._declared_fields["after"].metadata["description"]}
LAST_EVENT_ID_PARAMETER = {"in": "query", "name": "lastEventId", "required": False,
                           "schema": {"type": "integer", "minimum": 0},
                           "description": StreamQuerySchema._declared_fields["last_event_id"].metadata["description"]}
LINK_HEADER = {"Link": {"description": 'RFC 8288: the next page, rel="next"', "schema": {"type": "string"}}}
LAST_EVENT_ID = {"in": "header", "name": "Last-Event-ID", "required": False,
                 "description": "Resume after this version (the 'id' of the last event received); empty, as "
                                "when no event has been received yet, is as if it were not sent (?after applies)",
                 "schema": {"type": "string", "pattern": "^([0-9]{1,18})?$"}}
STREAM_ANSWER = {
    "description": "text/event-stream (Server-Sent Events): each stored event after your position as one "
                   "message, 'id: <version>' and 'data: <the event entry as in /events, as JSON>'; a comment "
                   "line every 15 s keeps it open through proxies. It ends after the event that ends the game, "
                   "and after PARLEY_STREAM_SECONDS (600 s): reconnect with Last-Event-ID to resume.",
    # Each event is a StreamMessage (as an EventSource and schemathesis parse the stream); read
    # whole, the body is text (what a generated client returns: typed as StreamMessage alone,
    # openapi-python-client's parsed the whole body as one and failed).
    "content": {"text/event-stream": {"schema": {"anyOf": [{"$ref": "#/components/schemas/StreamMessage"},
                                                           {"type": "string"}]}}},
}
# One message of the stream, as an EventSource (and schemathesis) parses it: a text/event-stream
# response's schema is each event's. Its `data` is an event entry as /events lists it, as JSON;
# OpenAPI 3.0 has no keyword to say so (contentSchema is 3.1's), so the description does, and
# tests/contract/test_stream_contract.py checks every payload against EventEntry.
STREAM_MESSAGE = {
    "type": "object",
    "required": ["data", "id"],
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9]{1,18}$",
               "description": "The event's version: send it back as Last-Event-ID to resume after it"},
        "event": {"type": "string", "enum": ["message"],
                  "description": "Never sent: an EventSource reads each message as the default type, 'message'"},
        "data": {"type": "string", "description": "An EventEntry as JSON, redacted for you exactly as "
                                                   "/events redacts it"},
        "retry": {"type": "integer", "minimum": 0,
                  "description": "How many milliseconds an EventSource waits before it reconnects"},
    },
}
FINISHED_ANSWER = {"description": "The game is finished and you have every event: nothing more will come "
                                  "(an EventSource stops reconnecting)"}


@blp.route("/<uuid:game_id>/events")
@blp.doc(operationId="listEvents", security=READ_AUTH)
@blp.arguments(EventsQuerySchema, location="query")
@blp.documented(blp.response(200, EventPageSchema, headers=LINK_HEADER))
@blp.problems(400, 401, 404, 503)
def list_events(query: dict, game_id: UUID):
    """A page of the event log, redacted for you; with `wait`, a long poll.

    With `wait` and `after` at the end of the log, it answers as soon as an event is stored,
    or with an empty page after `wait` seconds. An `after` past the end is 404 VERSION_NOT_FOUND."""
    game, caller = authenticate(game_id, reading=True)
    after, limit = query["after"], query["limit"]
    parley = application()
    stored = parley.stored_events(game_id, after=after, limit=limit + 1)
    if not stored:
        _within_the_log(game_id, game, after)
    # Only a caller at the end of the log waits, and not at the end of a finished game, after
    # which no event will ever come.
    if not stored and query["wait"] > 0 and after == game.version and not game.status.finished:
        with parley.live.watching(game_id, game.version) as watch:
            if parley.live.wait(watch, after, query["wait"]):
                stored = parley.stored_events(game_id, after=after, limit=limit + 1)
    more = len(stored) > limit
    page = stored[:limit]
    body = {"events": [event_entry(game, e, caller) for e in page],
            "next": page[-1].originator_version if more else None,
            "resume_after": page[-1].originator_version if page else after}
    headers = {}
    if more:
        link = url_for("events.list_events", game_id=game_id, after=body["next"], limit=limit)
        headers["Link"] = f'<{link}>; rel="next"'
    # Built for the caller already (render.py): flask-smorest's dump through EventPageSchema
    # would copy it unchanged, at a third of the request's time for a long page
    # (tests/api/test_read_dumps.py holds that it is unchanged).
    return jsonify(body), 200, headers


@blp.route("/<uuid:game_id>/stream")
@blp.doc(operationId="streamEvents", security=READ_AUTH, parameters=[AFTER_PARAMETER, LAST_EVENT_ID_PARAMETER, LAST_EVENT_ID],
         responses={200: STREAM_ANSWER, 204: FINISHED_ANSWER})
@blp.arguments(StreamQuerySchema, location="query")
@blp.problems(400, 401, 404, 503)
def stream_events(query: dict, game_id: UUID):
    """Every event stored after your position, pushed as it is stored (Server-Sent Events).

    Redacted for you exactly as /events is; see docs/api.md, "Live updates"."""
    game, caller = authenticate(game_id, reading=True)
    position = _position(query)
    _within_the_log(game_id, game, position)
    if game.status.finished and position >= game.version:
        finished = Response(status=204)
        del finished.headers["Content-Type"]  # no body, so no type (Flask's default would say text/html)
        return finished
    parley = application()
    if parley.live.streams >= current_app.config.get("MAX_STREAMS", MAX_STREAMS):
        raise Problem(503, "This server holds as many open streams as it takes; try again in a few seconds, "
                      "or long-poll GET /games/{id}/events?wait= meanwhile.", "TOO_MANY_STREAMS",
                      headers={"Retry-After": "5"})
    heartbeat = current_app.config.get("STREAM_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)
    lifetime = current_app.config.get("STREAM_SECONDS", STREAM_SECONDS)

    def fetch(after: int) -> list:
        return parley.stored_events(game_id, after=after, limit=PAGE)

    def messages():
        at = position
        ends = time.monotonic() + lifetime
        yield f"retry: {RETRY_MS}\n\n".encode()
        with parley.live.streaming(), parley.live.watching(game_id, game.version) as watch:
            while True:
                batch, ended = [], False
                for stored in parley.live.events_after(watch, at, fetch):
                    if stored.originator_version <= at:
                        continue
                    batch.append(_message(watch, game, stored, caller))
                    at = stored.originator_version
                    if _ends_the_game(stored):
                        ended = True
                        break
                if batch:  # one write for everything that is new (a command's events come together)
                    yield b"".join(batch)
                # A draining process (its worker stopping) ends its streams once they hold every
                # event stored: the client reconnects elsewhere with Last-Event-ID.
                if ended or parley.live.draining:
                    return
                left = ends - time.monotonic()
                if left <= 0:
                    return
                if (not parley.live.wait(watch, at, min(heartbeat, left)) and not parley.live.draining
                        and time.monotonic() < ends):  # no keep-alive just before the stream ends
                    yield b": keep-alive\n\n"

    # Not stream_with_context: the messages need no request context (everything is bound
    # above), and a stream outlives the request that opened it.
    return Response(messages(), 200, mimetype="text/event-stream",
                    headers={"X-Accel-Buffering": "no"})  # nginx: pass each message on at once


def _within_the_log(game_id: UUID, game: Game, after: int) -> None:
    """A position past the game's latest version is 404 VERSION_NOT_FOUND: answered as the end of
    the log (an empty page, a stream that waits), a wrong cursor would miss every event until the
    game caught up with it, without a word. The store has the last word: a version stored since
    `game` was read (another worker's command, a moment ago) is no wrong cursor."""
    if after > game.version and not application().stored_events(game_id, after=after - 1, limit=1):
        raise Problem(404, f"This game has no version {after} yet: 'after' (or Last-Event-ID) is the version "
                      "of the last event you hold, 0 for the whole log.", "VERSION_NOT_FOUND")


def _position(query: dict) -> int:
    """Where the caller's copy of the log ends: Last-Event-ID (a reconnecting EventSource), else
    ?lastEventId (a polyfill's reconnect), else ?after."""
    header = request.headers.get("Last-Event-ID")
    if header is None or header.strip() == "":
        return query.get("last_event_id", query.get("after", 0))
    if not re.fullmatch(r"[0-9]{1,18}", header.strip()):   # ASCII digits: str.isdigit() takes '²' too
        raise Problem(400, "Last-Event-ID is the version of the last event you received: a whole number.",
                      "MALFORMED_REQUEST")
    return int(header.strip())


def _message(watch, game: Game, stored, caller) -> bytes:
    """One event as a Server-Sent Events message, rendered and encoded once per kind of reader
    and shared by every stream of the game in this process (service/live.py)."""
    key = (stored.originator_version, caller)
    message = watch.rendered.get(key)
    if message is None:
        entry = json.dumps(event_entry(game, stored, caller), separators=(",", ":"), ensure_ascii=False)
        message = watch.rendered[key] = f"id: {stored.originator_version}\ndata: {entry}\n\n".encode()
    return message


def _ends_the_game(stored) -> bool:
    return isinstance(stored, Game.Happened) and stored.event.get("type") == "GameEnded"
