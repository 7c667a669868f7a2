"""Every worked example in the League of Pirates rulebook, at a table."""
from tests.domain.league.table import Table, content_with


def test_first_throw_1_4_5_2_6_sets_aside_the_1_and_the_2():
    # [Dice Challenge] "you throw a 1-4-5-2-6. You would set aside the 1 and the 2"
    t = Table()
    (e,) = t.do(0, {"type": "throw_dice", "values": [1, 4, 5, 2, 6]})
    assert e["banked"] == {"1": 0, "2": 3} and e["score"] is None
    refused = t.rejects(0, {"type": "throw_dice", "keep": [0], "values": [3, 1, 1, 1]}, "MUST_KEEP_BANKED")
    assert refused.detail.endswith("add position 3 to 'keep'.")   # the 2, set aside at position 3
    (e,) = t.do(0, {"type": "throw_dice", "keep": [0, 3], "values": [3, 5, 5]})
    assert e["banked"] == {"1": 0, "2": 3, "3": 1} and e["score"] == 10


def test_1_2_3_4_4_after_three_rolls_scores_8():
    # [Dice Challenge] "1-2-3-4-4 your score would be 8"
    t = Table()
    t.do(0, {"type": "throw_dice", "values": [1, 6, 6, 6, 6]})
    t.do(0, {"type": "throw_dice", "keep": [0], "values": [2, 3, 5, 5]})
    (e,) = t.do(0, {"type": "throw_dice", "keep": [0, 1, 2], "values": [4, 4]})
    assert e["dice"] == [1, 2, 3, 4, 4] and e["score"] == 8
    assert t.state.challenge.ended[0]


def test_the_raid_example_4_2_6_against_1_4_3_captures_the_coin():
    # [Raiding 2] Martial Skill and Virtue rolled; raider 4 + 2 + 6 = 12, defender 1 + 4 + 3 = 8.
    content = content_with(**{"red.skull.mate1": {"martial": 4, "virtue": 2},
                              "blue.cross.mate1": {"martial": 1, "virtue": 4}})
    t = Table(content=content)
    t.give(0, "mate1", "red.skull.mate1").give(1, "mate1", "blue.cross.mate1")
    t.win_challenge(0)
    t.do(0, {"type": "raid", "target": "blue.cross.mate1", "raider": "red.skull.mate1"})
    events = t.do(1, {"type": "defend_raid", "rolls": {"skills": ["martial", "virtue"], "dice": [6, 3]}})
    rolled = next(e for e in events if e["type"] == "RaidRolled")
    assert rolled["totals"] == [12, 8] and rolled["winner"] == "raider"
    assert t.state.seats[0].brig[0] == "blue.cross.mate1" and t.crew(1)["mate1"] is None
