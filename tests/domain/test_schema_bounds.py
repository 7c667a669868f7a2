"""Anonymous work is bounded (issue 15, item 3): every string and every array in every schema a
client's input is checked against has a maximum, so nothing a client sends can make one game
store or compute without limit.

Walks each ruleset's content_schema, options_schema, table_setup_schema and command_schemas
recursively (through $ref/$defs and every applicator) and names each schema path that admits
an unbounded string, array or map."""
from __future__ import annotations

import pytest

from domain.registry import all_rulesets

RULESETS = all_rulesets()

_SUBSCHEMA = ("items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
              "contains", "propertyNames", "not", "if", "then", "else", "additionalItems")
_SCHEMA_LISTS = ("prefixItems", "oneOf", "anyOf", "allOf")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def _types(schema: dict) -> set:
    t = schema.get("type")
    return set(t) if isinstance(t, list) else {t} if t else set()


def _resolve(root: dict, ref: str) -> dict:
    assert ref.startswith("#"), f"only local $refs are followed, not {ref}"
    node = root
    for part in ref.lstrip("#").strip("/").split("/"):
        if part:
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


_CONSTRAINS = ("type", "enum", "const", "$ref", "oneOf", "anyOf", "allOf", "not")


def _closed_by_branches(schema: dict) -> bool:
    """Each oneOf/anyOf branch says what its further properties may be."""
    branches = schema.get("oneOf") or schema.get("anyOf") or []
    return bool(branches) and all(isinstance(b, dict) and "additionalProperties" in b
                                  and b["additionalProperties"] is not True for b in branches)


def unbounded(schema, path: str = "#", root: dict | None = None, seen: set | None = None,
              value: bool = True) -> list[str]:
    """Every path in `schema` that admits an unbounded string, array or object map.
    `value`: the schema describes a whole value (not a branch of an applicator)."""
    if schema is True or (isinstance(schema, dict) and value and not any(k in schema for k in _CONSTRAINS)):
        return [f"{path}: admits any value"]
    if not isinstance(schema, dict):
        return []
    root = schema if root is None else root
    seen = set() if seen is None else seen
    out = []
    if "$ref" in schema and schema["$ref"] not in seen:
        seen.add(schema["$ref"])
        out += unbounded(_resolve(root, schema["$ref"]), f"{path}->{schema['$ref']}", root, seen, value)
    bounded_by_value = "enum" in schema or "const" in schema
    types = _types(schema)
    if "string" in types and "maxLength" not in schema and not bounded_by_value:
        out.append(f"{path}: string without maxLength")
    if "array" in types and "maxItems" not in schema and not bounded_by_value:
        out.append(f"{path}: array without maxItems")
    if "object" in types and not bounded_by_value:
        open_map = schema.get("additionalProperties", True) is not False or "patternProperties" in schema
        closed_later = schema.get("unevaluatedProperties", True) is False or _closed_by_branches(schema)
        if open_map and not closed_later and "maxProperties" not in schema:
            out.append(f"{path}: object open to further properties without maxProperties")
        if open_map and not closed_later and "maxLength" not in (schema.get("propertyNames") or {}):
            out.append(f"{path}: object open to further properties without propertyNames.maxLength")
        if schema.get("additionalProperties", True) is True and not closed_later and "patternProperties" not in schema:
            out.append(f"{path}: object whose further properties may hold anything (additionalProperties)")
    for key in _SUBSCHEMA:
        if isinstance(schema.get(key), dict):
            out += unbounded(schema[key], f"{path}/{key}", root, seen,
                             key in ("items", "additionalProperties", "unevaluatedProperties", "additionalItems"))
    for key in _SCHEMA_LISTS:
        for i, sub in enumerate(schema.get(key) or []):
            out += unbounded(sub, f"{path}/{key}/{i}", root, seen, key == "prefixItems")
    for key in _SCHEMA_MAPS:
        for name, sub in (schema.get(key) or {}).items():
            out += unbounded(sub, f"{path}/{key}/{name}", root, seen, key != "dependentSchemas")
    return out


def _schema_params() -> list:
    return list(_each_schema())


def _each_schema():
    for rid, r in sorted(RULESETS.items()):
        yield pytest.param(r.content_schema, id=f"{rid}:content")
        yield pytest.param(r.options_schema, id=f"{rid}:options")
        if r.table_setup_schema is not None:
            yield pytest.param(r.table_setup_schema, id=f"{rid}:table_setup")
        for kind, schema in sorted(r.command_schemas.items()):
            yield pytest.param(schema, id=f"{rid}:command:{kind}")


@pytest.mark.parametrize("schema", _schema_params())
def test_every_string_array_and_map_has_a_maximum(schema):
    found = unbounded(schema)
    assert not found, f"{len(found)} unbounded:\n" + "\n".join(found)


def test_the_walker_finds_what_it_should():
    schema = {"type": "object", "additionalProperties": False, "$defs": {
                  "e": {"type": "object", "additionalProperties": False, "maxProperties": 1,
                        "properties": {"seq": {"type": "array", "items": {"$ref": "#/$defs/e"}},
                                       "name": {"type": "string"}}}},
              "properties": {"a": {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "array", "items": {"type": "string"}, "maxItems": 2}]},
                             "m": {"type": "object", "additionalProperties": {"type": "integer"}},
                             "k": {"enum": ["x"]}, "r": {"$ref": "#/$defs/e"}, "any": {}}}
    found = unbounded(schema)
    assert any("/properties/a/oneOf/1/items: string" in f for f in found)
    assert any("/properties/m: object open" in f for f in found)
    assert sum("seq: array without maxItems" in f for f in found) == 2   # in $defs and via the $ref
    assert any("name: string" in f for f in found)
    assert not any("/properties/k" in f for f in found)
    assert "#/properties/any: admits any value" in found
