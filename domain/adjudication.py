"""Whether a command is admitted, and what it produces: the one home of both, for every game.

The service (service/commands.py) and the offline verifier (disputes/verify.py) call these in
this order, so a log the service wrote is re-adjudicated with the same checks and words:

    check_seat(seat, seats)                          NO_SUCH_SEAT
    admit(ruleset, command)                          UNKNOWN_COMMAND, INVALID_COMMAND (InvalidCommand)
    (the service's version checks come here: 409, 412; they are not the rules')
    adjudicate(ruleset, state, seat, command, chance) GAME_FINISHED, then the ruleset's decide
    or dry_run(...) for a command that is not to be stored

Every refusal is a Rejected (domain/ruleset.py) citing SERVICE_RULE, with words that name
nothing a seat may not see. A game's own checks (its turn, its phase) stay in its decide.
Pure: no I/O, no clock, no randomness (a dry run's fresh seed is the caller's).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema

from .dry_run import imagined
from .kit import Section, error_message, fitting, spelled
from .kit.schema_check import compile_check
from .ruleset import Event, Rejected

SERVICE_RULE = Section("Parley: commands")


def json_safe(value: Any) -> Any:
    """What a value becomes after a trip through the event store (tuples -> lists, ...).

    The service stores events, commands and creation records in this form and applies them
    in it on the live path too, so a game evolved in memory and the same game replayed from
    storage are identical; the verifier compares the rules' events in it.

    The same as json.loads(json.dumps(value)), built without writing the text: plain dicts,
    lists, tuples, strings, integers, floats, booleans and None are copied here (a dict's keys
    as JSON writes them), anything else (a subclass, a type JSON refuses) takes the trip."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    if kind is dict:
        copied = {}
        for key, item in value.items():
            copied[key if type(key) is str else _key(key)] = json_safe(item)
        return copied
    if kind is list or kind is tuple:
        return [json_safe(item) for item in value]
    return json.loads(json.dumps(value))


def _key(key: Any) -> str:
    """A dict key as json.dumps writes it (it refuses what JSON cannot take as a key)."""
    return json.loads(json.dumps({key: None})).popitem()[0]


class InvalidCommand(Rejected):
    """The command's body breaks its JSON Schema: `problems` says how, one line each."""

    def __init__(self, problems: list[str]):
        super().__init__("INVALID_COMMAND", SERVICE_RULE, "The command does not match its schema: see 'problems'.")
        self.problems = list(problems)


# Validators built once per schema: {id(schema): (schema, its validator, its compiled check)}.
# Every command is checked against its type's schema, a constant of its ruleset, so this holds
# one validator per command type served (building one per command cost about a tenth of
# admitting it). The schema is kept beside its validator, so an id that Python reuses for
# another dict never matches it. A validator reads its schema as it validates; the compiled
# check does not, so a schema is not to be changed once used (none is: they are constants).
_VALIDATORS: dict[int, tuple[dict, Any, Any]] = {}
MAX_VALIDATORS = 1024  # far above the command types served; emptied if ever reached


def _kept(schema: dict) -> tuple[dict, Any, Any]:
    kept = _VALIDATORS.get(id(schema))
    if kept is not None and kept[0] is schema:
        return kept
    kept = (schema, jsonschema.Draft202012Validator(schema), compile_check(schema))
    if len(_VALIDATORS) >= MAX_VALIDATORS:
        _VALIDATORS.clear()
    _VALIDATORS[id(schema)] = kept
    return kept


def validator_for(schema: dict):
    """The Draft 2020-12 validator of `schema`, built on its first use."""
    return _kept(schema)[1]


def schema_problems(schema: dict, instance, where: str) -> list[str]:
    """Every way `instance` breaks a JSON Schema, as short sentences ('where/path: message').

    A valid instance is told apart by the schema's compiled check (domain/kit/schema_check.py)
    where it has one: jsonschema's validator, about ten times slower, lists the problems."""
    _, validator, check = _kept(schema)
    if check is not None and check(instance):
        return []
    problems = []
    for error in sorted(map(fitting, validator.iter_errors(instance)), key=lambda e: list(map(str, e.absolute_path))):
        path = "/".join(str(p) for p in error.absolute_path)
        problems.append(f"{where}{'/' + path if path else ''}: {error_message(error)}")
    return problems


def check_seat(seat: int, seats: int) -> None:
    """The seat acted for is one of the game's `seats` seats."""
    if not 0 <= seat < seats:
        raise Rejected("NO_SUCH_SEAT", SERVICE_RULE, f"This game has seats 0 to {seats - 1}.")


def admit(ruleset, command: dict) -> None:
    """The command is one of the game's, and its body matches that command's schema.

    Neither depends on the game's state. Raises Rejected (UNKNOWN_COMMAND, listing the game's
    commands) or InvalidCommand (every schema problem)."""
    kind = command.get("type")
    schema = ruleset.command_schemas.get(kind)
    if schema is None:
        raise Rejected("UNKNOWN_COMMAND", SERVICE_RULE,
                       f"{ruleset.name} has no command {spelled(kind)}; its commands are "
                       f"{', '.join(sorted(ruleset.command_schemas))}.")
    problems = schema_problems(schema, command, "command")
    if problems:
        raise InvalidCommand(problems)


def _check_open(ruleset, state) -> None:
    if ruleset.status(state).finished:
        raise Rejected("GAME_FINISHED", SERVICE_RULE, "This game is finished: no more commands are accepted.")


def adjudicate(ruleset, state, seat: int, command: dict, chance) -> list[Event]:
    """The events an admitted command produces (in their stored, JSON form), or Rejected: the
    game is finished, or the ruleset's decide refuses it. `state` is not changed."""
    _check_open(ruleset, state)
    return json_safe(ruleset.decide(state, seat, command, chance))


def dry_run(ruleset, state, seat: int, command: dict, chance, *, viewer, fresh_seed: Callable[[], str],
            position: int) -> tuple[Any, list[Event]]:
    """(the state decided on, the events) for a command that will not be stored, decided on
    the game as `viewer` (the seat, or ARBITER for the host) may imagine it: domain/dry_run.py.
    fresh_seed: the caller's fresh randomness for this dry run alone (64 hex digits), drawn
    once the game is found open; position: the game's version. Refused as adjudicate()
    refuses, a finished game before anything is imagined."""
    _check_open(ruleset, state)
    state, chance = imagined(ruleset, state, viewer, chance, seed=fresh_seed(), position=position)
    return state, json_safe(ruleset.decide(state, seat, command, chance))


__all__ = ["SERVICE_RULE", "InvalidCommand", "adjudicate", "admit", "check_seat", "dry_run",
           "json_safe", "schema_problems", "validator_for"]
