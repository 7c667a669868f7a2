"""The game in an export as it stood at any version, for the arbiter or one seat.

Replay folds the recorded events with the rules' evolve (which never checks and never
rolls): it shows what the log says happened. `parley verify` says whether the rules agree.
"""
from __future__ import annotations

from disputes.verify import Unverifiable, _entries, ruleset_for
from domain.ruleset import ARBITER


def replay(export: dict, at: int | None = None, seat: int | None = None,
           rulesets: dict | None = None) -> dict:
    """The state after stored record `at` (default: the last), as `seat` (default: the arbiter) sees it."""
    creation, setup, events, _ = _entries(export)
    ruleset = ruleset_for(creation, rulesets)
    entries = setup + events
    last = entries[-1].version if entries else 1
    if any(e.redacted for e in entries):
        raise Unverifiable("this export is redacted for a seat: replay needs the complete export")
    at = last if at is None else at
    if not 1 <= at <= last:
        raise Unverifiable(f"this export has versions 1 to {last}; there is no version {at}")
    seats = len(creation["seats"])
    if seat is not None and not 0 <= seat < seats:
        raise Unverifiable(f"this game has seats 0 to {seats - 1}")
    state = ruleset.initial_state()
    acted = None
    for e in entries:
        if e.version > at:
            break
        state = ruleset.evolve(state, e.event)
        if e.command is not None:
            acted = {"version": e.version, **e.command}
    status = ruleset.status(state)
    return {
        "version": at,
        "status": "finished" if status.finished else "active",
        "phase": status.phase,
        "to_move": list(status.to_move),
        "last_command": acted,
        "viewer": ARBITER if seat is None else seat,
        "state": ruleset.view(state, ARBITER if seat is None else seat),
        "result": status.result if status.finished else None,
    }
