"""domain/adjudication.py: the checks every game shares, in the service's words, then decide."""
from __future__ import annotations

import ast
import pathlib

import pytest

from domain import adjudication
from domain.adjudication import SERVICE_RULE, InvalidCommand
from domain.chance import ServerChance, TableChance
from domain.ruleset import ARBITER, Rejected
from tests.fakes import hoard

R = hoard.RULESET


def new_game(players=("A", "B")):
    state = R.initial_state()
    for event in R.setup(list(players), None, None, ServerChance("ab" * 32, 0), None):
        state = R.evolve(state, event)
    return state


def refusal(call, *args, **kwargs) -> Rejected:
    with pytest.raises(Rejected) as caught:
        call(*args, **kwargs)
    return caught.value


def test_a_seat_outside_the_game_is_refused_with_the_seats_it_has():
    adjudication.check_seat(1, 2)
    for seat in (-1, 2, 2**63):
        error = refusal(adjudication.check_seat, seat, 2)
        assert (error.code, error.rule, error.detail) == ("NO_SUCH_SEAT", SERVICE_RULE, "This game has seats 0 to 1.")


def test_an_unknown_command_is_refused_listing_the_games_commands():
    error = refusal(adjudication.admit, R, {"type": "summon_kraken"})
    assert error.code == "UNKNOWN_COMMAND" and error.rule == "Parley: commands"
    assert error.detail == f"{R.name} has no command 'summon_kraken'; its commands are draw, roll_bonus, stand."
    with pytest.raises(Rejected) as long:
        adjudication.admit(R, {"type": "k" * 10_000})
    assert long.value.detail.startswith(f"{R.name} has no command 'kkk") and len(long.value.detail) < 200


def test_a_body_off_its_schema_is_refused_with_every_problem():
    error = refusal(adjudication.admit, R, {"type": "roll_bonus", "dice": ["7"], "kraken": True})
    assert isinstance(error, InvalidCommand) and error.code == "INVALID_COMMAND"
    assert error.detail == "The command does not match its schema: see 'problems'."
    assert len(error.problems) == 2 and error.problems[0].startswith("command: ")
    assert error.problems[1].startswith("command/dice/0: ")
    adjudication.admit(R, {"type": "draw"})


def test_a_finished_game_is_refused_before_its_rules_are_asked():
    state = new_game()
    seat = 0
    while not R.status(state).finished:
        for event in adjudication.adjudicate(R, state, seat, {"type": "stand"}, TableChance()):
            state = R.evolve(state, event)
        seat = 1 - seat
    for call in (lambda: adjudication.adjudicate(R, state, 0, {"type": "draw"}, TableChance()),
                 lambda: adjudication.dry_run(R, state, 0, {"type": "draw"}, TableChance(), viewer=0,
                                              fresh_seed=lambda: "cd" * 32, position=9)):
        error = refusal(call)
        assert (error.code, error.rule) == ("GAME_FINISHED", SERVICE_RULE)
        assert error.detail == "This game is finished: no more commands are accepted."


def test_adjudicate_answers_the_rules_events_in_their_stored_form_and_leaves_the_state():
    state = new_game()
    before = R.dump_state(state)
    events = adjudication.adjudicate(R, state, 0, {"type": "draw"}, ServerChance("ab" * 32, 5))
    assert events == R.decide(state, 0, {"type": "draw"}, ServerChance("ab" * 32, 5))
    assert all(type(v) is not tuple for e in events for v in e.values())
    assert R.dump_state(state) == before
    assert refusal(adjudication.adjudicate, R, state, 1, {"type": "draw"}, TableChance()).code == "NOT_YOUR_TURN"


def test_a_dry_run_is_decided_on_the_imagined_game():
    state = new_game()
    imagined, events = adjudication.dry_run(R, state, 0, {"type": "draw"}, ServerChance("ab" * 32, 5),
                                            viewer=ARBITER, fresh_seed=lambda: "cd" * 32, position=5)
    assert events == R.decide(state, 0, {"type": "draw"}, ServerChance("cd" * 32, 5))
    assert R.dump_state(imagined) == R.dump_state(state)


def test_adjudication_does_no_io():
    tree = ast.parse(pathlib.Path(adjudication.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    assert imported <= {"__future__", "collections", "json", "typing", "jsonschema"}, imported


def test_each_command_schema_has_one_validator_and_refusals_are_those_of_a_fresh_one(monkeypatch):
    import jsonschema

    built = []
    real = jsonschema.Draft202012Validator

    def counting(schema, *args, **kwargs):
        built.append(schema)
        return real(schema, *args, **kwargs)

    monkeypatch.setattr(adjudication, "_VALIDATORS", {})
    monkeypatch.setattr(jsonschema, "Draft202012Validator", counting)
    bad = {"type": "roll_bonus", "dice": ["7"], "kraken": True}
    fresh = sorted(real(R.command_schemas["roll_bonus"]).iter_errors(bad), key=lambda e: list(map(str, e.path)))
    answers = [refusal(adjudication.admit, R, dict(bad)).problems for _ in range(3)]
    adjudication.admit(R, {"type": "draw"})
    assert answers[0] == answers[1] == answers[2]
    assert [p.split(": ", 1)[1] for p in answers[0]] == [adjudication.error_message(e) for e in fresh]
    assert [id(s) for s in built] == [id(R.command_schemas["roll_bonus"]), id(R.command_schemas["draw"])]


def test_a_validator_is_never_used_for_another_schema_at_a_reused_id(monkeypatch):
    monkeypatch.setattr(adjudication, "_VALIDATORS", {})
    first = {"type": "object", "required": ["a"]}
    assert adjudication.schema_problems(first, {}, "x") == ["x: 'a' is a required property"]
    # Another dict that Python placed at the same address (simulated) gets its own validator.
    other = {"type": "object", "required": ["b"]}
    adjudication._VALIDATORS[id(other)] = adjudication._VALIDATORS.pop(id(first))
    assert adjudication.schema_problems(other, {}, "x") == ["x: 'b' is a required property"]
    assert adjudication.validator_for(other).schema is other


def test_the_validators_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(adjudication, "_VALIDATORS", {})
    monkeypatch.setattr(adjudication, "MAX_VALIDATORS", 3)
    schemas = [{"type": "object", "required": [str(i)]} for i in range(7)]
    for schema in schemas:
        assert adjudication.schema_problems(schema, {str(schemas.index(schema)): 1}, "x") == []
        assert len(adjudication._VALIDATORS) <= 3


def test_a_schema_refusal_spells_true_false_and_null_as_json_does():
    """A client sent JSON: the refusal says true, false and null, not Python's True, False and None."""
    from domain.adjudication import schema_problems
    schema = {"type": "object", "properties": {"position": {"type": "integer"}, "keep": {"enum": [1, 2]}}}
    assert schema_problems(schema, {"position": True}, "command") == ["command/position: true is not of type 'integer'"]
    assert schema_problems(schema, {"position": None}, "command") == ["command/position: null is not of type 'integer'"]
    assert schema_problems(schema, {"keep": False}, "command") == ["command/keep: false is not one of [1, 2]"]
    assert schema_problems(schema, {"position": "x"}, "command") == ["command/position: 'x' is not of type 'integer'"]
    flags = {"type": "object", "properties": {"to_bag": {"const": True}, "mode": {"enum": [1, None]}}}
    assert schema_problems(flags, {"to_bag": False}, "command") == ["command/to_bag: true was expected"]
    assert schema_problems(flags, {"mode": 2}, "command") == ["command/mode: 2 is not one of [1, null]"]
    # arrays and objects as JSON writes them, not ['MUT-5'] (the Tesoros audit of 2026-12-03)
    assert schema_problems(schema, {"position": ["MUT-5", None]}, "command") == \
        ['command/position: ["MUT-5", null] is not of type \'integer\'']
    assert schema_problems(schema, {"position": {"a": True}}, "command") == \
        ['command/position: {"a": true} is not of type \'integer\'']


def test_a_schema_refusal_names_the_item_listed_twice_and_the_choice_a_value_fits():
    """'has non-unique elements' and 'is not valid under any of the given schemas' told a player
    nothing he could act on (outside review): the item named twice, and the words of the one
    choice of an anyOf whose type the value has."""
    from domain.adjudication import schema_problems
    listed = {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    schema = {"type": "object", "properties": {"cards": listed, "variant": {"anyOf": [
        {"type": "string", "maxLength": 3}, {**listed, "maxItems": 2}]}}}
    twice = "lists 'a' more than once: each may be listed once"
    assert schema_problems(schema, {"cards": ["a", "b", "a"]}, "command") == [f"command/cards: {twice}"]
    assert schema_problems(schema, {"variant": ["a", "a"]}, "command") == [f"command/variant: {twice}"]
    assert schema_problems(schema, {"variant": ["a", 1]}, "command") == ["command/variant/1: 1 is not of type 'string'"]
    assert schema_problems(schema, {"variant": "abcd"}, "command") == ["command/variant: is too long: at most 3 characters"]
    # a value no choice's type fits has nothing closer to say
    assert schema_problems(schema, {"variant": 7}, "command") == ["command/variant: 7 is not valid under any of the given schemas"]


def test_a_table_roll_names_the_item_that_is_not_a_face():
    """A JSON 2.0 is a number the schema takes as an integer, but no die shows it: the refusal
    names that item, not the count (which was right)."""
    table = TableChance("seat")
    with pytest.raises(Rejected) as refused:
        table.roll(5, [1, 2, 3, 4, 5, 6], [1, 2.0, 3, 4, 5], "values")
    assert refused.value.code == "TABLE_OUTCOME_INVALID"
    assert refused.value.detail == "'values' item 2: 2.0 is not a face of the die; each is one of 1, 2, 3, 4, 5, 6."
    with pytest.raises(Rejected) as refused:
        table.roll(2, ["guile", "martial"], ["martial", "cooking"], "rolls.skills")
    assert refused.value.detail.startswith("'rolls.skills' item 2: \"cooking\" is not a face of the die")
    with pytest.raises(Rejected) as refused:
        table.roll(1, [1, 2, 3], [1, 2], "faces")
    assert refused.value.code == "TABLE_OUTCOME_INVALID"
    assert refused.value.detail == "'faces' must list exactly 1 face, one for each die rolled, each one of 1, 2, 3."
    with pytest.raises(Rejected) as refused:   # too few is a face missing, as a draw's missing item is
        table.roll(5, [1, 2, 3], [1, 2], "faces")
    assert refused.value.code == "TABLE_OUTCOME_REQUIRED"
    assert refused.value.detail == ("'faces' must list the face of every die rolled: 5 are needed, and 2 were "
                                    "sent; each is one of 1, 2, 3.")
    assert table.roll(2, [1, 2, 3], [3, 1], "faces") == [3, 1]


def test_a_table_naming_one_card_twice_is_told_it_named_it_already():
    """A card named twice in one report is in the host's nameable list (it was there for the
    first naming): the refusal says the list named it already, and where the item comes from."""
    table = TableChance("host")
    with pytest.raises(Rejected) as refused:
        table.pick(["a", "b", "c"], 2, ["b", "b"], "drawn", "the deck: one of nameable.deck")
    assert refused.value.code == "TABLE_OUTCOME_INVALID"
    assert refused.value.detail == ("'drawn': 'b' cannot have been drawn from there again, after item 1 (item 2: the "
                                    "deck: one of nameable.deck).")
    with pytest.raises(Rejected) as refused:   # a setup's draw, told no place: the same words without it
        table.pick(["a", "b", "c"], 2, ["b", "b"], "setup.draw_off")
    assert refused.value.detail == "'setup.draw_off': 'b' cannot have been drawn from there again, after item 1."
    with pytest.raises(Rejected) as refused:
        table.pick(["a", "b", "c"], 2, ["b", "z"], "drawn", "the deck: one of nameable.deck")
    assert refused.value.detail == "'drawn': 'z' cannot have been drawn from there (item 2: the deck: one of nameable.deck)."
