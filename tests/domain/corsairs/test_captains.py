"""Corsairs of Valeria: the ten printed Captain Cards. [Captain Cards]"""
from tests.domain.corsairs.table import R, Table


def test_willem_pays_one_grog_to_set_a_cannon_before_rolling_the_other_four():
    t = Table(captains=("WILLEM", "HOOK", "JAGER"))
    t.rejects("Kira", {"type": "preset_die", "face": "MAP"}, "NOT_YOUR_CAPTAIN")
    t.do("Kira", {"type": "preset_die", "face": "CANNON"})
    t.rejects("Kira", {"type": "preset_die", "face": "CANNON"}, "POWER_ALREADY_USED")
    t.rejects("Kira", {"type": "roll_dice", "faces": ["MAP"] * 5}, "TABLE_OUTCOME_INVALID")
    t.do("Kira", {"type": "roll_dice", "faces": ["MAP"] * 4})
    assert t.state.turn.dice == ["CANNON", "MAP", "MAP", "MAP", "MAP"] and t.player("Kira").grog == 1


def test_luthor_sets_a_map_and_needs_grog_to_do_it():
    t = Table(captains=("LUTHOR", "HOOK", "JAGER")).given("Kira", grog=0)
    t.rejects("Kira", {"type": "preset_die", "face": "MAP"}, "INSUFFICIENT_GROG")
    t.given("Kira", grog=1)
    t.do("Kira", {"type": "preset_die", "face": "MAP"})
    assert t.state.turn.dice == ["MAP"]


def test_mistress_turns_all_skull_and_grog_faces_into_grog_so_no_silver_is_lost():
    t = Table(captains=("MISTRESS", "HOOK", "JAGER"))
    t.do("Kira", {"type": "roll_dice", "faces": ["SKULL_GROG", "SKULL_GROG", "SILVER", "MAP", "MAP"]})
    t.do("Kira", {"type": "lock_dice", "skull_grog_to_grog": True})
    assert t.state.turn.dice == ["GROG", "GROG", "SILVER", "MAP", "MAP"]
    assert t.player("Kira").silver == 2 and t.state.turn.skulls_resolved


def test_prince_may_pay_silver_instead_of_grog_for_a_reroll():
    t = Table(captains=("PRINCE", "HOOK", "JAGER")).given("Kira", grog=0)
    t.do("Kira", {"type": "roll_dice", "faces": ["SKULL"] * 5})
    t.rejects("Kira", {"type": "reroll_dice", "dice": [0]}, "INSUFFICIENT_GROG")
    t.do("Kira", {"type": "reroll_dice", "dice": [0, 1], "pay_with": "silver", "faces": ["MAP", "MAP"]})
    assert t.player("Kira").silver == 1 and t.state.supply == 35 - 2 - 6 + 1
    t2 = Table(captains=("REO", "HOOK", "JAGER"))
    t2.do("Kira", {"type": "roll_dice", "faces": ["SKULL"] * 5})
    t2.rejects("Kira", {"type": "reroll_dice", "dice": [0], "pay_with": "silver"}, "NOT_YOUR_CAPTAIN")


def test_reo_changes_up_to_three_maps_into_silver():
    t = Table(captains=("REO", "HOOK", "JAGER"))
    t.do("Kira", {"type": "roll_dice", "faces": ["MAP", "MAP", "MAP", "MAP", "SILVER"]})
    t.rejects("Kira", {"type": "lock_dice", "maps_to_silver": 4}, "INVALID_COMMAND")
    t.do("Kira", {"type": "lock_dice", "maps_to_silver": 3})
    assert t.state.turn.dice.count("SILVER") == 4 and t.state.turn.dice.count("MAP") == 1


def test_hook_spends_two_cannons_to_join_another_ship_and_attacks_with_the_rest():
    t = Table(captains=("HOOK", "REO", "JAGER")).given("David", position="2.2", silver=3)
    t.roll("Kira", ["CANNON"] * 5)
    t.do("Kira", {"type": "hook_move", "target": 1})
    assert t.player("Kira").position == "2.2" and t.player("Kira").silver == 2  # no island rewards
    t.rejects("Kira", {"type": "hook_move", "target": 2}, "POWER_ALREADY_USED")
    t.rejects("Kira", {"type": "attack_player", "target": 1, "mode": "steal_treasure"}, "NOT_FIVE_CANNONS")
    t.do("Kira", {"type": "attack_player", "target": 1})  # 3 Cannons left: no push-back
    assert t.player("Kira").treasure == 1 and t.player("David").position == "2.2"


def test_jager_moves_one_space_forward_when_attacking_like_a_map():
    t = Table(captains=("JAGER", "REO", "HOOK")).given("Kira", position="1.0", silver=0)
    t.roll("Kira", ["CANNON", "CANNON", "CANNON", "GROG", "GROG"])
    t.do("Kira", {"type": "attack_player", "target": 1, "jager_step": True})
    assert t.player("Kira").position == "1.1" and t.player("Kira").silver == 2 + 1  # plunder + island


def test_bones_ignores_one_skull_or_gains_a_silver_when_none_were_rolled():
    t = Table(captains=("BONES", "REO", "HOOK"))
    t.roll("Kira", ["SILVER", "MAP", "MAP", "GROG", "CANNON"])
    assert t.player("Kira").silver == 3
    t2 = Table(captains=("REO", "HOOK", "JAGER"))
    t2.roll("Kira", ["SKULL", "MAP", "MAP", "GROG", "CANNON"])
    t2.state.turn.skulls_resolved = False
    t2.rejects("Kira", {"type": "resolve_skulls", "ignore_one": True}, "NOT_YOUR_CAPTAIN")


def test_jaxn_with_no_maps_moves_one_space_and_gains_one_grog():
    t = Table(captains=("JAXN", "REO", "HOOK")).given("Kira", position="1.0", grog=1)
    t.roll("Kira", ["SILVER", "SILVER", "GROG", "CANNON", "CANNON"])
    t.do("Kira", {"type": "jaxn_move"})
    assert t.player("Kira").position == "1.1" and t.player("Kira").grog == 2 and t.player("Kira").silver == 3
    t.rejects("Kira", {"type": "jaxn_move"}, "POWER_ALREADY_USED")
    t2 = Table(captains=("JAXN", "REO", "HOOK"))
    t2.roll("Kira", ["MAP", "SILVER", "GROG", "CANNON", "CANNON"])
    t2.rejects("Kira", {"type": "jaxn_move"}, "HAD_MAPS")


def test_hasan_pays_one_grog_then_turns_the_rest_into_silver_at_the_end_of_the_turn():
    t = Table(captains=("HASAN", "REO", "HOOK")).given("Kira", grog=4, silver=4)  # 2 lost to Skulls
    t.roll("Kira", ["CANNON", "CANNON", "CANNON", "SKULL", "SKULL"])
    t.do("Kira", {"type": "hold_fire"})
    events = t.do("Kira", {"type": "end_turn", "hasan_convert": True})
    assert t.types(events)[:4] == ["GrogLost", "GrogLost", "SilverGained", "TreasureExchanged"]
    assert (t.player("Kira").grog, t.player("Kira").silver, t.player("Kira").treasure) == (0, 0, 1)


def test_jaxn_ending_on_cutthroats_loses_the_grog_he_had_then_gains_one():
    # CV-P4: the move ends (hazard) before the Jax'n Grog is gained.
    t = Table(captains=("JAXN", "REO", "HOOK")).given("Kira", position="1.1", grog=3)
    t.roll("Kira", ["SILVER", "SILVER", "GROG", "CANNON", "CANNON"])
    events = t.do("Kira", {"type": "jaxn_move"})
    assert t.types(events) == ["ShipMoved", "GrogLost", "GrogGained"]
    assert t.player("Kira").grog == 1


def test_hook_joining_a_ship_in_his_own_space_spends_two_cannons_and_triggers_nothing():
    # CV-P13
    t = Table(captains=("HOOK", "REO", "JAGER")).given("Kira", position="1.2", grog=3)
    t.given("David", position="1.2")
    t.roll("Kira", ["CANNON", "CANNON", "SILVER", "SILVER", "MAP"])
    events = t.do("Kira", {"type": "hook_move", "target": 1})
    assert t.types(events) == ["ShipMoved"] and t.player("Kira").grog == 3
    assert t.state.turn.cannons_spent == 2


def test_a_captains_name_in_the_view_is_the_games_content():
    """The view names each Captain as the game's content does (custom content may rename or add
    Captains); the reference content's names are the rulebook's."""
    t = Table(captains=("WILLEM", "HOOK", "JAGER"))
    shown = [p["captain_name"] for p in R.view(t.state, None)["players"]]
    assert shown == ["Willem the Artificer", "Captain Hook", "Jäger Knot the Half-Orc"]
    t.state.content = {**t.state.content, "captains": [{**c, "name": "Willem the Bold"} if c["id"] == "WILLEM" else c
                                                       for c in t.state.content["captains"]]}
    assert R.view(t.state, None)["players"][0]["captain_name"] == "Willem the Bold"
