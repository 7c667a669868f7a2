"""What every game package shares: loading its content, checking it, drafting events.

Extracted once two games needed the same pieces; nothing here knows any game's rules.
"""
from __future__ import annotations

import hashlib
import json
from importlib import resources
from types import SimpleNamespace
from typing import Callable

import jsonschema


class GameOver(Exception):
    """The game ended inside a command; nothing after that event happens."""


class Draft:
    """decide() works on a draft: a clone of the state to which each event is applied as soon
    as it is emitted, so later steps of a command see earlier ones. The real state changes
    only when the service stores the events."""

    def __init__(self, state, chance, evolve: Callable):
        self.s = state.clone()
        self.chance = chance
        self.events: list[dict] = []
        self._evolve = evolve

    def emit(self, type_: str, **data) -> None:
        event = {"type": type_, **data}
        self.events.append(event)
        self._evolve(self.s, event)


def run(draft: Draft, handler: Callable, seat: int, command: dict) -> list[dict]:
    try:
        handler(draft, seat, command)
    except GameOver:
        pass
    return draft.events


def shallow(obj):
    """copy.copy for plain dataclasses, without the generic reduce protocol (much faster)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def load_json(package: str, name: str) -> dict:
    return json.loads(resources.files(package).joinpath("content", name).read_text(encoding="utf-8"))


_CONTENTS: dict[str, dict] = {}


def remember(key: str, content: dict) -> None:
    """Keep content by its fingerprint, so compiled forms of it (boards, card indexes) can be
    cached across state clones and snapshot loads. One store for every game: keys are hashes.
    Nothing is ever evicted: a worker keeps every distinct content it has seen."""
    _CONTENTS.setdefault(key, content)


def content(key: str) -> dict:
    return _CONTENTS[key]


def content_key(content: dict) -> str:
    """A fingerprint of content, so compiled forms of it can be cached across clones."""
    return hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def schema_problems(validator: jsonschema.Validator, data, where: str) -> list[str]:
    """Every way data breaks its JSON Schema, as 'where.path: message' lines."""
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = ".".join(str(p) for p in err.absolute_path)
        out.append(f"{where}{'.' + path if path else ''}: {err.message}")
    return out


def with_defaults(options: dict, schema: dict) -> dict:
    out = dict(options)
    for k, spec in schema["properties"].items():
        out.setdefault(k, spec["default"])
    return out


def ruleset(*, setup, state, rules, legal, view, status, command_schemas, **identity) -> SimpleNamespace:
    """Assemble a game package's modules into the object domain/ruleset.py describes."""
    return SimpleNamespace(
        **identity,
        options_schema=setup.OPTIONS_SCHEMA,
        content_schema=setup.CONTENT_SCHEMA,
        default_content=setup.DEFAULT_CONTENT,
        command_schemas=command_schemas,
        setup=setup.setup,
        initial_state=state.initial_state,
        evolve=state.evolve,
        decide=rules.decide,
        legal_commands=legal.legal_commands,
        table_inputs=legal.table_inputs,
        view=view.view,
        redact=view.redact,
        redact_command=view.redact_command,
        status=status,
        dump_state=state.dump_state,
        load_state=state.load_state,
    )
