"""How many cards a Tesoros command takes, told beforehand where the rules know it (issue 17,
item 4): table_inputs' `by_command` lists each legal command that takes cards off the Play Deck
or from a hand, with its count, whenever every legal command's count is known whatever the deck
turns up; otherwise only the words say it, and a refusal gives the count. Whole table games
check the counts against what the rules take (tests/api/test_table_companion.py, step)."""
from __future__ import annotations

from domain.tesoros import RULESET as R
from tests.domain.tesoros.table import Table


def by_command(t: Table, seat: int, kind: str, field: str) -> list | None:
    return R.table_inputs(t.state, seat).get(kind, {}).get(field, {}).get("by_command")


def test_a_draw_takes_one_card_and_says_so():
    t = Table()
    assert by_command(t, 0, "draw_card", "drawn") == [{"command": {"type": "draw_card"}, "count": 1}]
    t.do("Ana", {"type": "draw_card", "drawn": [t.state.deck[0]]})


def test_no_count_is_told_when_the_next_card_is_the_anchor():
    """The Anchor's Event may wait for the Pirates, or not: how many cards the draw takes then
    is not known before it is turned up."""
    t = Table()
    t.state.discard, t.state.deck = t.state.deck, []
    assert by_command(t, 0, "draw_card", "drawn") is None
    assert "count" in R.table_inputs(t.state, 0)["draw_card"]["drawn"]   # the words stay


def test_a_defence_from_the_deck_tells_the_card_but_not_the_steal_it_may_lead_to():
    """The die a defence takes off the deck is one card whatever it shows; whether Fire Cannons
    then steals depends on that card's value, so the steal's count is left to the words."""
    t = Table(names=("A", "B"), hands={0: ["MUT-3", "SAB-1", "CS-2", "LS-2", "MS-2"],
                                       1: ["MUT-2a", "SAB-2", "CS-3", "LS-3", "MS-3"]}).to_phase("action1")
    t.do("A", {"type": "fire_cannons", "target": 1, "die": "MUT-3"})
    drawn = by_command(t, 1, "defend", "drawn")
    assert drawn == [{"command": {"type": "defend", "die": "deck"}, "count": 1}]
    assert by_command(t, 1, "defend", "stolen") is None


def test_a_defence_that_cannot_fail_tells_the_steal_too():
    """A defence with a card from the hand: its value is known, so whether the attack succeeds,
    and how many cards it steals, is known too, unless a defence from the deck is also legal."""
    t = Table(names=("A", "B"), hands={0: ["MUT-3", "SAB-1", "CS-2", "LS-2", "MS-2"],
                                       1: ["MUT-2a", "SAB-2", "CS-3", "LS-3", "MS-3"]}).to_phase("action1")
    t.do("A", {"type": "fire_cannons", "target": 1, "die": "MUT-3"})
    t.state.deck, t.state.discard, t.state.events_left = [], [], []   # no die from the deck now
    stolen = by_command(t, 1, "defend", "stolen")
    counts = {row["command"]["die"]: row["count"] for row in stolen}
    # every card in B's hand shows 3 or less: the attack (3) succeeds whichever defends, two stolen
    assert counts == dict.fromkeys({c["die"] for c in R.legal_commands(t.state, 1) if c["type"] == "defend"}, 2)
    assert "deck" not in counts and "MUT-2a" in counts
    events = t.do("B", {"type": "defend", "die": "MUT-2a", "stolen": ["SAB-2", "CS-3"]})
    assert len(next(e for e in events if e["type"] == "CardsStolen")["cards"]) == 2


def test_with_chaos_on_the_high_seas_an_event_in_the_deck_leaves_the_draw_uncounted():
    """[Variants] an Event card drawn resolves and the draw goes on: a Storm (which waits for
    nobody) makes a draw take two cards, a card that is no Event one. Each Event is tried for
    itself (a Scurvy waits for the Pirates, and would have hidden the Storm's second card)."""
    t = Table(names=("A", "B"), options={"chaos_on_the_high_seas": True})
    assert "storm" in t.state.deck and "scurvy" in t.state.deck
    # only these two Events left in the deck: the Scurvy (hands of 5 wait for their choices) comes
    # first in any order of ids, and must not stand for the Storm
    t.state.deck = [c for c in t.state.deck if c not in t.state.events or c in ("scurvy", "storm")]
    assert by_command(t, 0, "draw_card", "drawn") is None
    t.state.deck = [c for c in t.state.deck if c not in t.state.events]
    assert by_command(t, 0, "draw_card", "drawn") == [{"command": {"type": "draw_card"}, "count": 1}]


def test_events_are_asked_for_only_while_an_event_waits_under_the_anchor():
    """A table names an Event only when one is turned up from under the Anchor (or face up, with
    Scanning the horizon): with none left there, or none ever (Chaos on the high seas shuffles them
    into the Play Deck, where 'drawn' names them), 'events' is not offered, since any sent would be
    refused. How many wait there is public (the view's events_under_anchor)."""
    t = Table()
    assert t.state.events_left and "events" in R.table_inputs(t.state, 0)["draw_card"]
    t.state.events_left = []
    inputs = R.table_inputs(t.state, 0)
    assert inputs["draw_card"]["drawn"] and not any("events" in spec for spec in inputs.values())
    chaos = Table(options={"chaos_on_the_high_seas": True})
    assert not chaos.state.events_left
    assert not any("events" in spec for spec in R.table_inputs(chaos.state, 0).values())
