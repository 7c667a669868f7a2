"""domain/kit/schema_check.py: the compiled checks of command schemas say valid exactly when
jsonschema's Draft 2020-12 validator does, on every command schema of every ruleset, for the
legal commands of real games and for those commands broken in every way a client might."""
from __future__ import annotations

import copy
import random

import jsonschema
import pytest

from domain import adjudication
from domain.chance import ServerChance
from domain.kit.schema_check import compile_check, json_equal
from domain.registry import all_rulesets
from tests.playouts.harness import seed_for

RULESETS = all_rulesets()
ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 1.5, -0.0, 10**20, "", "x", "0", "x" * 300, [], [0], [None],
              [1, 1.0, True], {}, {"a": 1}]


def legal_commands_of_play(ruleset, commands: int = 40) -> list[dict]:
    """The legal commands listed along one random game (each with its type)."""
    rng = random.Random(ruleset.id)
    players = ["Kira", "David", "Will"][:max(ruleset.min_players, 2)]
    state = ruleset.initial_state()
    events = ruleset.setup(players, None, None, ServerChance(seed_for(1), 0), None)
    for event in events:
        state = ruleset.evolve(state, event)
    seen: list[dict] = []
    for _ in range(commands):
        status = ruleset.status(state)
        if status.finished:
            break
        seat = rng.choice(status.to_move)
        legal = ruleset.legal_commands(state, seat)
        seen.extend(legal[:30])
        new = ruleset.decide(state, seat, rng.choice(legal), ServerChance(seed_for(1), len(events)))
        for event in new:
            state = ruleset.evolve(state, event)
        events.extend(new)
    return seen


def broken(command: dict, rng: random.Random) -> list:
    """The command broken one way at a time: every field dropped, replaced by odd values, nested
    values replaced, unknown fields, and the whole thing as another JSON type."""
    out: list = [None, [], "draw", 3, [command]]
    for key, value in command.items():
        dropped = dict(command)
        del dropped[key]
        out.append(dropped)
        for odd in rng.sample(ODD_VALUES, 6):
            out.append({**command, key: odd})
        if type(value) is list and value:
            for odd in rng.sample(ODD_VALUES, 4):
                changed = copy.deepcopy(command)
                changed[key][rng.randrange(len(value))] = odd
                out.append(changed)
            out.append({**command, key: value * 40})
        if type(value) is dict and value:
            inner = rng.choice(list(value))
            for odd in rng.sample(ODD_VALUES, 4):
                changed = copy.deepcopy(command)
                changed[key][inner] = odd
                out.append(changed)
            out.append({**command, key: {**value, "kraken": 1}})
        if type(value) is int and type(value) is not bool:
            out += [{**command, key: value + 1000}, {**command, key: -value - 1000}, {**command, key: float(value)}]
    out.append({**command, "kraken": True})
    return out


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_command_schema_compiles(ruleset_id):
    for name, schema in RULESETS[ruleset_id].command_schemas.items():
        assert compile_check(schema) is not None, name


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_compiled_checks_agree_with_jsonschema_on_legal_and_broken_commands(ruleset_id):
    ruleset = RULESETS[ruleset_id]
    rng = random.Random(7)
    instances = legal_commands_of_play(ruleset)
    assert len(instances) > 40
    valid = invalid = 0
    for command in instances:
        schema = ruleset.command_schemas[command["type"]]
        check, validator = compile_check(schema), jsonschema.Draft202012Validator(schema)
        for instance in [command, *broken(command, rng)]:
            verdict = validator.is_valid(instance)
            assert check(instance) == verdict, (command["type"], instance)
            valid, invalid = valid + verdict, invalid + (not verdict)
    assert valid > 40 and invalid > 200  # both verdicts were exercised
    # and every schema with instances of the other kinds of JSON value
    for schema in ruleset.command_schemas.values():
        check, validator = compile_check(schema), jsonschema.Draft202012Validator(schema)
        for odd in ODD_VALUES:
            assert check(odd) == validator.is_valid(odd)


KEYWORD_CASES = [
    ({"type": "integer"}, [1, 1.0, 1.5, True, "1", None]),
    ({"type": ["string", "null"]}, ["a", None, 0, False]),
    ({"type": "number", "minimum": 0, "maximum": 3}, [0, 3, 3.0, 3.5, -1, True, "2"]),
    ({"const": 1}, [1, 1.0, True, "1", [1]]),
    ({"const": [1, {"a": True}]}, [[1, {"a": True}], [1.0, {"a": True}], [1, {"a": 1}], [True, {"a": True}]]),
    ({"enum": [False, "a", [0]]}, [False, 0, "a", [0], [False], None]),
    ({"maxLength": 2}, ["ab", "abc", "é€", 123]),
    ({"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}, [[1], [], [1, 2, 3], [1, "a"], {"0": 1}]),
    ({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": False},
     [{"a": 1}, {}, {"a": 1, "b": 2}, {"a": "1"}, [], None]),
    ({"properties": {"a": False}, "additionalProperties": {"type": "string"}}, [{"b": "x"}, {"b": 1}, {"a": 1}, {}]),
    ({"anyOf": [{"type": "integer"}, {"const": "all"}]}, [1, "all", "some", None]),
    (True, [1, None]),
    (False, [1, None]),
]


@pytest.mark.parametrize(("schema", "instances"), KEYWORD_CASES)
def test_each_keyword_means_what_jsonschema_means(schema, instances):
    check, validator = compile_check(schema), jsonschema.Draft202012Validator(schema)
    for instance in instances:
        assert check(instance) == validator.is_valid(instance), instance


def test_a_schema_with_another_keyword_is_left_to_jsonschema():
    for schema in ({"pattern": "^a"}, {"prefixItems": [{"type": "integer"}]}, {"oneOf": [True]},
                   {"properties": {"a": {"format": "uuid"}}}, {"type": "object", "patternProperties": {}}):
        assert compile_check(schema) is None
    # and such a schema is still checked, by jsonschema alone
    assert adjudication.schema_problems({"pattern": "^a"}, "b", "x") == ["x: 'b' does not match '^a'"]


def test_json_equal_is_json_schema_equality():
    assert json_equal(1, 1.0) and not json_equal(True, 1) and not json_equal(0, False)
    assert json_equal({"a": [1, 2]}, {"a": [1.0, 2]}) and not json_equal({"a": 1}, {"a": 1, "b": 2})
    assert not json_equal("1", 1) and not json_equal([1], (1,)) and json_equal(None, None)


def test_an_invalid_command_still_gets_every_problem_jsonschema_lists():
    ruleset = RULESETS["corsairs-of-valeria"]
    rng = random.Random(3)
    for command in legal_commands_of_play(ruleset, commands=10):
        schema = ruleset.command_schemas[command["type"]]
        for instance in broken(command, rng):
            if type(instance) is not dict or instance.get("type") != command["type"]:
                continue
            expected = len(list(jsonschema.Draft202012Validator(schema).iter_errors(instance)))
            if expected == 0:
                adjudication.admit(ruleset, instance)
                continue
            with pytest.raises(adjudication.InvalidCommand) as refused:
                adjudication.admit(ruleset, instance)
            assert len(refused.value.problems) == expected
