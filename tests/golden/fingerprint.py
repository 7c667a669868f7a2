"""A fingerprint of what the rules answer, for refactors that must change no behaviour.

For each ruleset and a few seeded games, it plays random legal commands (server chance) and
records, at every step: the events decided, each seat's legal commands and table inputs, the
view of every viewer (each seat, a spectator, the arbiter), the redaction of each new event
and command for every viewer, the state's snapshot form, the status, and what decide()
answers (the events, or the refusal's code, section, words and ruling) when every seat sends
each command that some seat may legally send, and a command type the game does not have. Each game's record is hashed; tests/golden/fingerprints.json
holds the hashes the rules gave when it was written.

Refresh it (only when a change of behaviour is intended, and say so in the commit):
    .venv/bin/python -m tests.golden.fingerprint --write
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from domain.chance import ServerChance
from domain.registry import all_rulesets
from domain.ruleset import ARBITER, Rejected

FILE = Path(__file__).with_name("fingerprints.json")
GAMES = 2
STEPS = 150
PLAYERS = {"corsairs-of-valeria": 3, "league-of-pirates": 2, "tesoros-del-rey-pirata": 3,
           "chrono-corsairs": 3, "valeria-card-kingdoms": 3, "crimson-seas": 3}


def _line(out, *parts) -> None:
    out.update(json.dumps(parts, sort_keys=True, default=str).encode())
    out.update(b"\n")


def _answer(ruleset, state, seat, command, chance) -> tuple:
    try:
        events = ruleset.decide(state, seat, command, chance)
    except Rejected as r:
        return ("rejected", r.code, str(r.rule), r.detail, r.ruling)
    return ("accepted", events)


def fingerprint(ruleset, game_no: int, n_players: int) -> str:
    rng = random.Random(f"{ruleset.id}-{game_no}")
    seed = hashlib.sha256(f"golden-{game_no}".encode()).hexdigest()
    out = hashlib.sha256()
    players = [f"P{i}" for i in range(n_players)]
    events = ruleset.setup(players, None, None, ServerChance(seed, 0), None)
    viewers = [*range(n_players), None, ARBITER]
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    _line(out, "setup", events)
    for _ in range(STEPS):
        status = ruleset.status(state)
        _line(out, "status", status.finished, status.to_move, status.phase, status.result)
        _line(out, "snapshot", ruleset.dump_state(state))
        for v in viewers:
            _line(out, "view", v, ruleset.view(state, v))
        probes = {json.dumps(c, sort_keys=True): c for c in [{"type": "no_such_command"}]}
        for seat in range(n_players):
            legal = ruleset.legal_commands(state, seat)
            _line(out, "legal", seat, legal)
            _line(out, "inputs", seat, ruleset.table_inputs(state, seat))
            probes.update((json.dumps(c, sort_keys=True), c) for c in legal)
        for seat in range(n_players):
            for key, probe in sorted(probes.items()):
                _line(out, "probe", seat, key, _answer(ruleset, state, seat, probe, ServerChance(seed, len(events))))
        if status.finished:
            break
        seat = rng.choice(status.to_move)
        command = rng.choice(ruleset.legal_commands(state, seat))
        new = json.loads(json.dumps(ruleset.decide(state, seat, command, ServerChance(seed, len(events)))))
        _line(out, "decided", seat, command, new)
        for e in new:
            state = ruleset.evolve(state, e)
            for v in viewers:
                _line(out, "redacted", v, ruleset.redact(e, v))
        for v in viewers:
            _line(out, "command", v, ruleset.redact_command(command, seat, v))
        events += new
        # A snapshot round trip gives the same state.
        state = ruleset.load_state(json.loads(json.dumps(ruleset.dump_state(state))))
    return out.hexdigest()


def fingerprints() -> dict[str, str]:
    rulesets = all_rulesets()
    return {f"{rid}/{g}": fingerprint(rulesets[rid], g, n) for rid, n in PLAYERS.items() for g in range(GAMES)}


if __name__ == "__main__":
    if "--write" in sys.argv:
        FILE.write_text(json.dumps(fingerprints(), indent=2, sort_keys=True) + "\n")
        print(f"wrote {FILE}")
    else:
        print(json.dumps(fingerprints(), indent=2, sort_keys=True))
