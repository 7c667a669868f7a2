"""docs/views.md documents every key of every ruleset's `state` and every `phase` value a game
answers: random games of each ruleset, read by every kind of reader at every step, show no key
or phase the page leaves out."""
from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path

import pytest

from domain.chance import ServerChance
from domain.registry import all_rulesets
from domain.ruleset import ARBITER

ROOT = Path(__file__).resolve().parent.parent
RULESETS = all_rulesets()
# (players, options) of the games played for each ruleset
GAMES = {"corsairs-of-valeria": [(3, None)], "league-of-pirates": [(2, None)],
         "tesoros-del-rey-pirata": [(3, None)], "crimson-seas": [(3, None)], "chrono-corsairs": [(3, None)],
         "valeria-card-kingdoms": [(3, None), (1, {"variant": "solo"})]}
STEPS = 400


def documented(ruleset_id: str) -> tuple[set[str], set[str]]:
    """The keys of the ruleset's State table and the values of its Phases table."""
    text = (ROOT / "docs" / "views.md").read_text()
    parts = re.split(r"^## ", text, flags=re.M)
    section = next(p for p in parts if p.split("\n", 1)[0].strip() == ruleset_id)

    def first_cells(heading: str) -> set[str]:
        table = section.split(f"### {heading}", 1)[1].split("\n### ", 1)[0]
        return {m for line in table.splitlines() if line.startswith("| `")
                for m in re.findall(r"`([^`]+)`", line.split("|")[1])}
    return first_cells("State"), first_cells("Phases")


def seen(ruleset_id: str) -> tuple[set[str], set[str]]:
    ruleset = RULESETS[ruleset_id]
    keys: set[str] = set()
    phases: set[str] = set()
    for game, (players, options) in enumerate(GAMES[ruleset_id]):
        rng = random.Random(f"views-{ruleset_id}-{game}")
        chance = ServerChance(hashlib.sha256(f"views-{game}".encode()).hexdigest(), 0)
        state = ruleset.initial_state()
        for event in ruleset.setup([f"P{i}" for i in range(players)], options, None, chance, None):
            state = ruleset.evolve(state, event)
        for _ in range(STEPS):
            status = ruleset.status(state)
            phases.add(str(status.phase))
            for viewer in [*range(players), None, ARBITER]:
                keys |= set(ruleset.view(state, viewer))
            if status.finished:
                break
            movers = [seat for seat in range(players) if ruleset.legal_commands(state, seat)]
            if not movers:
                break
            seat = rng.choice(movers)
            for event in ruleset.decide(state, seat, rng.choice(ruleset.legal_commands(state, seat)), chance):
                state = ruleset.evolve(state, event)
    return keys, phases


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
def test_every_state_key_and_phase_a_game_answers_is_documented(ruleset_id):
    keys, phases = documented(ruleset_id)
    shown_keys, shown_phases = seen(ruleset_id)
    assert shown_keys - keys == set(), f"{ruleset_id}: state keys docs/views.md does not list"
    assert shown_phases - phases == set(), f"{ruleset_id}: phases docs/views.md does not list"


def test_the_page_is_parsed_as_written():
    keys, phases = documented("corsairs-of-valeria")
    assert {"track", "turn", "players"} <= keys and {"A", "B", "C"} <= phases
