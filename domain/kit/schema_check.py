"""A fast yes for the JSON Schemas of commands: compiled once into nested Python checks.

jsonschema's validator walks a schema keyword by keyword for every instance, through its
generic machinery: about a tenth of a command's CPU in the service. Every command schema of
the rulesets uses a handful of Draft 2020-12 keywords (type, const, enum, minimum, maximum,
maxLength, items, minItems, maxItems, properties, required, additionalProperties, anyOf, and
the annotations description, default, title, examples). `compile_check` turns such a schema
into a function that answers whether an instance is valid, with the same meaning as
jsonschema's Draft 2020-12 validator; a schema with any other keyword is not compiled (None).

It only ever answers yes or no: the problems of an invalid command are still listed by
jsonschema (domain/adjudication.py schema_problems), and tests/domain/test_schema_check.py
holds the two to the same verdicts on every command schema with valid and broken instances.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset({"description", "default", "title", "examples", "$comment"})


def _is_integer(value) -> bool:
    # JSON Schema: a number with no fractional part is an integer (1.0 is); a bool is not.
    if type(value) is int:
        return True
    return type(value) is float and value.is_integer()


TYPES: dict[str, Check] = {
    "integer": _is_integer,
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "array": lambda v: type(v) is list,
    "object": lambda v: type(v) is dict,
    "null": lambda v: v is None,
}


def json_equal(a, b) -> bool:
    """Equality as JSON Schema's const and enum mean it: true is not 1, 1 is 1.0, and arrays
    and objects are equal item by item."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is dict and type(b) is dict:
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if type(a) in (list, dict) or type(b) in (list, dict):
        return False
    if (type(a) is str) != (type(b) is str):
        return False
    return a == b


def compile_check(schema) -> Check | None:
    """A function telling whether an instance is valid against `schema`, or None when the
    schema uses a keyword this module does not compile."""
    if schema is True:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if type(schema) is not dict:
        return None
    checks: list[Check] = []
    for keyword, argument in schema.items():
        if keyword in ANNOTATIONS:
            continue
        check = _keyword(keyword, argument, schema)
        if check is None:
            return None
        checks.append(check)
    if not checks:
        return lambda value: True
    if len(checks) == 1:
        return checks[0]
    return lambda value: all(check(value) for check in checks)


def _keyword(keyword: str, argument, schema: dict) -> Check | None:
    compile_keyword = KEYWORDS.get(keyword)
    return None if compile_keyword is None else compile_keyword(argument, schema)


def _type(argument, schema: dict) -> Check | None:
    names = [argument] if type(argument) is str else argument
    if type(names) is not list or not all(name in TYPES for name in names):
        return None
    tests = [TYPES[name] for name in names]
    return lambda value: any(test(value) for test in tests)


def _enum(argument, schema: dict) -> Check | None:
    if type(argument) is not list:
        return None
    return lambda value: any(json_equal(value, option) for option in argument)


def _bound(compare: Callable[[Any, Any], bool]):
    """minimum, maximum: numbers only (a bool is not one)."""
    def compile_bound(argument, schema: dict) -> Check | None:
        if type(argument) not in (int, float):
            return None
        return lambda value: type(value) not in (int, float) or compare(value, argument)
    return compile_bound


def _length(of: type[str] | type[list], compare: Callable[[int, int], bool]):
    """maxLength (strings, in code points), minItems and maxItems (arrays)."""
    def compile_length(argument, schema: dict) -> Check | None:
        if type(argument) is not int:
            return None
        return lambda value: type(value) is not of or compare(len(value), argument)
    return compile_length


def _items(argument, schema: dict) -> Check | None:
    item = compile_check(argument)
    if item is None:
        return None
    return lambda value: type(value) is not list or all(item(v) for v in value)


def _properties(argument, schema: dict) -> Check | None:
    if type(argument) is not dict:
        return None
    compiled = {name: compile_check(sub) for name, sub in argument.items()}
    if any(check is None for check in compiled.values()):
        return None
    return lambda value: type(value) is not dict or all(
        compiled[name](v) for name, v in value.items() if name in compiled)  # type: ignore[misc]  # none is None


def _required(argument, schema: dict) -> Check | None:
    if type(argument) is not list:
        return None
    return lambda value: type(value) is not dict or all(name in value for name in argument)


def _additional_properties(argument, schema: dict) -> Check | None:
    if "patternProperties" in schema:
        return None
    known = frozenset(schema.get("properties", {}))
    other = compile_check(argument)
    if other is None:
        return None
    return lambda value: type(value) is not dict or all(
        other(v) for name, v in value.items() if name not in known)


def _any_of(argument, schema: dict) -> Check | None:
    if type(argument) is not list or not argument:
        return None
    options = [compile_check(sub) for sub in argument]
    if any(check is None for check in options):
        return None
    return lambda value: any(option(value) for option in options)  # type: ignore[misc]  # none is None


# keyword -> (its argument, the schema it is in) -> its check, or None if it cannot be compiled
KEYWORDS: dict[str, Callable[[Any, dict], Check | None]] = {
    "type": _type,
    "const": lambda argument, schema: lambda value: json_equal(value, argument),
    "enum": _enum,
    "minimum": _bound(lambda value, bound: value >= bound),
    "maximum": _bound(lambda value, bound: value <= bound),
    "maxLength": _length(str, lambda length, bound: length <= bound),
    "minItems": _length(list, lambda length, bound: length >= bound),
    "maxItems": _length(list, lambda length, bound: length <= bound),
    "items": _items,
    "properties": _properties,
    "required": _required,
    "additionalProperties": _additional_properties,
    "anyOf": _any_of,
}


__all__ = ["compile_check", "json_equal"]
