"""Los Tesoros del Rey Pirata, rule by rule: setup, the turn, die values, fights, Treason,
Equipment, claims, the Anchor and its Events, the end."""
import pytest

from domain.chance import ServerChance, TableChance, new_seed
from domain.ruleset import InvalidCreation
from domain.tesoros import RULESET as R
from tests.domain.tesoros.table import CARDS, Table


def empty_deck(t, keep=()):
    """Arrange: every card of the Play Deck onto the discard pile (but those kept)."""
    s = t.state
    s.discard += [c for c in s.deck if c not in keep]
    s.deck = [c for c in s.deck if c in keep]
    return t


# -- setup ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_five_each_reveals_three_maps_and_puts_the_ships_on_the_compass_rose(n):
    events = R.setup(["A", "B", "C", "D"][:n], None, None, ServerChance(new_seed(), 0), None)
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    assert [len(x.hand) for x in s.seats] == [5] * n and len(s.deck) == 42 - 5 * n
    assert len(s.open_maps) == 3 and len(s.map_deck) == 9
    assert {x.ship for x in s.seats} == {s.board.rose} and len(s.events_left) == 5
    assert R.status(s).to_move == [0] and s.phase == "draw"


@pytest.mark.parametrize("names", [["A"], ["A", "B", "C", "D", "E"]])
def test_two_to_four_pirates(names):
    with pytest.raises(InvalidCreation):
        R.setup(names, None, None, ServerChance(new_seed(), 0), None)


def test_a_table_game_states_the_hands_and_maps_and_no_card_twice():
    with pytest.raises(InvalidCreation):
        R.setup(["A", "B"], None, None, TableChance(), None)
    with pytest.raises(InvalidCreation):
        Table(names=("A", "B"), hands=[CARDS[:5], CARDS[4:9]])


def test_the_draw_off_highest_die_starts_ties_draw_again_and_the_cards_are_discarded():
    # TA-5: A and C tie on 6; C's 7 beats A's 2 in the second round.
    t = Table(names=("A", "B", "C"), options={"first_player": "draw_off"},
              draw_off=["SMOOTH-a", "SAB-1", "SMOOTH-b", "MUT-2a", "FAVOR-a"])
    assert t.state.active == 2
    assert t.state.discard == ["SMOOTH-a", "SAB-1", "SMOOTH-b", "MUT-2a", "FAVOR-a"]


@pytest.mark.parametrize("listed", [3, 4])
def test_a_tied_draw_off_reported_short_says_how_many_cards_the_whole_list_needs(listed):
    # TA-5: A and C tie on 6 in the first round, so the list holds 3 + 2 cards
    with pytest.raises(InvalidCreation) as info:
        Table(names=("A", "B", "C"), options={"first_player": "draw_off"},
              draw_off=["SMOOTH-a", "SAB-1", "SMOOTH-b", "MUT-2a"][:listed])
    assert "list 5 cards: the 3 revealed so far, then one for each of the 2 tied Pirates" in info.value.problems[0]


# -- the turn -------------------------------------------------------------------------

def test_the_four_phases_come_in_order_and_only_the_active_pirate_acts():
    t = Table(names=("A", "B"))
    t.rejects("A", {"type": "assign_move_die", "die": "deck"}, "WRONG_MOMENT")
    t.rejects("B", {"type": "draw_card"}, "NOT_YOUR_DECISION")
    assert t.legal("B") == []
    t.do("A", {"type": "draw_card", "drawn": [t.state.deck[0]]})
    assert t.state.phase == "action1"
    t.do("A", {"type": "draw_card", "drawn": [t.state.deck[0]]})
    assert t.state.phase == "move"
    t.rejects("A", {"type": "draw_card", "drawn": [t.state.deck[0]]}, "WRONG_MOMENT")


def test_more_than_eight_cards_at_the_end_of_the_turn_discard_down_to_exactly_eight():
    t = Table(names=("A", "B"))
    t.give(0, *[c for c in t.state.deck[:4]]).to_phase("action2")  # 9 cards
    t.give(1, *[c for c in t.state.deck[:4]])                       # B holds 9 too: not B's turn
    t.do("A", {"type": "draw_card", "drawn": [t.state.deck[0]]})   # 10
    assert t.state.phase == "discard" and len(t.p(0).hand) == 10
    t.do("A", {"type": "discard_card", "card": t.p(0).hand[0]})
    assert t.state.phase == "discard"
    t.do("A", {"type": "discard_card", "card": t.p(0).hand[0]})
    assert len(t.p(0).hand) == 8 and t.state.active == 1 and len(t.p(1).hand) == 9


def test_a_ship_may_not_end_where_its_turn_began_and_islands_are_not_crossed():
    t = Table(names=("A", "B"), hands={0: ["MUT-2a", "FAVOR-a", "SAB-1", "CS-2", "LS-2"]})
    t.to_phase("move")
    t.do("A", {"type": "assign_move_die", "die": "MUT-2a"})
    t.rejects("A", {"type": "move_ship", "to": "6,6"}, "SAME_SQUARE")  # out and back is no move
    t.at(0, "7,9").state.turn_start = "6,6"
    t.state.move_value = 4
    reach = {c["to"] for c in t.legal("A")}
    assert "tortuga" in reach and "6,6" not in reach  # where the turn began
    assert "7,6" not in reach  # 3 squares across Tortuga, 5 round it
    assert t.state.board.reach("7,9", 5)["7,6"] == 5


def test_a_ship_the_lighthouse_moved_this_turn_may_sail_out_and_back_home():
    """TA-22/TP-4: "must move at least one square" and "cannot end ... where it began the turn".
    Damned Lighthouse brought the Ship home from 6,4: a 2 sails it out and back to the compass
    rose (two squares moved, and not where the turn began); a 1 cannot."""
    t = Table(names=("A", "B"), hands={0: ["MUT-2a", "FAVOR-a", "SAB-1", "CS-2", "LS-2"]})
    t.to_phase("move")
    t.state.turn_start = "6,4"  # the turn began there; Damned Lighthouse brought the Ship home
    t.do("A", {"type": "assign_move_die", "die": "MUT-2a"})
    t.rejects("A", {"type": "move_ship", "to": "6,4"}, "SAME_SQUARE")
    assert {c["to"] for c in t.legal("A")} >= {"6,5", "6,8", "5,5", "6,6"}
    moved = t.do("A", {"type": "move_ship", "to": "6,6"})
    assert [(e["type"], e["from"], e["to"], e["steps"]) for e in moved if e["type"] == "ShipMoved"] == \
        [("ShipMoved", "6,6", "6,6", 2)]
    one = Table(names=("A", "B"), hands={0: ["SAB-1", "FAVOR-a", "CS-2", "LS-2", "MUT-2a"]})
    one.to_phase("move")
    one.state.turn_start = "6,4"
    one.do("A", {"type": "assign_move_die", "die": "SAB-1"})
    refused = one.rejects("A", {"type": "move_ship", "to": "6,6"}, "MUST_MOVE")
    assert refused.ruling == "TP-4" and "with 1" in refused.detail
    assert "6,6" not in {c["to"] for c in one.legal("A")}
    far = one.rejects("A", {"type": "move_ship", "to": "6,8"}, "NOT_REACHABLE")
    assert "it moves 1 square orthogonally" in far.detail  # not "1 to 1 squares"


# -- die values -----------------------------------------------------------------------

def test_the_equipped_card_may_be_discarded_for_its_die_value():
    t = Table(names=("A", "B")).equip_now(0, "CP-4").to_phase("move")
    (die,) = t.do("A", {"type": "assign_move_die", "die": "CP-4"})
    assert die["source"] == "equipped" and die["value"] == 4 and t.p(0).equipped is None


def test_a_free_5_needs_compass_and_sextant_to_move_and_cannons_and_pistols_only_to_fire():
    t = Table(names=("A", "B")).to_phase("move")
    t.rejects("A", {"type": "assign_move_die", "die": "free5"}, "NO_FREE_FIVE")
    t = Table(names=("A", "B")).equip_now(0, "CP-2").to_phase("action1")
    duel = t.rejects("A", {"type": "challenge_duel", "target": 1, "die": "free5"}, "NO_FREE_FIVE")
    assert duel.detail == "A Duel is never fought with a free 5: its die value comes from a card."   # review
    t.equip_now(1, "CP-3")
    (_, die, _) = t.do("A", {"type": "fire_cannons", "target": 1, "die": "free5"})
    assert die["value"] == 5 and t.p(0).equipped == "CP-2"  # the benefit is not lost
    t.rejects("B", {"type": "defend", "die": "free5"}, "NO_FREE_FIVE")  # never when defending


def test_the_free_5_to_move_is_final_no_card_replaces_it():
    """TA-16, [Equipment Cards] 'Any assigned die value is final': once the free 5 of Compass &
    Sextant is assigned, a card sent for the movement is refused with that rule and ruling, not
    only as the wrong moment; so is a second card after a card."""
    t = Table(names=("A", "B"), hands={0: ["MUT-4", "SAB-1", "CS-2", "LS-2", "MS-2"]}).equip_now(0, "CS-4").to_phase("move")
    t.do("A", {"type": "assign_move_die", "die": "free5"})
    refused = t.rejects("A", {"type": "assign_move_die", "die": "MUT-4"}, "DIE_VALUE_FINAL")
    assert refused.ruling == "TA-16" and refused.rule == "Equipment Cards" and "final" in refused.detail
    t.rejects("A", {"type": "draw_card"}, "WRONG_MOMENT")   # any other command: the moment's words
    t = Table(names=("A", "B"), hands={0: ["MUT-4", "SAB-1", "CS-2", "LS-2", "MS-2"]}).to_phase("move")
    t.do("A", {"type": "assign_move_die", "die": "MUT-4"})
    t.rejects("A", {"type": "assign_move_die", "die": "SAB-1"}, "DIE_VALUE_FINAL")


def test_machetes_and_swords_add_one_to_a_duel_attack_but_never_to_the_defence():
    t = Table(names=("A", "B"), hands={0: ["MUT-4", "SAB-1", "CS-2", "LS-2", "MS-2"],
                                       1: ["MUT-5", "SAB-2", "CS-3", "LS-3", "MS-3"]})
    t.equip_now(0, "MS-4").equip_now(1, "MS-5").to_phase("action1")
    (_, die, _) = t.do("A", {"type": "challenge_duel", "target": 1, "die": "MUT-4"})
    assert (die["die"], die["bonus"], die["value"]) == (4, 1, 5)
    events = t.do("B", {"type": "defend", "die": "MUT-5"})
    assert events[0]["bonus"] == 0 and events[1]["success"] is True  # 5 against 5: the attacker


def test_discarding_machetes_and_swords_for_the_attack_gives_no_bonus():
    t = Table(names=("A", "B")).equip_now(0, "MS-4").to_phase("action1")
    (_, die, _) = t.do("A", {"type": "challenge_duel", "target": 1, "die": "MS-4"})
    assert die["value"] == 4


def test_with_no_card_in_the_deck_or_the_discard_pile_the_deck_is_no_die_source():
    t = Table(names=("A", "B")).to_phase("move")
    t.give(0, *t.state.deck)
    t.rejects("A", {"type": "assign_move_die", "die": "deck"}, "DECK_EMPTY")


# -- Fire Cannons and Duels -----------------------------------------------------------

def test_fire_cannons_on_a_hand_of_one_takes_that_one():
    t = Table(names=("A", "B")).to_phase("action1")
    for c in t.p(1).hand[1:]:
        t.state.discard.append(c)
    last = t.p(1).hand[0]
    t.p(1).hand[:] = [last]
    t.do("A", {"type": "fire_cannons", "target": 1, "die": t.p(0).hand[0]})
    events = t.do("B", {"type": "defend", "die": "deck", "drawn": ["SIREN-a"], "stolen": [last]})
    assert events[-2]["count"] == 1 and t.p(1).hand == []


def test_a_greater_defence_misses():
    t = Table(names=("A", "B"), hands={0: ["MUT-2a", "SAB-1", "CS-2", "LS-2", "MS-2"],
                                       1: ["MUT-3", "SAB-2", "CS-3", "LS-3", "MS-3"]}).to_phase("action1")
    t.do("A", {"type": "fire_cannons", "target": 1, "die": "MUT-2a"})
    events = t.do("B", {"type": "defend", "die": "MUT-3"})
    assert events[1]["success"] is False and len(t.p(1).hand) == 4 and t.state.phase == "move"


def test_a_duel_needs_the_same_square_and_on_a_pirate_without_treasure_wins_nothing():
    t = Table(names=("A", "B")).to_phase("action1")
    t.at(1, "6,5")
    t.rejects("A", {"type": "challenge_duel", "target": 1, "die": "deck"}, "NOT_SAME_SQUARE")
    t.at(1, "6,6")
    t.do("A", {"type": "challenge_duel", "target": 1, "die": "deck", "drawn": ["FAVOR-a"]})
    t.do("B", {"type": "defend", "die": "deck", "drawn": ["SIREN-a"]})
    assert t.state.phase == "move"  # TA-12


# -- Treason and Protection -----------------------------------------------------------

def test_treason_targets_another_pirate_anywhere():
    t = Table(names=("A", "B"), hands={0: ["MUT-2a", "SAB-1", "CS-2", "LS-2", "MS-2"]}).to_phase("action1")
    t.at(1, "0,0")
    t.rejects("A", {"type": "play_treason", "card": "MUT-2a", "target": 0}, "TARGET_YOURSELF")
    t.rejects("A", {"type": "play_treason", "card": "MUT-2a", "target": 1, "replace": "MUT-2a"}, "SAME_CARD")
    t.do("A", {"type": "play_treason", "card": "MUT-2a", "target": 1})
    assert t.state.pending == {"kind": "protect", "seat": 1}


def test_a_treason_card_not_in_the_hand_is_refused_as_not_yours_and_another_card_as_not_treason():
    """[Treason and Protection Cards] a Treason card from your hand: a Mutiny still in the deck is not
    yours to play (as for a die value), and an Equipment card in the hand is no Treason card."""
    t = Table(names=("A", "B"), hands={0: ["MUT-2a", "SAB-1", "CS-2", "LS-2", "MS-2"]}).to_phase("action1")
    assert "MUT-5" not in t.state.seats[0].hand
    t.rejects("A", {"type": "play_treason", "card": "MUT-5", "target": 1}, "NOT_YOUR_CARD")
    t.rejects("A", {"type": "play_treason", "card": "CS-2", "target": 1}, "NOT_A_TREASON_CARD")


def test_the_second_value_counts_even_when_lower():
    t = Table(names=("A", "B"), hands={0: ["MUT-6", "SIREN-a", "CS-2", "LS-2", "MS-2"],
                                       1: ["WTP-2a", "SAB-2", "CS-3", "LS-3", "MS-3"]}).to_phase("action1")
    t.do("A", {"type": "play_treason", "card": "MUT-6", "target": 1, "replace": "SIREN-a"})
    assert t.state.combat["value"] == 1
    events = t.do("B", {"type": "walk_the_plank", "card": "WTP-2a", "drawn": ["SAB-4"]})
    assert next(e for e in events if e["type"] == "TreasonResolved")["success"] is False
    assert "SAB-4" in t.p(1).hand  # the Protection's player draws


def test_sabotage_discards_the_equipped_card_and_the_attacker_draws_even_if_none_was_equipped():
    t = Table(names=("A", "B"), hands={0: ["SAB-5", "SAB-4", "CS-2", "LS-2", "MS-2"]}).to_phase("action1")
    t.do("A", {"type": "play_treason", "card": "SAB-5", "target": 1})
    t.do("B", {"type": "accept_treason", "drawn": ["MUT-3"]})
    assert "MUT-3" in t.p(0).hand and t.state.phase == "move"  # TA-13
    t = Table(names=("A", "B"), hands={0: ["SAB-5", "SAB-4", "CS-2", "LS-2", "MS-2"]}).to_phase("action1")
    t.equip_now(1, "CP-4")
    t.do("A", {"type": "play_treason", "card": "SAB-5", "target": 1})
    t.do("B", {"type": "accept_treason", "drawn": ["MUT-3"]})
    assert t.p(1).equipped is None and "CP-4" in t.state.discard and "MUT-3" in t.p(0).hand


# -- Equipment --------------------------------------------------------------------------

def test_equipping_a_new_card_sends_the_old_one_back_to_hand():
    t = Table(names=("A", "B"), hands={0: ["CS-2", "LS-2", "SAB-1", "MUT-2a", "MS-2"]}).to_phase("action1")
    t.do("A", {"type": "equip", "card": "CS-2"})
    t.state.phase = "action1"
    t.do("A", {"type": "equip", "card": "LS-2"})
    assert t.p(0).equipped == "LS-2" and "CS-2" in t.p(0).hand
    t.rejects("A", {"type": "equip", "card": "SAB-1"}, "WRONG_MOMENT")


def test_an_equipment_acts_from_the_moment_it_is_equipped_until_it_leaves_that_turn_too():
    """TP-21, [Equipment Cards] "The benefits granted by Equipment are immediate": Lamps & Shovels
    equipped in the first action gives the second action's draw its look; equipped over by
    Compass & Sextant, it no longer does, the same turn."""
    t = Table(names=("A", "B"), hands={0: ["LS-2", "CS-2", "SAB-1", "MUT-2a", "MS-2"]}).to_phase("action1")
    t.do("A", {"type": "equip", "card": "LS-2"})
    assert t.state.phase == "move"
    t.state.phase = "action2"   # arranged: the Ship has moved
    assert {"type": "peek_deck"} in R.legal_commands(t.state, 0)
    t.state.phase = "action1"   # arranged: an action that equips again, the same turn
    t.do("A", {"type": "equip", "card": "CS-2"})
    t.state.phase = "action2"
    assert "LS-2" in t.p(0).hand and {"type": "draw_card"} in R.legal_commands(t.state, 0)
    assert {"type": "peek_deck"} not in R.legal_commands(t.state, 0)
    t.rejects("A", {"type": "peek_deck"}, "NEEDS_LAMPS_AND_SHOVELS")

def test_lamps_and_shovels_look_at_the_top_card_then_take_it_or_the_top_of_the_discard_pile():
    t = Table(names=("A", "B")).equip_now(0, "LS-2")
    t.state.discard.append("FAVOR-a")
    t.state.deck.remove("FAVOR-a")
    # The table reports the card looked at, which stays on top: the listing and its words say so
    # (an outside review's companion app, reading "taken off the Play Deck", sent none).
    listed = R.table_inputs(t.state, 0)["peek_deck"]["drawn"]
    assert listed["by_command"] == [{"command": {"type": "peek_deck"}, "count": 1}]
    assert "for peek_deck, the one card looked at, which stays on top" in listed["count"]
    assert "For peek_deck (Lamps & Shovels), the one card looked at: it stays on top" in listed["description"]
    t.rejects("A", {"type": "peek_deck"}, "TABLE_OUTCOME_REQUIRED")
    (peek,) = t.do("A", {"type": "peek_deck", "drawn": ["SIREN-a"]})
    assert peek["card"] == "SIREN-a" and R.redact(peek, 1) == {k: v for k, v in peek.items() if k != "card"}
    assert R.view(t.state, 0)["deck_top"] == "SIREN-a" and R.view(t.state, 1)["deck_top"] is None
    t.rejects("A", {"type": "peek_deck"}, "ALREADY_PEEKED")
    other = t.rejects("A", {"type": "draw_card", "from": "discard", "drawn": ["SIREN-a"]}, "TABLE_OUTCOME_INVALID")
    assert "Lamps & Shovels" not in other.detail  # it did not take the card looked at
    t.do("A", {"type": "draw_card", "from": "discard"})
    assert "FAVOR-a" in t.p(0).hand and t.state.deck_top == "SIREN-a" and t.state.phase == "action1"
    again = t.rejects("A", {"type": "draw_card", "drawn": ["SIREN-a"]}, "TABLE_OUTCOME_INVALID")
    assert "already looked at (Lamps & Shovels)" in again.detail  # why there is nothing to report
    t.do("A", {"type": "draw_card"})  # the card looked at is still on top: no table input
    assert "SIREN-a" in t.p(0).hand and t.state.deck_top is None


def test_a_draw_by_walk_the_plank_waits_for_a_drawer_with_lamps_and_shovels():
    t = Table(names=("A", "B"), hands={0: ["MUT-4", "SAB-1", "CS-2", "LS-2", "MS-2"],
                                       1: ["WTP-5", "SAB-2", "CS-3", "LS-3", "MS-3"]}).to_phase("action1")
    t.equip_now(1, "LS-4")
    t.do("A", {"type": "play_treason", "card": "MUT-4", "target": 1})
    t.do("B", {"type": "walk_the_plank", "card": "WTP-5"})
    assert R.status(t.state).to_move == [1] and t.legal("A") == []
    assert {c["type"] for c in t.legal("B")} == {"draw_card", "peek_deck"}
    t.do("B", {"type": "draw_card", "from": "discard"})
    assert "WTP-5" in t.p(1).hand and t.state.phase == "move"


# -- Claim Treasure ---------------------------------------------------------------------

def test_claiming_needs_the_island_and_the_equipment_from_hand_or_equipped():
    t = Table(names=("A", "B"), hands={0: ["MS-2", "CP-3", "SAB-1", "MUT-2a", "LS-2"]}).to_phase("action1")
    t.rejects("A", {"type": "claim_treasure", "map": "MAP-tortuga", "card": "MS-2"}, "NOT_AT_THE_ISLAND")
    t.at(0, "tortuga")
    wrong = t.rejects("A", {"type": "claim_treasure", "map": "MAP-tortuga", "card": "CP-3"}, "WRONG_EQUIPMENT")
    assert "a Machetes & Swords card" in wrong.detail  # the printed name, not machetes_swords
    t.rejects("A", {"type": "claim_treasure", "map": "MAP-loro", "card": "CP-3"}, "NOT_A_REVEALED_MAP")
    t.equip_now(0, "MS-3")
    t.do("A", {"type": "claim_treasure", "map": "MAP-tortuga", "card": "MS-3", "maps": ["MAP-loro"]})
    assert t.p(0).equipped is None and t.state.open_maps == ["MAP-puerto_viejo", "MAP-volcan", "MAP-loro"]


def test_the_last_treasure_claimed_ends_the_game_at_once():
    t = Table(names=("A", "B"), hands={0: ["MS-2", "CP-3", "SAB-1", "MUT-2a", "LS-2"]}).to_phase("action1")
    s = t.state
    s.seats[1].treasures = [m for m in s.map_deck]
    s.seats[0].treasures = ["MAP-puerto_viejo", "MAP-volcan"]
    s.map_deck, s.open_maps = [], ["MAP-tortuga"]
    t.at(0, "tortuga")
    events = t.do("A", {"type": "claim_treasure", "map": "MAP-tortuga", "card": "MS-2"})
    assert events[-1]["type"] == "GameEnded" and events[-1]["reason"] == "last_treasure"
    assert s.finished and s.result["totals"][0] + s.result["totals"][1] > 0


# -- the Anchor and the Events ------------------------------------------------------------

def test_the_anchor_reveals_an_event_then_the_discard_pile_becomes_the_deck_and_the_draw_goes_on():
    t = empty_deck(Table(names=("A", "B")))
    n = len(t.state.discard)
    events = t.do("A", {"type": "draw_card", "events": ["outrage"], "drawn": ["FAVOR-a"]})
    assert t.types(events) == ["AnchorRevealed", "EventRevealed", "EventResolved", "DiscardReshuffled",
                               "CardDrawn", "PhaseBegan"]
    assert len(t.state.deck) == n - 1 and t.state.discard == [] and t.state.event_discard == ["outrage"]


def test_damned_lighthouse_storm_outrage_and_rumors():
    t = empty_deck(Table(names=("A", "B", "C")))
    t.at(1, "tortuga").equip_now(2, "CS-5")
    hands = [list(x.hand) for x in t.state.seats]
    t.do("A", {"type": "draw_card", "events": ["damned_lighthouse"], "drawn": ["FAVOR-a"]})
    assert {x.ship for x in t.state.seats} == {"6,6"}
    t.state.deck, t.state.discard = [], list(t.state.deck)
    t.state.phase = "action1"
    hands = [list(x.hand) for x in t.state.seats]
    passed = next(e for e in t.do("A", {"type": "draw_card", "events": ["storm"], "drawn": ["SIREN-a"]})
                  if e["type"] == "HandsPassed")
    # TA-26: each hand to the Pirate on the right, the previous seat; counts are the sizes passed
    assert passed["direction"] == "right" and passed["counts"] == [len(h) for h in hands]
    assert t.p(2).hand == hands[0] and t.p(0).hand == sorted(hands[1] + ["SIREN-a"]) and t.p(1).hand == hands[2]
    t.state.deck, t.state.discard = [], list(t.state.deck)
    t.state.phase = "action1"
    t.do("A", {"type": "draw_card", "events": ["outrage"], "drawn": ["SIREN-b"]})
    assert t.p(2).equipped is None and t.state.discard == []  # discarded, then reshuffled into the deck
    t.state.deck, t.state.discard = [], list(t.state.deck)
    t.state.phase = "action1"
    events = t.do("A", {"type": "draw_card", "events": ["rumors"], "drawn": ["SMOOTH-a"]})
    shown = next(e for e in events if e["type"] == "HandsRevealed")
    assert R.redact(shown, 2) == shown and shown["hands"][1] == t.p(1).hand


def test_scurvy_waits_for_every_pirate_with_more_than_two_cards_then_the_draw_goes_on():
    t = empty_deck(Table(names=("A", "B", "C")))
    t.p(2).hand[:] = t.p(2).hand[:2]
    events = t.do("A", {"type": "draw_card", "events": ["scurvy"]})
    assert events[-1]["type"] == "ScurvyBegan" and R.status(t.state).to_move == [0, 1]
    keep_b = t.p(1).hand[:2]
    t.do("B", {"type": "keep_cards", "cards": keep_b})
    assert R.status(t.state).to_move == [0] and "kept" not in R.view(t.state, 0)["scurvy"]
    t.rejects("A", {"type": "keep_cards", "cards": t.p(0).hand[:1]}, "KEEP_TWO")
    events = t.do("A", {"type": "keep_cards", "cards": t.p(0).hand[:2], "drawn": ["FAVOR-b"]})
    assert t.types(events)[-3:] == ["DiscardReshuffled", "CardDrawn", "PhaseBegan"]
    assert t.p(1).hand == keep_b and len(t.p(0).hand) == 3 and t.state.phase == "action1"


def test_the_last_event_ends_the_game_and_a_tie_goes_to_sudden_death():
    t = empty_deck(Table(names=("A", "B")))
    s = t.state
    s.event_discard, s.events_left = ["storm", "scurvy", "outrage", "rumors"], ["damned_lighthouse"]
    s.seats[0].treasures = ["MAP-loro"]
    events = t.do("A", {"type": "draw_card", "events": ["damned_lighthouse"]})
    assert events[-1]["type"] == "GameEnded" and s.result["winners"] == [0] and s.result["reason"] == "last_event"
    t = empty_deck(Table(names=("A", "B")))
    s = t.state
    s.event_discard, s.events_left = ["storm", "scurvy", "outrage", "rumors"], ["damned_lighthouse"]
    events = t.do("A", {"type": "draw_card", "events": ["damned_lighthouse"], "drawn": ["FAVOR-a"]})
    assert "SuddenDeathBegan" in t.types(events) and not s.finished and "FAVOR-a" in t.p(0).hand
    # sudden death: the first Pirate ahead alone wins at once
    s.seats[1].treasures = ["MAP-loro"]
    t.at(0, "6,6").at(1, "6,6").to_phase("action1")
    s.open_maps = ["MAP-tortuga", "MAP-volcan", "MAP-kraken"]
    t.do("A", {"type": "challenge_duel", "target": 1, "die": t.p(0).hand[0]})
    t.do("B", {"type": "defend", "die": "deck", "drawn": ["SIREN-a"]})
    events = t.do("A", {"type": "take_treasure", "map": "MAP-loro"})
    assert events[-1]["type"] == "GameEnded" and events[-1]["reason"] == "sudden_death" and s.result["winners"] == [0]


# -- variants -----------------------------------------------------------------------------

def test_pact_of_the_waves_chooses_how_many_events_and_with_none_only_the_treasures_end_it():
    t = Table(names=("A", "B"), options={"pact_of_the_waves": 2}, events=["storm", "rumors"])
    assert sorted(t.state.events_left) == ["rumors", "storm"] and len(t.state.events_out) == 3
    t = empty_deck(Table(names=("A", "B"), options={"pact_of_the_waves": 0}, events=[]))
    events = t.do("A", {"type": "draw_card", "drawn": ["FAVOR-a"]})
    assert t.types(events)[:2] == ["AnchorRevealed", "DiscardReshuffled"] and not t.state.finished


def test_scanning_the_horizon_shows_the_next_event_and_turns_the_following_one_face_up():
    t = empty_deck(Table(names=("A", "B"), options={"scanning_the_horizon": True}, face_up_event="rumors"))
    assert R.view(t.state, 1)["face_up_event"] == "rumors"
    events = t.do("A", {"type": "draw_card", "events": ["storm"], "drawn": ["FAVOR-a"]})
    assert next(e for e in events if e["type"] == "EventRevealed")["event"] == "rumors"
    assert t.state.face_up_event == "storm"


def test_chaos_on_the_high_seas_an_event_drawn_resolves_and_the_draw_goes_on_and_the_last_does_not_end_it():
    t = Table(names=("A", "B"), options={"chaos_on_the_high_seas": True, "pact_of_the_waves": 1}, events=["outrage"])
    assert "outrage" in t.state.deck and t.state.events_left == []
    events = t.do("A", {"type": "draw_card", "drawn": ["outrage", "FAVOR-a"]})
    assert t.types(events) == ["EventRevealed", "EventResolved", "CardDrawn", "PhaseBegan"]
    assert not t.state.finished and "FAVOR-a" in t.p(0).hand


# -- answers out of turn ------------------------------------------------------------------

def test_the_game_waits_for_the_defender_whose_commands_are_the_only_ones():
    t = Table(names=("A", "B", "C")).to_phase("action1")
    t.do("A", {"type": "fire_cannons", "target": 2, "die": t.p(0).hand[0]})
    assert R.status(t.state).to_move == [2] and R.status(t.state).phase == "defend"
    assert t.legal("A") == [] and t.legal("B") == []
    assert {c["type"] for c in t.legal("C")} == {"defend"}
    t.rejects("A", {"type": "defend", "die": "deck"}, "NOT_YOUR_DECISION")
    t.rejects("C", {"type": "draw_card"}, "WRONG_MOMENT")


def test_an_anchor_met_while_defending_from_the_deck_waits_for_scurvy_then_the_defence_goes_on():
    # TA-3: the Anchor has no die; its Event, then the reshuffle, then the new top card is the value.
    t = empty_deck(Table(names=("A", "B"), hands={0: ["MUT-4", "SAB-1", "CS-2", "LS-2", "MS-2"]})).to_phase("action1")
    t.do("A", {"type": "fire_cannons", "target": 1, "die": "MUT-4"})
    events = t.do("B", {"type": "defend", "die": "deck", "events": ["scurvy"]})
    assert events[-1]["type"] == "ScurvyBegan" and R.status(t.state).to_move == [0, 1]
    t.do("B", {"type": "keep_cards", "cards": t.p(1).hand[:2]})
    events = t.do("A", {"type": "keep_cards", "cards": ["CS-2", "LS-2"], "drawn": ["FAVOR-a"]})
    resolved = next(e for e in events if e["type"] == "AttackResolved")
    assert (resolved["attack_value"], resolved["defence_value"], resolved["success"]) == (4, 7, False)
    assert t.state.phase == "move" and len(t.p(1).hand) == 2


def test_looking_at_the_top_card_with_lamps_and_shovels_reveals_the_anchor_first():
    t = empty_deck(Table(names=("A", "B"))).equip_now(0, "LS-2")
    events = t.do("A", {"type": "peek_deck", "events": ["rumors"], "drawn": ["SMOOTH-b"]})  # TA-4
    assert t.types(events)[0] == "AnchorRevealed" and events[-1] == {"type": "DeckPeeked", "seat": 0,
                                                                     "card": "SMOOTH-b", "reason": "phase"}
    assert t.state.discard == [] and t.legal("A") == [{"type": "draw_card"}]


def test_sudden_death_ends_after_its_turn_limit_with_the_tied_leaders_sharing_the_win():
    t = Table(names=("A", "B"), options={"sudden_death_max_turns": 1})
    t.state.sudden_death = {"reason": "last_event", "turn": 0}
    t.to_phase("action2")
    events = t.do("A", {"type": "draw_card", "drawn": ["FAVOR-a"]})
    assert events[-1]["type"] == "GameEnded" and events[-1]["winners"] == [0, 1]
    assert events[-1]["tie_breaks"] == ["shared_after_sudden_death_limit"]


def test_a_treason_value_is_never_a_free_5():
    t = Table(names=("A", "B"), hands={0: ["MUT-4", "SAB-1", "CS-2", "LS-2", "MS-2"]}).to_phase("action1")
    t.equip_now(0, "CP-5")
    error = t.rejects("A", {"type": "play_treason", "card": "MUT-4", "target": 1, "replace": "free5"}, "NO_FREE_FIVE")
    assert error.ruling == "TP-6"
