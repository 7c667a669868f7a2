"""Chrono Corsairs at creation: content keeps the printed numbers (CP-14), a refusal lists every
problem at once, each citing its rulebook section, and a house rule that cannot apply with the
player count is refused (CP-17)."""
import copy

import pytest

from domain.chance import TableChance
from domain.chrono import RULESET as R
from tests.domain.chrono.table import LAYOUT
from tests.domain.creation import Creation, cited

_CREATION = Creation(R, 3)
content, problems, created = _CREATION.content, _CREATION.problems, _CREATION.created
CITED = cited("+")
SETUP, LOOP, OUTFIT = "[Components & Setup]", "[Phase 3: Run the Loop]", "[Phase 6: Outfit Ship]"


def mirror(c):
    return next(cv["sides"]["A"] for cv in c["caves"] if cv["sides"]["A"].get("name") == "Scrying Mirror")


PRINTED = [
    # change, field, what the rulebook prints, section
    (lambda c: c.update(anomalies=c["anomalies"][:8]), "content.anomalies", "9 Anomaly Cards, not 8", SETUP),
    (lambda c: c.update(caves=c["caves"][:3]), "content.caves", "4 Mysterious Cave Tiles, not 3", SETUP),
    (lambda c: c.update(eventTokens=c["eventTokens"][:27]), "content.eventTokens", "28 Event Tokens, not 27", SETUP),
    (lambda c: c.update(plans=c["plans"][1:]), "content.plans", "30 Stable and 19 Unstable Plan Cards, not 48",
     SETUP),
    (lambda c: c["tiles"][0].update(region="interior"), "content.tiles", "3 Interior and 6 Exterior Island Tiles",
     SETUP),
    (lambda c: c["shipMat"].update(crewSpaces=[2] * 5), "content.shipMat.crewSpaces", "6 Crew spaces", SETUP),
    (lambda c: c["shipMat"].update(crewSpaces=[2, 2, 2, 3, 3, 3]), "content.shipMat.crewSpaces",
     "2 Doubloons to recruit a Crew member", OUTFIT),
    (lambda c: c["vortex"]["start"].update({"2": 1}), "content.vortex.start", "first space (0)", SETUP),
    (lambda c: c["shipMat"].update(unstableTrack=[2, 3]), "content.shipMat.unstableTrack.0", '"1" space, not 2',
     SETUP),
    (lambda c: c.update(forgoReward=2), "content.forgoReward", "1 Doubloon for a Plan forgone, not 2", LOOP),
    (lambda c: c["shipMat"].update(overflowRecruitCost=3), "content.shipMat.overflowRecruitCost",
     "for 2 Doubloons, not 3", LOOP),
    (lambda c: c["prices"].update(movePlan=2), "content.prices.movePlan", "1 Doubloon to move a Plan card, not 2",
     OUTFIT),
    (lambda c: c["prices"].update(cube=1), "content.prices.cube", "2 Doubloons to move a Plan cube, not 1", OUTFIT),
    (lambda c: c["prices"].update(recruit=3), "content.prices.recruit", "2 Doubloons to recruit", OUTFIT),
    (lambda c: c["prices"].update(gem=4), "content.prices.gem", "3 Doubloons for a Time Gem, not 4", OUTFIT),
    (lambda c: c["prices"].update(artifact=4), "content.prices.artifact", "5 Doubloons for an Artifact card, not 4",
     OUTFIT),
    (lambda c: mirror(c).update(name="Dull Mirror"), "content.caves", "no cave side is named so",
     "[Glossary of Symbols]"),
    (lambda c: mirror(c)["rewardsAllStages"]["in"]["forEachSpace"].update(do={"op": "gain", "doubloons": 3}),
     "content.caves.0.sides.A", '"doubloons": 3', "[Glossary of Symbols]"),
]


@pytest.mark.parametrize(("change", "field", "printed", "section"), PRINTED,
                         ids=[f"{p[1]}-{i}" for i, p in enumerate(PRINTED)])
def test_content_that_changes_a_printed_number_is_refused_naming_it(change, field, printed, section):
    found = problems(custom=content(change))
    named = [p for p in found if p.startswith(f"{field}: ")]
    assert len(named) == 1, found
    assert printed in named[0] and named[0].endswith(f"{section} (CP-14)"), named[0]


def test_what_the_rulebook_does_not_print_stays_free():
    # the Vortex track's length (not printed), the cube tracks' later spaces (CA-23), an artifact's value
    free = content(lambda c: (c["vortex"].update(stages=c["vortex"]["stages"][1:]),
                              c["shipMat"].update(stableTrack=[1, 3, 5]), c["artifacts"][0].update(value=9)))
    assert created(custom=free)[0]["content"]["shipMat"]["stableTrack"] == [1, 3, 5]


def test_a_creation_with_several_things_wrong_lists_them_all_at_once_each_cited():
    table = copy.deepcopy(LAYOUT) | {"interior": ["N1", "N1", "N2"], "flag": [0, 1, 2]}
    found = problems(options={"artifacts_per_turn": 2, "max_reward_places": 3},
                     custom=content(lambda c: c["prices"].update(gem=4)), chance=TableChance(), table_setup=table)
    fields = [p.split(": ", 1)[0] for p in found]
    assert fields == ["options.artifacts_per_turn", "options.max_reward_places", "content.prices.gem",
                      "setup.interior"], found
    assert all(CITED.match(p) for p in found), found


def test_a_table_flag_order_is_checked_against_the_option_and_the_seats():
    wrong = copy.deepcopy(LAYOUT) | {"flag": [0, 0, 1]}
    assert problems(chance=TableChance(), table_setup=wrong) == \
        ["setup.flag: the 3 seats in the order their Flags were drawn, highest first [Gameplay in Detail] (CA-7)"]
    assert problems(options={"initial_flag_order": "seat_order"}, chance=TableChance(), table_setup=wrong) == \
        ["setup.flag: with seat_order the Flags go in seat order; leave it out (or send [] or the seats in order) "
         "[Gameplay in Detail] (CA-7)"]
    for told in ({}, {"flag": []}, {"flag": [0, 1, 2]}):    # nothing drawn: left out, empty or the seat order
        layout = {k: v for k, v in LAYOUT.items() if k != "flag"} | told
        events = created(options={"initial_flag_order": "seat_order"}, chance=TableChance(), table_setup=layout)
        assert [e["flag"] for e in events if "flag" in e] == [[0, 1, 2]], told


@pytest.mark.parametrize("players", [2, 3])
def test_a_3rd_place_limit_with_3_players_or_fewer_is_refused(players):
    """[Phase 4] a 4th place takes the Opening column; with 3 players nobody can be 4th (CP-17)."""
    found = problems(players=players, options={"max_reward_places": 3})
    assert found == [f"options.max_reward_places: 3 changes nothing with {players} players: only 4 players can take "
                     "a 4th place on a tile [Phase 4: Find Treasure] (CP-17)"]
    created(players=players, options={"max_reward_places": 4})


def test_a_volcano_stage_of_opening_is_refused():
    """CA-28 gives every Volcano nothing under Opening, the only column OPENING would open (CP-19)."""
    found = problems(options={"volcano_min_stage": "OPENING"})
    assert found == ["options.volcano_min_stage: OPENING changes nothing: every content gives a Volcano nothing "
                     "under Opening (CA-28), so it plays as EXPANDING, the default [Phase 4: Find Treasure] (CP-19)"]
    for stage in ("EXPANDING", "RIPPLING", "COLLAPSING"):
        assert created(options={"volcano_min_stage": stage})[0]["options"]["volcano_min_stage"] == stage


def test_a_3rd_place_limit_with_4_players_is_accepted():
    assert created(players=4, options={"max_reward_places": 3})[0]["options"]["max_reward_places"] == 3
