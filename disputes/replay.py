"""The game in an export as it stood at any version, for the arbiter or one seat.

Replay folds the recorded events with the rules' evolve (which never checks and never
rolls): it shows what the log says happened. `parley verify` says whether the rules agree.
It refuses (Unverifiable) what it cannot show: a malformed export, a log whose versions do not
run 1, 2, 3, ..., a command by a seat the game does not have, or a record the rules cannot
apply or show; the refusal names the record.
"""
from __future__ import annotations

import json

from disputes.verify import Unverifiable, _entries, ruleset_for
from domain import kit
from domain.ruleset import ARBITER


def replay(export: dict, at: int | None = None, seat: int | None = None,
           rulesets: dict | None = None) -> dict:
    """The state after stored record `at` (default: the last), as `seat` (default: the arbiter) sees it."""
    creation, setup, events, _ = _entries(export)
    ruleset = ruleset_for(creation, rulesets)
    entries = setup + events
    _in_sequence(creation, entries)
    last = entries[-1].version if entries else 1
    at = last if at is None else at
    if not 1 <= at <= last:
        raise Unverifiable(f"this export has versions 1 to {last}; there is no version {at}")
    shown = entries[:at - 1]
    # Only the records up to `at` are folded: a game before its first redacted record replays
    # from a seat's export, as the state before a record the rules cannot apply does.
    hidden = next((e for e in shown if e.redacted), None)
    if hidden is not None:
        who = export.get("exported_for")
        told = ("the spectator" if who == "spectator" else f"seat {who}" if isinstance(who, int) else "a seat")
        raise Unverifiable(f"{_record(hidden)} is redacted, as this export was made for {told}: replay needs a "
                           "complete export (the host's token exports one, and anyone's once the game is "
                           f"finished), or a version before {hidden.version}; a redacted game at a past "
                           "version is GET /games/{id}?version=N")
    seats = len(creation["seats"])
    if seat is not None and not 0 <= seat < seats:
        raise Unverifiable(f"this game has seats 0 to {seats - 1}")
    for e in entries:
        if e.command is not None and not e.command["seat"] < seats:
            raise Unverifiable(f"the command at version {e.version} is by seat {e.command['seat']}; "
                               f"this game has seats 0 to {seats - 1}")
    state = ruleset.initial_state()
    for e in shown:
        try:
            state = ruleset.evolve(state, e.event)
        except Exception as error:  # evolve never checks: a record it cannot read breaks it
            raise Unverifiable(f"{_record(e)} cannot be applied: {_why(error)}") from None
    viewer = ARBITER if seat is None else seat
    acted = next(({"version": e.version, **e.command} for e in reversed(shown) if e.command is not None), None)
    if acted is not None:   # as that seat read it in /events: a draw reported by the host stays hidden (TM-3)
        try:
            acted["body"] = ruleset.redact_command(acted["body"], acted["seat"], viewer)
        except Exception as error:  # a body the rules cannot read breaks it, as evolve's records do
            raise Unverifiable(f"the command at version {acted['version']} cannot be shown: {_why(error)}") from None
    try:
        return _shown(ruleset, state, at, acted, viewer, [x["name"] for x in creation["seats"]])
    except Exception:
        pass
    # The records applied, but the state they leave cannot be shown: find the record after
    # which it no longer can (only on this path: showing every version costs a view each).
    state = ruleset.initial_state()
    for e in shown:
        state = ruleset.evolve(state, e.event)
        try:
            _shown(ruleset, state, e.version, None, viewer, [x["name"] for x in creation["seats"]])
        except Exception as error:
            raise Unverifiable(f"{_record(e)} cannot be applied: it leaves a game the rules cannot "
                               f"show ({_why(error)})") from None
    raise Unverifiable(f"the game at version {at} cannot be shown")  # pragma: no cover


def _shown(ruleset, state, at: int, acted: dict | None, viewer, names: list[str]) -> dict:
    status = ruleset.status(state)
    shown = {
        "version": at,
        "status": "finished" if status.finished else "active",
        "phase": status.phase,
        "to_move": list(status.to_move),
        "last_command": acted,
        "viewer": viewer,
        "state": ruleset.view(state, viewer),
        "result": kit.named(status.result, names) if status.finished else None,
    }
    # What a response can carry: JSON (no NaN), seats as numbers, the state and result objects.
    shown = json.loads(json.dumps(shown, allow_nan=False))
    if not (isinstance(shown["phase"], str) and all(type(s) is int for s in shown["to_move"])
            and isinstance(shown["state"], dict) and isinstance(shown["result"], (dict, type(None)))):
        raise ValueError("the rules' status or view is not shaped as a replay")
    return shown


def _in_sequence(creation: dict, entries) -> None:
    if creation["version"] != 1:
        raise Unverifiable(f"the creation record must be version 1, not {creation['version']}")
    for position, e in enumerate(entries, start=2):
        if e.version != position:
            raise Unverifiable(f"version {position - 1} is followed by version {e.version}, not {position}: "
                               "a record is missing, repeated or out of place (verify the export to see where)")


def _record(e) -> str:
    return f"the event at version {e.version} ({e.event['type']})"


def _why(error: Exception) -> str:
    """Why the rules could not read a record, in words (no exception names, no internals)."""
    if isinstance(error, KeyError) and error.args and isinstance(error.args[0], (str, int)) \
            and len(str(error.args[0])) <= 40:
        return f"the rules read {error.args[0]!r} and it is not there"
    if isinstance(error, RecursionError):
        return "it nests too deeply"
    return "a field the rules read is missing or holds the wrong kind of value"
