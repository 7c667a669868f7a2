"""GET /games/{id}/events: the stored log, paged by cursor, as the caller may see it."""
from __future__ import annotations

from uuid import UUID

import marshmallow as ma
from flask import url_for

from service.api import Blueprint, application, authenticate
from service.api.commands import EventEntrySchema
from service.api.games import READ_AUTH
from service.api.render import event_entry

blp = Blueprint("events", __name__, url_prefix="/games",
                description="The event log: creation, then every event with the command behind it.")


class EventsQuerySchema(ma.Schema):
    after = ma.fields.Integer(load_default=0, validate=ma.validate.Range(min=0),
                              metadata={"description": "Return events after this version (a cursor)"})
    limit = ma.fields.Integer(load_default=100, validate=ma.validate.Range(min=1, max=1000))


class EventPageSchema(ma.Schema):
    events = ma.fields.List(ma.fields.Nested(EventEntrySchema), required=True)
    next = ma.fields.Integer(required=True, allow_none=True, metadata={
        "description": "Pass as 'after' for the next page; null at the end of the log"})


LINK_HEADER = {"Link": {"description": 'RFC 8288: the next page, rel="next"', "schema": {"type": "string"}}}


@blp.route("/<uuid:game_id>/events")
@blp.doc(operationId="listEvents", security=READ_AUTH)
@blp.arguments(EventsQuerySchema, location="query")
@blp.response(200, EventPageSchema, headers=LINK_HEADER)
@blp.problems(400, 401, 404, 503)
def list_events(query: dict, game_id: UUID):
    """A page of the event log; commands and events redacted for your seat."""
    game, caller = authenticate(game_id, reading=True)
    after, limit = query["after"], query["limit"]
    stored = application().stored_events(game_id, after=after, limit=limit + 1)
    more = len(stored) > limit
    page = stored[:limit]
    body = {"events": [event_entry(game, e, caller) for e in page],
            "next": page[-1].originator_version if more else None}
    headers = {}
    if more:
        link = url_for("events.list_events", game_id=game_id, after=body["next"], limit=limit)
        headers["Link"] = f'<{link}>; rel="next"'
    return body, 200, headers
