"""Content keeps the printed numbers, over HTTP: content that changes a number the rulebook prints
is refused with 422, the problem naming the field, the printed value and the rulebook section
(docs/rulings.md CV-P16, LP-P10, TP-12, CP-14; Valeria's VA-2, VA-12); the reference content is still accepted."""
from __future__ import annotations

import copy

import pytest

from domain.registry import all_rulesets
from tests.fakes.http import create

PLAYERS = [{"name": "Kira"}, {"name": "David"}]


def changed(ruleset_id: str, change) -> dict:
    content = copy.deepcopy(all_rulesets()[ruleset_id].default_content)
    content["id"] = "our-table"
    change(content)
    return content


def smooth_sailing_as_5(c):
    next(card for card in c["playCards"] if card["subtype"] == "smooth_sailing")["die"] = 5


CASES = [
    # ruleset, change, field, what the rulebook prints, section
    ("corsairs-of-valeria", lambda c: c.update(silverTotal=20),
     "content.silverTotal", "35 Silver Coins, not 20", "[Components]"),
    ("league-of-pirates", lambda c: c["coins"][0].update(cunning=12),
     "content.coins.0.cunning", "Captain Arthur Howell's Coin Value as 10, not 12", "[Pirate Coin Roster]"),
    ("tesoros-del-rey-pirata", smooth_sailing_as_5,
     "content.playCards.38.die", "Smooth Sailing as a die with a 6, not 5", "[Cards with Dice]"),
    ("chrono-corsairs", lambda c: c["prices"].update(gem=4),
     "content.prices.gem", "3 Doubloons for a Time Gem, not 4", "[Phase 6: Outfit Ship]"),
    ("valeria-card-kingdoms", lambda c: c["starting_resources"].update(gold=3),
     "content.starting_resources", "'Give each player 2 Gold tokens and 1 Magic token.'", "[BR p.5]"),
    ("crimson-seas", lambda c: c["crimson_seas"]["maps"].update(total=18),
     "content.crimson_seas.maps.total", "'20 Map Tokens'", "[CS Components]"),
]


@pytest.mark.parametrize(("ruleset_id", "change", "field", "printed", "section"), CASES,
                         ids=[c[0] for c in CASES])
def test_content_that_changes_a_printed_number_is_422_naming_field_printed_value_and_section(
        corsairs_client, ruleset_id, change, field, printed, section):
    response = corsairs_client.post("/games", json={"ruleset": ruleset_id, "players": PLAYERS,
                                                    "content": changed(ruleset_id, change)})
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["code"] == "INVALID_GAME"
    named = [p for p in body["problems"] if p.startswith(f"{field}: ")]
    assert len(named) == 1, body["problems"]
    assert printed in named[0] and section in named[0], named[0]


@pytest.mark.parametrize("ruleset_id", [c[0] for c in CASES])
def test_the_reference_content_sent_as_custom_content_is_still_accepted(corsairs_client, ruleset_id):
    game = create(corsairs_client, ruleset_id, content=changed(ruleset_id, lambda c: None))
    assert game.created["ruleset"] == ruleset_id


def test_what_the_rulebook_does_not_print_stays_free_league_skills(corsairs_client):
    """The skill values on the coin backs are not printed (LP-A24): a table may measure its own."""
    content = changed("league-of-pirates", lambda c: c["coins"][0]["skills"].update(martial=9))
    assert create(corsairs_client, "league-of-pirates", content=content).created["ruleset"] == "league-of-pirates"
