"""VA-36: a custom content card named as a card the base rulebook prints numbers or a power for
must have them; no Citizen but the Thief takes from a player (outside review of custom contents,
2026-12-05: every one of these was accepted)."""
from __future__ import annotations

import copy

import pytest

from domain.chance import ServerChance
from domain.ruleset import InvalidCreation
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R

SEED = "ab" * 32


def card(content, kind, card_id):
    return next(c for c in content[kind] if c["id"] == card_id)


CHANGED = [
    ("citizens", "thief", lambda c: c["on_turn"]["take_from"].update(max=4), "up to 3 Gold or 3 Magic", "[BR p.19]"),
    ("citizens", "thief", lambda c: c["on_turn"]["take_from"].update(resources=["gold", "magic", "strength"]),
     "You may not mix Resources", "[BR p.19]"),
    ("citizens", "monk", lambda c: c.update(activation=[2]), "a Monk (activation number 1)", "[BR p.8]"),
    ("citizens", "peasant", lambda c: c.update(cost=3), "The cost to recruit a Peasant is 2+", "[BR p.9]"),
    ("citizens", "archer", lambda c: c.update(activation=[3]), "Archers (activation number 4)", "[BR p.7]"),
    ("monsters", "wraith", lambda c: c["reward"]["take_card"].update(max_cost=3), "less than 2 Gold", "[BR p.19]"),
    ("monsters", "bane_spider", lambda c: c.update(reward={"gain": {"gold": 3}}), "take a Knight", "[BR p.18]"),
    ("domains", "palace_of_the_dawn", lambda c: c["ongoing"][0]["change_die"].update(by=[1]),
     "reduce the value of a die by one", "[BR p.19]"),
    ("domains", "foxgrove", lambda c: c["ongoing"][0]["change_die"].update(pay={"gold": 3}),
     "to a 6 if you pay 2 Gold", "[BR p.18]"),
    ("citizens", "merchant", lambda c: c.update(on_turn={"take_from": {"resources": ["gold"], "max": 1}}),
     "The only Citizen that takes from another player is the Thief.", "[BR p.7]"),
]


@pytest.mark.parametrize("ruleset", [R, CS], ids=["base", "crimson-seas"])
@pytest.mark.parametrize("kind, card_id, change, words, section", CHANGED, ids=[f"{c[1]}-{i}" for i, c in enumerate(CHANGED)])
def test_a_printed_card_given_other_numbers_or_powers_is_refused_naming_the_page(ruleset, kind, card_id, change,
                                                                                  words, section):
    content = copy.deepcopy(ruleset.default_content)
    change(card(content, kind, card_id))
    with pytest.raises(InvalidCreation) as refused:
        ruleset.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)
    (problem,) = [p for p in refused.value.problems if p.startswith(f"content.{kind}[{card_id}]: ")]
    assert words in problem and problem.endswith(f"{section} (VA-36)"), problem


def test_the_same_card_spelled_otherwise_or_renamed_is_the_tables_own():
    """The Thief's resources in either order are the printed power; a card under another name is
    card data the rulebook does not print (VA-36)."""
    content = copy.deepcopy(R.default_content)
    card(content, "citizens", "thief")["on_turn"]["take_from"]["resources"] = ["magic", "gold"]
    renamed = card(content, "domains", "palace_of_the_dawn")
    renamed.update(name="Palace of the Dusk", ongoing=[{"when": "roll", "change_die": {"by": [1]}}])
    assert R.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)
    card(content, "domains", "palace_of_the_dawn")["name"] = "the PALACE of the Dawn"
    with pytest.raises(InvalidCreation):
        R.setup(["Anne", "Ben"], None, content, ServerChance(SEED, 0), None)
