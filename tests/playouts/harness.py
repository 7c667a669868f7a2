"""Random playouts for any ruleset: random legal commands from every seat whose decision it
is, invariants after every event, legal_commands checked against decide()."""
from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable

from domain.chance import ServerChance
from domain.ruleset import Rejected


def seed_for(n: int) -> str:
    return hashlib.sha256(b"playout-%d" % n).hexdigest()


def normalise(ruleset, cmd: dict) -> str:
    """A command with its schema defaults filled in and index lists sorted."""
    schema = ruleset.command_schemas.get(cmd.get("type"), {"properties": {}})
    full = {k: v["default"] for k, v in schema["properties"].items() if "default" in v}
    full.update(cmd)
    for key in ("dice", "keep") + (("cards",) if cmd.get("type") == "keep_cards" else ()):
        if isinstance(full.get(key), list):   # lists whose order is no part of the move (docs/api.md section 4)
            full[key] = sorted(full[key], key=repr)
    return json.dumps(full, sort_keys=True)


# How Python, not JSON, writes a value: ['a', 'b'], {'a': 1}, True, False, None. A client that
# copies a value out of a refusal must be able to send it back.
PYTHON_SPELLING = re.compile(r"[\[{]\s*'|\b(True|False|None)\s*[\]),}]|[\[(,:]\s*(True|False|None)\b"
                             r"|\bnot (True|False|None)\b")


def in_players_words(detail: str) -> bool:
    """A refusal's text with no value spelled the way Python, not JSON, writes it."""
    return PYTHON_SPELLING.search(detail) is None


def check_agreement(ruleset, state, seat: int, legal: list[dict], candidates: list[dict]) -> None:
    """Every listed command is accepted; every accepted candidate is listed; every refusal
    is in a player's words (no value spelled as Python writes it)."""
    listed = {normalise(ruleset, c) for c in legal}
    for c in legal:
        ruleset.decide(state, seat, c, ServerChance(seed_for(0), 1))
    for c in candidates:
        try:
            ruleset.decide(state, seat, c, ServerChance(seed_for(0), 1))
        except Rejected as r:
            assert r.code and r.rule and r.detail
            assert in_players_words(r.detail), (r.code, r.detail)
            continue
        assert normalise(ruleset, c) in listed, (c, legal)


def play(ruleset, game_no: int, players: list[str], options: dict | None, *, policy: Callable | None = None,
         candidates: Callable | None = None, agreement: float = 0.0, max_commands: int = 20000,
         after_event: Callable | None = None, at_rest: Callable | None = None,
         before_command: Callable | None = None, to_the_end: bool = True):
    """Play one game to its end (or, with to_the_end False, for at most max_commands commands);
    returns (state, events). before_command() runs before each decide()."""
    rng = random.Random(game_no)
    seed = seed_for(game_no)
    events = ruleset.setup(players, options, None, ServerChance(seed, 0), None)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    for _ in range(max_commands):
        status = ruleset.status(state)
        if status.finished:
            return state, events
        assert status.to_move, "somebody always has a decision to make"
        for other in range(len(players)):
            if other not in status.to_move:
                assert ruleset.legal_commands(state, other) == []
        seat = rng.choice(status.to_move)
        legal = ruleset.legal_commands(state, seat)
        assert legal, "the seat to move always has a legal command"
        if candidates and rng.random() < agreement:
            check_agreement(ruleset, state, seat, legal, candidates(rng, state))
        cmd = policy(rng, legal) if policy else rng.choice(legal)
        if before_command:
            before_command()
        new = ruleset.decide(state, seat, cmd, ServerChance(seed, len(events)))
        assert new, cmd
        for e in new:
            state = ruleset.evolve(state, e)
            if after_event:
                after_event(state, e)
        if at_rest:
            at_rest(state)
        events.extend(new)
    if not to_the_end:
        return state, events
    raise AssertionError(f"game {game_no} did not end within {max_commands} commands")


def check_replay(ruleset, state, events) -> None:
    """Replaying the log from scratch, and a snapshot round trip, give the identical state."""
    replayed = ruleset.initial_state()
    for e in json.loads(json.dumps(events)):
        replayed = ruleset.evolve(replayed, e)
    assert ruleset.dump_state(replayed) == ruleset.dump_state(state)
    restored = ruleset.load_state(json.loads(json.dumps(ruleset.dump_state(state))))
    assert ruleset.dump_state(restored) == ruleset.dump_state(state)
