"""Corsairs of Valeria: the turn, the bonuses, Skull Island and the end, rule by rule."""
import pytest

from domain.chance import ServerChance, TableChance, commitment
from domain.corsairs import RULESET as R
from domain.ruleset import InvalidCreation
from tests.domain.corsairs.table import Table


def test_only_the_active_player_may_act_and_the_rejection_names_whose_turn_it_is():
    t = Table()
    r = t.rejects("David", {"type": "roll_dice", "faces": ["MAP"] * 5}, "NOT_YOUR_TURN")
    assert "Kira" in r.detail
    assert t.legal("David") == []


def test_table_chance_needs_the_faces_and_checks_them():
    t = Table()
    t.rejects("Kira", {"type": "roll_dice"}, "TABLE_OUTCOME_REQUIRED")
    t.rejects("Kira", {"type": "roll_dice", "faces": ["MAP"] * 4}, "TABLE_OUTCOME_REQUIRED")  # a face missing
    t.rejects("Kira", {"type": "roll_dice", "faces": ["MAP"] * 4 + ["SWORD"]}, "TABLE_OUTCOME_INVALID")


def test_a_reroll_of_one_die_asks_for_its_one_face():
    """The count of faces asked for is said in words: 'the 1 face', not 'the 1 faces'."""
    t = Table()
    t.roll("Kira", ["SKULL", "SKULL", "CANNON", "SILVER", "MAP"], lock=False)
    r = t.rejects("Kira", {"type": "reroll_dice", "dice": [4]}, "TABLE_OUTCOME_REQUIRED")
    assert r.detail == "This game is played at a table: send the 1 face rolled in 'faces'."
    r = t.rejects("Kira", {"type": "reroll_dice", "dice": [3, 4]}, "TABLE_OUTCOME_REQUIRED")
    assert r.detail == "This game is played at a table: send the 2 faces rolled in 'faces'."


def test_skulls_are_executed_before_any_other_symbol():
    # [Execute Dice Actions] "You must execute all Skull Dice Actions first."
    t = Table(captains=("BONES", "HOOK", "JAGER"))
    t.roll("Kira", ["SKULL", "SILVER", "SILVER", "MAP", "GROG"])
    t.rejects("Kira", {"type": "collect_silver"}, "SKULLS_FIRST")
    t.do("Kira", {"type": "resolve_skulls", "ignore_one": True})  # Mister Bones ignores it
    assert t.player("Kira").silver == 2 and t.state.skull_silver == 2


def test_each_symbol_group_is_executed_once_and_all_before_the_turn_ends():
    t = Table()
    t.roll("Kira", ["SILVER", "SILVER", "MAP", "GROG", "CANNON"])
    t.do("Kira", {"type": "collect_silver"})
    t.rejects("Kira", {"type": "collect_silver"}, "ALREADY_EXECUTED")
    r = t.rejects("Kira", {"type": "end_turn"}, "ACTIONS_LEFT")
    assert "Grog" in r.detail and "Map" in r.detail and "Cannon" in r.detail


def test_using_cannons_with_none_rolled_is_refused_as_too_few_cannons():
    """[Use Your Cannons] at least 3 Cannons to attack a player: with none rolled, the refusal says
    how many are needed (as with 1 or 2), not that the Cannons were already executed."""
    t = Table()
    t.roll("Kira", ["SILVER", "SILVER", "MAP", "GROG", "GROG"])
    r = t.rejects("Kira", {"type": "attack_player", "target": 1, "mode": "plunder"}, "NOT_ENOUGH_CANNONS")
    assert "at least 3 Cannons; you have 0" in r.detail


def test_a_lane_named_where_the_ship_keeps_its_side_is_refused_in_those_words():
    """CV-P14: 'lane' only where a step enters a split section from a square before it; a ship
    already on one side goes on along it, so a lane named there is refused, saying so."""
    t = Table().given("Kira", position="3.1L")
    t.roll("Kira", ["MAP", "SILVER", "SILVER", "GROG", "GROG"])
    r = t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward", "lane": "L"}]}, "NO_LANE_HERE")
    assert "stays on the L side" in r.detail and r.ruling == "CV-P14"


def test_maps_move_only_forward_without_five_of_a_kind():
    t = Table()
    t.roll("Kira", ["MAP", "MAP", "SILVER", "GROG", "CANNON"])
    t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}, {"direction": "backward"}]},
              "FORWARD_ONLY")
    t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]}, "WRONG_NUMBER_OF_STEPS")


def test_too_few_steps_within_reach_of_skull_island_says_how_far_it_is():
    """CV-A45, [Reaching Skull Island]: the Maps left are ignored there, so a ship within reach
    sends only the steps up to it. The refusal said "send one step for each" (3 here), and 3
    were then refused as Maps ignored after Skull Island (found by an outside review)."""
    t = Table().given("Kira", position="3.2L")
    t.roll("Kira", ["MAP", "MAP", "MAP", "GROG", "GROG"])
    r = t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]}, "WRONG_NUMBER_OF_STEPS")
    assert r.detail == ("You have 3 Maps and Skull Island is 2 steps ahead: send the 2 steps up to it; "
                        "the Maps left are ignored there.") and r.ruling == "CV-A45"
    t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}] * 3}, "MAPS_IGNORED_AFTER_SKULL_ISLAND")
    events = t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}] * 2})
    assert t.player("Kira").position == "SKULL" and events[-1]["count"] == 1


def test_too_few_of_five_maps_within_reach_of_skull_island_names_both_ways():
    """With 5 Maps a step may go back, so all five are taken unless the ship reaches Skull
    Island; the refusal says both (CV-A45). Out of reach it asks for one step a Map."""
    t = Table().given("Kira", position="3.3")
    t.roll("Kira", ["MAP"] * 5)
    r = t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "backward", "lane": "L"}]},
                  "WRONG_NUMBER_OF_STEPS")
    assert "send one step for each, unless you reach Skull Island (1 step ahead going forward)" in r.detail
    far = Table().given("Kira", position="1.0")
    far.roll("Kira", ["MAP"] * 5)
    r = far.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]}, "WRONG_NUMBER_OF_STEPS")
    assert r.detail == "You have 5 Maps: send one step for each."


def test_five_maps_may_go_back_and_forth_and_rewards_come_only_forward():
    # [Move Your Ship] 5 Maps: forward or backward as you wish; the same island more than once.
    t = Table().given("Kira", position="1.0", silver=0)
    t.roll("Kira", ["MAP"] * 5)
    steps = [{"direction": d} for d in ("forward", "backward", "forward", "backward", "forward")]
    t.do("Kira", {"type": "move_ship", "steps": steps})
    assert t.player("Kira").position == "1.1" and t.player("Kira").silver == 3


def test_no_space_behind_the_start():
    t = Table()
    t.roll("Kira", ["MAP"] * 5)
    t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "backward"}] * 5}, "NO_SPACE_BEHIND")


def test_hazards_act_only_where_the_movement_ends():
    t = Table().given("Kira", position="1.0", grog=3)
    t.roll("Kira", ["MAP", "MAP", "MAP", "SILVER", "SILVER"])
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}] * 3})  # passes 1.2 cutthroat
    assert t.player("Kira").position == "1.3" and t.player("Kira").grog == 4  # +1 island Grog, kept
    t2 = Table().given("Kira", position="1.0", grog=3)
    t2.roll("Kira", ["MAP", "MAP", "SILVER", "SILVER", "SILVER"])
    events = t2.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}] * 2})
    assert events[-1] == {"type": "GrogLost", "seat": 0, "amount": 3, "cause": "cutthroats"}


def test_sea_monster_takes_all_silver_and_whirlpool_sends_the_ship_to_start():
    t = Table().given("Kira", position="3.2L", silver=4)
    t.roll("Kira", ["MAP", "CANNON", "CANNON", "GROG", "GROG"])
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert t.player("Kira").silver == 0
    t2 = Table().given("Kira", position="2.0")
    t2.roll("Kira", ["MAP", "CANNON", "CANNON", "GROG", "GROG"])
    t2.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert t2.player("Kira").position == "START.0"


def test_five_skulls_may_be_given_away_and_the_recipients_execute_them():
    # [Cursed Dice] 5-of-a-kind: the giver loses nothing; recipients lose Silver, then gain Grog.
    t = Table()
    t.roll("Kira", ["SKULL", "SKULL_GROG", "SKULL", "SKULL", "SKULL_GROG"])
    t.rejects("Kira", {"type": "give_skull_dice", "to": [0, 1, 1, 1, 1]}, "NOT_ANOTHER_PLAYER")
    t.do("Kira", {"type": "give_skull_dice", "to": [1, 1, 2, 2, 2]})
    assert t.player("Kira").silver == 2
    assert (t.player("David").silver, t.player("David").grog) == (0, 3)
    assert (t.player("Will").silver, t.player("Will").grog) == (0, 3)
    assert t.state.skull_silver == 6
    # 'Once you have given away all the dice, your turn is over': David's begins (CV-A12)
    assert R.status(t.state).to_move == [1] and t.legal("Kira") == []
    refused = t.rejects("Kira", {"type": "end_turn"}, "NOT_YOUR_TURN")   # no phase D of hers to end
    assert "David's turn" in refused.detail
    assert t.legal("David") and all(c["type"] == "roll_dice" for c in t.legal("David"))


def test_under_the_house_rule_phase_d_follows_the_skulls_given_away():
    """CV-A12's option false: the giver's phase D still happens (Hasan may convert there), and
    she ends her turn herself."""
    t = Table(options={"five_skull_skips_phase_d": False})
    t.roll("Kira", ["SKULL"] * 5)
    t.do("Kira", {"type": "give_skull_dice", "to": [1, 1, 2, 2, 2]})
    assert t.legal("Kira") == [{"type": "end_turn"}]
    t.do("Kira", {"type": "end_turn"})
    assert R.status(t.state).to_move == [1]


def test_mister_bones_given_skull_dice_may_ignore_one_and_play_waits_for_him():
    t = Table(captains=("REO", "BONES", "JAGER"))
    t.roll("Kira", ["SKULL"] * 5)
    t.do("Kira", {"type": "give_skull_dice", "to": [1, 1, 2, 2, 2]})
    assert R.status(t.state).to_move == [1]
    t.rejects("Kira", {"type": "end_turn"}, "NOT_YOUR_DECISION")
    t.do("David", {"type": "resolve_received_skulls", "ignore_one": True})
    assert t.player("David").silver == 1 and t.player("Will").silver == 0
    assert R.status(t.state).to_move == [1]   # Kira's turn is over once the dice are executed: David's begins


def test_five_grog_restarts_the_turn_after_the_skulls_cost_their_silver():
    # [Acquire Grog] 5-of-a-kind: gain what fits, then begin the turn again; Skulls first.
    t = Table().given("Kira", grog=3)
    t.roll("Kira", ["GROG", "GROG", "SKULL_GROG", "GROG", "GROG"])
    assert t.player("Kira").silver == 1
    events = t.do("Kira", {"type": "acquire_grog"})
    assert t.types(events) == ["DiceExecuted", "GrogGained", "TurnRestarted"]
    assert t.player("Kira").grog == 4 and t.state.active == 0 and t.state.turn.phase == "roll"


def test_under_the_house_rule_the_restart_is_chosen_and_false_is_the_same_as_leaving_it_out():
    # CV-A14's option: there, the listing's {"type": "acquire_grog"} and {"restart": false} are
    # one command; outside it 'restart' is refused whatever its value (docs/api.md section 4).
    def five_grog():
        t = Table(options={"five_grog_restart_optional": True})
        t.roll("Kira", ["GROG"] * 5)
        return t
    t = five_grog()
    assert t.legal("Kira") == [{"type": "acquire_grog"}, {"type": "acquire_grog", "restart": True}]
    plain = t.do("Kira", {"type": "acquire_grog"})
    assert "TurnRestarted" not in t.types(plain)
    assert five_grog().do("Kira", {"type": "acquire_grog", "restart": False}) == plain
    assert "TurnRestarted" in five_grog().types(five_grog().do("Kira", {"type": "acquire_grog", "restart": True}))
    without = Table()
    without.roll("Kira", ["GROG"] * 5)
    assert without.rejects("Kira", {"type": "acquire_grog", "restart": False}, "INVALID_COMMAND").ruling == "CV-A14"
    four = Table(options={"five_grog_restart_optional": True})
    four.roll("Kira", ["GROG"] * 4 + ["MAP"])
    assert four.rejects("Kira", {"type": "acquire_grog", "restart": False}, "INVALID_COMMAND").ruling == "CV-A14"


def test_one_attack_per_turn_even_across_a_restart():
    t = Table().given("Kira", position="1.1")
    t.roll("Kira", ["CANNON", "CANNON", "CANNON", "GROG", "GROG"])
    t.do("Kira", {"type": "attack_merchant", "merchant": "T1A-M1"})
    t.state.turn.phase = "roll"  # as after a 5-Grog restart: the turn goes on
    t.state.turn.done = []
    t.roll("Kira", ["CANNON", "CANNON", "CANNON", "SILVER", "SILVER"])
    r = t.rejects("Kira", {"type": "attack_player", "target": 1}, "ALREADY_ATTACKED")
    assert r.ruling == "CV-A27"


def test_a_merchant_after_a_player_in_the_same_roll_is_refused_as_a_second_attack():
    """[Use Your Cannons] "You may not attack another player and attack a Merchant ship on the
    same turn": the refusal says so, not that the Cannons were already executed."""
    for first, second in (({"type": "attack_player", "target": 1}, {"type": "attack_merchant", "merchant": "T1A-M1"}),
                          ({"type": "attack_merchant", "merchant": "T1A-M1"}, {"type": "attack_player", "target": 1})):
        t = Table().given("Kira", position="1.1")
        t.roll("Kira", ["CANNON", "CANNON", "CANNON", "GROG", "GROG"])
        t.do("Kira", first)
        r = t.rejects("Kira", second, "ALREADY_ATTACKED")
        assert (r.ruling, r.rule) == ("CV-A27", "Use Your Cannons")


def test_attacking_a_player_needs_three_cannons():
    t = Table()
    t.roll("Kira", ["CANNON", "CANNON", "GROG", "GROG", "SILVER"])
    t.rejects("Kira", {"type": "attack_player", "target": 1}, "NOT_ENOUGH_CANNONS")
    t.do("Kira", {"type": "hold_fire"})


def test_the_sixth_treasure_ends_the_game_at_once_and_reveals_nothing_in_table_mode():
    t = Table().given("Kira", treasure=5, silver=4)
    t.roll("Kira", ["SILVER", "MAP", "MAP", "CANNON", "CANNON"])
    events = t.do("Kira", {"type": "collect_silver"})
    assert events[-1]["type"] == "GameEnded"
    assert events[-1]["reason"] == "sixth_treasure" and events[-1]["winners"] == [0]
    assert R.status(t.state).finished and t.legal("Kira") == []
    t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}] * 2}, "GAME_OVER")


def test_first_reach_resets_the_race_after_the_turn():
    # [Reaching Skull Island] ships to Start, tracks flipped, 2 Silver placed on Skull Island.
    t = Table().given("Kira", position="3.3").given("David", position="2.0")
    t.roll("Kira", ["MAP", "CANNON", "CANNON", "GROG", "GROG"])
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert t.player("David").position == "2.0"  # nothing happens before the turn ends
    t.do("Kira", {"type": "acquire_grog"})
    t.do("Kira", {"type": "hold_fire"})
    events = t.do("Kira", {"type": "end_turn"})
    assert t.types(events) == ["TurnEnded", "RaceReset", "TurnStarted"]
    assert all(p.position == "START.0" for p in t.state.players)
    assert [s["side"] for s in t.state.slots] == ["B", "B", "B"]
    assert t.state.skull_silver == 2 and t.state.skull_reaches == 1


def test_second_reach_ends_the_game_after_the_turn_with_the_tie_breaks():
    # [Ending the Game] most Treasure; tie: most Silver; tie: most Grog; still tied: shared.
    t = Table().given("Kira", position="3.3", treasure=2, silver=0, grog=0)
    t.given("David", treasure=3, silver=1, grog=2).given("Will", treasure=3, silver=1, grog=3)
    t.state.skull_reaches = 1
    t.roll("Kira", ["MAP", "CANNON", "CANNON", "SILVER", "SKULL"])
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert not R.status(t.state).finished
    t.do("Kira", {"type": "collect_silver"})
    t.do("Kira", {"type": "hold_fire"})
    events = t.do("Kira", {"type": "end_turn"})
    end = events[-1]
    assert end["reason"] == "second_skull_island_reach"
    assert end["winners"] == [2] and end["tie_breaks"] == ["treasure", "silver", "grog"]
    assert [r["seat"] for r in end["standings"]] == [2, 1, 0]


def test_a_full_tie_is_a_shared_victory():
    t = Table().given("Kira", position="3.3", treasure=3, silver=0, grog=2).given("David", treasure=3, silver=2, grog=2)
    t.given("Will", treasure=1)
    t.state.skull_reaches = 1
    t.roll("Kira", ["MAP", "CANNON", "CANNON", "GROG", "GROG"], lock=True)
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})  # takes the 2 Silver
    t.do("Kira", {"type": "acquire_grog"})  # 2 + 2 = 4 Grog
    t.player("David").grog = 4
    t.do("Kira", {"type": "hold_fire"})
    end = t.do("Kira", {"type": "end_turn"})[-1]
    assert end["winners"] == [0, 1] and end["tie_breaks"] == ["treasure", "silver", "grog", "shared"]


def test_server_chance_is_reproducible_from_the_revealed_seed():
    seed = "ab" * 32
    a = R.setup(["A", "B", "C"], None, None, ServerChance(seed, 0), None)
    b = R.setup(["A", "B", "C"], None, None, ServerChance(seed, 0), None)
    assert a == b and a[0]["chance"] == {"mode": "server", "commitment": commitment(seed)}
    assert len(set(a[1]["captains"])) == 3


def test_a_creation_with_broken_content_lists_every_problem():
    content = {**R.default_content, "silverTotal": "lots",
               "tracks": R.default_content["tracks"][:3]}
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A"], {"merchant_min_cannons": 2}, content, TableChance(), None)
    text = " | ".join(info.value.problems)
    assert "2 to 5 players" in text and "options.merchant_min_cannons" in text
    assert "content.silverTotal" in text and "content.tracks" in text


def test_a_ship_entering_another_track_picks_its_side_even_from_a_split_row():
    """[Move Your Ship] 'These islands prevent you from crossing from one side of the Track to the
    other. When entering the spaces on these Tracks either forwards or backwards, you decide which
    side of the island to move your Ship into.' A Track whose top row is split, below one whose
    first row is split, are two islands on two Tracks: the ship entering the next Track chooses its
    side (CV-A21; outside review: custom content kept it on its lane, LANE_BLOCKED)."""
    import copy
    content = copy.deepcopy(R.default_content)
    side = next(t for t in content["tracks"] if t["id"] == "T1")["sides"]["A"]
    side["rows"] = [{"lanes": [{"lane": "C"}]}, {"lanes": [{"lane": "C"}]},
                    {"lanes": [{"lane": "L"}, {"lane": "R"}]}, {"lanes": [{"lane": "L"}, {"lane": "R"}]}]
    side["lines"] = [{"below": 0, "rewards": [{"resource": "silver", "amount": 1}]}]
    track = [{"tile": "T1", "side": "A"}, {"tile": "T2", "side": "B"}, {"tile": "T3", "side": "A"}]
    t = Table(track=track, content=content).given("Kira", position="1.3L")
    assert t.state.board.neighbours("1.3L", "forward") == ("2.0L", "2.0R")
    assert t.state.board.neighbours("2.0R", "backward") == ("1.3L", "1.3R")
    assert t.state.board.neighbours("1.2L", "forward") == ("1.3L",)   # within a Track, the island holds
    t.roll("Kira", ["MAP", "SILVER", "SILVER", "GROG", "GROG"])
    assert {"type": "move_ship", "steps": [{"direction": "forward", "lane": "R"}]} in t.legal("Kira")
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward", "lane": "R"}]})
    assert t.player("Kira").position == "2.0R"
