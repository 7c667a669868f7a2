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
    host = R.view(t.state, "arbiter")   # all in play are out: none is left to name (an outside review)
    assert host["nameable"]["events_under_anchor"] == [] and host["pools"]["events_under_anchor"] == {}
    # 0 against 0: the end is met, and the tie goes on in sudden death (TA-6)
    assert [e["reason"] for e in events if e["type"] in ("GameEnded", "SuddenDeathBegan")] == ["last_event"]


def test_with_scanning_the_horizon_the_face_up_event_is_any_and_the_next_one_too():
    """[Variants: Scanning the horizon] the first Event is turned face up at setup: at a table
    that took them blind, whichever it is."""
    t = Table(names=("A", "B"), options={"pact_of_the_waves": 2, "scanning_the_horizon": True},
              face_up_event="storm")
    assert t.state.face_up_event == "storm" and len(t.state.events_left) == 1
    assert R.view(t.state, "arbiter")["nameable"]["events_under_anchor"] == [e for e in EVENTS if e != "storm"]


def test_with_chaos_on_the_high_seas_the_events_taken_blind_turn_up_from_the_play_deck():
    """[Variants: Chaos on the high seas] the Events are shuffled into the Play Deck after the
    deal; taken blind, any not yet seen may turn up from it, until as many as are in play have."""
    t = blind(chaos_on_the_high_seas=True)
    (shuffled,) = [e for e in t.events if e["type"] == "EventsShuffledIntoDeck"]
    assert shuffled == {"type": "EventsShuffledIntoDeck", "events": 2, "unnamed": True} == R.redact(shuffled, 0)
    cards = [c for c in t.state.deck if c not in t.state.events]
    host = R.view(t.state, "arbiter")
    assert [c for c in host["nameable"]["play_deck"] if c in t.state.events] == EVENTS
    # nothing lies under the Anchor with Chaos: none is named there (an outside review found 3)
    assert host["nameable"]["events_under_anchor"] == [] and host["pools"]["events_under_anchor"] == {}
    assert sum(host["pools"]["play_deck"].values()) == len(cards) + len(EVENTS)   # one pool, as nameable
    assert R.view(t.state, 0)["deck_count"] == len(cards) + 2
    t.do("A", {"type": "draw_card", "drawn": ["rumors", cards[0]]})   # an Event, then the card drawn
    assert t.state.event_discard == ["rumors"] and R.view(t.state, 0)["deck_count"] == len(cards) + 1 - 1
    unseen = [e for e in EVENTS if e != "rumors"]
    assert [c for c in R.view(t.state, "arbiter")["nameable"]["play_deck"] if c in t.state.events] == unseen
    t.state.phase, t.state.active = "draw", 1
    with pytest.raises(Rejected) as again:
        R.decide(t.state, 1, {"type": "draw_card", "drawn": ["rumors", cards[1]]}, TableChance())
    assert again.value.code == "TABLE_OUTCOME_INVALID"
    t.do("B", {"type": "draw_card", "drawn": ["storm", cards[1]]})
    # both Events in play have turned up: the Play Deck holds none any more, so none may be named
    assert not [c for c in R.view(t.state, "arbiter")["nameable"]["play_deck"] if c in t.state.events]
    t.state.phase, t.state.active = "draw", 0
    with pytest.raises(Rejected) as third:
        R.decide(t.state, 0, {"type": "draw_card", "drawn": ["outrage", cards[2]]}, TableChance())
    assert third.value.code == "TABLE_OUTCOME_INVALID"


def test_with_chaos_a_draw_off_may_turn_up_events_taken_blind_but_no_more_than_are_in_play():
    """[Starting the Game] with the draw-off and Chaos (TA-30), an Event revealed is carried out
    and the same Pirate reveals the next card; taken blind (TP-22), at most the pact's number."""
    options = {"pact_of_the_waves": 1, "chaos_on_the_high_seas": True, "first_player": "draw_off"}
    t = Table(names=("A", "B"), options=options, draw_off=["rumors", "CP-4", "SAB-1"])
    assert t.state.event_discard == ["rumors"] and t.state.active == 0
    for draw_off in (["rumors", "storm", "CP-4", "SAB-1"], ["CP-4", "rumors", "storm", "SAB-1"]):
        with pytest.raises(InvalidCreation) as refused:   # in the same pick as the first Event, or a later one
            Table(names=("A", "B"), options=options, draw_off=draw_off)
        assert "only 1 Event card is in play, and all have turned up: 'storm' cannot" in str(refused.value)


def test_a_table_that_names_them_at_setup_is_held_to_its_list():
    t = Table(names=("A", "B"), options={"pact_of_the_waves": 2}, events=["outrage", "storm"])
    assert not t.state.events_unnamed
    assert R.view(t.state, "arbiter")["nameable"]["events_under_anchor"] == ["outrage", "storm"]
    empty_deck(t)
    with pytest.raises(Rejected) as refused:
        R.decide(t.state, 0, {"type": "draw_card", "events": ["rumors"], "drawn": ["FAVOR-a"]}, TableChance())
    assert refused.value.code == "TABLE_OUTCOME_INVALID"


def test_a_list_of_the_wrong_length_says_it_may_be_left_out():
    """A table that does not know its Events may send [] for 'unknown': the refusal says how
    many the pact keeps, and that the list may be left out (an outside review met only 'must
    list every one drawn')."""
    for sent in ([], ["storm"]):
        with pytest.raises(InvalidCreation) as refused:
            Table(names=("A", "B"), options={"pact_of_the_waves": 2}, events=sent)
        assert refused.value.problems == [
            f"setup.events: the 2 Event cards the pact keeps, not {len(sent)}; or leave 'events' out when the "
            "table took them blind: each is then named as it is turned up [Variants] (TP-22)"]
