"""Chrono Corsairs, phase by phase, in the rulebook's words (table chance: the table says what
was drawn and flipped). Board: the reference layout of table.py (Harbor beside E3, E4, E5)."""
from __future__ import annotations

from domain.chrono import RULESET as R
from domain.chrono.state import HARBOR, MAT, WATER
from tests.domain.chrono.table import Table, first_round, forgo_all, types

# -- Components & Setup --------------------------------------------------------------------

def test_each_player_has_2_officers_and_5_crew_in_the_harbor_and_the_rest_of_the_crew_on_the_mat():
    t = Table()
    for i in (0, 1):
        assert t.pieces(i, "officer") == {HARBOR: 2}
        assert t.pieces(i, "crew") == {HARBOR: 5, MAT: 6}
        assert t.seat(i).cubes == {"stable": 0, "unstable": 0}   # the "1" space of both tracks


def test_the_storm_starts_on_the_first_space_with_2_players_and_the_second_with_3_or_more():
    two, three = Table(2), Table(3)
    # then Phase 1 of round 1 advances it one space
    assert [e["to"] for e in two.events if e["type"] == "StormAdvanced"] == [1]
    assert [e["to"] for e in three.events if e["type"] == "StormAdvanced"] == [2]


def test_event_tokens_lie_face_down_showing_only_their_backs():
    t = Table()
    v = R.view(t.state, 0)
    assert all(not b["token"]["face_up"] and b["token"]["token"] is None for b in v["board"].values())
    assert v["board"]["E5"]["token"]["back"] == "SUNRISE"


def test_more_than_5_players_cannot_sit_down():
    import pytest

    from domain.chance import TableChance
    from domain.ruleset import InvalidCreation
    with pytest.raises(InvalidCreation) as info:
        R.setup(["a"] * 6, None, None, TableChance(), None)
    assert any("2 to 5 players" in p for p in info.value.problems)


# -- Phase 1 -----------------------------------------------------------------------------------

def test_the_top_anomaly_resolves_for_the_current_stage_and_goes_on_the_discard_pile():
    t = Table(anomaly=["AN6", "AN3"])    # Calm Waters under Opening: Unstable plans do not move the storm
    assert t.state.modifiers == {"unstableAdvance": 0}
    assert t.state.anomaly_discard == ["AN6"] and t.state.anomaly_top == "AN3"
    t.do(0, {"type": "draw_plans", "plans": ["S01", "U01"]})
    t.do(1, {"type": "draw_plans", "plans": ["S02", "U02"]})
    t.do(0, {"type": "select_plan", "card": "U01", "slot": "SUNSET"})
    t.do(1, {"type": "select_plan", "card": "U02", "slot": "SUNSET"})
    assert t.state.storm == 1     # Unstable plans were revealed, yet the storm stays


def test_an_anomaly_with_choices_waits_for_each_player_in_flag_order():
    t = Table(anomaly=["AN1"], flag=[1, 0])       # Riptide, Opening: each player may move 1 crew from the Harbor
    assert R.status(t.state).to_move == [1]
    t.rejects(0, {"type": "skip_step"}, "NOT_YOUR_DECISION")
    t.do(1, {"type": "do_step", "owner": 1, "kind": "crew", "from": HARBOR, "to": "E4"})
    assert t.pieces(1)["E4"] == 1
    t.do(0, {"type": "skip_step", "anomaly": ["AN2"]})  # the next card is turned up as this one is discarded
    assert t.state.phase == "draw" and t.state.anomaly_top == "AN2"


# -- Phase 2 -----------------------------------------------------------------------------------

def test_draw_the_number_of_stable_and_unstable_cards_the_cubes_indicate():
    t = Table()
    t.rejects(0, {"type": "draw_plans", "plans": ["S01"]}, "TABLE_OUTCOME_REQUIRED")
    t.do(0, {"type": "draw_plans", "plans": ["S01", "U01"]})
    assert t.seat(0).drawn == ["S01", "U01"]
    assert R.view(t.state, 1)["seats"][0]["drawn_count"] == 2 and "drawn" not in R.view(t.state, 1)["seats"][0]


def test_the_selected_card_stays_face_down_until_everyone_flips_together():
    t = Table()
    t.do(0, {"type": "draw_plans", "plans": ["S01", "U01"]})
    t.do(1, {"type": "draw_plans", "plans": ["S02", "U02"]})
    t.rejects(0, {"type": "select_plan", "card": "S02", "slot": "SUNRISE"}, "NOT_DRAWN")
    t.do(0, {"type": "select_plan", "card": "U01", "slot": "MORNING"})
    assert R.redact(t.events[-1], 1) == {"type": "PlanSelected", "seat": 0}
    assert t.seat(0).mat["MORNING"] is None
    new = t.do(1, {"type": "select_plan", "card": "S02", "slot": "SUNRISE"})
    assert types(new)[:4] == ["PlanSelected", "PlansRevealed", "PlanCardsReturned", "PlanCardsReturned"]
    assert t.seat(0).mat["MORNING"] == "U01" and t.seat(1).mat["SUNRISE"] == "S02"
    # the other drawn cards go face-down to the bottom of their decks
    assert t.state.decks["stable"]["bottom"] == ["S01"] and t.state.decks["unstable"]["bottom"] == ["U02"]
    # one or more Unstable plans: the storm advances one space (only one)
    assert [e for e in new if e["type"] == "StormAdvanced"] == [{"type": "StormAdvanced", "to": 2, "reason": "unstable plan revealed"}]


def test_a_replaced_plan_goes_face_down_to_the_bottom_of_its_deck():
    t2 = Table()
    t2.seat(0).mat["SUNSET"] = "S09"
    t2.state.decks["stable"]["pool"].remove("S09")
    first_round(t2, {0: "S01", 1: "S02"})
    assert t2.seat(0).mat["SUNSET"] == "S01"
    assert t2.state.decks["stable"]["bottom"][0] == "S09"
    assert t2.state.storm == 1   # only Stable plans were revealed: no extra storm step


# -- Phase 3 -----------------------------------------------------------------------------------

def test_forgo_the_plan_and_collect_1_doubloon_instead():
    t = Table()
    first_round(t)
    assert t.state.turn == {"seat": 0, "plan": "pending", "artifact": False}
    t.rejects(1, {"type": "forgo_plan"}, "NOT_YOUR_DECISION")
    t.do(0, {"type": "forgo_plan"})
    assert t.seat(0).doubloons == 1 and t.state.turn["seat"] == 1


def test_a_move_goes_to_an_adjacent_space_and_an_officer_carries_pirates_from_his_space():
    t = Table()
    first_round(t)
    t.do(0, {"type": "perform_plan"})     # pre-printed Sunrise: move an Officer 1 space
    t.rejects(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E1",
                  "carry": {"officer": 0, "crew": 0}}, "NOT_A_WAY")
    t.do(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E3", "carry": {"officer": 1, "crew": 3}})
    assert t.pieces(0, "officer") == {"E3": 2} and t.pieces(0) == {HARBOR: 2, "E3": 3, MAT: 6}


def test_moving_into_a_space_whose_token_back_matches_the_time_flips_it_for_good():
    t = Table()
    first_round(t)
    t.do(0, {"type": "perform_plan"})
    move = {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E5", "carry": {"officer": 0, "crew": 0}}
    t.rejects(0, move, "TABLE_OUTCOME_REQUIRED")       # E5's token has a Sunrise back
    new = t.do(0, {**move, "event_tokens": ["SR4"]})    # Buried Chest: +2 Doubloons
    assert "EventTokenFlipped" in types(new) and t.seat(0).doubloons == 0
    assert R.legal_commands(t.state, 0) == [{"type": "do_step"}]     # CP-15: at a table, the flip ends the command
    t.rejects(0, {"type": "skip_step"}, "MUST_RESOLVE")                # "you must resolve the Event token's effect"
    t.do(0, {"type": "do_step"})
    assert t.seat(0).doubloons == 2
    assert R.view(t.state, 1)["board"]["E5"]["token"]["name"] == "Buried Chest"
    assert t.state.turn["seat"] == 1


def test_a_token_whose_back_is_another_time_does_not_happen():
    t = Table()
    first_round(t)
    t.do(0, {"type": "perform_plan"})
    new = t.do(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E3", "carry": {"officer": 0, "crew": 0}})
    assert "EventTokenTriggered" not in types(new)


def test_each_event_token_happens_once_each_time_a_plan_resolves():
    t = Table()
    first_round(t)
    t.seat(0).mat["SUNRISE"] = "U15"     # Double Time: move an Officer, three times
    t.do(0, {"type": "perform_plan"})
    def off(a, b):
        return {"type": "do_step", "owner": 0, "kind": "officer", "from": a, "to": b, "carry": {"officer": 0, "crew": 0}}
    t.do(0, {**off(HARBOR, "E5"), "event_tokens": ["SR1"]})      # Quiet
    t.do(0, {"type": "do_step"})
    t.do(0, off("E5", "E4"))
    new = t.do(0, off("E4", "E5"))
    assert "EventTokenTriggered" not in types(new)
    assert sum(1 for e in t.events if e["type"] == "EventTokenTriggered") == 1


def test_a_killed_pirate_goes_to_the_water_and_comes_back_after_find_treasure():
    t = Table()
    first_round(t)
    t.place(1, "crew", HARBOR, "E4", 2).place(0, "officer", HARBOR, "E4", 2)
    t.seat(0).mat["SUNRISE"] = "S24"      # Ambush: kill one enemy crew in a space with your Officer
    t.do(0, {"type": "perform_plan"})
    assert R.legal_commands(t.state, 0) == [{"type": "do_step", "owner": 1, "kind": "crew", "at": "E4"}, {"type": "skip_step"}]
    t.do(0, {"type": "do_step", "owner": 1, "kind": "crew", "at": "E4"})
    assert t.pieces(1) == {HARBOR: 3, "E4": 1, WATER: 1, MAT: 6}
    forgo_all(t)
    assert t.pieces(1) == {HARBOR: 5, MAT: 6}


def test_a_pirate_lost_to_the_storm_returns_to_the_ship_mat():
    t = Table()
    first_round(t)
    t.seat(0).pieces["crew"][MAT] = 4          # two crew spaces emptied by recruiting
    t.seat(0).pieces["crew"][HARBOR] = 7
    t.do(0, {"type": "perform_plan"})
    t.do(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E5", "carry": {"officer": 0, "crew": 2},
             "event_tokens": ["SR7"]})        # Quicksand: one entering crew is lost to the storm
    t.do(0, {"type": "do_step"})
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "at": "E5"})
    assert t.pieces(0) == {HARBOR: 5, "E5": 1, MAT: 5} and t.seat(0).overflow == 0


def test_you_may_play_one_artifact_before_or_after_the_plan():
    t = Table()
    first_round(t)
    t.seat(0).artifacts = ["AR15", "AR16"]
    t.state.decks["artifact"]["pool"] = [a for a in t.state.decks["artifact"]["pool"] if a not in ("AR15", "AR16")]
    t.do(0, {"type": "forgo_plan"})
    assert {"type": "end_turn"} in R.legal_commands(t.state, 0)
    t.do(0, {"type": "play_artifact", "artifact": "AR15"})     # Loot Sack: +2 Doubloons
    t.do(0, {"type": "do_step"})
    assert t.seat(0).doubloons == 3 and t.state.decks["artifact"]["bottom"] == ["AR15"]
    assert t.state.turn["seat"] == 1        # one Artifact per turn: the turn ends by itself


# -- Phase 4 -----------------------------------------------------------------------------------

def test_the_most_pirates_on_a_tile_take_its_reward_and_the_higher_flag_wins_ties():
    t = Table()
    first_round(t)
    t.place(0, "crew", HARBOR, "E4", 2).place(1, "crew", HARBOR, "E4", 2)    # Vine Tangle, first place only: +3D
    t.place(1, "crew", HARBOR, "E3", 2).place(0, "crew", HARBOR, "E3", 1)    # Tidepools, Opening: +1D
    forgo_all(t)
    evaluated = {e["spot"]: e for e in t.events if e["type"] == "TileEvaluated"}
    assert evaluated["E4"]["awarded"] == [{"seat": 0, "place": 1, "stage": "OPENING"}]   # flag 0 is higher
    assert evaluated["E3"]["awarded"] == [{"seat": 1, "place": 1, "stage": "OPENING"}]
    assert (t.seat(0).doubloons, t.seat(1).doubloons) == (4 + 3, 4 + 1)
    assert all(set(t.pieces(i)) == {HARBOR, MAT} for i in (0, 1))    # everyone back to the Harbor


def test_second_place_takes_the_stage_below_and_volcanoes_pay_nothing_before_expanding():
    t = Table()
    first_round(t)
    t.state.storm = 5     # Rippling
    t.place(0, "crew", HARBOR, "E1", 2).place(1, "crew", HARBOR, "E1", 1)    # Shipwreck Beach, multi: R then E
    t.place(0, "crew", HARBOR, "I2", 1)                                       # Lava Falls at Rippling: +2T +2D
    forgo_all(t)
    evaluated = {e["spot"]: e for e in t.events if e["type"] == "TileEvaluated"}
    assert evaluated["E1"]["awarded"] == [{"seat": 0, "place": 1, "stage": "RIPPLING"},
                                          {"seat": 1, "place": 2, "stage": "EXPANDING"}]
    assert t.seat(0).gems == 1 + 2 and t.seat(1).doubloons == 4 + 3
    t2 = Table()
    first_round(t2)
    t2.place(0, "crew", HARBOR, "I1", 1)
    forgo_all(t2)
    assert next(e for e in t2.events if e["type"] == "TileEvaluated" and e["spot"] == "I1")["blocked"] is True


def test_the_scrying_mirror_pays_2_doubloons_for_each_space_of_the_named_type_you_lead():
    t = Table()
    first_round(t)
    t.place(0, "crew", HARBOR, "CTL").place(0, "crew", HARBOR, "E1").place(0, "crew", HARBOR, "E2", 2)
    t.place(1, "crew", HARBOR, "E2", 2).place(1, "crew", HARBOR, "E3", 1)
    forgo_all(t, until="treasure")    # the Mirror (resolved first) asks its winner for a terrain
    assert R.legal_commands(t.state, 0) == [{"type": "do_step", "value": v} for v in ("beach", "jungle", "volcano")]
    t.do(0, {"type": "do_step", "value": "beach"})
    # beaches E1 (alone), E2 (tied, higher flag), E3 (behind): 2 spaces
    assert [e for e in t.events if e["type"] == "DoubloonsChanged" and e["why"] == "effect"][0]["amount"] == 2
    assert t.seat(0).doubloons >= 4 + 4


# -- Phase 5 and 6 -----------------------------------------------------------------------------

def test_the_lowest_time_gems_plus_doubloons_chooses_a_flag_position_first():
    t = Table(3, flag=[0, 1, 2])
    for i in (0, 1, 2):
        t.do(i, {"type": "draw_plans", "plans": [f"S0{i + 1}", f"U0{i + 1}"]})
    for i in (0, 1, 2):
        t.do(i, {"type": "select_plan", "card": f"S0{i + 1}", "slot": "SUNSET"})
    t.seat(2).gems = 5
    forgo_all(t)
    assert t.state.priority["order"] == [0, 1, 2]      # 0 and 1 tie on 4: the previously higher first
    t.rejects(1, {"type": "choose_flag", "position": 0}, "NOT_YOUR_DECISION")
    t.do(0, {"type": "choose_flag", "position": 2})
    t.rejects(1, {"type": "choose_flag", "position": 2}, "POSITION_TAKEN")
    t.rejects(1, {"type": "choose_flag", "position": 3}, "NO_SUCH_POSITION")   # 3 players: positions 0-2
    t.do(1, {"type": "choose_flag", "position": 0})
    t.do(2, {"type": "choose_flag", "position": 1})
    assert t.state.flag == [1, 2, 0] and t.state.phase == "outfit"


def test_outfit_purchases_their_prices_and_doubloons_discarded():
    t = Table()
    first_round(t)
    forgo_all(t)
    t.do(0, {"type": "choose_flag", "position": 0})
    t.do(1, {"type": "choose_flag", "position": 1})
    assert t.seat(0).doubloons == 4
    t.do(0, {"type": "purchase", "item": "advance_cube", "track": "stable"})     # 2
    t.do(0, {"type": "purchase", "item": "move_plan", "from": "SUNSET", "to": "SUNRISE"})   # 1
    t.rejects(0, {"type": "purchase", "item": "time_gem"}, "CANNOT_AFFORD")
    assert t.seat(0).cubes["stable"] == 1 and t.seat(0).mat["SUNRISE"] == "S01" and t.seat(0).doubloons == 1
    t.do(0, {"type": "done_outfitting"})
    t.do(1, {"type": "purchase", "item": "time_gem"})                             # 3
    t.do(1, {"type": "done_outfitting", "anomaly": ["AN9"]})
    assert t.seat(1).gems == 1 and [x.doubloons for x in t.state.seats] == [0, 0]
    assert t.state.round == 2 and t.state.storm == 2


def test_a_plan_moves_to_a_different_position_and_only_a_plan_moves():
    """[Phase 6] 'move any 1 Plan card on your Ship mat to a different position' (the same
    position cited CA-24, a ruling on moving to an empty one: outside review); an empty position
    has nothing to move (CA-24 is named for where a Plan card may go, not cited)."""
    t = Table()
    first_round(t)
    forgo_all(t)
    t.do(0, {"type": "choose_flag", "position": 0})
    t.do(1, {"type": "choose_flag", "position": 1})
    same = t.rejects(0, {"type": "purchase", "item": "move_plan", "from": "SUNSET", "to": "SUNSET"}, "NO_SUCH_MOVE")
    assert same.ruling is None and "different position" in same.detail
    empty = next(p for p, card in t.seat(0).mat.items() if card is None)
    nothing = t.rejects(0, {"type": "purchase", "item": "move_plan", "from": empty, "to": "SUNSET"}, "NO_SUCH_MOVE")
    assert nothing.ruling is None and f"no Plan card at {empty}" in nothing.detail


def test_when_the_storm_is_on_the_last_space_final_scoring_converts_doubloons_and_artifacts():
    t = Table()
    first_round(t)
    t.state.storm = 8
    forgo_all(t)
    t.do(0, {"type": "choose_flag", "position": 1})
    t.do(1, {"type": "choose_flag", "position": 0})
    t.seat(0).artifacts = ["AR11"]            # worth 3
    t.do(1, {"type": "done_outfitting"})
    t.do(0, {"type": "done_outfitting"})
    assert t.state.finished
    rows = t.state.result["standings"]
    assert rows[0]["from_doubloons"] == 2 and rows[0]["from_artifacts"] == 3 and rows[0]["total"] == 5
    assert rows[1]["total"] == 2 and t.state.result["winners"] == [0]
    # [Final Scoring] "Reveal all Artifact cards that are still in your hand": to everyone.
    for viewer in (None, 1):
        assert R.view(t.state, viewer)["seats"][0]["artifacts"] == ["AR11"]
    assert "drawn" not in R.view(t.state, None)["seats"][0]   # what was drawn stays its own
