"""What a well-formed export is: the one answer verify, replay, `parley` and the HTTP API use.

SCHEMA is JSON Schema (draft 2020-12) of the envelope GET /games/{id}/export writes
(service/exports.py): the format, the creation record, the setup and command entries, the
type and size of every field. Event and command contents are the rules' business: an entry's
event must be an object with a string "type", a command's body too, and nothing more is
said of them here. What the schema cannot say (versions in sequence, a command's seat among
the game's seats, events the rules can apply) is checked where it matters: verify reports it
as a divergence, replay refuses to show it (docs/disputes.md, "Malformed exports").

FORMAT, the format's name, is defined here alone: the service writes it (service/exports.py)
and the verifier reads it, as both take the hash chain from disputes/chain.py and the JSON
form of events from domain/adjudication.py.
"""
from __future__ import annotations

import contextlib
import json
import re

FORMAT = "parley-export/1"
MAX_SEATS = 16  # POST /games takes 1 to 16 players
MAX_VERSION = 2**31 - 1  # far past any game (an export is at most 64 MiB)
MAX_PROBLEMS = 20  # listed; one more line says that more were found

HEX64 = "^[0-9a-f]{64}$"  # a SHA-256 (hash, commitment) or a 32-byte seed, lowercase hex
HEX32 = "^[0-9a-f]{32}$"  # a salt: 16 random bytes
_HEX_DIGITS = {HEX64: 64, HEX32: 32}


def _nullable(schema: dict) -> dict:
    return {**schema, "type": [schema["type"], "null"]}


_VERSION = {"type": "integer", "minimum": 1, "maximum": MAX_VERSION,
            "description": "The stored record's number"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}
_NAMED = {"type": "object", "required": ["type"],
          "properties": {"type": {"type": "string", "minLength": 1, "maxLength": 100}}}
_CHAIN = {
    "version": _VERSION,
    "recorded_at": {"type": "string", "maxLength": 64, "description": "When it was stored (not hashed)"},
    "salt": _nullable({"type": "string", "pattern": HEX32, "description":
                       "Hashed with the record; null when the record is redacted for you"}),
    "hash": _nullable({"type": "string", "pattern": HEX64, "description":
                       "SHA-256 of the canonical record with the previous hash (docs/disputes.md)"}),
    "redacted": {"type": "boolean", "description":
                 "True when you see less than was hashed: the link cannot be recomputed"},
}
_ENTRY = {
    "type": "object", "additionalProperties": False, "required": ["version", "event"],
    "properties": {**_CHAIN, "event": {**_NAMED, "description": "The domain event, its 'type' names it"}},
}
_OBJECT_OR_NULL = {"type": ["object", "null"]}

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A Parley game export (parley-export/1)",
    "type": "object",
    "additionalProperties": False,   # a member a verifier would not look at is no part of a valid export
    "required": ["format", "creation", "setup", "commands"],
    "properties": {
        "format": {"type": "string", "enum": [FORMAT]},
        "game_id": {"type": "string", "maxLength": 64, "description": "Informational; not hashed"},
        "exported_for": {"description": "A seat number, \"host\", \"spectator\" or \"arbiter\"",
                         "oneOf": [_SEAT, {"type": "string", "enum": ["host", "spectator", "arbiter"]}]},
        "complete": {"type": "boolean", "description": "False while a seat's export hides something"},
        "status": {"type": "string", "enum": ["active", "finished"]},
        "version": _VERSION,
        "head_hash": _nullable({"type": "string", "pattern": HEX64, "description": "The latest record's hash"}),
        "creation": {
            "type": "object", "additionalProperties": False,
            "required": ["version", "ruleset", "ruleset_version", "seats", "options", "content",
                         "table_setup", "chance"],
            "properties": {
                **_CHAIN,
                "ruleset": {"type": "string", "minLength": 1, "maxLength": 100},
                "ruleset_version": {"type": "string", "minLength": 1, "maxLength": 100},
                "seats": {"type": "array", "minItems": 1, "maxItems": MAX_SEATS, "items": {
                    "type": "object", "additionalProperties": False, "required": ["seat", "name"],
                    "properties": {"seat": _SEAT, "name": {"type": "string", "minLength": 1, "maxLength": 64}}}},
                "options": _OBJECT_OR_NULL,
                "content": _OBJECT_OR_NULL,
                "table_setup": _OBJECT_OR_NULL,
                "chance": {"type": "object", "additionalProperties": False, "required": ["mode", "commitment"],
                           "properties": {"mode": {"type": "string", "enum": ["server", "table"]},
                                          "commitment": _nullable({"type": "string", "pattern": HEX64})}},
            },
        },
        "setup": {"type": "array", "items": _ENTRY, "description": "The events setup produced (versions 2..)"},
        "commands": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["seat", "body", "events"],
            "properties": {
                "seat": _SEAT,
                "body": {**_NAMED, "description": "The command as sent (seat apart)"},
                "version_before": {**_VERSION, "description":
                                   "The game's version when it was decided: the server chance position"},
                "redacted": {"type": "boolean"},
                "events": {"type": "array", "items": _ENTRY},
            },
        }},
        "seed": _nullable({"type": "string", "pattern": HEX64, "description":
                           "The server seed: once the game is finished, or for the arbiter"}),
    },
}


class Unverifiable(Exception):
    """The export cannot be checked at all: not an export, or rules this verifier lacks."""


class MalformedExport(Unverifiable):
    """The document is not a well-formed export: `problems` names each ("$.path: what")."""

    def __init__(self, problems: list[str]):
        super().__init__("this is not a well-formed export: " + "; ".join(problems))
        self.problems = problems


def problems(document) -> list[str]:
    """Every way the document breaks the export format, as "$.path: what is wrong" lines in
    the order the export is written (at most MAX_PROBLEMS, then one saying there are more);
    [] for a well-formed export."""
    found = _Found()
    with contextlib.suppress(_Enough):
        _ROOT.check(document, None, found)
    said = [_say(*problem) for problem in found.problems[:MAX_PROBLEMS]]
    if len(found.problems) > MAX_PROBLEMS:
        said.append(f"… and more: only the first {MAX_PROBLEMS} problems are listed")
    return said


def check(document) -> dict:
    """The document, if it is a well-formed export; MalformedExport otherwise."""
    found = problems(document)
    if found:
        raise MalformedExport(found)
    return document


# The check -----------------------------------------------------------------------------------
#
# SCHEMA is checked by a validator compiled from it here rather than by the jsonschema library,
# which takes about a millisecond per record (it builds a validator for every value it descends
# into): as long as re-adjudicating the record, and ten times what replay (the viewer's every
# step) does besides. This one knows the keywords SCHEMA uses, with JSON Schema's meaning (an
# integer is an int, never 2.0 or true); SCHEMA may use no other (refused when this module
# loads). tests/disputes/test_export_format.py checks that it agrees with jsonschema.

KEYWORDS = {"type", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "required",
            "properties", "additionalProperties", "items", "minItems", "maxItems", "oneOf",
            "description", "title", "$schema"}
_TYPES = {"object": dict, "array": list, "string": str, "integer": int, "boolean": bool,
          "null": type(None)}


class _Enough(Exception):
    """More problems than are listed were found: stop looking."""


class _Found:
    def __init__(self, limit: int = MAX_PROBLEMS + 1):
        self.problems: list[tuple] = []
        self.limit = limit

    def add(self, *problem) -> None:
        self.problems.append(problem)
        if len(self.problems) >= self.limit:
            raise _Enough


class _Node:
    """One schema, compiled: check(value, trail, found) adds each problem of value to found.
    trail is (parent trail, key), None at the root: a path is only spelt out for a problem."""

    def __init__(self, schema: dict):
        unknown = set(schema) - KEYWORDS
        if unknown or schema.get("additionalProperties", False) is not False:
            raise ValueError(f"the export check does not know {sorted(unknown) or 'additionalProperties'}")
        self.schema = schema
        kinds = schema.get("type")
        self.types = None if kinds is None else tuple(_TYPES[k] for k in (kinds if isinstance(kinds, list) else [kinds]))
        self.enum = schema.get("enum")
        self.minimum, self.maximum = schema.get("minimum"), schema.get("maximum")
        self.min_length, self.max_length = schema.get("minLength"), schema.get("maxLength")
        pattern = schema.get("pattern")
        if pattern is not None and not (pattern.startswith("^") and pattern.endswith("$")):
            raise ValueError(f"the export check takes anchored patterns only, not {pattern!r}")
        # fullmatch: JSON Schema's '$' (ECMA-262) ends the text, where Python's also lets a final
        # newline follow ("<64 hex digits>\n" is no hash).
        self.pattern = re.compile(pattern) if pattern is not None else None
        self.required = schema.get("required", [])
        self.properties = {k: _Node(v) for k, v in schema.get("properties", {}).items()}
        self.closed = "additionalProperties" in schema
        self.items = _Node(schema["items"]) if "items" in schema else None
        self.min_items, self.max_items = schema.get("minItems"), schema.get("maxItems")
        self.one_of = [_Node(s) for s in schema.get("oneOf", [])]

    def check(self, value, trail, found: _Found) -> None:
        kind = type(value)
        if self.types is not None and kind not in self.types:
            return found.add(trail, "type", self, value)  # nothing else to say of the wrong kind
        if self.enum is not None and not any(kind is type(e) and value == e for e in self.enum):
            found.add(trail, "enum", self, value)
        if kind is int or kind is float:
            if self.minimum is not None and value < self.minimum:
                found.add(trail, "minimum", self, value)
            if self.maximum is not None and value > self.maximum:
                found.add(trail, "maximum", self, value)
        elif kind is str:
            if self.min_length is not None and len(value) < self.min_length:
                found.add(trail, "minLength", self, value)
            if self.max_length is not None and len(value) > self.max_length:
                found.add(trail, "maxLength", self, value)
            if self.pattern is not None and not self.pattern.fullmatch(value):
                found.add(trail, "pattern", self, value)
        elif kind is dict:
            for key in self.required:
                if key not in value:
                    found.add((trail, key), "required", self, value)
            for key, node in self.properties.items():
                if key in value:
                    node.check(value[key], (trail, key), found)
            if self.closed and not value.keys() <= self.properties.keys():
                found.add(trail, "additionalProperties", self, value)
        elif kind is list:
            if self.min_items is not None and len(value) < self.min_items:
                found.add(trail, "minItems", self, value)
            if self.max_items is not None and len(value) > self.max_items:
                found.add(trail, "maxItems", self, value)
            if self.items is not None:
                for i, item in enumerate(value):
                    self.items.check(item, (trail, i), found)
        if self.one_of and sum(1 for node in self.one_of if node.accepts(value)) != 1:
            found.add(trail, "oneOf", self, value)

    def accepts(self, value) -> bool:
        try:
            self.check(value, None, _Found(limit=1))
        except _Enough:
            return False
        return True


_ROOT = _Node(SCHEMA)


def _path(trail) -> str:
    keys = []
    while trail is not None:
        trail, key = trail
        keys.append(key)
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in reversed(keys))


_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer",
          float: "a decimal number", type(None): "null"}
_ARTICLES = {"object": "an object", "array": "an array", "string": "a string", "integer": "an integer",
             "boolean": "a boolean", "null": "null"}


def _kind(value) -> str:
    return _KINDS.get(type(value), "something else")


def _short(value) -> str:
    """The value itself when it is short, else only what kind of value it is."""
    if isinstance(value, (dict, list)) and value or isinstance(value, str) and len(value) > 40:
        return _kind(value)
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else _kind(value)


def _say(trail, keyword: str, node: _Node, value) -> str:
    """One problem, in words that never repeat a large value."""
    schema = node.schema
    if keyword == "required":
        return f"{_path(trail)}: is missing"
    if keyword == "type":
        wanted = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        return f"{_path(trail)}: must be {' or '.join(_ARTICLES[w] for w in wanted)}, not {_kind(value)}"
    if keyword == "additionalProperties":
        extra = [k for k in value if k not in node.properties]
        return (f"{_path(trail)}: has a member the format does not have: "
                + ", ".join(_short(k) for k in extra[:3]) + (", …" if len(extra) > 3 else ""))
    text = {
        "enum": lambda: f"must be {' or '.join(json.dumps(v) for v in schema['enum'])}, not {_short(value)}",
        "minimum": lambda: f"must be at least {schema['minimum']}, not {_short(value)}",
        "maximum": lambda: f"must be at most {schema['maximum']}, not {_short(value)}",
        "minLength": lambda: f"must be at least {schema['minLength']} characters long",
        "maxLength": lambda: f"must be at most {schema['maxLength']} characters long",
        "pattern": lambda: f"must be {_HEX_DIGITS[schema['pattern']]} lowercase hexadecimal digits, "
                           f"not {_short(value)}",
        "minItems": lambda: f"must hold at least {schema['minItems']} item",
        "maxItems": lambda: f"must hold at most {schema['maxItems']} items, not {len(value)}",
        "oneOf": lambda: f"must be {_lower_first(schema.get('description', 'of a kind the format gives'))}, "
                         f"not {_short(value)}",
    }[keyword]()
    return f"{_path(trail)}: {text}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


__all__ = ["FORMAT", "MAX_PROBLEMS", "SCHEMA", "MalformedExport", "Unverifiable", "check", "problems"]
