"""Every worked example in the Corsairs of Valeria rulebook, in table-chance mode."""
import pytest

from tests.domain.corsairs.table import Table


def test_kira_pays_one_grog_per_reroll_and_may_reroll_again():
    # [Re-roll Dice] Kira pays 1 Grog to re-roll 2 Skulls and 1 Cannon, still has 1 Skull,
    # pays 1 more Grog to re-roll that die, and is happy.
    t = Table()
    t.roll("Kira", ["SKULL", "SKULL", "CANNON", "SILVER", "MAP"], lock=False)
    t.do("Kira", {"type": "reroll_dice", "dice": [0, 1, 2], "faces": ["SKULL", "GROG", "SILVER"]})
    assert t.player("Kira").grog == 1
    (e,) = t.do("Kira", {"type": "reroll_dice", "dice": [0], "faces": ["MAP"]})
    assert e["type"] == "DiceRerolled" and e["paid_with"] == "grog"
    assert t.player("Kira").grog == 0
    assert t.state.turn.dice == ["MAP", "GROG", "SILVER", "SILVER", "MAP"]
    r = t.rejects("Kira", {"type": "reroll_dice", "dice": [0], "faces": ["MAP"]}, "INSUFFICIENT_GROG")
    assert r.detail == "Re-roll Dice: every re-roll costs 1 Grog and you have none."
    assert r.rule == "Re-roll Dice"
    t.do("Kira", {"type": "lock_dice"})
    assert t.state.turn.phase == "actions"


def test_david_with_three_skulls_and_two_silver_loses_both_and_ignores_the_third():
    # [Cursed Dice] David has 3 Skulls and only 2 Silver: both go to Skull Island.
    t = Table(captains=("REO", "JAGER", "HOOK")).turn_of("David")
    events = t.roll("David", ["SKULL", "SKULL", "SKULL", "SILVER", "CANNON"])
    cursed = [e for e in events if e["type"] == "SilverCursed"]
    assert cursed == [{"type": "SilverCursed", "seat": 1, "skulls": 3, "ignored": 0, "silver_lost": 2, "received": False}]
    assert t.player("David").silver == 0
    assert t.state.skull_silver == 4


def test_will_with_four_grog_faces_and_two_grog_gains_two_and_ignores_two():
    # [Acquire Grog] Will has 4 Grog faces and 2 Grog: the dial stops at 4.
    t = Table().turn_of("Will")
    t.roll("Will", ["GROG", "GROG", "GROG", "GROG", "SILVER"])
    events = t.do("Will", {"type": "acquire_grog"})
    assert events[1] == {"type": "GrogGained", "seat": 2, "amount": 2, "requested": 4, "source": "dice"}
    assert t.player("Will").grog == 4


def test_kira_with_four_silver_collecting_three_exchanges_five_for_a_treasure():
    # [Collect Silver Coins] 4 + 3 = 7 Silver: 5 go back to the supply for 1 Treasure, 2 stay.
    t = Table().given("Kira", silver=4)
    t.roll("Kira", ["SILVER", "SILVER", "SILVER", "CANNON", "CANNON"])
    events = t.do("Kira", {"type": "collect_silver"})
    assert t.types(events) == ["DiceExecuted", "SilverGained", "TreasureExchanged"]
    assert (t.player("Kira").silver, t.player("Kira").treasure) == (2, 1)


def test_kira_passing_an_island_with_a_silver_symbol_gains_one_silver():
    # [Move Your Ship] Kira passes the island with 1 Silver symbol and gains 1 Silver.
    t = Table().given("Kira", position="1.0")
    t.roll("Kira", ["MAP", "CANNON", "CANNON", "GROG", "GROG"])
    events = t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert [e for e in events if e["type"] == "SilverGained"][0]["source"] == "island"
    assert t.player("Kira").silver == 3 and t.player("Kira").position == "1.1"


def test_willem_passing_an_island_with_a_silver_and_a_grog_gains_one_of_each():
    # [Move Your Ship] ... Willem will pass an island with 1 Silver and 1 Grog.
    t = Table().given("Will", position="2.1", grog=1).turn_of("Will")
    t.roll("Will", ["MAP", "CANNON", "CANNON", "SILVER", "SILVER"])
    t.do("Will", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert (t.player("Will").silver, t.player("Will").grog) == (3, 2)


def test_david_on_the_left_side_of_an_island_cannot_move_to_the_right_side():
    # [Move Your Ship] islands from top to bottom line keep the two sides apart.
    t = Table(captains=("REO", "JAGER", "HOOK")).given("David", position="3.1L").turn_of("David")
    t.roll("David", ["MAP", "CANNON", "CANNON", "SILVER", "SILVER"])
    r = t.rejects("David", {"type": "move_ship", "steps": [{"direction": "forward", "lane": "R"}]}, "LANE_BLOCKED")
    assert "cannot cross" in r.detail
    t.do("David", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert t.player("David").position == "3.2L"


def test_entering_a_split_track_the_player_decides_which_side():
    t = Table().given("Kira", position="3.0")
    t.roll("Kira", ["MAP", "CANNON", "CANNON", "SILVER", "SILVER"])
    t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]}, "LANE_REQUIRED")
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward", "lane": "L"}]})
    assert t.player("Kira").position == "3.1L"
    # the island on the right lane's line was not crossed: no reward (3 Silver from dice later)
    assert t.player("Kira").silver == 2


def test_david_attacks_kira_with_five_cannons_takes_her_silver_and_pushes_her_back_two():
    # [Use Your Cannons] 5 Cannons: Kira gives David all her Silver and moves back 2 spaces.
    t = Table(captains=("REO", "HOOK", "JAGER")).given("Kira", position="2.3", silver=3).turn_of("David")
    t.roll("David", ["CANNON"] * 5)
    events = t.do("David", {"type": "attack_player", "target": 0, "mode": "plunder"})
    # David had 2 Silver: with Kira's 3 he has 5, exchanged at once for a Treasure.
    assert t.types(events) == ["PlayerAttacked", "SilverGained", "TreasureExchanged",
                               "ShipMoved", "ShipMoved", "ShipMoved"]
    pushed = [e for e in events if e["type"] == "ShipMoved"]
    assert [(e["to"], e["cause"]) for e in pushed] == [("2.2", "push_back"), ("2.1", "push_back"),
                                                       ("START.0", "whirlpool")]
    assert t.player("Kira").silver == 0 and t.player("David").silver == 0 and t.player("David").treasure == 1
    # 2.3 -> 2.2 -> 2.1: backward movement collects nothing, but ends on the Whirlpool
    # ... which the rulebook says is activated: Kira goes back to Start.
    assert t.player("Kira").position == "START.0"


def test_david_with_five_cannons_may_steal_a_treasure_instead():
    # [Use Your Cannons] Kira has only 2 Silver, so David steals 1 Treasure.
    t = Table(captains=("REO", "HOOK", "JAGER")).given("Kira", silver=2, treasure=2, position="1.3").turn_of("David")
    t.roll("David", ["CANNON"] * 5)
    events = t.do("David", {"type": "attack_player", "target": 0, "mode": "steal_treasure"})
    assert t.types(events) == ["PlayerAttacked", "TreasureStolen"]
    assert (t.player("Kira").treasure, t.player("David").treasure) == (1, 1)
    assert t.player("Kira").silver == 2 and t.player("Kira").position == "1.3"


def test_kira_attacks_a_merchant_ship_with_three_cannons_and_receives_three_silver():
    # [Use Your Cannons] Kira has 3 Cannons on a Merchant ship showing a Silver symbol.
    t = Table().given("Kira", position="1.1", silver=0)
    t.roll("Kira", ["CANNON", "CANNON", "CANNON", "GROG", "GROG"])
    events = t.do("Kira", {"type": "attack_merchant", "merchant": "T1A-M1"})
    assert t.types(events) == ["MerchantAttacked", "SilverGained"]
    assert t.player("Kira").silver == 3


def test_a_gain_larger_than_the_supply_is_served_by_the_coins_each_exchange_returns():
    """CV-A17, [Collect Silver Coins] 'when you've collected 5 Silver you must immediately return
    them to the supply and gain 1 Treasure ... This exchange may interrupt other actions or
    instructions in the game until it is resolved.' With 2 coins left in the supply, Kira (4
    Silver) takes 3 from a Merchant: the first coin makes 5, which go back at once, and the
    supply then pays the other 2. Before 1.2.0 the gain was capped at the 2 coins the supply
    held before the exchange (outside review: with custom content, a 100-Silver Merchant paid
    29 and Kira stopped at 5 Treasures)."""
    t = Table().given("Kira", position="1.1", silver=4)
    t.state.supply = 2   # the rest on the other ships and on Skull Island
    t.roll("Kira", ["CANNON", "CANNON", "CANNON", "GROG", "GROG"])
    events = t.do("Kira", {"type": "attack_merchant", "merchant": "T1A-M1"})
    assert t.types(events) == ["MerchantAttacked", "SilverGained", "TreasureExchanged", "SilverGained"]
    assert [(e["amount"], e["requested"]) for e in events if e["type"] == "SilverGained"] == [(1, 3), (2, 2)]
    assert (t.player("Kira").treasure, t.player("Kira").silver, t.state.supply) == (1, 2, 4)


@pytest.mark.parametrize("supply, silver, paid", [(1, 3, [(1, 3)]), (0, 3, [(0, 3)])])
def test_a_gain_stops_where_the_supply_runs_dry_short_of_an_exchange(supply, silver, paid):
    """CV-A17: the last coin of the supply taken short of 5 returns nothing to serve the rest, and
    an empty supply pays nothing (one SilverGained of 0, as before 1.2.0). Guards the new loop's
    ends; the old cap gave the same answers."""
    t = Table().given("Kira", position="1.1", silver=silver)
    t.state.supply = supply
    t.roll("Kira", ["CANNON", "CANNON", "CANNON", "GROG", "GROG"])
    events = t.do("Kira", {"type": "attack_merchant", "merchant": "T1A-M1"})
    assert [(e["amount"], e["requested"]) for e in events if e["type"] == "SilverGained"] == paid
    assert (t.player("Kira").treasure, t.player("Kira").silver, t.state.supply) == (0, silver + supply, 0)


def test_kira_reaching_skull_island_with_eight_silver_there_gains_two_treasures():
    # [Reaching Skull Island] 8 on the island + 3 on her board: 2 Treasures, 1 Silver left.
    t = Table().given("Kira", position="3.3", silver=3)
    t.state.skull_silver = 8
    t.state.supply -= 6
    t.roll("Kira", ["MAP", "MAP", "CANNON", "GROG", "GROG"])
    events = t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert t.types(events) == ["DiceExecuted", "ShipMoved", "SkullIslandReached", "SilverGained",
                               "TreasureExchanged", "TreasureExchanged", "MapsIgnored"]
    assert (t.player("Kira").treasure, t.player("Kira").silver, t.state.skull_silver) == (2, 1, 0)


def test_one_map_moves_one_space_even_within_reach_of_skull_island():
    # [Move Your Ship] "For each Map, move your Ship 1 space" (found by review: a path that
    # ended on Skull Island was accepted with more steps than Maps).
    t = Table().given("Kira", position="3.2L")
    t.roll("Kira", ["MAP", "CANNON", "CANNON", "GROG", "GROG"])
    t.rejects("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}] * 2}, "WRONG_NUMBER_OF_STEPS")
    t.do("Kira", {"type": "move_ship", "steps": [{"direction": "forward"}]})
    assert t.player("Kira").position == "3.3"


def test_a_table_learns_how_many_faces_each_reroll_takes():
    """Issue 17, item 4: the count of 'faces' depends on the dice picked up; table_inputs lists
    each legal re-roll with its count, and the rules take exactly that many."""
    from domain.corsairs import RULESET as R
    t = Table()
    t.roll("Kira", ["SKULL", "SKULL", "CANNON", "SILVER", "MAP"], lock=False)
    spec = R.table_inputs(t.state, 0)["reroll_dice"]["faces"]
    rows = spec["by_command"]
    assert [r["command"] for r in rows] == [c for c in R.legal_commands(t.state, 0) if c["type"] == "reroll_dice"]
    row = next(r for r in rows if r["command"]["dice"] == [0, 1, 2])
    assert row["count"] == 3
    t.rejects("Kira", {**row["command"], "faces": ["MAP", "MAP"]}, "TABLE_OUTCOME_REQUIRED")  # a face missing
    t.rejects("Kira", {**row["command"], "faces": ["MAP"] * 4}, "TABLE_OUTCOME_INVALID")      # one too many
    t.do("Kira", {**row["command"], "faces": ["MAP", "MAP", "GROG"]})
    # with no Grog left there is no re-roll to report for (the audit found an empty entry here)
    t.state.players[0].grog = 0
    assert not [c for c in R.legal_commands(t.state, 0) if c["type"] == "reroll_dice"]
    assert "reroll_dice" not in R.table_inputs(t.state, 0)
