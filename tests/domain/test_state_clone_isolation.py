"""A state's clone() shares nothing that evolve() changes.

decide() drafts on a clone, and the service's game cache (service/cache.py) hands each
request a clone of the game it keeps: if evolving a clone changed the original, a rejected
command or a dry run would leak into the kept game.

Every game's clone() is kit.clone, one generic copy that follows each field's declared type
(domain/kit/snapshot.py). The copy is deep enough only if those types are true, so the test
below does not trust them: at many points of random games of every ruleset it changes every
mutable thing the clone reaches (each list, dict and dataclass, however deep, except the
fields declared shared: the content and the options), and the original's snapshot must not
change. The same points check the snapshot form (kit.dump) against dataclasses.asdict, which
wrote every snapshot stored so far, and that load_state gives the dumped state back."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import random

import pytest

from domain.chance import ServerChance
from domain.registry import all_rulesets

RULESETS = all_rulesets()


def frozen(ruleset, state) -> str:
    return json.dumps(ruleset.dump_state(state), sort_keys=True, default=str)


def _shared(obj) -> set[str]:
    return {f.name for f in dataclasses.fields(obj) if f.metadata.get("kit.shared")}


def mutate_everything(value, seen: set[int]) -> int:
    """Change every list, dict and dataclass reachable from value (not through a shared
    field), innermost first; returns how many were changed."""
    if id(value) in seen or isinstance(value, (str, int, float, bool, type(None))):
        return 0
    seen.add(id(value))
    changed = 1
    if isinstance(value, list):
        for x in value:
            changed += mutate_everything(x, seen)
        value.append("mutated")
        if len(value) > 1:
            value[0] = "mutated"
    elif isinstance(value, dict):
        for x in list(value.values()):
            changed += mutate_everything(x, seen)
        for k in list(value):
            value[k] = "mutated"
        value["mutated"] = True
    elif isinstance(value, tuple):
        for x in value:
            changed += mutate_everything(x, seen)
    elif dataclasses.is_dataclass(value):
        shared = _shared(value)
        for f in dataclasses.fields(value):
            if f.name not in shared:
                changed += mutate_everything(getattr(value, f.name), seen)
                setattr(value, f.name, "mutated")
    else:
        raise AssertionError(f"a state holds a {type(value).__name__}")
    return changed


def points(rid: str, game_no: int, steps: int = 150):
    """(ruleset, state) at every step of a random game (server chance), seeded."""
    ruleset = RULESETS[rid]
    low = max(2, ruleset.min_players)  # one player is a variant with its own options (Valeria's solo: tested apart)
    n = low + game_no % (ruleset.max_players - low + 1)
    rng, seed = random.Random(game_no), hashlib.sha256(f"isolation-{rid}-{game_no}".encode()).hexdigest()
    events = ruleset.setup([f"P{i}" for i in range(n)], None, None, ServerChance(seed, 0), None)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    for _ in range(steps):
        yield state
        status = ruleset.status(state)
        if status.finished:
            return
        seat = rng.choice(status.to_move)
        new = ruleset.decide(state, seat, rng.choice(ruleset.legal_commands(state, seat)), ServerChance(seed, len(events)))
        for e in json.loads(json.dumps(new)):  # as stored
            state = ruleset.evolve(state, e)
        events += new


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


@pytest.mark.parametrize("game_no", [0, 1, 2])
@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_changing_anything_a_clone_reaches_leaves_the_original_as_it_was(rid, game_no):
    ruleset = RULESETS[rid]
    checked = changed = 0
    for state in points(rid, game_no):
        before = frozen(ruleset, state)
        clone = state.clone()
        assert all(getattr(clone, name) is getattr(state, name) for name in _shared(state))
        changed += mutate_everything(clone, set())
        assert frozen(ruleset, state) == before, f"changing a clone changed the original at step {checked}"
        checked += 1
    assert checked > 20 and changed > 10 * checked


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_snapshot_form_is_asdict_and_loads_back(rid):
    ruleset = RULESETS[rid]
    for state in points(rid, 3, steps=120):
        dumped = ruleset.dump_state(state)
        assert json.dumps(dumped) == json.dumps(dataclasses.asdict(state))
        stored = json.loads(json.dumps(dumped))
        again = ruleset.load_state(stored)
        assert json.dumps(ruleset.dump_state(again)) == json.dumps(dumped)
        mutate_everything(again, set())
        assert stored == dumped  # the loaded state keeps none of the snapshot's data
