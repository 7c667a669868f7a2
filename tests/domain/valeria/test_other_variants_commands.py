"""A command of the expansion or of the Solo Variant, sent to a game that does not play it, is
refused as not in this game (NOT_IN_THIS_GAME), not as "not now": no moment will ever open it."""
from __future__ import annotations

import pytest

from domain.chance import ServerChance
from domain.registry import all_rulesets
from domain.ruleset import Rejected

RULESETS = all_rulesets()


def _started(rid: str, players: int, options: dict | None):
    ruleset = RULESETS[rid]
    s = ruleset.initial_state()
    for e in ruleset.setup([f"P{i}" for i in range(players)], options, None, ServerChance("00" * 32, 0), None):
        s = ruleset.evolve(s, e)
    return ruleset, s


def _refusal(ruleset, s, command):
    seat = ruleset.status(s).to_move[0]
    with pytest.raises(Rejected) as refused:
        ruleset.decide(s, seat, command, ServerChance("00" * 32, 1))
    gated = None
    try:
        ruleset.gate(s, seat, command)
    except Rejected as r:
        gated = r
    assert gated is not None and (gated.code, gated.detail) == (refused.value.code, refused.value.detail)
    return refused.value


@pytest.mark.parametrize("command, words", [({"type": "sail", "island": "araby"}, "no one may sail"),
                                            ({"type": "gain_map"}, "no one may gain a Map")])
def test_the_expansion_s_actions_are_not_in_the_base_game(command, words):
    ruleset, s = _started("valeria-card-kingdoms", 2, None)
    refused = _refusal(ruleset, s, command)
    assert refused.code == "NOT_IN_THIS_GAME" and "without Crimson Seas" in refused.detail and words in refused.detail
    assert str(refused.rule).startswith("CS ")


@pytest.mark.parametrize("rid, players", [("valeria-card-kingdoms", 3), ("crimson-seas", 2)])
def test_monster_stacks_are_activated_only_in_a_solo_game(rid, players):
    ruleset, s = _started(rid, players, None)
    refused = _refusal(ruleset, s, {"type": "activate_monster", "die": 0})
    assert refused.code == "NOT_IN_THIS_GAME" and "Solo Variant" in refused.detail and "now" not in refused.detail
    assert "Monsters Phase" in str(refused.rule)


def test_in_a_solo_game_the_command_waits_for_its_moment():
    ruleset, s = _started("valeria-card-kingdoms", 1, {"variant": "solo"})
    seat = ruleset.status(s).to_move[0]
    with pytest.raises(Rejected) as refused:
        ruleset.decide(s, seat, {"type": "activate_monster", "die": 0}, ServerChance("00" * 32, 1))
    assert refused.value.code == "WRONG_MOMENT"
