"""A state's clone() shares nothing that evolve() changes.

decide() drafts on a clone, and the service's game cache (service/cache.py) hands each
request a clone of the game it keeps: if evolving a clone changed the original, a rejected
command or a dry run would leak into the kept game."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from domain.chance import ServerChance
from domain.registry import all_rulesets

RULESETS = all_rulesets()


def frozen(ruleset, state) -> str:
    return json.dumps(ruleset.dump_state(state), sort_keys=True, default=str)


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_evolving_a_clone_leaves_the_original_as_it_was(rid):
    ruleset = RULESETS[rid]
    players = [f"P{i}" for i in range(min(max(3, ruleset.min_players), ruleset.max_players))]
    rng, seed = random.Random(11), hashlib.sha256(b"clone-" + rid.encode()).hexdigest()
    events = ruleset.setup(players, None, None, ServerChance(seed, 0), None)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    checked = 0
    while not ruleset.status(state).finished and checked < 100:
        seat = ruleset.status(state).to_move[0]
        new = ruleset.decide(state, seat, rng.choice(ruleset.legal_commands(state, seat)),
                             ServerChance(seed, len(events)))
        new = json.loads(json.dumps(new))  # as stored
        before = frozen(ruleset, state)
        clone = state.clone()
        for e in new:
            clone = ruleset.evolve(clone, e)
        assert frozen(ruleset, state) == before, f"evolving a clone changed the original at event {len(events)}"
        state, events, checked = clone, events + new, checked + 1
    assert checked > 20
