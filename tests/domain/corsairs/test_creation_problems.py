"""Corsairs of Valeria at creation: content keeps the printed numbers (CV-P16), a refusal lists
every problem at once, each citing its rulebook section, and house rules that cannot apply with
the content are refused (CV-P17)."""

import pytest

from domain.chance import TableChance
from domain.corsairs import RULESET as R
from tests.domain.creation import Creation, cited

_CREATION = Creation(R, ("Kira", "David"))
content, problems, created = _CREATION.content, _CREATION.problems, _CREATION.created
CITED = cited()


def captain(cid):
    return lambda c: next(x for x in c["captains"] if x["id"] == cid)


PRINTED = [
    # change, field, what the rulebook prints, section
    (lambda c: c.update(silverTotal=20), "content.silverTotal", "35 Silver Coins, not 20", "[Components]"),
    (lambda c: c["dice"].update(count=6), "content.dice.count", "5 Dice, not 6", "[Components]"),
    (lambda c: c["dice"].update(faces=["SKULL", "SKULL_GROG", "GROG", "SILVER", "MAP", "MAP"]),
     "content.dice.faces", "missing: CANNON", "[Symbol Key]"),
    (lambda c: c.update(tracks=c["tracks"][:3]), "content.tracks", "4 Tracks, not 3", "[Components]"),
    (lambda c: c.update(captains=c["captains"][:10]), "content.captains", "11 Captain Cards, not 10", "[Components]"),
    (lambda c: captain("HOOK")(c).update(name="Captain Crook"), "content.captains.5.name",
     'HOOK as "Captain Hook", not "Captain Crook"', "[Captain Cards]"),
]


@pytest.mark.parametrize(("change", "field", "printed", "section"), PRINTED, ids=[p[1] for p in PRINTED])
def test_content_that_changes_a_printed_number_or_name_is_refused_naming_it(change, field, printed, section):
    found = problems(custom=content(change))
    assert len(found) == 1, found
    assert found[0].startswith(f"{field}: the rulebook prints ") and printed in found[0], found[0]
    assert found[0].endswith(f"{section} (CV-P16)") or found[0].endswith(f"{section} (CV-A2)"), found[0]


def test_what_the_rulebook_does_not_print_stays_free():
    # how often each face comes up (CV-A2), a disabled printed captain, another name for the 11th
    weighted = content(lambda c: c["dice"].update(faces=c["dice"]["faces"] * 2))
    assert created(custom=weighted)[0]["content"]["dice"]["faces"] == R.default_content["dice"]["faces"] * 2
    created(custom=content(lambda c: captain("REO")(c).update(enabled=False)))
    created(custom=content(lambda c: captain("CAPTAIN_11")(c).update(name="The Eleventh")))


def test_a_creation_with_several_things_wrong_lists_them_all_at_once_each_cited():
    setup = {"captains": ["HOOK", "NOBODY"], "track": [{"tile": "T1", "side": "A"}] * 3}
    found = problems(options={"merchant_min_cannons": 2, "first_player": 3},
                     custom=content(lambda c: c.update(silverTotal=20)), chance=TableChance(), table_setup=setup)
    fields = [p.split(": ", 1)[0] for p in found]
    assert fields == ["options.merchant_min_cannons", "options.first_player", "content.silverTotal",
                      "setup.captains", "setup.track"], found
    assert all(CITED.match(p) for p in found), found
    assert "[Game Setup 6] (CV-P8)" in found[1] and "[Use Your Cannons] (CV-A25)" in found[0]


def test_a_wrong_player_count_skips_only_what_depends_on_it():
    found = problems(players=["Kira"], options={"first_player": 3}, chance=TableChance(),
                     table_setup={"captains": ["HOOK"], "track": [{"tile": "T9", "side": "A"}] * 3})
    assert [p.split(": ", 1)[0] for p in found] == ["players", "setup.track"], found
    assert found[0].endswith("[Components] (CV-A1)")


def test_broken_content_skips_the_table_checks_that_need_it_but_not_the_others():
    broken = content(lambda c: c.update(tracks="none"))
    found = problems(chance=TableChance(), custom=broken,
                     table_setup={"captains": ["HOOK", "HOOK"], "track": [{"tile": "T1", "side": "A"}] * 3})
    assert [p.split(": ", 1)[0] for p in found] == ["content.tracks", "setup.captains", "setup.track"], found


@pytest.mark.parametrize(("option", "value", "disabled"), [
    ("hook_max_uses", 2, "HOOK"), ("hazards_on_hook_move", False, "HOOK"),
    ("hazards_on_jaxn_move", False, "JAXN"), ("jaxn_island_rewards", False, "JAXN"),
    ("recipient_captain_powers", "none", "BONES")])
def test_a_house_rule_about_a_captain_the_content_disables_is_refused(option, value, disabled):
    without = content(lambda c: captain(disabled)(c).update(enabled=False))
    found = problems(options={option: value}, custom=without)
    assert len(found) == 1 and found[0].startswith(f"options.{option}: ") and "(CV-P17)" in found[0], found
    assert f"disables {disabled}" in found[0]
    # sent with its default value it changes nothing and is accepted; with the captain, too
    default = R.options_schema["properties"][option]["default"]
    created(options={option: default}, custom=without)
    created(options={option: value})


def test_three_cannons_for_a_merchant_with_no_merchant_ship_is_refused():
    def no_merchants(c):
        for t in c["tracks"]:
            for side in t["sides"].values():
                for row in side["rows"]:
                    for lane in row["lanes"]:
                        lane.pop("merchants", None)
    found = problems(options={"merchant_min_cannons": 3}, custom=content(no_merchants))
    assert len(found) == 1 and found[0].startswith("options.merchant_min_cannons: ") and "(CV-P17)" in found[0]
    created(options={"merchant_min_cannons": 3})


def test_captains_dealt_at_a_table_are_not_held_against_the_house_rules():
    setup = {"captains": ["WILLEM", "LUTHOR"], "track": [{"tile": f"T{i}", "side": "A"} for i in (1, 2, 3)]}
    assert created(options={"hook_max_uses": 2}, chance=TableChance(), table_setup=setup)[1]["captains"] == \
        ["WILLEM", "LUTHOR"]


def test_the_11th_captain_is_never_dealt_at_a_table_and_the_table_setup_says_so():
    """CV-A3: CAPTAIN_11 is in the content, disabled: a table reporting it is refused, the refusal
    naming the captains it may report, and the table setup's field description says which."""
    setup = {"captains": ["WILLEM", "CAPTAIN_11"], "track": [{"tile": f"T{i}", "side": "A"} for i in (1, 2, 3)]}
    (found,) = problems(chance=TableChance(), table_setup=setup)
    enabled = [c["id"] for c in R.default_content["captains"] if c.get("enabled", True)]
    assert len(enabled) == 10 and "CAPTAIN_11" not in enabled
    assert found.startswith(f"setup.captains: one distinct captain for each of the 2 seats, from {', '.join(enabled)}")
    described = R.table_setup_schema["properties"]["captains"]["description"]
    assert "'enabled'" in described and "CAPTAIN_11" in described and "CV-A3" in described


def test_content_with_fewer_than_five_captains_enabled_says_why_five_are_needed():
    """A content serves every game of 2 to 5 players; the refusal cited [Captain Cards] (CV-A3,
    the 11th captain) and read as if a 2-player game needed 5 (outside review)."""
    def four_enabled(c):
        for captain in c["captains"][4:]:
            captain["enabled"] = False
    (problem,) = [p for p in problems(custom=content(four_enabled)) if p.startswith("content.captains: at least 5")]
    assert problem.endswith("'Randomly give each player a Captain card' [Game Setup]"), problem
