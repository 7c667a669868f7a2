"""A table's report refused says which item and what it is taken from, and where the host's view
lists the ids it may name (issue 17, item 4): 'drawn' off the Play Deck or the pile the Anchor
shuffles onto it (TP-16), the Events under the Anchor, the Map Deck, the defender's hand. A seat's
token is told nothing of the pool (TM-1)."""
from __future__ import annotations

import pytest

from domain.chance import TableChance
from domain.ruleset import Rejected
from domain.tesoros import RULESET as R
from domain.tesoros.rules import Draft
from tests.domain.tesoros.table import Table

PLAY_DECK = "the Play Deck: one of nameable.play_deck"


def test_a_card_not_in_the_play_deck_is_refused_naming_the_item_and_the_pile():
    t = Table()
    in_a_hand = t.p("Diego").hand[0]
    wrong = t.rejects("Ana", {"type": "draw_card", "drawn": [in_a_hand]}, "TABLE_OUTCOME_INVALID")
    assert wrong.detail == f"'drawn': {in_a_hand!r} cannot have been drawn from there (item 1: {PLAY_DECK})."
    assert in_a_hand not in R.view(t.state, "arbiter")["nameable"]["play_deck"]


def test_a_missing_card_is_asked_for_with_its_pile():
    t = Table()
    missing = t.rejects("Ana", {"type": "draw_card"}, "TABLE_OUTCOME_REQUIRED")
    assert missing.detail == ("This game is played at a table: send in 'drawn' every card taken off the Play Deck, "
                              f"in order; 1 is needed (item 1: {PLAY_DECK}).")
    short = t.rejects("Ana", {"type": "draw_card", "drawn": []}, "TABLE_OUTCOME_REQUIRED")
    assert short.detail.endswith(f"1 is needed (item 1: {PLAY_DECK}).")


def test_a_seats_token_is_told_nothing_of_the_pile():
    """TM-1: a seat's command that draws is refused as the host's to report, with or without
    'drawn', in the same words: not asked for a field it may not send, nor told a count."""
    t = Table()
    with pytest.raises(Rejected) as missing:
        R.decide(t.state, 0, {"type": "draw_card"}, TableChance("seat"))
    with pytest.raises(Rejected) as told:   # refused before the pool is looked at
        R.decide(t.state, 0, {"type": "draw_card", "drawn": [t.p("Diego").hand[0]]}, TableChance("seat"))
    assert missing.value.code == told.value.code == "TABLE_OUTCOME_FROM_HOST"
    assert missing.value.detail == told.value.detail and "needed" not in told.value.detail
    with pytest.raises(Rejected) as host:
        R.decide(t.state, 0, {"type": "draw_card"}, TableChance("host"))
    assert host.value.code == "TABLE_OUTCOME_REQUIRED" and "1 is needed" in host.value.detail


RESHUFFLED = "the Play Deck the Anchor's reshuffle made of the discard pile: one of 'discard' in the host's view"


def test_once_the_play_deck_is_spent_a_refusal_names_the_pile_as_it_was_shuffled():
    """TP-16: nameable.play_deck then holds every card the reshuffled pile may hold, hand cards
    included; a plain draw puts none of them on the pile, so the refusal names the pile itself
    (the view's discard), and an app's second try from it is accepted."""
    t = Table()
    t.state.discard, t.state.deck = t.state.deck, []
    t.state.events_left = []
    not_discarded = t.p("Diego").hand[0]
    t.give("Ana", not_discarded)        # held by the drawing Pirate: no command of hers discards it first
    assert not_discarded in R.view(t.state, "arbiter")["nameable"]["play_deck"]
    for named in ("no-such-card", not_discarded):
        wrong = t.rejects("Ana", {"type": "draw_card", "drawn": [named]}, "TABLE_OUTCOME_INVALID")
        assert wrong.detail == (f"'drawn': {named!r} cannot have been drawn from there "
                                f"(item 1: {RESHUFFLED} (nameable: nameable.play_deck)).")
    discard = R.view(t.state, "arbiter")["discard"]
    assert discard and not_discarded not in discard
    t.do("Ana", {"type": "draw_card", "drawn": [discard[0]]})


def test_the_cards_after_the_anchor_in_the_same_command_are_named_from_their_own_listing():
    """With cards left when the command began, the ones after the Anchor's reshuffle are
    nameable.play_deck_after_anchor's (TP-16); the words follow the draft's reshuffle, and name
    what the command itself put on the discard pile before it was shuffled."""
    t = Table()
    t.state.discard = ["CP-2"]
    shown = t.p("Diego").hand[0]
    d = Draft(t.state, TableChance(), {"type": "draw_card", "drawn": [t.state.deck[0], "no-such-card"]})
    assert d.pick(t.state.deck, 1, "drawn") == [t.state.deck[0]]
    d.reshuffled = True
    with pytest.raises(Rejected) as wrong:
        d.pick(["CP-2"], 1, "drawn")
    assert wrong.value.detail == ("'drawn': 'no-such-card' cannot have been drawn from there (item 2: "
                                  f"{RESHUFFLED} (nameable: nameable.play_deck_after_anchor)).")
    d = Draft(t.state, TableChance(), {"type": "draw_card", "drawn": [t.state.deck[0], "no-such-card"]})
    d.pick(t.state.deck, 1, "drawn")
    d.reshuffled = True
    with pytest.raises(Rejected) as put_first:
        d.pick(["CP-2", shown], 1, "drawn")
    assert put_first.value.detail == ("'drawn': 'no-such-card' cannot have been drawn from there (item 2: "
                                      f"{RESHUFFLED}, or {shown}, which this command put on it first "
                                      "(nameable: nameable.play_deck_after_anchor)).")


def test_the_map_deck_and_the_events_under_the_anchor_are_named():
    t = Table()
    d = Draft(t.state, TableChance(), {"type": "draw_card", "maps": ["MAP-nowhere"], "events": []})
    with pytest.raises(Rejected) as maps:
        d.pick(t.state.map_deck, 1, "maps")
    assert maps.value.detail.endswith("(item 1: the bottom of the Map Deck: one of nameable.map_deck).")
    with pytest.raises(Rejected) as events:
        d.pick(["EV-1"], 1, "events")
    assert events.value.detail.endswith("1 is needed (item 1: the Event cards under the Anchor: one of "
                                        "nameable.events_under_anchor).")


def test_a_seats_token_reporting_a_draw_on_a_command_that_draws_nothing_is_refused_as_from_the_host():
    """TM-1: the same refusal whatever the command draws, and whatever the card named."""
    t = Table()
    t.do("Ana", {"type": "draw_card", "drawn": [t.state.deck[0]]})
    t.do("Ana", {"type": "draw_card", "drawn": [t.state.deck[0]]})   # the Move phase: no card taken by moving
    move = next(c for c in R.legal_commands(t.state, 0) if c["type"] == "assign_move_die" and c["die"] != "deck")
    for named in ([t.state.deck[0]], ["no-such-card"]):
        with pytest.raises(Rejected) as seats:
            R.decide(t.state, 0, {**move, "drawn": named}, TableChance("seat"))
        assert seats.value.code == "TABLE_OUTCOME_FROM_HOST"
    assert t.rejects("Ana", {**move, "drawn": ["CP-2"]}, "TABLE_OUTCOME_INVALID").detail == \
        "'drawn' lists more than this command took (0)."


def test_a_stolen_card_the_defender_showed_for_its_die_is_refused_saying_so():
    """The host's view still lists the defence's card in the defender's hand when the command is
    sent; the refusal says that card left the hand first, and names the rest."""
    t = Table(names=("A", "B"), hands={0: ["MUT-3", "SAB-1", "CS-2", "LS-2", "MS-2"],
                                       1: ["MUT-2a", "SAB-2", "CS-3", "LS-3", "MS-3"]}).to_phase("action1")
    t.do("A", {"type": "fire_cannons", "target": 1, "die": "MUT-3"})
    assert "MUT-2a" in R.view(t.state, "arbiter")["seats"][1]["hand"]
    unsaid = t.rejects("B", {"type": "defend", "die": "MUT-2a"}, "TABLE_OUTCOME_REQUIRED")
    assert "; 2 are needed (item 1: seat 1's hand" in unsaid.detail   # both at once, in the first refusal
    wrong = t.rejects("B", {"type": "defend", "die": "MUT-2a", "stolen": ["MUT-2a", "SAB-2"]}, "TABLE_OUTCOME_INVALID")
    assert wrong.detail == ("'stolen': 'MUT-2a' cannot have been taken from there (item 1: seat 1's hand: one of "
                            "seats[1].hand, but not MUT-2a, which this command took from it first).")
    events = t.do("B", {"type": "defend", "die": "MUT-2a", "stolen": ["SAB-2", "CS-3"]})
    assert next(e for e in events if e["type"] == "CardsStolen")["cards"] == ["CS-3", "SAB-2"]


def test_after_a_storm_in_the_same_command_the_stolen_refusal_names_the_hand_the_defender_now_holds():
    """The defence's die from the deck reveals the Anchor and the Storm under it: each hand passes
    to the right (TA-26), so the defender holds what the host's view listed for the seat on its
    left; the refusal points there, and the cards stolen come from it."""
    t = Table(names=("A", "B"), hands={0: ["MUT-3", "SAB-1", "CS-2", "LS-2", "MS-2"],
                                       1: ["MUT-2a", "SAB-2", "CS-3", "LS-3", "MS-3"]}).to_phase("action1")
    t.do("A", {"type": "fire_cannons", "target": 1, "die": "MUT-3"})
    s = t.state
    s.discard += list(s.deck)   # arrange: the Play Deck used up, the Anchor next
    s.deck = []
    under = {"events": ["storm"], "drawn": ["WTP-1b"]}
    unsaid = t.rejects("B", {"type": "defend", "die": "deck", **under}, "TABLE_OUTCOME_REQUIRED")
    assert "seat 1's hand, which the Storm passed from seat 0: one of seats[0].hand" in unsaid.detail
    assert "but not" not in unsaid.detail
    wrong = t.rejects("B", {"type": "defend", "die": "deck", **under, "stolen": ["SAB-2", "CS-3"]},
                      "TABLE_OUTCOME_INVALID")
    assert "seats[0].hand" in wrong.detail
    events = t.do("B", {"type": "defend", "die": "deck", **under, "stolen": ["SAB-1", "CS-2"]})
    assert next(e for e in events if e["type"] == "CardsStolen")["cards"] == ["CS-2", "SAB-1"]
