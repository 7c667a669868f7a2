"""CCEL, the effect language of Chrono Corsairs' cards, construct by construct: each program is
arranged to resolve for seat 0 on the reference board (Harbor beside E3, E4, E5) and the
interpreter is driven through do_step / skip_step as a player would."""
from __future__ import annotations

import copy

import pytest

from domain.chance import TableChance
from domain.chrono import RULESET as R
from domain.chrono.state import HARBOR, MAT, WATER
from domain.ruleset import InvalidCreation, Rejected
from tests.domain.chrono.table import Table, first_round, types

OFF = {"containing": {"owner": "self", "kind": "officer"}}


def at_loop():
    t = Table()
    first_round(t)
    return t


def legal(t, seat=0):
    return R.legal_commands(t.state, seat)


def test_gain_and_lose_doubloons_time_gems_never_below_zero():
    t = at_loop()
    t.effect({"seq": [{"op": "gain", "doubloons": 3, "timeGems": 2}, {"op": "lose", "doubloons": 5, "timeGems": 1}]})
    assert (t.seat(0).doubloons, t.seat(0).gems) == (0, 1)


def test_gain_artifacts_draws_from_the_top_and_lose_artifacts_is_the_owners_choice():
    t = at_loop()
    with pytest.raises(Rejected) as info:
        t.effect({"op": "gain", "artifacts": 1})         # a table must say which card was drawn
    assert info.value.code == "TABLE_OUTCOME_REQUIRED"
    t = at_loop()
    t.state.decks["artifact"] = {"pool": [], "bottom": ["AR01", "AR03"]}
    with pytest.raises(Rejected) as info:   # CP-18: from under the deck too, the table says which it drew
        t.effect({"op": "gain", "artifacts": 2})
    assert info.value.code == "TABLE_OUTCOME_REQUIRED" and "nameable.artifacts_under" in info.value.detail
    t = at_loop()
    t.state.decks["artifact"] = {"pool": [], "bottom": ["AR01", "AR03"]}
    t.effect({"op": "gain", "artifacts": 2}, told={"artifacts": ["AR03", "AR01"]})   # not the order they went under
    assert t.seat(0).artifacts == ["AR01", "AR03"]
    t.effect({"op": "lose", "artifacts": 1})
    assert legal(t) == [{"type": "do_step", "artifact": "AR01"}, {"type": "do_step", "artifact": "AR03"}]
    t.rejects(0, {"type": "skip_step"}, "MUST_RESOLVE")
    t.do(0, {"type": "do_step", "artifact": "AR03"})
    discarded = next(e for e in t.events if e["type"] == "ArtifactDiscarded")
    assert R.redact(discarded, 1) == {"type": "ArtifactDiscarded", "seat": 0}
    assert t.state.decks["artifact"]["bottom"] == ["AR03"]


def test_seq_runs_in_order_and_an_optional_step_may_be_forgone():
    t = at_loop()
    t.effect({"seq": [{"op": "gain", "doubloons": 1}, {"op": "gain", "timeGems": 1}]}, optional=True)
    assert legal(t) == [{"type": "do_step"}, {"type": "skip_step"}]
    t.do(0, {"type": "skip_step"})
    t.do(0, {"type": "do_step"})
    assert (t.seat(0).doubloons, t.seat(0).gems) == (0, 1)


def test_choice_offers_each_option_to_the_actor():
    t = at_loop()
    t.effect({"choice": {"options": [{"op": "gain", "doubloons": 2}, {"op": "gain", "timeGems": 1}]}})
    assert legal(t) == [{"type": "do_step", "option": 0}, {"type": "do_step", "option": 1}]
    t.do(0, {"type": "do_step", "option": 1})
    assert t.seat(0).gems == 1


def test_if_then_else_with_has_and_or_not_conditions():
    t = at_loop()
    t.effect({"if": {"and": [{"has": {"doubloons": 0}}, {"not": {"has": {"timeGems": 1}}}]},
              "then": {"op": "gain", "doubloons": 1}, "else": {"op": "gain", "timeGems": 5}})
    t.effect({"if": {"or": [{"timeIs": "SUNSET"}, {"stageAtLeast": "RIPPLING"}]},
              "then": {"op": "gain", "timeGems": 9}, "else": {"op": "gain", "doubloons": 1}})
    assert (t.seat(0).doubloons, t.seat(0).gems) == (2, 0)
    t.effect({"if": {"timeIs": "SUNRISE"}, "then": {"op": "gain", "timeGems": 1}})
    assert t.seat(0).gems == 1


def test_repeat_and_count_conditions():
    t = at_loop()
    t.effect({"repeat": {"n": 3, "do": {"if": {"count": {"of": {"owner": "self", "kind": "crew", "at": "harbor"},
                                                           "op": ">=", "value": 5}},
                                        "then": {"op": "gain", "doubloons": 1}}}})
    assert t.seat(0).doubloons == 3


def test_move_only_to_adjacent_spaces_with_a_destination_filter_and_adjacency_any():
    t = at_loop()
    t.effect({"op": "move", "piece": "officer", "steps": 1, "to": {"terrain": ["jungle"]}, "carry": False})
    assert {c["to"] for c in legal(t) if c["type"] == "do_step"} == {"E4", "E5"}   # X4, X5 are jungles
    t.do(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E4"})
    t.effect({"op": "move", "piece": "crew", "n": 1, "steps": 1, "adjacency": "any", "to": {"region": "interior"}})
    assert {c["to"] for c in legal(t) if c["type"] == "do_step"} == {"I1", "I2", "I3"}


def test_a_multi_step_move_keeps_its_destination_reachable_and_carries_per_step():
    t = at_loop()
    t.effect({"op": "move", "piece": "officer", "steps": 2, "to": {"region": "cave"}}, optional=True)
    t.do(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": HARBOR, "to": "E4", "carry": {"officer": 0, "crew": 2}})
    assert legal(t) == [{"type": "do_step", "owner": 0, "kind": "officer", "from": "E4", "to": "CLO",
                         "carry": {"officer": 0, "crew": c}} for c in range(3)]       # no stopping half-way
    t.rejects(0, {"type": "skip_step"}, "MID_MOVE")
    t.do(0, {"type": "do_step", "owner": 0, "kind": "officer", "from": "E4", "to": "CLO", "carry": {"officer": 0, "crew": 1}})
    assert t.pieces(0) == {HARBOR: 3, "E4": 1, "CLO": 1, MAT: 6} and t.pieces(0, "officer") == {HARBOR: 1, "CLO": 1}


def test_stopping_one_piece_of_a_move_of_several_leaves_the_others_to_move():
    """CP-4: [Phase 3] 'you may choose to forgo parts of it'; 'you may have different movements
    performed by different pieces'. Stopping the first Crew of 'move 3 Crew 3 spaces' after one
    space used to forgo the other two Crew's moves as well (outside review, custom content)."""
    t = at_loop()
    t.effect({"op": "move", "piece": "crew", "n": 3, "steps": 3}, optional=True)
    before = dict(t.pieces(0))
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E4"})
    events = t.do(0, {"type": "skip_step"})
    assert events[0] == {"type": "MoveStopped", "seat": 0, "owner": 0, "kind": "crew", "at": "E4"}
    assert "StepForgone" not in types(events)
    # the next Crew starts from the Harbor; the one stopped on E4 has had its move
    assert {c["from"] for c in legal(t) if c["type"] == "do_step"} == {HARBOR}
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E4"})
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": "E4", "to": "E3"})
    assert types(t.do(0, {"type": "skip_step"}))[0] == "MoveStopped"
    # the third Crew forgoes its move: the step is over
    assert types(t.do(0, {"type": "skip_step"}))[0] == "StepForgone"
    assert not t.state.frames
    assert t.pieces(0) == {**before, HARBOR: before[HARBOR] - 2, "E4": 1, "E3": 1}


def test_stopping_the_last_piece_of_a_move_ends_the_step():
    t = at_loop()
    t.effect({"op": "move", "piece": "crew", "n": 2, "steps": 2}, optional=True)
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E4"})
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": "E4", "to": "E3"})
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E4"})
    events = t.do(0, {"type": "skip_step"})
    assert types(events)[0] == "StepForgone" and "MoveStopped" not in types(events)


def test_move_all_is_all_or_nothing():
    t = at_loop()
    t.place(0, "officer", HARBOR, "E4", 2).place(1, "crew", HARBOR, "E4", 3).place(1, "officer", HARBOR, "E4")
    t.effect({"op": "moveAll", "who": {"owner": "enemy", "kind": "pirate", "n": "all", "at": OFF}, "to": {"adjacentTo": "$source"}})
    assert {"type": "do_step", "from": "E4", "to": "E3"} in legal(t)
    assert {"type": "skip_step"} not in legal(t)
    t.do(0, {"type": "do_step", "from": "E4", "to": "E3"})
    assert t.pieces(1) == {HARBOR: 2, "E3": 3, MAT: 6} and t.pieces(1, "officer") == {HARBOR: 1, "E3": 1}


def test_move_all_empties_only_a_space_its_selector_names():
    """Broadside and Smoke Bomb push "all enemy pirates from the space of your Officer": with
    both of seat 0's Officers on E4 and only its Crew left in the Harbor, the enemy pirates in
    the Harbor stay where they are; E4 is the one space they may be pushed from."""
    t = at_loop()
    t.place(0, "officer", HARBOR, "E4", 2).place(1, "crew", HARBOR, "E4", 2)
    assert t.pieces(0, "officer") == {"E4": 2} and t.pieces(0)[HARBOR] > 0 and t.pieces(1)[HARBOR] > 0
    t.effect({"op": "moveAll", "who": {"owner": "enemy", "kind": "pirate", "n": "all", "at": OFF}, "to": {"adjacentTo": "$source"}})
    assert {c["from"] for c in legal(t) if c["type"] == "do_step"} == {"E4"}
    t.rejects(0, {"type": "do_step", "from": HARBOR, "to": "E3"}, "NOT_A_WAY")


def test_kill_one_by_one_and_kill_all_entering():
    t = at_loop()
    t.place(1, "crew", HARBOR, "E1", 2)
    t.effect({"op": "kill", "who": {"owner": "enemy", "kind": "crew", "at": "board", "n": 2}})
    t.do(0, {"type": "do_step", "owner": 1, "kind": "crew", "at": "E1"})
    t.do(0, {"type": "do_step", "owner": 1, "kind": "crew", "at": HARBOR})
    assert t.pieces(1) == {HARBOR: 2, "E1": 1, WATER: 2, MAT: 6}
    t.effect({"op": "kill", "who": {"owner": "any", "kind": "pirate", "at": "here", "n": "all", "entering": True}}, here="E1")
    assert t.pieces(1)["E1"] == 1          # nobody entered: nobody dies


def test_lose_to_the_storm_fills_the_emptied_crew_space_or_overflows():
    t = at_loop()
    t.effect({"op": "loseToStorm", "who": {"owner": "self", "kind": "crew", "at": "harbor", "n": 1}})
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "at": HARBOR})
    assert t.pieces(0) == {HARBOR: 4, MAT: 7} and t.seat(0).overflow == 1    # every crew space was full
    t.effect({"op": "recruit", "n": 1})
    assert t.pieces(0) == {HARBOR: 5, MAT: 6} and t.seat(0).overflow == 0


def test_recruit_advance_cube_and_rearrange_plans():
    t = at_loop()
    t.effect({"seq": [{"op": "recruit", "n": 2}, {"op": "advanceCube", "track": "unstable", "n": 1},
                      {"op": "advanceCube", "track": "choice", "n": 1}, {"op": "rearrangePlans", "n": 1}]})
    assert t.pieces(0) == {HARBOR: 7, MAT: 4}
    assert legal(t) == [{"type": "do_step", "track": "stable"}, {"type": "do_step", "track": "unstable"}]
    t.do(0, {"type": "do_step", "track": "unstable"})
    assert t.seat(0).cubes == {"stable": 0, "unstable": 2}
    t.do(0, {"type": "do_step", "from": "SUNSET", "to": "MORNING"})
    assert t.seat(0).mat["MORNING"] == "S01" and t.seat(0).mat["SUNSET"] is None


def test_storm_modify_schedule_and_no_effect():
    t = at_loop()
    before = t.state.storm
    t.effect({"seq": [{"op": "storm", "delta": 1}, {"op": "modify", "param": "forgoReward", "value": 3},
                      {"op": "schedule", "at": "endOfPhase3", "do": {"op": "gain", "timeGems": 1}}, {"op": "noEffect"}]})
    assert t.state.storm == before + 1 and t.state.modifiers["forgoReward"] == 3
    assert "NoEffect" in types(t.events)
    t.do(0, {"type": "forgo_plan"})
    assert t.seat(0).doubloons == 3


def test_for_each_player_in_flag_order_and_majority():
    t = at_loop()
    t.state.flag = [1, 0]
    t.place(0, "crew", HARBOR, "E3", 1)
    t.effect({"forEachPlayer": {"players": "all", "do": {"if": {"majority": {"player": "actor", "space": "harbor"}},
                                                          "then": {"op": "gain", "doubloons": 2}}}})
    # 0 has 4 in the Harbor, 1 has 5: only 1 leads
    assert (t.seat(0).doubloons, t.seat(1).doubloons) == (0, 2)


def test_bind_and_for_each_space_the_scrying_mirror_exactly():
    mirror = next(c for c in R.default_content["caves"] if c["id"] == "CV1")["sides"]["A"]
    assert mirror["name"] == "Scrying Mirror" and mirror["printed"] is True
    t = at_loop()
    t.place(0, "crew", HARBOR, "E4").place(0, "crew", HARBOR, "E5").place(1, "crew", HARBOR, "E6", 2)
    t.effect(mirror["rewardsAllStages"])
    t.do(0, {"type": "do_step", "value": "jungle"})    # E4, E5 led; E6 not; I3 empty
    assert t.seat(0).doubloons == 4


def test_content_with_mistakes_is_refused_listing_each_one():
    content = copy.deepcopy(R.default_content)
    content["id"] = "broken"
    content["plans"].pop()
    content["plans"][0]["effect"] = {"op": "storm", "delta": -1}
    content["eventTokens"][0]["effect"] = {"op": "teleport"}
    with pytest.raises(InvalidCreation) as info:
        R.setup(["a", "b"], None, content, TableChance(), None)
    text = " ".join(info.value.problems)
    assert "30 Stable and 19 Unstable" in text or "eventTokens.0.effect" in text
    content = copy.deepcopy(R.default_content)
    content["id"] = "broken2"
    content["plans"][0]["effect"] = {"op": "storm", "delta": -1}
    with pytest.raises(InvalidCreation) as info:
        R.setup(["a", "b"], None, content, TableChance(), None)
    assert any("storm only moves forward" in p for p in info.value.problems)


def _constructs(content) -> set[str]:
    """Every construct the reference content's programs use, read from their structure."""
    found = set()

    def space(x):
        if isinstance(x, str):
            found.add("space:" + ("$var" if x.startswith("$") and x != "$space" else x))
            return
        for k, v in x.items():
            found.add("space:" + k)
            if k in ("and", "or"):
                for y in v:
                    space(y)
            elif k in ("not", "adjacentTo"):
                space(v)
            elif k == "containing":
                who(v)

    def who(w):
        found.update("who:" + k for k in w if k in ("entering", "chooser"))
        found.add("who:n=" + ("all" if w.get("n") == "all" else "count"))
        found.add("who:owner=" + w.get("owner", "self"))
        if "at" in w:
            space(w["at"])

    def cond(c):
        for k, v in c.items():
            found.add("cond:" + k)
            if k in ("and", "or"):
                for y in v:
                    cond(y)
            elif k == "not":
                cond(v)
            elif k == "majority":
                space(v["space"])
            elif k == "count":
                who(v["of"])

    def effect(e):
        if "seq" in e:
            found.add("seq")
            for x in e["seq"]:
                effect(x)
        elif "choice" in e:
            found.add("choice")
            for x in e["choice"]["options"]:
                effect(x)
        elif "if" in e:
            found.add("if")
            cond(e["if"])
            effect(e["then"])
            if "else" in e:
                found.add("else")
                effect(e["else"])
        elif "repeat" in e:
            found.add("repeat")
            effect(e["repeat"]["do"])
        elif "forEachSpace" in e:
            found.add("forEachSpace")
            space(e["forEachSpace"]["spaces"])
            if "where" in e["forEachSpace"]:
                cond(e["forEachSpace"]["where"])
            effect(e["forEachSpace"]["do"])
        elif "forEachPlayer" in e:
            found.add("forEachPlayer:" + e["forEachPlayer"]["players"])
            effect(e["forEachPlayer"]["do"])
        elif "bind" in e:
            found.add("bind:" + e["bind"]["choose"])
            if not isinstance(e["bind"]["among"], list):
                space(e["bind"]["among"])
            effect(e["in"])
        else:
            found.add("op:" + e["op"])
            for k in ("to", "from"):
                if k in e:
                    space(e[k])
            if "who" in e:
                who(e["who"])
            if e["op"] == "schedule":
                found.add("at:" + e["at"])
                effect(e["do"])
            if e["op"] == "move":
                found.update(f"move:{k}" for k in ("carry", "adjacency", "owner", "n") if k in e)
                found.add("move:steps>1" if e.get("steps", 1) > 1 else "move:steps=1")
            if "optional" in e:
                found.add("optional")

    c = content
    programs = [p["effect"] for p in c["plans"]] + [a["effect"] for a in c["artifacts"]]
    programs += [t["effect"] for t in c["eventTokens"]] + list(c["shipMat"]["preprinted"].values())
    programs += [e for a in c["anomalies"] for e in a["effects"].values()]
    programs += [e for t in c["tiles"] for e in t["rewards"].values()]
    programs += [f.get("rewardsAllStages") or v for cv in c["caves"] for f in cv["sides"].values()
                 for v in ([None] if "rewardsAllStages" in f else f["rewards"].values())]
    for e in programs:
        effect(e)
    return found


EVERY_CONSTRUCT = {
    "seq", "choice", "if", "else", "repeat", "forEachSpace", "forEachPlayer:all", "forEachPlayer:others", "bind:terrain",
    *(f"op:{o}" for o in ("move", "moveAll", "kill", "loseToStorm", "gain", "lose", "recruit", "advanceCube",
                          "rearrangePlans", "storm", "modify", "schedule", "noEffect")),
    "at:endOfPhase3", "at:endOfPhase4", "at:endOfRound",
    *(f"cond:{k}" for k in ("majority", "count", "stageAtLeast", "timeIs", "has", "and", "or", "not")),
    *(f"space:{k}" for k in ("here", "harbor", "board", "tiles", "$space", "$var", "terrain", "region", "adjacentTo",
                             "containing", "id", "and", "or", "not")),
    "who:entering", "who:n=all", "who:n=count", "who:owner=self", "who:owner=enemy", "who:owner=any",
    "move:carry", "move:adjacency", "move:owner", "move:n", "move:steps>1", "move:steps=1", "optional",
}


def test_the_reference_content_is_labelled_and_uses_every_construct():
    c = R.default_content
    assert c["printed"] is False and "NOT the printed" in c["notice"]
    missing = EVERY_CONSTRUCT - _constructs(c)
    assert not missing, sorted(missing)


def test_for_each_other_player_and_a_schedule_at_the_end_of_phase_4():
    t = at_loop()
    t.effect({"seq": [{"forEachPlayer": {"players": "others", "do": {"op": "gain", "doubloons": 1}}},
                      {"op": "schedule", "at": "endOfPhase4", "do": {"op": "gain", "timeGems": 1}}]})
    assert (t.seat(0).doubloons, t.seat(1).doubloons) == (0, 1)
    while t.state.phase == "loop":
        seat = t.state.turn["seat"]
        t.do(seat, {"type": "forgo_plan"} if t.state.turn["plan"] == "pending" else {"type": "end_turn"})
    assert t.state.phase == "priority" and t.seat(0).gems == 1
    started = [e for e in t.events if e["type"] == "ScheduledEffectsStarted"]
    assert [e["at"] for e in started] == ["endOfPhase4"]



@pytest.mark.parametrize("spaces, expected", [
    ("board", 13), ("tiles", 12), ("harbor", 1),
    ({"id": "E1"}, 1), ({"region": "cave"}, 3), ({"terrain": ["beach", "volcano"]}, 5),
    ({"adjacentTo": "harbor"}, 3),
    ({"and": [{"region": "interior"}, {"adjacentTo": {"id": "E4"}}]}, 2),       # I2, I3
    ({"or": [{"region": "cave"}, {"id": "I1"}]}, 4),
    ({"not": {"region": "exterior"}}, 7),                                       # interior, caves and the Harbor
    ({"containing": {"owner": "self", "kind": "officer"}}, 1),                  # the Harbor
    ({"containing": {"owner": "enemy", "kind": "crew", "n": 6}}, 0),            # 5 in the Harbor: not 6
])
def test_space_selectors_name_the_spaces_they_say(spaces, expected):
    t = at_loop()
    t.effect({"forEachSpace": {"spaces": spaces, "do": {"op": "gain", "doubloons": 1}}})
    assert t.seat(0).doubloons == expected


def test_bind_a_space_then_use_it_as_a_variable():
    t = at_loop()
    t.effect({"bind": {"var": "S", "choose": "space", "among": {"region": "cave"}},
              "in": {"op": "move", "piece": "crew", "n": 1, "steps": 1, "adjacency": "any", "to": "$S"}})
    assert legal(t) == [{"type": "do_step", "value": v} for v in ("CTL", "CTR", "CLO")]
    t.do(0, {"type": "do_step", "value": "CTR"})
    assert {c["to"] for c in legal(t)} == {"CTR"}



def test_effects_due_together_run_in_flag_order_whoever_scheduled_first():
    """CP-10, [Gameplay in Detail] "the player whose flag is highest acting first": seat 0 schedules
    first, but seat 1 holds the highest Flag, so seat 1's effect runs first, and its kill leaves
    seat 0 one Crew short of its own condition."""
    t = Table(flag=[1, 0])
    first_round(t)
    assert t.pieces(0)[HARBOR] == t.pieces(1)[HARBOR] == 5
    duel = {"op": "schedule", "at": "endOfPhase3", "do": {"seq": [
        {"if": {"count": {"of": {"owner": "self", "kind": "crew", "at": "harbor"}, "op": ">=", "value": 5}},
         "then": {"op": "gain", "doubloons": 2}},
        {"op": "kill", "who": {"owner": "enemy", "kind": "crew", "at": "harbor", "n": 1}}]}}
    t.effect(duel, actor=0)
    t.effect(duel, actor=1)
    assert [x["actor"] for x in t.state.scheduled] == [0, 1]
    while t.state.phase == "loop" and not t.state.frames:
        seat = t.state.turn["seat"]
        t.do(seat, {"type": "forgo_plan"} if t.state.turn["plan"] == "pending" else {"type": "end_turn"})
    started = types(t.events).index("ScheduledEffectsStarted")
    # seat 1 (highest Flag) first: its 5 Crew pay, then it picks the Crew of seat 0's it kills
    assert legal(t, 0) == [] and legal(t, 1) == [{"type": "do_step", "owner": 0, "kind": "crew", "at": HARBOR}]
    t.do(1, {"type": "do_step", "owner": 0, "kind": "crew", "at": HARBOR})
    assert t.pieces(0)[HARBOR] == 4
    while t.state.frames:   # seat 0's effect: 4 Crew pay nothing; its kill of one of seat 1's
        t.do(0, legal(t, 0)[0])
    gains = [(e["seat"], e["amount"]) for e in t.events[started:] if e["type"] == "DoubloonsChanged"]
    assert gains == [(1, 2)]
    assert [e["seat"] for e in t.events[started:] if e["type"] == "PiratesKilled"] == [0, 1]


def test_time_bleed_at_collapsing_takes_two_gems_from_each_player_holding_three():
    """The reference Time Bleed (AN5) at Collapsing; in chrono-reference-1 its condition asked for a
    stage before Collapsing, so it never acted."""
    t = at_loop()
    t.seat(0).gems, t.seat(1).gems = 3, 2
    t.state.storm = len(t.state.content["vortex"]["stages"]) - 1   # the marker on the Collapsing space
    an5 = next(a for a in R.default_content["anomalies"] if a["id"] == "AN5")
    t.effect(an5["effects"]["COLLAPSING"])
    assert (t.seat(0).gems, t.seat(1).gems) == (1, 2)
