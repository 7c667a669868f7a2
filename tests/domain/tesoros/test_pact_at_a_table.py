"""TP-22: with the pact of the waves at a table, the Events are taken blind [Variants], so the
table need not name them at setup: they are named one by one as each is turned up, from every
Event not yet seen, and the game knows only how many are in play."""
import pytest

from domain.chance import TableChance
from domain.ruleset import InvalidCreation, Rejected
from domain.tesoros import RULESET as R
from tests.domain.tesoros.table import Table

EVENTS = sorted(e["id"] for e in R.default_content["events"])   # damned_lighthouse, outrage, rumors, scurvy, storm


def empty_deck(t):
    """Arrange: every card of the Play Deck onto the discard pile, so the next draw meets the Anchor."""
    s = t.state
    s.discard += s.deck
    s.deck = []
    return t


def blind(**options):
    return Table(names=("A", "B"), options={"pact_of_the_waves": 2, **options})


def test_a_table_that_took_the_events_blind_sends_none_and_the_game_knows_only_how_many():
    t = blind()
    (placed,) = [e for e in t.events if e["type"] == "EventsPlacedUnderAnchor"]
    assert placed == {"type": "EventsPlacedUnderAnchor", "count": 2, "events": 2, "out_of_game": 3, "face_up": None,
                      "shuffled_into_deck": False, "unnamed": True}
    assert R.redact(placed, 0) == placed   # nothing in it to hide: counts alone, for the host too
    host, seat = R.view(t.state, "arbiter"), R.view(t.state, 0)
    assert host["nameable"]["events_under_anchor"] == EVENTS     # any of them may turn up
    assert host["pools"]["events_under_anchor"] == {e: 1 for e in EVENTS}
    assert host["events_out_of_game"] is None and host["events_under_anchor"] == 2
    assert (seat["events_under_anchor"], seat["events_out_of_game_count"]) == (2, 3)


def test_each_event_is_named_as_it_is_turned_up_and_the_last_one_ends_the_game():
    """[Anchor Card] the first Event under the Anchor is carried out; [Victory and End of Game]
    the game ends when the last Event card is executed: here the second of the two in play."""
    t = empty_deck(blind())
    t.do("A", {"type": "draw_card", "events": ["rumors"], "drawn": ["FAVOR-a"]})
    assert t.state.event_discard == ["rumors"] and len(t.state.events_left) == 1 and not t.state.finished
    assert R.view(t.state, "arbiter")["nameable"]["events_under_anchor"] == [e for e in EVENTS if e != "rumors"]
    t.state.phase, t.state.active = "draw", 1
    empty_deck(t)
    card = t.state.discard[0]
    with pytest.raises(Rejected) as again:   # seen already: it cannot turn up twice
        R.decide(t.state, 1, {"type": "draw_card", "events": ["rumors"], "drawn": [card]}, TableChance())
    assert again.value.code == "TABLE_OUTCOME_INVALID"
    events = t.do("B", {"type": "draw_card", "events": ["outrage"], "drawn": [card]})
    assert t.state.event_discard == ["rumors", "outrage"] and t.state.events_left == []
    # 0 against 0: the end is met, and the tie goes on in sudden death (TA-6)
    assert [e["reason"] for e in events if e["type"] in ("GameEnded", "SuddenDeathBegan")] == ["last_event"]


def test_with_scanning_the_horizon_the_face_up_event_is_any_and_the_next_one_too():
    """[Variants: Scanning the horizon] the first Event is turned face up at setup: at a table
    that took them blind, whichever it is."""
    t = Table(names=("A", "B"), options={"pact_of_the_waves": 2, "scanning_the_horizon": True},
              face_up_event="storm")
    assert t.state.face_up_event == "storm" and len(t.state.events_left) == 1
    assert R.view(t.state, "arbiter")["nameable"]["events_under_anchor"] == [e for e in EVENTS if e != "storm"]


def test_chaos_on_the_high_seas_with_the_pact_at_a_table_still_names_the_events():
    """Not built for Chaos: its Events go into the Play Deck, whose draws name cards of the
    deck, so the table names the Events it shuffled in (TA-31)."""
    with pytest.raises(InvalidCreation) as refused:
        Table(names=("A", "B"), options={"pact_of_the_waves": 2, "chaos_on_the_high_seas": True})
    assert "setup.events: required with these options" in str(refused.value)


def test_a_table_that_names_them_at_setup_is_held_to_its_list():
    t = Table(names=("A", "B"), options={"pact_of_the_waves": 2}, events=["outrage", "storm"])
    assert not t.state.events_unnamed
    assert R.view(t.state, "arbiter")["nameable"]["events_under_anchor"] == ["outrage", "storm"]
    empty_deck(t)
    with pytest.raises(Rejected) as refused:
        R.decide(t.state, 0, {"type": "draw_card", "events": ["rumors"], "drawn": ["FAVOR-a"]}, TableChance())
    assert refused.value.code == "TABLE_OUTCOME_INVALID"
