"""Chaos on the high seas with the draw-off for the first player (TA-5, TA-30): the Events are
in the Play Deck when the Pirates reveal their cards ([Variants]: "After dealing the initial hand
of cards, the Event cards are shuffled into the game deck. Every time an Event card is drawn, it
resolves immediately and then the game continues with ... that was happening before"), so one
revealed in the draw-off is carried out and the same Pirate reveals the next card; Scurvy waits
for the Pirates' choices, and the draw-off goes on after them."""
from __future__ import annotations

import hashlib

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import InvalidCreation, Rejected
from domain.tesoros import RULESET as R
from domain.tesoros.rules import evolve_all

from .table import Table

CHAOS = {"first_player": "draw_off", "chaos_on_the_high_seas": True}


def played(events):
    return evolve_all(events)


def test_an_event_revealed_in_the_draw_off_is_carried_out_and_the_same_pirate_reveals_again():
    # A reveals the Storm (hands pass right), then SAB-1; B MUT-2a; C FAVOR-a (7) starts.
    t = Table(names=("A", "B", "C"), options=CHAOS, draw_off=["storm", "SAB-1", "MUT-2a", "FAVOR-a"])
    kinds = [e["type"] for e in t.events]
    at = kinds.index("EventRevealed")
    assert kinds[at:at + 3] == ["EventRevealed", "HandsPassed", "EventResolved"]
    assert [e["cards"] for e in t.events if e["type"] == "DrawOffRevealed"] == [
        [{"seat": 0, "card": "SAB-1"}, {"seat": 1, "card": "MUT-2a"}, {"seat": 2, "card": "FAVOR-a"}]]
    assert t.state.active == 2 and t.state.phase == "draw"
    assert t.state.event_discard == ["storm"] and "storm" not in t.state.discard


def test_an_event_between_two_pirates_dice_resolves_in_its_place():
    t = Table(names=("A", "B"), options=CHAOS, draw_off=["SAB-1", "rumors", "FAVOR-a"])
    kinds = [e["type"] for e in t.events]
    assert kinds[kinds.index("MapsRevealed") + 1:] == [
        "DrawOffRevealed", "EventRevealed", "HandsRevealed", "EventResolved", "DrawOffRevealed", "TurnStarted"]
    assert t.state.active == 1


def test_scurvy_in_the_draw_off_waits_for_every_pirate_then_the_draw_off_goes_on():
    t = Table(names=("A", "B"), options=CHAOS, draw_off=["SAB-1", "scurvy"])
    assert R.status(t.state).phase == "scurvy" and R.status(t.state).to_move == [0, 1]
    assert "TurnStarted" not in [e["type"] for e in t.events]
    t.do("A", {"type": "keep_cards", "cards": t.p("A").hand[:2]})
    # The last choice resumes the draw-off: B reveals the card after Scurvy, reported with it.
    new = t.do("B", {"type": "keep_cards", "cards": t.p("B").hand[:2], "drawn": ["FAVOR-a"]})
    assert [e["type"] for e in new][-3:] == ["EventResolved", "DrawOffRevealed", "TurnStarted"]
    assert new[-1]["seat"] == 1 and R.status(t.state).phase == "draw"
    assert len(t.p("A").hand) == 2 and len(t.p("B").hand) == 2


def test_a_tie_after_scurvy_draws_again_in_play():
    t = Table(names=("A", "B"), options=CHAOS, draw_off=["scurvy"])
    t.do("A", {"type": "keep_cards", "cards": t.p("A").hand[:2]})
    new = t.do("B", {"type": "keep_cards", "cards": t.p("B").hand[:2],
                     "drawn": ["SMOOTH-a", "SMOOTH-b", "SAB-1", "FAVOR-a"]})
    revealed = [c for e in new if e["type"] == "DrawOffRevealed" for c in e["cards"]]
    assert revealed == [{"seat": 0, "card": "SMOOTH-a"}, {"seat": 1, "card": "SMOOTH-b"},
                        {"seat": 0, "card": "SAB-1"}, {"seat": 1, "card": "FAVOR-a"}]
    assert new[-1] == {"type": "TurnStarted", "seat": 1, "turn": 1}


def test_a_table_lists_the_draw_off_only_up_to_scurvy():
    with pytest.raises(InvalidCreation) as info:
        Table(names=("A", "B"), options=CHAOS, draw_off=["SAB-1", "scurvy", "FAVOR-a"])
    assert "stops at Scurvy" in info.value.problems[0]


def test_without_chaos_an_event_is_no_card_of_the_draw_off():
    with pytest.raises(InvalidCreation) as info:
        Table(names=("A", "B"), options={"first_player": "draw_off"}, draw_off=["storm", "FAVOR-a"])
    assert "'storm' cannot have been drawn" in info.value.problems[0]


def test_the_server_reveals_events_in_the_draw_off_as_often_as_the_deck_holds_them():
    # 200 fixed seeds, 4 Pirates: each draw-off reveals about one card in seven that is an Event.
    revealed = events = waited = 0
    for i in range(200):
        seed = hashlib.sha256(b"chaos-%d" % i).hexdigest()
        out = R.setup(["A", "B", "C", "D"], CHAOS, None, ServerChance(seed, 0), None)
        revealed += sum(len(e["cards"]) for e in out if e["type"] == "DrawOffRevealed")
        events += sum(1 for e in out if e["type"] == "EventRevealed")
        s = played(out)
        if R.status(s).phase == "scurvy":
            waited += 1
            assert out[-1]["type"] == "ScurvyBegan" and out[-1]["then"]["do"] == "draw_off"
        else:
            assert out[-1]["type"] == "TurnStarted"
    assert events > 0.05 * (revealed + events)
    assert 0 < waited < events


def test_the_server_plays_on_after_scurvy_to_a_first_player():
    for i in range(200):
        seed = hashlib.sha256(b"chaos-%d" % i).hexdigest()
        s = played(R.setup(["A", "B", "C"], CHAOS, None, ServerChance(seed, 0), None))
        if R.status(s).phase != "scurvy":
            continue
        position = 1
        while R.status(s).phase == "scurvy":
            seat = R.status(s).to_move[0]
            for e in R.decide(s, seat, R.legal_commands(s, seat)[0], ServerChance(seed, position)):
                s = R.evolve(s, e)
            position += 1
        assert R.status(s).phase == "draw" and s.turn == 1
        return
    pytest.fail("no seed revealed Scurvy in the draw-off")


def test_a_seat_cannot_report_the_draw_off_after_scurvy():
    t = Table(names=("A", "B"), options=CHAOS, draw_off=["scurvy"])
    t.do("A", {"type": "keep_cards", "cards": t.p("A").hand[:2]})
    with pytest.raises(Rejected) as info:
        R.decide(t.state, 1, {"type": "keep_cards", "cards": t.p("B").hand[:2]}, TableChance("seat"))
    assert info.value.code == "TABLE_OUTCOME_FROM_HOST"


def test_a_tied_round_then_scurvy_is_listed_up_to_scurvy():
    # A and B tie on 6; A's next card is Scurvy: the list stops there, the rest comes with the choices.
    t = Table(names=("A", "B"), options=CHAOS, draw_off=["SMOOTH-a", "SMOOTH-b", "scurvy"])
    assert R.status(t.state).phase == "scurvy"
    t.do("A", {"type": "keep_cards", "cards": t.p("A").hand[:2]})
    new = t.do("B", {"type": "keep_cards", "cards": t.p("B").hand[:2], "drawn": ["SAB-1", "FAVOR-a"]})
    assert new[-1] == {"type": "TurnStarted", "seat": 1, "turn": 1}


def test_a_tie_reported_short_counts_the_events_in_their_place_and_events_alone_are_no_tie():
    with pytest.raises(InvalidCreation) as info:
        Table(names=("A", "B"), options=CHAOS, draw_off=["SMOOTH-a", "SMOOTH-b", "storm"])
    assert ("list 4 cards: the 2 revealed so far, then one for each of the 2 tied Pirates, in seat order, "
            "with each Event card revealed among them in its place [Starting the Game] (TA-5)") in info.value.problems[0]
    with pytest.raises(InvalidCreation) as info:
        Table(names=("A", "B"), options=CHAOS, draw_off=["storm", "outrage"])
    assert "tied" not in info.value.problems[0]


def test_an_outrage_during_a_lamps_and_shovels_look_ends_the_choice_of_the_discard_pile():
    # TP-18: the look reveals Outrage, which discards the Lamps & Shovels; the Pirate then looks
    # at the next card but may only draw from the Play Deck.
    t = Table(names=("A", "B"), options={"chaos_on_the_high_seas": True}).equip_now(0, "LS-2")
    new = t.do("A", {"type": "peek_deck", "drawn": ["outrage", "FAVOR-a"]})
    assert [e["type"] for e in new][-2:] == ["EventResolved", "DeckPeeked"]
    assert t.p("A").equipped is None and t.state.discard[-1] == "LS-2"
    assert t.legal("A") == [{"type": "draw_card"}]
    refused = t.rejects("A", {"type": "draw_card", "from": "discard"}, "NEEDS_LAMPS_AND_SHOVELS")
    assert refused.ruling == "TP-18"


def test_an_outrage_in_the_defence_leaves_the_attack_its_machetes_and_swords_bonus():
    # TP-19: the +1 is part of the value assigned when the Duel is challenged; an Outrage the
    # defender's die from the deck reveals discards the equipment but does not lower that value.
    # Revealed before the attacker's own die is assigned, it takes the +1 away (TA-19).
    t = Table(names=("A", "B"), options={"chaos_on_the_high_seas": True}).equip_now(0, "MS-2").to_phase("action1")
    t.at(1, t.p(0).ship)
    t.give(0, "SAB-1")
    attack = t.do("A", {"type": "challenge_duel", "target": 1, "die": "SAB-1"})
    assigned = next(e for e in attack if e["type"] == "DieAssigned")
    assert (assigned["bonus"], assigned["value"]) == (1, 2)
    defence = t.do("B", {"type": "defend", "die": "deck", "drawn": ["outrage", "MUT-2a"]})
    assert t.p("A").equipped is None and "MS-2" in t.state.discard
    resolved = next(e for e in defence if e["type"] == "AttackResolved")
    assert (resolved["attack_value"], resolved["defence_value"], resolved["success"]) == (2, 2, True)

    own = Table(names=("A", "B"), options={"chaos_on_the_high_seas": True}).equip_now(0, "MS-2").to_phase("action1")
    own.at(1, own.p(0).ship)
    drawn = own.do("A", {"type": "challenge_duel", "target": 1, "die": "deck", "drawn": ["outrage", "MUT-2a"]})
    assigned = next(e for e in drawn if e["type"] == "DieAssigned")
    assert (assigned["bonus"], assigned["value"]) == (0, 2)
