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
