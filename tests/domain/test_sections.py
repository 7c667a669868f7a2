"""Every refusal cites its rulebook section as a kit.Section (issue 14: one citation type).

Random games of every ruleset are probed, at every step and from every seat, with each command
some seat may send, the same with each field dropped or garbled, and a command no game has:
each refusal's `rule` must be a Section. Refusals raised in a game's setup.py or effects.py
are left out while those modules are converted apart (issue 14, another branch)."""
from __future__ import annotations

import ast
import hashlib
import importlib
import json
import random
from pathlib import Path

import pytest

from domain.chance import ServerChance
from domain.kit import Section
from domain.registry import all_rulesets
from domain.ruleset import Rejected

RULESETS = all_rulesets()
NOT_YET = ("setup.py", "effects.py")


def _raised_in(error: BaseException) -> str:
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return Path(tb.tb_frame.f_code.co_filename).name


def _variants(command: dict):
    yield command
    for k in command:
        if k != "type":
            yield {x: v for x, v in command.items() if x != k}
            yield {**command, k: "bogus"}


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_refusal_cites_a_section(rid):
    ruleset = RULESETS[rid]
    n = min(max(3, ruleset.min_players), ruleset.max_players)
    rng, seed = random.Random(7), hashlib.sha256(b"sections-" + rid.encode()).hexdigest()
    events = ruleset.setup([f"P{i}" for i in range(n)], None, None, ServerChance(seed, 0), None)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    codes: set[str] = set()
    for _ in range(60):
        probes = [{"type": "no_such_command"}]
        for seat in range(n):
            probes += [v for c in ruleset.legal_commands(state, seat) for v in _variants(c)]
        for seat in [*range(n), n]:
            for probe in probes[:80]:
                try:
                    ruleset.decide(state, seat, probe, ServerChance(seed, len(events)))
                except Rejected as r:
                    if _raised_in(r) not in NOT_YET:
                        assert isinstance(r.rule, Section), (r.code, r.rule, _raised_in(r))
                        codes.add(r.code)
        status = ruleset.status(state)
        if status.finished:
            break
        seat = rng.choice(status.to_move)
        new = json.loads(json.dumps(ruleset.decide(state, seat, rng.choice(ruleset.legal_commands(state, seat)),
                                                   ServerChance(seed, len(events)))))
        for e in new:
            state = ruleset.evolve(state, e)
        events += new
    assert {"UNKNOWN_COMMAND", "NO_SUCH_SEAT"} <= codes and len(codes) > 4


MODULES = sorted(str(p.relative_to(Path(__file__).parents[2])) for p in Path(__file__).parents[2].glob("domain/**/*.py")
                 if p.name not in NOT_YET)


@pytest.mark.parametrize("path", MODULES)
def test_every_section_a_module_cites_is_a_section(path):
    """The static half: each module-level name given as the rule of a Rejected(...) is a Section."""
    module = importlib.import_module(path[:-3].replace("/", ".").removesuffix(".__init__"))
    tree = ast.parse(Path(module.__file__).read_text())
    cited = {call.args[1].id for call in ast.walk(tree)
             if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Rejected" and len(call.args) > 1
             and isinstance(call.args[1], ast.Name) and hasattr(module, call.args[1].id)}
    assert all(isinstance(getattr(module, name), Section) for name in cited), sorted(cited)
