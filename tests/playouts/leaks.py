"""Non-interference, for any ruleset: everything a seat can be answered (its view, the log
and commands as redacted for it, its legal commands and table inputs, the refusal or not of
any command it sends, and the whole answer to a dry run of any command) is the same in two
states that differ only in what that seat cannot see.

Each game's leak tests bring the other state (a "twin"): the hidden parts changed by the
test's own code, written from the rulebook and the view's docstring, not by ruleset.redeal
(which the dry run uses, so a twin made by it could not catch what it forgets). A dry run is
compared for the same fresh seed, in both chance modes: decided on the state re-dealt for the
seat (domain/dry_run.py), its answer may depend on that seed but never on the twin.

A spectator (viewer None: a spectator's token, or anyone on a public game) may see only what
every seat may see, so no twin of any seat may be told apart by it either: assert_same_for
checks the spectator's view of every twin it is given.
"""
from __future__ import annotations

import hashlib
import json

from domain.chance import ServerChance, TableChance
from domain.dry_run import imagined
from domain.ruleset import ARBITER, Rejected

SEEDS = [hashlib.sha256(b"dry-run-%d" % i).hexdigest() for i in range(3)]
GAME_SEED = hashlib.sha256(b"the game's own seed").hexdigest()


def _refusal(r: Rejected) -> list:
    return ["rejected", r.code, r.rule, r.detail, r.ruling]


def real_chance(mode: str, position: int):
    """The chance a seat's real command meets: the game's seed, or a table where a seat may
    report dice but not draws (TM-1)."""
    return ServerChance(GAME_SEED, position) if mode == "server" else TableChance("seat")


def dry_run(ruleset, state, seat: int, command: dict, seed: str, mode: str, position: int = 7):
    """The whole answer to a seat's dry run, as the service renders it: the events as the
    seat sees them and its view and status afterwards, or the refusal."""
    imagined_state, chance = imagined(ruleset, state, seat, real_chance(mode, position), seed, position)
    try:
        events = ruleset.decide(imagined_state, seat, command, chance)
    except Rejected as r:
        return _refusal(r)
    after = imagined_state.clone()
    for e in json.loads(json.dumps(events)):
        after = ruleset.evolve(after, e)
    status = ruleset.status(after)
    return {"events": [ruleset.redact(e, seat) for e in json.loads(json.dumps(events))],
            "view": ruleset.view(after, seat),
            "status": [status.finished, status.to_move, status.phase, status.result]}


def refusal(ruleset, state, seat: int, command: dict, mode: str, position: int = 7):
    """Whether a real command would be refused, and the refusal's words (what it would
    produce if accepted is the seat's to learn: it is the command's own outcome)."""
    try:
        ruleset.decide(state, seat, command, real_chance(mode, position))
    except Rejected as r:
        return _refusal(r)
    return "accepted"


def seen_by(ruleset, state, seat: int, probes: list[dict], mode: str, *, seeds=SEEDS,
            redeal=None) -> str:
    """Everything `seat` can be answered at this state, as one JSON text. `redeal` replaces
    the ruleset's (the planted-leak checks pass one that re-deals nothing)."""
    if redeal is not None:
        ruleset = _with_redeal(ruleset, redeal)
    commands = _unique(ruleset.legal_commands(state, seat) + list(probes))
    return json.dumps({
        "view": ruleset.view(state, seat),
        "legal": ruleset.legal_commands(state, seat),
        "table_inputs": ruleset.table_inputs(state, seat),
        "refusals": [refusal(ruleset, state, seat, c, mode) for c in commands],
        "dry_runs": [[dry_run(ruleset, state, seat, c, seed, mode) for c in commands] for seed in seeds],
    }, sort_keys=True)


def assert_same_for(ruleset, state, twin, seat: int, probes: list[dict], mode: str, **kw) -> None:
    one, other = seen_by(ruleset, state, seat, probes, mode, **kw), seen_by(ruleset, twin, seat, probes, mode, **kw)
    if one != other:
        a, b = json.loads(one), json.loads(other)
        where = [k for k in a if a[k] != b[k]]
        raise AssertionError(f"seat {seat} can tell the twin apart through {where}")
    if spectator_sees(ruleset, state) != spectator_sees(ruleset, twin):
        raise AssertionError(f"a spectator can tell seat {seat}'s twin apart through its view")


def spectator_sees(ruleset, state) -> str:
    """Everything a spectator is answered at this state (it sends nothing, and has no legal
    commands or table inputs: the service answers none)."""
    return json.dumps(ruleset.view(state, None), sort_keys=True)


def seats_to_check(state, ruleset) -> list:
    return [s for s in range(len(ruleset.view(state, ARBITER).get("seats") or []))]


def _unique(commands: list[dict]) -> list[dict]:
    seen, out = set(), []
    for c in commands:
        key = json.dumps(c, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


class _with_redeal:
    """The ruleset with another redeal (everything else delegated)."""

    def __init__(self, ruleset, redeal):
        self._ruleset, self.redeal = ruleset, redeal

    def __getattr__(self, name):
        return getattr(self._ruleset, name)


def no_redeal(state, seat, rng):
    """A planted leak: the dry run decided on the real state."""
    return state.clone()


def texts(value, out: set | None = None) -> set:
    """Every string in a JSON value (keys left out): what a response could name."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            texts(v, out)
    elif isinstance(value, list):
        for v in value:
            texts(v, out)
    return out
