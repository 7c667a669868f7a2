"""Divergences found by the line-by-line rules review of Chrono Corsairs, each pinned by the
rulebook sentence it restores (every test here failed before its fix)."""
from __future__ import annotations

import copy

import pytest

from domain.chance import ServerChance
from domain.chrono import RULESET as R
from domain.chrono.state import HARBOR, MAT
from domain.ruleset import InvalidCreation
from tests.domain.chrono.table import Table, first_round


def at_loop():
    t = Table()
    first_round(t)
    return t


def moves(t, seat=0):
    return [c for c in R.legal_commands(t.state, seat) if c["type"] == "do_step"]


# [Phase 3] "When moving one of your Officers, you may also move any number of your other
# Pirates (Officers or Crew meeples) that are in the same space as the moving Officer"

def test_an_enemy_officer_moved_by_your_effect_carries_nobody():
    t = at_loop()
    t.place(1, "officer", HARBOR, "E4").place(1, "crew", HARBOR, "E4", 2)
    t.effect({"op": "move", "piece": "officer", "owner": "enemy", "steps": 1}, optional=True)
    found = moves(t)
    assert found and all("carry" not in c for c in found)
    assert {"type": "do_step", "owner": 1, "kind": "officer", "from": "E4", "to": "E5"} in found


def test_your_officer_carries_even_when_the_effect_moves_any_pirate():
    t = at_loop()
    t.effect({"op": "move", "piece": "pirate", "steps": 1}, optional=True)
    officer_moves = [c for c in moves(t) if c["kind"] == "officer"]
    assert {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E4",
            "carry": {"officer": 1, "crew": 5}} in officer_moves
    assert all("carry" not in c for c in moves(t) if c["kind"] == "crew")


# "Move 2 Crew 1 space" (the analysis: "up to n crew, 1 step each"): the second crew is
# another one, never the first moving on.

def test_a_move_of_two_crew_one_space_each_never_moves_the_same_crew_twice():
    t = at_loop()
    t.effect({"op": "move", "piece": "crew", "n": 2, "steps": 1}, optional=True)
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E4"})
    assert not [c for c in moves(t) if c["from"] == "E4"]      # the one that moved stands alone there
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E4"})
    assert t.pieces(0) == {HARBOR: 3, "E4": 2, MAT: 6}


def test_a_crew_already_standing_there_may_still_be_the_second_mover():
    t = at_loop()
    t.place(0, "crew", HARBOR, "E4")
    t.effect({"op": "move", "piece": "crew", "n": 2, "steps": 1}, optional=True)
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E4"})
    assert {c["to"] for c in moves(t) if c["from"] == "E4"} == {"E3", "E5", "I2", "I3", "CLO", HARBOR}


def test_separate_movements_may_still_be_made_by_the_same_piece():
    """[Phase 3] "you might move the same Officer twice" (two movements, Double Time)."""
    t = at_loop()
    t.effect({"repeat": {"n": 2, "do": {"op": "move", "piece": "officer", "steps": 1}}}, optional=True)
    t.do(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E3", "carry": {"officer": 0, "crew": 0}})
    assert any(c["from"] == "E3" for c in moves(t))


# Printed numbers are not content: [Components & Setup], [Phase 3], [Phase 6]

def broken(change):
    content = copy.deepcopy(R.default_content)
    content["id"] = "review"
    change(content)
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B", "C"], None, content, ServerChance("ab" * 32, 0), None)
    return " ".join(info.value.problems)


def test_the_storm_start_is_printed_first_space_for_2_second_for_3_or_more():
    assert "second space (1) with 3 or more players, not 0" in broken(lambda c: c["vortex"]["start"].update({"3+": 0}))
    assert "first space (0) with 2 players, not 1" in broken(lambda c: c["vortex"]["start"].update({"2": 1}))


def test_the_purchase_prices_and_the_forgo_doubloon_are_printed():
    assert "3 Doubloons for a Time Gem, not 2" in broken(lambda c: c["prices"].update({"gem": 2}))
    assert "1 Doubloon" in broken(lambda c: c.update({"forgoReward": 2}))
    assert "2 Doubloons" in broken(lambda c: c["shipMat"].update({"overflowRecruitCost": 3}))


def test_the_cubes_start_on_the_printed_1_space():
    assert 'cube on the "1" space, not 2' in broken(lambda c: c["shipMat"].update({"stableTrack": [2, 3, 4]}))


def test_the_harbor_is_adjacent_to_the_nearest_3_exterior_tiles():
    assert "3 Exterior" in broken(lambda c: c["board"].update({"harbor": ["E3", "E4"]}))


def test_here_is_refused_where_nothing_is_here():
    """The analysis' pack validation: "selectors valid in context, e.g. ... `here` not in plans"."""
    def plan_kills_here(c):
        c["plans"][0]["effect"] = {"op": "kill", "who": {"owner": "enemy", "kind": "crew", "at": "here", "n": 1}}
    assert "plans[S01]: 'here'" in broken(plan_kills_here)


def test_the_pieces_already_moved_are_counted_per_player():
    """CP-12 with enemies: after one player's crew is moved into E3, another player's crew
    standing there has not moved and may be the second."""
    t = Table(3, flag=[0, 1, 2])
    plan_round(t)
    t.place(2, "crew", HARBOR, "E3")
    t.effect({"op": "move", "piece": "crew", "owner": "enemy", "n": 2, "steps": 1}, optional=True)
    t.do(0, {"type": "do_step", "owner": 1, "kind": "crew", "from": HARBOR, "to": "E3"})
    assert any(c["owner"] == 2 and c["from"] == "E3" for c in moves(t))
    assert not any(c["owner"] == 1 and c["from"] == "E3" for c in moves(t))


def plan_round(t):
    n = len(t.state.seats)
    for i in list(t.state.flag):
        t.do(i, {"type": "draw_plans", "plans": [f"S{i + 1:02d}", f"U{i + 1:02d}"]})
    for i in range(n):
        t.do(i, {"type": "select_plan", "card": f"S{i + 1:02d}", "slot": "SUNSET"})


def test_only_the_last_space_of_the_track_is_collapsing():
    """[Phase 6] "If the Storm Stability Marker is on the 'collapsing' space, proceed to Final Scoring"
    (CA-3): content with Collapsing spaces before the last would end the game on the first of them by
    that sentence and on the last by the track's end, so it is refused."""
    stages = ["OPENING", "EXPANDING", "COLLAPSING", "COLLAPSING", "COLLAPSING"]
    assert "only the last space is COLLAPSING" in broken(lambda c: c["vortex"].update(stages=stages))
    # one Collapsing space at the end of a shorter track is still content Parley plays
    content = copy.deepcopy(R.default_content)
    content["id"] = "review-short"
    content["vortex"]["stages"] = ["OPENING", "EXPANDING", "RIPPLING", "COLLAPSING"]
    assert R.setup(["A", "B", "C"], None, content, ServerChance("ab" * 32, 0), None)
