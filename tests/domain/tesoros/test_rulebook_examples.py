"""Every worked example in the Los Tesoros del Rey Pirata rulebook, at a table.

The board, the card values and the Maps are the reference content (not printed); the
examples fix some of it (TA-34): Tortuga is diagonal to the Compass Rose and 5 moves away
through its arrow, Puerto Viejo 5 moves away, Isla del Volcán entered only from (3,10).
"""
from domain.tesoros import RULESET as R
from tests.domain.tesoros.table import Table


def test_the_whole_example_of_play():
    # Juan (black), Diego (brown) and Ana (grey); Ana practises rowing, so she starts: seats in
    # the order play goes round, Ana first.
    t = Table(names=("Ana", "Diego", "Juan"),
              hands={0: ["MS-2", "MUT-2a", "SAB-1", "WTP-1a", "CS-3"],
                     1: ["SAB-5", "MUT-4", "LS-5", "SAB-2", "WTP-2a"],
                     2: ["CS-2", "CP-3", "MS-4", "SAB-4", "CP-2"]},
              maps=["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"])
    s = t.state
    assert [len(x.hand) for x in s.seats] == [5, 5, 5] and len(s.deck) == 42 - 15
    assert {x.ship for x in s.seats} == {"6,6"} and s.active == 0
    assert len(s.events_left) == 5 and s.open_maps == ["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"]

    # Ana: draws, draws again, moves with the top card of the deck (a 6) but only 5 squares,
    # entering Tortuga; claims it with Swords and Machetes; Ghost Island is revealed.
    t.do("Ana", {"type": "draw_card", "drawn": ["CP-4"]})
    t.do("Ana", {"type": "draw_card", "drawn": ["CS-4"]})
    (die,) = t.do("Ana", {"type": "assign_move_die", "die": "deck", "drawn": ["SMOOTH-a"]})
    assert die["value"] == 6 and s.phase == "sail" and "SMOOTH-a" in s.discard
    moved = t.do("Ana", {"type": "move_ship", "to": "tortuga"})
    assert moved[0]["steps"] == 5
    claimed = t.do("Ana", {"type": "claim_treasure", "map": "MAP-tortuga", "card": "MS-2", "maps": ["MAP-fantasma"]})
    assert t.types(claimed)[:2] == ["TreasureClaimed", "MapRevealed"]
    assert t.p("Ana").treasures == ["MAP-tortuga"] and "MAP-fantasma" in s.open_maps
    assert s.active == 1 and s.phase == "draw"

    # Diego: draws; Fires Cannons at Ana with a 5 from his hand; Ana defends with the deck: a 3;
    # Diego takes 2 cards at random. He moves 4 towards Puerto Viejo (5 away), then draws.
    t.do("Diego", {"type": "draw_card", "drawn": ["LS-2"]})
    t.do("Diego", {"type": "fire_cannons", "target": 0, "die": "SAB-5"})
    assert R.status(s).to_move == [0] and t.legal("Diego") == []
    assert {c["type"] for c in t.legal("Ana")} == {"defend"}
    events = t.do("Ana", {"type": "defend", "die": "deck", "drawn": ["SAB-3a"], "stolen": ["SAB-1", "WTP-1a"]})
    resolved = next(e for e in events if e["type"] == "AttackResolved")
    assert (resolved["attack_value"], resolved["defence_value"], resolved["success"]) == (5, 3, True)
    assert {"SAB-1", "WTP-1a"} <= set(t.p("Diego").hand) and len(t.p("Ana").hand) == 4
    t.do("Diego", {"type": "assign_move_die", "die": "MUT-4"})
    t.rejects("Diego", {"type": "move_ship", "to": "puerto_viejo"}, "NOT_REACHABLE")
    t.do("Diego", {"type": "move_ship", "to": "6,2"})
    t.do("Diego", {"type": "draw_card", "drawn": ["LS-3"]})

    # Juan: draws; equips Compass & Sextant; moves 5 without a card, to Puerto Viejo; claims it
    # with Cannons & Pistols; Mysterious Island is revealed.
    t.do("Juan", {"type": "draw_card", "drawn": ["MS-3"]})
    t.do("Juan", {"type": "equip", "card": "CS-2"})
    (die,) = t.do("Juan", {"type": "assign_move_die", "die": "free5"})
    assert die["value"] == 5 and die["card"] is None and "CS-2" not in s.discard
    t.do("Juan", {"type": "move_ship", "to": "puerto_viejo"})
    t.do("Juan", {"type": "claim_treasure", "map": "MAP-puerto_viejo", "card": "CP-3", "maps": ["MAP-misteriosa"]})
    assert t.p("Juan").equipped == "CS-2" and "MAP-misteriosa" in s.open_maps

    # Ana: draws; Mutiny on Juan, its 2 replaced by the top of the deck: a 7; Juan has no
    # Walk the Plank; he shows his hand to Ana, who takes a card. She moves 1 (Siren's Song),
    # then draws.
    t.do("Ana", {"type": "draw_card", "drawn": ["WTP-3a"]})
    t.do("Ana", {"type": "play_treason", "card": "MUT-2a", "target": 2, "replace": "deck", "drawn": ["FAVOR-a"]})
    assert s.combat["value"] == 7 and R.status(s).to_move == [2]
    assert [c for c in t.legal("Juan") if c["type"] == "walk_the_plank"] == []
    shown = t.do("Juan", {"type": "accept_treason"})
    hand = next(e for e in shown if e["type"] == "HandShown")["cards"]
    assert hand == sorted(t.p("Juan").hand) and R.status(s).to_move == [0]
    t.do("Ana", {"type": "take_card", "card": "SAB-4"})
    assert "SAB-4" in t.p("Ana").hand
    (die,) = t.do("Ana", {"type": "assign_move_die", "die": "deck", "drawn": ["SIREN-a"]})
    assert die["value"] == 1
    assert [c["to"] for c in t.legal("Ana")] == ["7,9"]  # Tortuga's only arrow
    t.do("Ana", {"type": "move_ship", "to": "7,9"})
    t.do("Ana", {"type": "draw_card", "drawn": ["WTP-3b"]})

    # Diego: draws twice; moves with the deck (a 4) only one square, reaching Juan; Challenges
    # him to a Duel with a 5; Juan shows a 5 from the deck: a tie goes to the attacker; Diego
    # takes Juan's Treasure.
    t.do("Diego", {"type": "draw_card", "drawn": ["MS-5"]})
    t.do("Diego", {"type": "draw_card", "drawn": ["CP-5"]})
    t.do("Diego", {"type": "assign_move_die", "die": "deck", "drawn": ["WTP-4"]})
    t.do("Diego", {"type": "move_ship", "to": "puerto_viejo"})
    t.do("Diego", {"type": "challenge_duel", "target": 2, "die": "LS-5"})
    events = t.do("Juan", {"type": "defend", "die": "deck", "drawn": ["MUT-5"]})
    resolved = next(e for e in events if e["type"] == "AttackResolved")
    assert (resolved["attack_value"], resolved["defence_value"], resolved["success"]) == (5, 5, True)
    assert t.legal("Diego") == [{"type": "take_treasure", "map": "MAP-puerto_viejo"}]
    t.do("Diego", {"type": "take_treasure", "map": "MAP-puerto_viejo"})
    assert t.p("Diego").treasures == ["MAP-puerto_viejo"] and t.p("Juan").treasures == []

    # Juan: draws; Duels Diego with a 4 from his hand; Diego shows a 3 from the deck; Juan
    # recovers his Treasure, moves away with Compass & Sextant and draws.
    t.do("Juan", {"type": "draw_card", "drawn": ["LS-4"]})
    t.do("Juan", {"type": "challenge_duel", "target": 1, "die": "MS-4"})
    t.do("Diego", {"type": "defend", "die": "deck", "drawn": ["SAB-3b"]})
    t.do("Juan", {"type": "take_treasure", "map": "MAP-puerto_viejo"})
    t.do("Juan", {"type": "assign_move_die", "die": "free5"})
    t.do("Juan", {"type": "move_ship", "to": "6,5"})
    t.do("Juan", {"type": "draw_card", "drawn": ["WTP-5"]})
    assert t.p("Juan").treasures == ["MAP-puerto_viejo"] and s.active == 0 and s.turn == 7
    assert [R.view(s, None)["seats"][i]["victory_points"] for i in range(3)] == [3, 0, 2]


def _fight_table():
    """Brown, white, grey and black; brown's Ship is at (6,6), white on Tortuga (diagonal),
    black at (6,5) (orthogonal), grey two squares away."""
    t = Table(names=("brown", "white", "grey", "black"),
              hands={0: ["MUT-5", "SAB-3a", "WTP-2a", "CS-2", "LS-2"], 1: ["WTP-1a", "CP-2", "CP-3", "MS-2", "SIREN-a"],
                     2: ["SAB-3b", "LS-5", "MS-3", "WTP-3a", "CS-3"], 3: ["MUT-6", "CP-4", "MS-4", "LS-3", "CS-4"]})
    t.at(1, "tortuga").at(3, "6,5").at(2, "6,8").to_phase("action1")
    return t


def test_fire_cannons_example_brown_shoots_white_with_a_5_against_a_3_and_takes_two_at_random():
    t = _fight_table()
    targets = {c["target"] for c in t.legal("brown") if c["type"] == "fire_cannons"}
    assert targets == {1, 3}  # white diagonal, black orthogonal; grey is out of range
    t.rejects("brown", {"type": "fire_cannons", "target": 2, "die": "MUT-5"}, "OUT_OF_RANGE")
    t.do("brown", {"type": "fire_cannons", "target": 1, "die": "MUT-5"})
    t.do("white", {"type": "defend", "die": "deck", "drawn": ["WTP-3b"], "stolen": ["CP-2", "MS-2"]})
    assert {"CP-2", "MS-2"} <= set(t.p("brown").hand) and len(t.p("white").hand) == 3


def test_duel_example_grey_shows_a_2_from_the_deck_and_black_a_4_so_the_attack_fails():
    t = _fight_table()
    t.at(2, "6,5")
    t.state.active = 2
    t.do("grey", {"type": "challenge_duel", "target": 3, "die": "deck", "drawn": ["MUT-2a"]})
    events = t.do("black", {"type": "defend", "die": "deck", "drawn": ["WTP-4"]})
    resolved = next(e for e in events if e["type"] == "AttackResolved")
    assert (resolved["attack_value"], resolved["defence_value"], resolved["success"]) == (2, 4, False)
    assert t.state.phase == "move"


def test_treason_example_sabotage_3_made_5_fails_against_walk_the_plank_1_made_6_and_white_draws():
    t = _fight_table()
    t.equip_now(1, "CP-3")
    t.state.active = 2
    t.do("grey", {"type": "play_treason", "card": "SAB-3b", "target": 1, "replace": "LS-5"})
    assert t.state.combat["value"] == 5
    events = t.do("white", {"type": "walk_the_plank", "card": "WTP-1a", "replace": "deck",
                            "drawn": ["SMOOTH-a", "MUT-2a"]})
    resolved = next(e for e in events if e["type"] == "TreasonResolved")
    assert (resolved["value"], resolved["protection"], resolved["success"]) == (5, 6, False)
    assert t.p("white").equipped == "CP-3" and "MUT-2a" in t.p("white").hand
    assert {"SAB-3b", "LS-5", "WTP-1a", "SMOOTH-a"} <= set(t.state.discard)


def test_treason_example_mutiny_6_kept_black_has_no_walk_the_plank_brown_sees_and_takes():
    t = _fight_table()
    t.give(0, "MUT-6")
    t.do("brown", {"type": "play_treason", "card": "MUT-6", "target": 3})
    assert t.state.combat["value"] == 6
    assert t.legal("black") == [{"type": "accept_treason"}]  # TA-18: still asked
    events = t.do("black", {"type": "accept_treason"})
    assert next(e for e in events if e["type"] == "HandShown")["cards"] == sorted(t.p("black").hand)
    assert R.view(t.state, 0)["pending"]["hand"] == sorted(t.p("black").hand)
    assert "hand" not in R.view(t.state, 1)["pending"]
    t.do("brown", {"type": "take_card", "card": "LS-3"})
    assert "LS-3" in t.p("brown").hand and "LS-3" not in t.p("black").hand


def test_movement_example_white_needs_the_whole_3_to_enter_volcano_island_through_its_arrow():
    t = Table(names=("white", "brown"), hands={0: ["MUT-3", "SAB-2", "CS-2", "LS-2", "MS-2"]})
    t.at(0, "4,9").to_phase("move")
    t.do("white", {"type": "assign_move_die", "die": "SAB-2"})
    assert "volcan" not in [c["to"] for c in t.legal("white")]  # next to it, but no arrow there
    t.rejects("white", {"type": "move_ship", "to": "volcan"}, "NOT_REACHABLE")
    t2 = Table(names=("white", "brown"), hands={0: ["MUT-3", "SAB-2", "CS-2", "LS-2", "MS-2"]})
    t2.at(0, "4,9").to_phase("move")
    t2.do("white", {"type": "assign_move_die", "die": "MUT-3"})
    (moved, _) = t2.do("white", {"type": "move_ship", "to": "volcan"})
    assert moved["steps"] == 3


def test_movement_example_brown_reveals_a_1_and_may_only_move_to_the_four_orthogonal_squares():
    t = Table(names=("brown", "white"))
    t.to_phase("move")
    t.do("brown", {"type": "assign_move_die", "die": "deck", "drawn": ["SIREN-b"]})
    assert sorted(c["to"] for c in t.legal("brown")) == ["5,6", "6,5", "6,7", "7,6"]
    t.rejects("brown", {"type": "move_ship", "to": "7,7"}, "NOT_REACHABLE")
