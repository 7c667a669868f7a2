"""TM-4: what a table set up in sight of everyone (the captains dealt, the tiles laid out, the Domains
turned face up) is shown to every seat and the spectator in the game's creation record, and only
that: the hands and Dukes dealt stay the host's. So a seat's export of a game that hides nothing
at creation (Corsairs at a table) has no redacted record and can be re-adjudicated mid-game."""
from __future__ import annotations

import json
import random

import pytest

from domain.registry import all_rulesets
from tests.api.test_table_companion import step, table_game
from tests.api.test_tesoros_over_http import TABLE_DRAW_OFF, TABLE_HANDS, TABLE_MAPS
from tests.fakes.http import create

RULESETS = all_rulesets()
WITH_SETUP = sorted(rid for rid, rs in RULESETS.items() if rs.table_setup_schema is not None)


def _strings(x) -> set[str]:
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        return {s for v in x.values() for s in _strings(v)}
    if isinstance(x, list):
        return {s for v in x for s in _strings(v)}
    return set()


# Setups whose options lay more out in sight: the draw-off's cards, the Event turned face up
WITH_OPTIONS = {
    "tesoros draw-off": ("tesoros-del-rey-pirata", {"first_player": "draw_off"},
                         {"hands": TABLE_HANDS, "maps": TABLE_MAPS, "draw_off": TABLE_DRAW_OFF}),
    "tesoros scanning": ("tesoros-del-rey-pirata", {"scanning_the_horizon": True},
                         {"hands": TABLE_HANDS, "maps": TABLE_MAPS, "face_up_event": "storm"}),
}


@pytest.mark.parametrize("ruleset_id", WITH_SETUP + list(WITH_OPTIONS))
def test_a_seat_and_the_spectator_see_the_setup_on_the_table_and_not_the_rest(corsairs_client, ruleset_id):
    if ruleset_id in WITH_OPTIONS:
        ruleset_id, options, setup = WITH_OPTIONS[ruleset_id]
        game = create(corsairs_client, ruleset_id, players=("Kira", "David"), chance="table", options=options,
                      setup=setup)
    else:
        game = table_game(corsairs_client, ruleset_id)
    ruleset = RULESETS[ruleset_id]
    full = game.all_events()[0]["event"]["table_setup"]
    public = {k: v for k, v in full.items() if k in ruleset.public_setup_fields}
    assert public, "every table setup lays something out in sight"
    spectator = {"Authorization": f"Bearer {game.created['spectator_token']}"}
    for reader in (game.seat(0), game.seat(1), spectator):
        created, *later = game.all_events(reader)
        assert created["event"]["table_setup"] == public
        # each id shown is one the table shows everyone: the reader's own view and events name it
        shown_elsewhere = json.dumps([game.view(reader), [e["event"] for e in later]])
        assert {s for s in _strings(public) if len(s) > 2 and s not in shown_elsewhere} == set()
        export = game.get("/export", reader).get_json()
        assert export["creation"]["table_setup"] == (public if public != full else full)
        assert export["creation"].get("redacted", False) == (public != full)


def test_a_seat_export_of_a_corsairs_table_game_hides_nothing_and_verifies_mid_game(corsairs_client):
    """CV-A4: Corsairs hides nothing, so a seat can re-check a running table game itself (the
    table's captains and track were withheld from seats, and every seat export was incomplete)."""
    ruleset = RULESETS["corsairs-of-valeria"]
    game = table_game(corsairs_client, ruleset.id)
    rng = random.Random(7)
    for _ in range(12):
        step(game, ruleset, rng)
    export = game.get("/export", game.seat(1)).get_json()
    assert export["status"] == "active" and export["complete"] is False
    assert export["creation"]["table_setup"] == game.all_events()[0]["event"]["table_setup"]
    assert not export["creation"].get("redacted") and export["creation"]["salt"]
    verdict = corsairs_client.post("/verifications", json=export).get_json()
    assert verdict["verdict"] == "valid", verdict


def test_the_hands_and_dukes_a_table_dealt_stay_the_hosts():
    for rid in ("tesoros-del-rey-pirata", "valeria-card-kingdoms", "crimson-seas"):
        hidden = set(RULESETS[rid].table_setup_schema["properties"]) - RULESETS[rid].public_setup_fields
        assert hidden >= ({"hands", "events"} if rid == "tesoros-del-rey-pirata" else {"dukes", "dark_lord"})
