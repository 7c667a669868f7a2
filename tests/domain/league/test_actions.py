"""League of Pirates: the Dice Challenge and the nine actions, rule by rule."""
from domain.league import RULESET as R
from domain.league.rules import score
from tests.domain.league.table import Table, content_with


def test_both_players_throw_at_once_and_a_player_may_finish_after_the_other_qualified():
    t = Table()
    assert R.status(t.state).to_move == [0, 1]
    t.do(0, {"type": "throw_dice", "values": [1, 2, 3, 4, 4]})
    t.do(0, {"type": "stop_throwing"})
    assert t.state.phase == "challenge" and R.status(t.state).to_move == [1]
    t.do(1, {"type": "throw_dice", "values": [1, 2, 3, 6, 5]})
    t.do(1, {"type": "stop_throwing"})
    assert t.state.actor == 1  # 11 beats 8


def test_an_equal_score_goes_to_the_player_with_more_ship_points():
    t = Table()
    t.state.seats[1].points = 21
    for seat in (0, 1):
        t.do(seat, {"type": "throw_dice", "values": [1, 2, 3, 4, 4]})
        t.do(seat, {"type": "stop_throwing"})
    assert t.state.actor == 1
    assert t.events[-1]["tie_break"] == "ship_points"


def test_when_nobody_rolls_1_2_3_another_challenge_begins():
    t = Table()
    for seat in (0, 1):
        t.do(seat, {"type": "throw_dice", "values": [6, 6, 6, 6, 6]})
        t.do(seat, {"type": "stop_throwing"})
    assert t.state.phase == "challenge" and t.state.challenge.round == 2


def test_a_1_2_3_not_rolled_in_order_does_not_count():
    # LP-A4: a 2 and 3 rolled before any 1 are not set aside later.
    t = Table()
    t.do(0, {"type": "throw_dice", "values": [2, 3, 6, 6, 6]})
    (e,) = t.do(0, {"type": "throw_dice", "keep": [0, 1], "values": [1, 5, 5]})
    assert e["banked"] == {"1": 2} and e["score"] is None


def test_press_gang_costs_one_and_a_coin_must_go_in_its_own_slot():
    t = Table()
    t.win_challenge(0)
    bag = t.state.seats[0].bag
    surgeon = next(c for c in bag if t.state.coins[c]["role"] == "surgeon")
    t.do(0, {"type": "press_gang", "coins": [surgeon]})
    assert t.state.seats[0].points == 18
    t.rejects(0, {"type": "place_coin", "coin": surgeon, "slot": "mate1"}, "SLOT_ROLE_MISMATCH")
    t.do(0, {"type": "place_coin", "coin": surgeon, "slot": "surgeon"})
    assert t.crew(0)["surgeon"] == surgeon and t.state.phase == "challenge"


def test_a_replaced_coin_goes_back_to_the_bag_it_came_from():
    t = Table()
    bag0 = t.state.seats[0].bag
    mates = [c for c in bag0 if t.state.coins[c]["role"] == "mate"]
    t.give(0, "mate1", mates[0])
    t.win_challenge(0)
    t.do(0, {"type": "press_gang", "coins": [mates[1]]})
    t.do(0, {"type": "place_coin", "coin": mates[1], "slot": "mate1"})
    assert mates[0] in t.state.seats[t.state.origin[mates[0]]].bag


def test_turning_costs_two_never_a_captain_and_a_replaced_traitor_walks_the_plank_for_a_point():
    t = Table()
    mate = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "mate")
    t.give(1, "mate1", mate)
    t.win_challenge(0)
    t.rejects(0, {"type": "turn_coin", "coin": t.crew(1)["captain"]}, "CAPTAIN_PROTECTED")
    t.do(0, {"type": "turn_coin", "coin": mate})
    assert mate in t.state.traitors and t.state.seats[0].points == 17
    row = next(r for r in score(t.state, 1)["crew"] if r["coin"] == mate)
    assert row["value"] == t.state.coins[mate]["cunning"] - 2  # worth two less, no bonus
    t.win_challenge(1)
    other = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "mate")
    t.do(1, {"type": "press_gang", "coins": [other]})
    events = t.do(1, {"type": "place_coin", "coin": other, "slot": "mate1"})
    assert events[0] == {"type": "PointsPaid", "seat": 1, "amount": 1, "reason": "walk_the_plank"}
    assert mate in t.state.removed and t.state.seats[1].points == 19 - 1 - 1


def test_raiding_needs_a_brig_slot_spares_captains_and_refuses_traitor_raiders():
    t = Table()
    mine = next(c for c in t.state.seats[0].bag if t.state.coins[c]["role"] == "mate")
    theirs = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "mate")
    t.give(0, "mate1", mine).give(1, "mate1", theirs)
    t.win_challenge(0)
    t.rejects(0, {"type": "raid", "target": t.crew(1)["captain"], "raider": mine}, "CAPTAIN_PROTECTED")
    t.state.traitors.append(mine)
    t.rejects(0, {"type": "raid", "target": theirs, "raider": mine}, "TRAITOR_CANNOT_RAID")
    t.state.traitors.remove(mine)
    t.state.seats[0].brig = ["x", "y"]
    t.rejects(0, {"type": "raid", "target": theirs, "raider": mine}, "NO_EMPTY_BRIG_SLOT")


def test_a_paid_substitute_defends_but_the_prize_is_the_coin_first_chosen_and_ties_go_to_the_raider():
    content = content_with(**{"red.skull.mate1": {"martial": 2, "virtue": 2},
                              "blue.cross.mate1": {"martial": 1, "virtue": 1},
                              "blue.cross.mate2": {"martial": 2, "virtue": 2}})
    t = Table(content=content)
    t.give(0, "mate1", "red.skull.mate1").give(1, "mate1", "blue.cross.mate1").give(1, "mate2", "blue.cross.mate2")
    t.win_challenge(0)
    t.do(0, {"type": "raid", "target": "blue.cross.mate1", "raider": "red.skull.mate1"})
    t.rejects(0, {"type": "defend_raid"}, "NOT_YOUR_DECISION")
    unrolled = t.rejects(1, {"type": "defend_raid", "with": "blue.cross.mate2"}, "TABLE_OUTCOME_REQUIRED")
    assert "'skills'" in unrolled.detail and "'dice'" in unrolled.detail and unrolled.detail.endswith("[Raiding].")
    t.do(1, {"type": "defend_raid", "with": "blue.cross.mate2",
             "rolls": {"skills": ["martial", "martial"], "dice": [3, 3]}})  # 2+3 = 2+3: a tie
    assert t.state.seats[1].points == 17
    assert t.state.seats[0].brig[0] == "blue.cross.mate1" and t.crew(1)["mate2"] == "blue.cross.mate2"


def test_a_rescue_won_puts_the_coin_back_in_its_original_position():
    t = Table()
    theirs = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "mate")
    t.give(1, "mate3", theirs)
    t.state.seats[1].crew["mate3"] = None
    t.state.seats[0].brig[0] = theirs
    t.state.captured[theirs] = {"from": 1, "slot": "mate3"}
    t.win_challenge(1)
    t.do(1, {"type": "rescue", "prisoner": theirs, "raider": t.crew(1)["captain"]})
    unrolled = t.rejects(0, {"type": "choose_rescue_defender", "coin": t.crew(0)["captain"]}, "TABLE_OUTCOME_REQUIRED")
    assert unrolled.detail.endswith("[Rescue].")
    t.do(0, {"type": "choose_rescue_defender", "coin": t.crew(0)["captain"],
             "rolls": {"skills": ["leadership", "leadership"], "dice": [6, 1]}})
    assert t.crew(1)["mate3"] == theirs and t.state.seats[0].brig[0] is None


def test_enlisting_a_prisoner_costs_one_and_it_loses_its_old_loyalty():
    t = Table()
    theirs = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "quartermaster")
    t.state.seats[1].bag.remove(theirs)
    t.state.seats[0].brig[0] = theirs
    t.state.captured[theirs] = {"from": 1, "slot": "quartermaster"}
    t.win_challenge(0)
    t.rejects(0, {"type": "enlist", "coin": theirs, "slot": "surgeon"}, "SLOT_ROLE_MISMATCH")
    t.do(0, {"type": "enlist", "coin": theirs, "slot": "quartermaster"})
    assert t.crew(0)["quartermaster"] == theirs and theirs not in t.state.captured
    assert t.state.seats[0].points == 18


def test_points_are_never_paid_that_a_ship_does_not_have():
    t = Table()
    t.state.seats[0].points = 2
    t.win_challenge(0)
    r = t.rejects(0, {"type": "recruit", "coins": t.state.seats[0].bag[:3]}, "INSUFFICIENT_POINTS")
    assert r.ruling == "LP-A11"
    assert {"type": "recruit"} not in R.legal_commands(t.state, 0)


def fill(t, seat):
    bag = list(t.state.seats[seat].bag)
    need = {"quartermaster": ["quartermaster"], "sailingMaster": ["sailing_master"], "surgeon": ["surgeon"],
            "mate": ["mate1", "mate2", "mate3"]}
    for c in bag:
        role = t.state.coins[c]["role"]
        if need.get(role):
            t.give(seat, need[role].pop(0), c)


def test_set_sail_needs_a_full_crew_and_winning_its_challenge_ends_the_game():
    t = Table()
    t.win_challenge(0)
    r = t.rejects(0, {"type": "set_sail"}, "CREW_INCOMPLETE")
    assert "quartermaster" in r.detail
    fill(t, 0)
    t.do(0, {"type": "set_sail"})
    assert t.state.challenge.purpose == "set_sail" and t.state.seats[0].points == 17
    t.do(0, {"type": "throw_dice", "values": [1, 2, 3, 6, 6]})
    t.do(0, {"type": "stop_throwing"})
    t.do(1, {"type": "throw_dice", "values": [1, 2, 3, 1, 1]})
    t.do(1, {"type": "stop_throwing"})
    end = t.events[-1]
    assert end["type"] == "GameEnded" and end["set_sail_by"] == 0
    totals = end["totals"]
    assert totals == [score(t.state, 0)["total"], score(t.state, 1)["total"]]
    assert end["winners"] == [0 if totals[0] >= totals[1] else 1]


def test_losing_the_set_sail_challenge_lets_play_continue_without_an_action_for_the_opponent():
    t = Table()
    fill(t, 0)
    t.win_challenge(0)
    t.do(0, {"type": "set_sail"})
    t.do(1, {"type": "throw_dice", "values": [1, 2, 3, 6, 6]})
    t.do(1, {"type": "stop_throwing"})
    t.do(0, {"type": "throw_dice", "values": [6, 6, 6, 6, 6]})
    t.do(0, {"type": "stop_throwing"})
    assert not t.state.finished and t.state.phase == "challenge" and t.state.challenge.purpose == "turn"
    assert t.events[-3]["type"] == "SetSailFailed"


def test_scores_add_points_cunning_and_two_per_crewmember_of_the_captains_league():
    t = Table()
    red_mate = next(c for c in t.state.seats[0].bag if t.state.coins[c]["role"] == "mate"
                    and t.state.coins[c]["color"] == "red")
    t.give(0, "mate1", red_mate)
    b = score(t.state, 0)
    cap = t.state.coins[t.crew(0)["captain"]]
    assert b["total"] == 19 + cap["cunning"] + 2 + t.state.coins[red_mate]["cunning"] + 2


def test_no_rescue_when_the_holder_has_no_coin_allowed_to_defend():
    # LP-A37 with the captain_may_defend: false house rule: only a Captain aboard, nobody may defend.
    t = Table(options={"captain_may_defend": False})
    theirs = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "mate")
    t.state.seats[1].bag.remove(theirs)
    t.state.seats[0].brig[0] = theirs
    t.state.captured[theirs] = {"from": 1, "slot": "mate1"}
    t.win_challenge(1)
    r = t.rejects(1, {"type": "rescue", "prisoner": theirs, "raider": t.crew(1)["captain"]}, "NO_DEFENDER")
    assert r.ruling == "LP-A37"
    assert not any(c["type"] == "rescue" for c in R.legal_commands(t.state, 1))


def test_a_traitor_returned_to_a_bag_comes_out_face_up():
    t = Table(options={"traitor_on_capture": "keep"})
    mate = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "mate")
    t.give(1, "mate1", mate)
    t.state.traitors.append(mate)
    t.state.seats[1].crew["mate1"] = None
    t.state.seats[0].brig[0] = mate
    t.state.captured[mate] = {"from": 1, "slot": "mate1"}
    t.state.seats[1].crew["mate1"] = next(c for c in t.state.seats[1].bag if t.state.coins[c]["role"] == "mate")
    t.state.seats[1].bag.remove(t.state.seats[1].crew["mate1"])
    t.win_challenge(1)
    t.do(1, {"type": "rescue", "prisoner": mate, "raider": t.crew(1)["captain"]})
    t.do(0, {"type": "choose_rescue_defender", "coin": t.crew(0)["captain"],
             "rolls": {"skills": ["leadership", "leadership"], "dice": [6, 1]}})
    assert t.state.phase == "rescue_placement"
    t.do(1, {"type": "place_rescued_coin", "to_bag": True})
    assert mate in t.state.seats[t.state.origin[mate]].bag and mate not in t.state.traitors


def test_with_the_reveal_house_rule_drawn_coins_are_shown_to_both_seats():
    t = Table(options={"reveal_drawn_coins": True})
    t.win_challenge(0)
    coins = t.state.seats[0].bag[:3]
    drawn = t.do(0, {"type": "recruit", "coins": coins})[-1]
    assert R.redact(drawn, 1)["coins"] == coins
    assert [c["id"] for c in R.view(t.state, 1)["pending"]["drawn"]] == coins


def test_a_seat_whose_throws_are_done_is_told_it_waits_for_the_other():
    t = Table()
    t.do(0, {"type": "throw_dice", "values": [1, 2, 3, 4, 4]})
    t.do(0, {"type": "stop_throwing"})
    r = t.rejects(0, {"type": "throw_dice", "keep": [0, 1, 2], "values": [6, 6]}, "THROWS_DONE")
    assert "Ben" in r.detail


def test_the_view_shows_the_colour_bonus_of_the_captain_now_aboard():
    # LP-A15: a drawn Captain may replace yours; the +2 then follows the new colour.
    t = Table(leagues=("red", "blue"))
    yellow_captain = next(c for c in t.state.seats[0].bag
                          if t.state.coins[c]["role"] == "captain" and t.state.coins[c]["color"] != "red")
    assert t.state.coins[yellow_captain]["color"] != "red"
    t.win_challenge(0)
    t.do(0, {"type": "press_gang", "coins": [yellow_captain]})
    t.rejects(0, {"type": "place_coin", "coin": yellow_captain, "slot": "mate1"}, "SLOT_ROLE_MISMATCH")
    t.do(0, {"type": "place_coin", "coin": yellow_captain, "slot": "captain"})
    seat = R.view(t.state, 1)["seats"][0]
    assert seat["league"] == "red" and seat["bonus_color"] == t.state.coins[yellow_captain]["color"]


def test_a_coin_not_in_the_bag_is_refused_naming_the_bag_the_host_view_lists():
    """Issue 17, item 4: a table's refused report says which item, what it is drawn from and
    where the host's view lists the coins it may name (nameable.homeport_bag_N)."""
    import pytest

    from domain.chance import TableChance
    from domain.ruleset import ARBITER, Rejected
    t = Table()
    t.win_challenge(0)
    other = t.state.seats[1].bag[0]
    wrong = t.rejects(0, {"type": "press_gang", "coins": [other]}, "TABLE_OUTCOME_INVALID")
    assert wrong.detail == (f"'coins': {other!r} cannot have been drawn from there "
                            "(item 1: seat 0's Homeport Bag: one of nameable.homeport_bag_0).")
    assert other not in R.view(t.state, ARBITER)["nameable"]["homeport_bag_0"]
    missing = t.rejects(0, {"type": "press_gang"}, "TABLE_OUTCOME_REQUIRED")
    assert missing.detail.endswith("send in 'coins' what was drawn; 1 is needed (seat 0's Homeport Bag: one of "
                                  "nameable.homeport_bag_0).")
    with pytest.raises(Rejected) as seats:     # a seat's token: refused before the bag is looked at (TM-1)
        R.decide(t.state, 0, {"type": "press_gang", "coins": [other]}, TableChance("seat"))
    assert seats.value.code == "TABLE_OUTCOME_FROM_HOST" and "Homeport" not in seats.value.detail


def test_a_table_learns_how_many_values_each_throw_takes():
    """Issue 17, item 4: the dice thrown are those not kept; table_inputs lists each legal throw
    with its count, and the rules take exactly that many."""
    t = Table()
    first = R.table_inputs(t.state, 0)["throw_dice"]["values"]["by_command"]
    assert first == [{"command": {"type": "throw_dice", "keep": []}, "count": 5}]
    t.do(0, {"type": "throw_dice", "values": [1, 2, 3, 6, 6]})
    rows = R.table_inputs(t.state, 0)["throw_dice"]["values"]["by_command"]
    assert [r["command"] for r in rows] == [c for c in R.legal_commands(t.state, 0) if c["type"] == "throw_dice"]
    for row in rows:
        assert row["count"] == 5 - len(row["command"]["keep"])
    row = rows[-1]
    t.do(0, {**row["command"], "values": [4] * row["count"]})


def test_a_table_is_asked_for_the_coins_of_a_draw_the_seat_can_pay_for_only():
    """[Press Gang] costs 1 point, [Recruit] 3: table_inputs offers only the draws the seat may
    send now, and names the seat's own bag in the host's view (not a placeholder)."""
    t = Table()
    t.win_challenge(1)
    asked = lambda: R.table_inputs(t.state, 1)  # noqa: E731
    assert set(asked()) == {"press_gang", "recruit"}
    spec = asked()["recruit"]["coins"]
    assert spec["from"] == "seat 1's Homeport Bag" and "nameable.homeport_bag_1" in spec["description"]
    assert "<seat>" not in spec["description"] and "<seat>" not in asked()["press_gang"]["coins"]["description"]
    t.state.seats[1].points = 2
    assert set(asked()) == {"press_gang"}
    t.state.seats[1].points = 0
    assert asked() == {} and [c["type"] for c in R.legal_commands(t.state, 1)] == ["resupply"]


def test_recruit_from_a_bag_of_fewer_than_three_draws_what_is_there_and_an_empty_bag_is_refused():
    """LP-A17, LP-P5: Recruit with 2 coins left draws those 2, still for 3 points; at a table
    `coins` lists exactly that many. With the bag empty, Press Gang and Recruit are refused."""
    t = Table()
    t.win_challenge(0)
    bag = t.state.seats[0].bag
    kept, gone = bag[:2], bag[2:]
    for coin in gone:                     # arrange a bag of two (the rest walked the plank)
        bag.remove(coin)
    before = t.state.seats[0].points
    t.rejects(0, {"type": "recruit", "coins": kept + kept[:1]}, "TABLE_OUTCOME_INVALID")
    (drawn,) = [e for e in t.do(0, {"type": "recruit", "coins": kept}) if e["type"] == "CoinsDrawn"]
    assert t.state.seats[0].points == before - 3 and drawn["count"] == 2 and sorted(drawn["coins"]) == sorted(kept)
    bag.clear()                           # arrange the next action with nothing left in the bag
    t.state.pending = None
    t.state.phase, t.state.actor = "action", 0
    for action in ("press_gang", "recruit"):
        refused = t.rejects(0, {"type": action, "coins": []}, "BAG_EMPTY")
        assert refused.ruling == "LP-A17"


def test_a_recruit_report_short_of_coins_asks_for_the_next_item_as_every_table_ruleset_does():
    """TM-1 / docs/api.md section 7: a host's report missing an item is TABLE_OUTCOME_REQUIRED
    naming the item and where the host's view lists what it may name; one listing more than was
    drawn is TABLE_OUTCOME_INVALID."""
    t = Table()
    t.win_challenge(0)
    bag = t.state.seats[0].bag
    short = t.rejects(0, {"type": "recruit", "coins": bag[:1]}, "TABLE_OUTCOME_REQUIRED")
    assert short.detail == ("'coins' must list every one drawn; 3 are needed "
                            "(item 2: seat 0's Homeport Bag: one of nameable.homeport_bag_0).")
    t.rejects(0, {"type": "recruit", "coins": bag[:4]}, "TABLE_OUTCOME_INVALID")
    assert [e["type"] for e in t.do(0, {"type": "recruit", "coins": bag[:3]})].count("CoinsDrawn") == 1


def test_keeping_all_five_dice_is_told_to_pick_one_up():
    """[Dice Challenge] a throw rolls the dice not kept (LP-P4). Keeping all five was refused by
    the command's schema ('is too long: at most 4 items') before the rule could say what to do
    (outside review): the schema takes five, and the rule answers."""
    from domain import adjudication
    t = Table()
    t.do(0, {"type": "throw_dice", "values": [1, 2, 3, 4, 4]})
    keep_all = {"type": "throw_dice", "keep": [0, 1, 2, 3, 4]}
    adjudication.admit(R, keep_all)
    refused = t.rejects(0, keep_all, "NOTHING_TO_THROW")
    assert refused.detail == "Pick up at least one die to throw, or stop throwing."
