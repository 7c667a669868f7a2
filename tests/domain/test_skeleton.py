"""The skeleton every game shares (domain/kit, issue 14): one Ruleset type, one gate.

gate(state, seat, command) is what decide() refuses before it reads a command's body, so
the service may admit a command with it: at every step of random games of every ruleset,
from every seat (and one that does not exist), for each command some seat may send, each
kind of command with nothing but its type, and one no game has, gate() must refuse exactly
as decide() does (code, section, words, ruling), or let through a command decide() then
accepts or refuses for what is in its body."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from domain import chrono, corsairs, league, tesoros, valeria
from domain.chance import ServerChance
from domain.registry import all_rulesets
from domain.ruleset import Rejected, Ruleset
from tests.fakes import hoard

RULESETS = all_rulesets()
GATE_CODES = {"GAME_OVER", "UNKNOWN_COMMAND", "NO_SUCH_SEAT", "WRONG_MOMENT", "NOT_YOUR_DECISION", "THROWS_DONE",
              "NOT_YOUR_TURN", "DECISION_PENDING", "NO_DECISION_PENDING",
              "DIE_VALUE_FINAL",   # Tesoros: a moment's own refusal of one command (TA-16)
              "NOT_IN_THIS_GAME"}  # Valeria: another variant's or the expansion's command


def _answer(call):
    try:
        call()
    except Rejected as r:
        return r.code, str(r.rule), r.detail, r.ruling
    return None


def test_every_ruleset_and_the_fake_are_rulesets():
    for ruleset in [*RULESETS.values(), hoard.RULESET]:
        assert isinstance(ruleset, Ruleset)
        assert all(callable(getattr(ruleset, name)) for name in (
            "setup", "initial_state", "evolve", "decide", "gate", "legal_commands", "table_inputs", "view", "redact",
            "redact_command", "redeal", "status", "dump_state", "load_state"))


@pytest.mark.parametrize("package", [chrono, corsairs, league, tesoros, valeria], ids=lambda p: p.__name__)
def test_each_command_is_allowed_at_some_moment_and_each_allowed_command_exists(package):
    rules = package.rules.RULES
    allowed = set().union(*(m.commands for m in rules.moments.moments.values()))
    assert allowed == set(rules.handlers)
    assert set(rules.moments.command_words) <= set(rules.handlers)


@pytest.mark.parametrize("game_no", [0, 1])
@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_gate_refuses_as_decide_does(rid, game_no):
    ruleset = RULESETS[rid]
    low = max(2, ruleset.min_players)  # one player is a variant with its own options (Valeria's solo: tested apart)
    n = low + game_no % (ruleset.max_players - low + 1)
    rng, seed = random.Random(game_no), hashlib.sha256(f"gate-{rid}-{game_no}".encode()).hexdigest()
    events = ruleset.setup([f"P{i}" for i in range(n)], None, None, ServerChance(seed, 0), None)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    seen: set[str] = set()
    for _ in range(120):
        probes = {json.dumps(c, sort_keys=True): c for seat in range(n) for c in ruleset.legal_commands(state, seat)}
        probes["none"] = {"type": "no_such_command"}
        probes.update((kind, {"type": kind}) for kind in ruleset.command_schemas)   # every kind, bare
        for seat in [*range(n), n]:
            legal = ruleset.legal_commands(state, seat) if seat < n else []
            for command in probes.values():
                gated = _answer(lambda: ruleset.gate(state, seat, command))  # noqa: B023
                decided = _answer(lambda: ruleset.decide(state, seat, command, ServerChance(seed, len(events))))  # noqa: B023
                if gated is not None:
                    assert gated == decided and gated[0] in GATE_CODES, (seat, command)
                    seen.add(gated[0])
                else:
                    assert decided is None or decided[0] not in GATE_CODES, (seat, command, decided)
                if command in legal:
                    assert gated is None and decided is None, (seat, command)
        status = ruleset.status(state)
        if status.finished:
            assert _answer(lambda: ruleset.gate(state, 0, {"type": "no_such_command"}))[0] == "GAME_OVER"  # noqa: B023
            break
        seat = rng.choice(status.to_move)
        new = json.loads(json.dumps(ruleset.decide(state, seat, rng.choice(ruleset.legal_commands(state, seat)),
                                                   ServerChance(seed, len(events)))))
        for e in new:
            state = ruleset.evolve(state, e)
        events += new
    assert {"UNKNOWN_COMMAND", "NO_SUCH_SEAT"} < seen and len(seen) >= 4, seen


def test_a_server_game_is_refused_outcomes_before_the_moment_is_checked():
    """decide() refuses an outcome field sent to a server game before the gate (CHANCE_FROM_SERVER
    first), so a command the gate refuses may still be refused for its chance first."""
    ruleset = RULESETS["valeria-card-kingdoms"]
    seed = "ab" * 32
    state = ruleset.initial_state()
    for e in ruleset.setup(["A", "B"], None, None, ServerChance(seed, 0), None):
        state = ruleset.evolve(state, e)
    command = {"type": "roll_dice", "dice": [1, 2]}
    assert _answer(lambda: ruleset.gate(state, 0, command))[0] == "WRONG_MOMENT"   # the Dukes are being kept
    assert _answer(lambda: ruleset.decide(state, 0, command, ServerChance(seed, 1)))[0] == "CHANCE_FROM_SERVER"
