"""GET /games/{id}/events is sent as built (service/api/render.py), not dumped through
EventPageSchema: for games of every ruleset, read by every kind of reader, the schema's dump is
the very same JSON, key order included, so sending the page as built changes no answer. (The
dump was a third of a long page's time.) The export is written a page of records at a time
(service/api/exports.py), not dumped through ExportSchema: the document is the same as the
schema's dump of the whole export built at once, value for value (its keys' order may differ,
which no JSON reader or hash of the chain sees)."""
from __future__ import annotations

import json
import random

import pytest

from domain.registry import all_rulesets
from service import create_app
from service.api.events import EventPageSchema
from service.api.exports import ExportSchema
from service.exports import build_export
from tests.fakes import hoard
from tests.fakes.http import bearer, create, progressing

RULESETS = {hoard.RULESET.id: hoard.RULESET, **all_rulesets()}


@pytest.fixture(scope="module")
def client():
    app = create_app({"RULESETS": RULESETS, "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"},
                      "SNAPSHOT_INTERVAL": 5})
    yield app.test_client()
    app.extensions["parley"].close()


def _same_as_dumped(schema, answer) -> dict:
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert json.dumps(schema.dump(body)) == json.dumps(body)
    return body


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_event_pages_are_what_their_schema_would_dump(client, ruleset):
    game = create(client, ruleset, players=("Kira", "Zoë"))
    game.play(random.Random(len(ruleset)), 40, progressing)
    readers = {"host": game.created["host_token"], "spectator": game.created["spectator_token"],
               **{f"seat {s['seat']}": s["token"] for s in game.created["seats"]}}
    pages = EventPageSchema()
    for who, token in readers.items():
        after, seen = 0, 0
        while after is not None:
            page = _same_as_dumped(pages, game.get(f"/events?after={after}&limit=7", bearer(token)))
            seen += len(page["events"])
            after = page["next"]
        assert seen > 2, who  # creation and commands' events: something was compared


def test_the_check_can_fail():
    """A body the schema would change (a key it does not know, keys out of its order) is caught."""
    schema = EventPageSchema()
    extra = {"events": [], "next": None, "more": True}
    reordered = {"next": None, "events": []}
    for body in (extra, reordered):
        assert json.dumps(schema.dump(body)) != json.dumps(body)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_an_export_written_in_pieces_is_the_export_its_schema_would_dump(client, ruleset, monkeypatch):
    """Every reader's export, paged 3 records at a time, is the schema's dump of build_export's."""
    monkeypatch.setattr("service.api.exports.EXPORT_PAGE", 3)
    game = create(client, ruleset, players=("Kira", "Zoë"))
    game.play(random.Random(len(ruleset) + 1), 40, progressing)
    readers = {"host": game.created["host_token"], "spectator": game.created["spectator_token"],
               **{f"seat {s['seat']}": s["token"] for s in game.created["seats"]}}
    app = client.application
    parley = app.extensions["parley"]
    asked: list[int] = []
    read = parley.stored_events

    def paged(game_id, after=0, limit=None):
        asked.append(limit)
        return read(game_id, after=after, limit=limit)
    for who, token in readers.items():
        asked.clear()
        monkeypatch.setattr(parley, "stored_events", paged)
        answer = game.get("/export", bearer(token))
        assert answer.status_code == 200 and answer.content_type == "application/json", who
        written = json.loads(answer.get_data())   # the pages after the first are read as it is sent
        monkeypatch.setattr(parley, "stored_events", read)
        assert len(asked) > 1 and max(asked) <= 3, (who, asked)   # a page of records at a time
        with app.test_request_context():
            loaded = parley.get_game(game.id)
            caller = {"host": "host", "spectator": "spectator"}.get(who, int(who.split()[-1]) if who.startswith("seat") else who)
            whole = ExportSchema().dump(build_export(loaded, parley.stored_events(game.id), caller))
        assert written == json.loads(json.dumps(whole)), who
        assert written["version"] > 3, who   # more than one page of records was written
