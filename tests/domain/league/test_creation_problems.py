"""League of Pirates at creation: content keeps the roster and the other printed numbers (LP-P10),
a refusal lists every problem at once, each citing its rulebook section, and house rules that
cannot apply with the content are refused (LP-P11)."""

import pytest

from domain.league import RULESET as R
from tests.domain.creation import Creation, cited

_CREATION = Creation(R, ("Kira", "David"))
content, problems, created = _CREATION.content, _CREATION.problems, _CREATION.created
CITED = cited()


def coin(name):
    return lambda c: next(x for x in c["coins"] if x["name"] == name)


PRINTED = [
    # change, field, what the rulebook prints, section
    (lambda c: c["coins"][0].update(cunning=12), "content.coins.0.cunning",
     "Captain Arthur Howell's Coin Value as 10, not 12", "[Pirate Coin Roster]"),
    (lambda c: coin("Captain Wang Wei \"The Strangler\"")(c).update(cunning=8), "content.coins.29.cunning",
     "Coin Value as 11, not 8", "[Pirate Coin Roster]"),
    (lambda c: c.update(startingPoints=20), "content.startingPoints", "set to 19, not 20", "[Set Up]"),
    (lambda c: c["crewSlots"].update(mate=4), "content.crewSlots.mate", "3 Mates in a complete crew, not 4",
     "[Set Sail]"),
    (lambda c: c["crewSlots"].update(surgeon=2), "content.crewSlots.surgeon", "1 Surgeon", "[Set Sail]"),
    (lambda c: c["standardDice"].update(perPlayer=6), "content.standardDice.perPlayer",
     "five Standard Dice for each player, not 6", "[Set Up]"),
    (lambda c: c["standardDice"].update(faces=[1, 2, 3, 4, 5]), "content.standardDice.faces",
     "Standard Dice (1 to 6)", "[Components]"),
    (lambda c: c["skillDie"].update(perPlayer=2), "content.skillDie.perPlayer", "one Skill Die for each player, not 2",
     "[Set Up]"),
    (lambda c: c["skillNames"].update(martial="Swordplay"), "content.skillNames", "no face of the Skill Die is "
     "named Martial Skill", "[Raiding 2]"),
    (lambda c: c.update(coins=c["coins"][:41]), "content.coins", "(21 Skulls & 21 Crosses), not 41", "[Components]"),
]


@pytest.mark.parametrize(("change", "field", "printed", "section"), PRINTED, ids=[p[1] for p in PRINTED])
def test_content_that_changes_a_printed_number_is_refused_naming_it(change, field, printed, section):
    found = problems(custom=content(change))
    named = [p for p in found if p.startswith(f"{field}: ")]
    assert len(named) == 1, found
    assert printed in named[0] and named[0].endswith(f"{section} (LP-P10)"), named[0]


def test_each_coin_is_a_pirate_of_the_roster_with_its_printed_league_role_and_value():
    found = problems(custom=content(lambda c: c["coins"][0].update(name="Captain Nobody")))
    assert 'content.coins.0.name: the roster prints no pirate named "Captain Nobody" [Pirate Coin Roster] (LP-P10)' \
        in found
    assert any(p.startswith("content.coins: no coin is the roster's \"Captain Arthur Howell\"") for p in found), found
    found = problems(custom=content(lambda c: c["coins"][0].update(role="mate")))
    assert any(p.startswith("content.coins.0.role: the roster prints Captain Arthur Howell's role as \"captain\", "
                            "not \"mate\" [Pirate Coin Roster]") for p in found), found
    found = problems(custom=content(lambda c: c["coins"][0].update(league="rogues")))
    assert found == ['content.coins.0.league: the rulebook prints blue for the nobles, not "rogues" [Set Up] (LP-P10)']
    twice = content(lambda c: c["coins"][1].update(name=c["coins"][0]["name"], cunning=10))
    assert any(p.startswith("content.coins.1.name: \"Captain Arthur Howell\" is one coin, already coins.0")
               for p in problems(custom=twice))


def test_what_the_rulebook_does_not_print_stays_free():
    # the skills on the coin backs, the Brig slots, a points ceiling, which set a coin is in (LP-A1)
    def swap_sets(c):
        a, b = coin("Captain Arthur Howell")(c), coin('Captain Bulvar "The beserker" Kasteelgard')(c)
        a["set"], b["set"] = b["set"], a["set"]
    free = content(lambda c: (c["coins"][3]["skills"].update(martial=7), c.update(brigSlots=3, pointsMax=40),
                              swap_sets(c)))
    assert created(custom=free)[0]["content"]["brigSlots"] == 3


def test_a_creation_with_several_things_wrong_lists_them_all_at_once_each_cited():
    # League has no option that depends on the player count; its player count is the mismatch here
    wrong = content(lambda c: (c["coins"][0].update(cunning=12), c.update(pointsMax=30)))
    found = problems(players=["Kira", "David", "Ana"], options={"full_tie": "coin_toss", "points_max": 40},
                     custom=wrong, table_setup={"leagues": ["blue", "red"]})
    fields = [p.split(": ", 1)[0] for p in found]
    assert fields == ["players", "options.full_tie", "content.coins.0.cunning", "options.points_max", "setup"], found
    assert all(CITED.match(p) for p in found), found


def test_a_points_ceiling_beside_another_ceiling_in_the_content_is_refused():
    found = problems(options={"points_max": 40}, custom=content(lambda c: c.update(pointsMax=30)))
    assert len(found) == 1 and found[0].startswith("options.points_max: ") and found[0].endswith("(LP-P11)"), found
    # the same ceiling twice says one thing; the option alone replaces none
    created(options={"points_max": 30}, custom=content(lambda c: c.update(pointsMax=30)))
    created(options={"points_max": 40})


def test_a_traitor_floor_with_no_skill_below_2_is_refused():
    def no_low_skill(c):
        for x in c["coins"]:
            x["skills"] = {k: max(v, 2) for k, v in x["skills"].items()}
    found = problems(options={"traitor_skill_floor_zero": True}, custom=content(no_low_skill))
    assert len(found) == 1 and found[0].startswith("options.traitor_skill_floor_zero: ") and "(LP-P11)" in found[0]
    created(options={"traitor_skill_floor_zero": True})   # the reference content has skills of 1
    created(options={"traitor_skill_floor_zero": False}, custom=content(no_low_skill))
