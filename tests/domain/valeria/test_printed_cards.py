"""VA-36: a custom content card named as a card the base rulebook prints numbers or a power for
must have them; only one Citizen type takes from players (outside review of custom contents,
2026-12-05: every one of these was accepted). Checked for what the rulebook's words fix, however
the effect language spells it (a review of the first version, which refused equivalent
spellings and the Thief renamed)."""
from __future__ import annotations

import copy

import pytest

from domain.chance import ServerChance
from domain.ruleset import InvalidCreation
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R

SEED = "ab" * 32
TAKE = {"take_from": {"resources": ["gold", "magic"], "max": 3}}


def index(content, kind, card_id):
    return next(k for k, c in enumerate(content[kind]) if c["id"] == card_id)


def card(content, kind, card_id):
    return content[kind][index(content, kind, card_id)]


def refused(ruleset, content):
    with pytest.raises(InvalidCreation) as info:
        ruleset.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)
    return info.value.problems


CHANGED = [
    ("citizens", "thief", lambda c: c["on_turn"]["take_from"].update(max=4), "up to 3 Gold or 3 Magic", "[BR p.19]"),
    ("citizens", "thief", lambda c: c["on_turn"]["take_from"].update(resources=["gold", "magic", "strength"]),
     "You may not mix Resources", "[BR p.19]"),
    ("citizens", "monk", lambda c: c.update(activation=[2]), "a Monk (activation number 1)", "[BR p.8]"),
    ("citizens", "monk", lambda c: c["off_turn"]["exchange"].update(pay={"gold": 2}), "to gain 2 Magic", "[BR p.8]"),
    ("citizens", "peasant", lambda c: c.update(cost=3), "The cost to recruit a Peasant is 2+", "[BR p.10]"),
    ("citizens", "peasant", lambda c: c.update(off_turn={"gain": {"gold": 5}}), "power to gain 1 Gold", "[BR p.10]"),
    ("citizens", "archer", lambda c: c.update(activation=[3]), "Archers (activation number 4)", "[BR p.10]"),
    ("citizens", "archer", lambda c: c.update(roles=["holy"]), "a Soldier Role icon", "[BR p.10]"),
    ("monsters", "wraith", lambda c: c["reward"]["take_card"].update(max_cost=3), "less than 2 Gold", "[BR p.19]"),
    ("monsters", "bane_spider", lambda c: c.update(reward={"gain": {"gold": 3}}), "take a Knight", "[BR p.18]"),
    ("domains", "palace_of_the_dawn", lambda c: c["ongoing"][0]["change_die"].update(by=[1]),
     "reduce the value of a die by one", "[BR p.19]"),
    ("domains", "palace_of_the_dawn", lambda c: c.update(cost=1), "You pay 11 Gold", "[BR p.19]"),
    ("domains", "foxgrove", lambda c: c["ongoing"][0]["change_die"].update(pay={"gold": 3}),
     "to a 6 if you pay 2 Gold", "[BR p.18]"),
]


@pytest.mark.parametrize("ruleset", [R, CS], ids=["base", "crimson-seas"])
@pytest.mark.parametrize("kind, card_id, change, words, section", CHANGED, ids=[f"{c[1]}-{i}" for i, c in enumerate(CHANGED)])
def test_a_printed_card_given_other_numbers_or_powers_is_refused_naming_the_page(ruleset, kind, card_id, change,
                                                                                  words, section):
    content = copy.deepcopy(ruleset.default_content)
    change(card(content, kind, card_id))
    (problem,) = [p for p in refused(ruleset, content)
                  if p.startswith(f"content.{kind}[{index(content, kind, card_id)}]: ")]
    assert words in problem and problem.endswith(f"{section} (VA-36)"), problem


def test_other_citizens_may_take_from_players_and_a_renamed_thief_is_the_tables_own():
    """[BR p.7] 'The only Citizen that takes from another player is the Thief' speaks of the base
    game's cards: Crimson Seas prints the Vitki, which takes Magic, and expansion cards 'can be
    freely integrated' (a review refused the Vitki beside the Thief). A card's take is not checked
    unless its name is a printed card's."""
    content = copy.deepcopy(CS.default_content)
    card(content, "citizens", "merchant").update(name="Vitki", on_turn={"take_from": {"resources": ["magic"], "max": 1}})
    assert CS.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)
    content = copy.deepcopy(R.default_content)
    card(content, "citizens", "thief")["name"] = "Ladrón"
    assert R.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)


MORE_OR_OTHER = [   # spellings that do more than, or other than, what is printed (a review's cases)
    ("citizens", "thief", lambda c: c.update(on_turn={"all": [{"take_from": {"resources": ["gold"], "max": 3}},
                                                              {"take_from": {"resources": ["magic"], "max": 3}}]})),
    ("citizens", "thief", lambda c: c.update(off_turn={"take_from": {"resources": ["strength"], "max": 6}})),
    ("citizens", "thief", lambda c: c.update(activation=[8])),
    ("citizens", "peasant", lambda c: c.update(off_turn={"choose": [{"gain": {"gold": 1}}, {"gain": {"magic": 4}}]})),
    ("citizens", "monk", lambda c: c.update(off_turn={"choose": [c["off_turn"], {"gain": {"vp": 5}}]})),
    ("citizens", "miner", lambda c: c.update(activation=[10])),
    ("monsters", "wraith", lambda c: c.update(reward={"all": [c["reward"], c["reward"]]})),
    ("monsters", "bane_spider", lambda c: c.update(reward={"all": [{"gain": {"gold": 3}},
                                                                   {"take_card": {"kind": "citizen", "name": "Knight"}}]})),
    ("monsters", "treant", lambda c: c.update(strength=4)),
    ("monsters", "gelatinous_cube", lambda c: c.update(magic=2)),
    ("domains", "palace_of_the_dawn", lambda c: c["ongoing"][0].update(when="always")),
]


@pytest.mark.parametrize("kind, card_id, change", MORE_OR_OTHER, ids=[f"{c[1]}-{i}" for i, c in enumerate(MORE_OR_OTHER)])
def test_a_printed_power_that_does_more_or_other_is_refused(kind, card_id, change):
    content = copy.deepcopy(R.default_content)
    change(card(content, kind, card_id))
    assert [p for p in refused(R, content) if p.startswith(f"content.{kind}[{index(content, kind, card_id)}]: ")
            and p.endswith("(VA-36)")]


SAME_THING = [   # the printed card, written otherwise
    ("domains", "palace_of_the_dawn", lambda c: c["roles"].update(holy=0, shadow=0)),
    ("domains", "foxgrove", lambda c: c["ongoing"][0]["change_die"]["pay"].update(magic=0)),
    ("monsters", "bane_spider", lambda c: c["reward"]["choose"].reverse()),
    ("monsters", "wraith", lambda c: c.update(reward={"may": c["reward"]})),
    ("citizens", "peasant", lambda c: c.update(roles=["worker"], off_turn={"all": [{"gain": {"gold": 1, "magic": 0}}]})),
]


@pytest.mark.parametrize("kind, card_id, change", SAME_THING, ids=[f"{c[1]}-{i}" for i, c in enumerate(SAME_THING)])
def test_the_printed_card_written_otherwise_is_accepted(kind, card_id, change):
    content = copy.deepcopy(R.default_content)
    change(card(content, kind, card_id))
    assert R.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)


def test_the_bane_spiders_knight_may_be_spelled_in_any_case():
    content = copy.deepcopy(R.default_content)
    card(content, "monsters", "bane_spider")["reward"]["choose"][1]["take_card"]["name"] = "KNIGHT"
    assert not [p for p in _problems(content) if "VA-36" in p]


def _problems(content):
    try:
        R.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)
    except InvalidCreation as e:
        return e.problems
    return []


@pytest.mark.parametrize("on_turn", [
    {"take_from": {"resources": ["magic", "gold"], "max": 3}},
    {"may": TAKE},
    {"choose": [{"take_from": {"resources": ["gold"], "max": 3}}, {"take_from": {"resources": ["magic"], "max": 3}}]},
])
def test_the_printed_thief_spelled_another_way_is_still_the_printed_thief(on_turn):
    content = copy.deepcopy(R.default_content)
    card(content, "citizens", "thief")["on_turn"] = on_turn
    card(content, "citizens", "thief")["name"] = "The  THIEF"   # case, spacing and 'The' aside
    assert R.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)


def test_a_card_renamed_is_the_tables_own():
    content = copy.deepcopy(R.default_content)
    card(content, "domains", "palace_of_the_dawn").update(
        name="Palace of the Dusk", ongoing=[{"when": "roll", "change_die": {"by": [1]}}])
    assert R.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)
    card(content, "domains", "palace_of_the_dawn")["name"] = "the PALACE of the Dawn"
    assert [p for p in refused(R, content) if "VA-36" in p]
