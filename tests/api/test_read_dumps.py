"""GET /games/{id}/events is sent as built (service/api/render.py), not dumped through
EventPageSchema: for games of every ruleset, read by every kind of reader, the schema's dump is
the very same JSON, key order included, so sending the page as built changes no answer. (The
dump was a third of a long page's time.) The export is still dumped: ExportSchema orders some
keys otherwise than service/exports.py builds them, and an export is a document people keep."""
from __future__ import annotations

import json
import random

import pytest

from domain.registry import all_rulesets
from service import create_app
from service.api.events import EventPageSchema
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
