"""service/commands.py, the use case behind POST /games/{id}/commands, without Flask: each
outcome, in the order the checks are made (the HTTP answers are pinned by test_commands.py,
test_idempotency.py, test_optimistic_commands.py and the rest)."""
from __future__ import annotations

import ast
import pathlib

import pytest

from service import commands
from service.application import Parley
from service.commands import CommandRequest, IfMatch
from tests.fakes import hoard


@pytest.fixture
def app():
    app = Parley({hoard.RULESET.id: hoard.RULESET}, env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    yield app
    app.close()


@pytest.fixture
def game_id(app):
    return app.create_game(hoard.RULESET.id, ["Kira", "David"], "server").game.id


def send(app, game_id, caller, body, **request):
    game, caught_up = commands.game_to_decide_on(app, game_id, request.get("dry_run", False))
    return commands.send(app, CommandRequest(game_id, caller, body, **request), game, caught_up)


def test_an_accepted_command_answers_the_stored_events(app, game_id):
    outcome = send(app, game_id, 0, {"type": "draw"})
    assert isinstance(outcome, commands.Accepted) and outcome.game.version == 7
    assert [e.originator_version for e in outcome.events] == [6, 7]
    assert app.get_game(game_id).version == 7


def test_the_seat_is_checked_first(app, game_id):
    assert isinstance(send(app, game_id, "host", {"type": "nonsense"}), commands.SeatRequired)
    refused = send(app, game_id, "host", {"type": "nonsense", "seat": 2})
    assert isinstance(refused, commands.Refused) and refused.rejection.code == "NO_SUCH_SEAT"
    assert isinstance(send(app, game_id, 0, {"type": "nonsense", "seat": 1}), commands.NotYourSeat)
    assert isinstance(send(app, game_id, "host", {"type": "draw", "seat": 0}), commands.Accepted)


def test_admission_then_the_version_then_the_rules(app, game_id):
    unknown = send(app, game_id, 0, {"type": "nonsense", "expected_version": 1})
    assert isinstance(unknown, commands.Refused) and unknown.rejection.code == "UNKNOWN_COMMAND"
    invalid = send(app, game_id, 0, {"type": "draw", "kraken": 1, "expected_version": 1})
    assert isinstance(invalid, commands.DoesNotMatchSchema) and len(invalid.rejection.problems) == 1
    conflict = send(app, game_id, 1, {"type": "draw", "expected_version": 1})
    assert conflict == commands.VersionConflict(expected=1, actual=5)
    turn = send(app, game_id, 1, {"type": "draw", "expected_version": 5})
    assert isinstance(turn, commands.Refused) and turn.rejection.code == "NOT_YOUR_TURN"


def test_if_match_is_checked_before_admission(app, game_id):
    assert send(app, game_id, 0, {"type": "nonsense"}, if_match=IfMatch(False, frozenset({"4"}))) \
        == commands.PreconditionFailed(5)
    assert isinstance(send(app, game_id, 0, {"type": "draw"}, if_match=IfMatch(True, frozenset())), commands.Accepted)
    assert isinstance(send(app, game_id, 1, {"type": "draw"}, if_match=IfMatch(False, frozenset({"7"}))),
                      commands.Accepted)


def test_an_idempotency_key_replays_its_first_result(app, game_id):
    keyed = {"idempotency_key": "k-1", "request_hash": "a" * 64}
    assert isinstance(send(app, game_id, 0, {"type": "draw"}, idempotency_key="bad key"), commands.BadIdempotencyKey)
    first = send(app, game_id, 0, {"type": "draw"}, **keyed)
    again = send(app, game_id, 0, {"type": "draw"}, **keyed)
    assert isinstance(again, commands.Replayed) and again.game.version == first.game.version == 7
    assert again.events == first.events
    assert isinstance(send(app, game_id, 0, {"type": "stand"}, idempotency_key="k-1", request_hash="b" * 64),
                      commands.KeyReused)
    # Keys are per caller: the host's k-1 is another key.
    assert isinstance(send(app, game_id, "host", {"type": "draw", "seat": 1}, **keyed), commands.Accepted)


def test_a_dry_run_stores_nothing_and_ignores_the_key(app, game_id):
    outcome = send(app, game_id, 0, {"type": "draw"}, dry_run=True, idempotency_key="dry-key-1")
    assert isinstance(outcome, commands.DryRunAnswer) and outcome.version == 5
    assert outcome.game.version == 7 and len(outcome.events) == 2
    assert app.get_game(game_id).version == 5
    # but not a malformed key: the header breaks the contract whatever the request is
    malformed = send(app, game_id, 0, {"type": "draw"}, dry_run=True, idempotency_key="bad key")
    assert isinstance(malformed, commands.BadIdempotencyKey) and app.get_game(game_id).version == 5


def test_a_command_overtaken_by_another_is_decided_again_unless_it_named_a_version(app, game_id):
    """Decided on version 5 and overtaken by a command stored there first: sent as it is, it
    is decided again on version 7 (where it is no longer seat 0's turn: the rules' 422); sent
    with expected_version 5 it is 409, with If-Match "5" 412."""
    game = app.get_game(game_id)
    assert isinstance(send(app, game_id, 0, {"type": "draw"}), commands.Accepted)
    late = commands.send(app, CommandRequest(game_id, 0, {"type": "stand"}), app._load_game(game_id, version=5), True)
    assert isinstance(late, commands.Refused) and app.get_game(game_id).version == 7
    named = commands.send(app, CommandRequest(game_id, 0, {"type": "stand", "expected_version": 5}),
                          app._load_game(game_id, version=5), True)
    assert named == commands.Overtaken()
    precondition = commands.send(app, CommandRequest(game_id, 0, {"type": "stand"}, if_match=IfMatch(False, frozenset({"5"}))),
                                 game, True)
    assert precondition == commands.PreconditionFailed(7)
    starred = commands.send(app, CommandRequest(game_id, 1, {"type": "draw"}, if_match=IfMatch(True, frozenset())),
                            app._load_game(game_id, version=5), True)
    assert isinstance(starred, commands.Refused)   # seat 1 at version 5: not its turn, refused, never stored


def test_seats_of_a_simultaneous_phase_acting_on_one_version_are_both_stored():
    """League of Pirates opens with both seats choosing a league at once: each decided on the
    same version, one is stored first, and the other is decided again on the new version and
    stored too, with no 409 for a command that named no version."""
    from domain.registry import all_rulesets

    league = all_rulesets()["league-of-pirates"]
    app = Parley({league.id: league}, env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        game_id = app.create_game(league.id, ["Kira", "David"], "server").game.id
        both = app.get_game(game_id)
        assert sorted(both.status.to_move) == [0, 1]
        choices = {seat: next(c for c in league.legal_commands(both.state, seat)) for seat in (0, 1)}
        first = commands.send(app, CommandRequest(game_id, 0, choices[0]), app.get_game(game_id), True)
        assert isinstance(first, commands.Accepted)
        stale = app._load_game(game_id, version=both.version)
        second = commands.send(app, CommandRequest(game_id, 1, choices[1]), stale, True)   # decided on the old version
        assert isinstance(second, commands.Accepted), second
        assert second.game.version > first.game.version
        stale = app._load_game(game_id, version=both.version)
        late = commands.send(app, CommandRequest(game_id, 0, {**choices[0], "expected_version": both.version}),
                             stale, True)
        assert not isinstance(late, commands.Accepted)   # a version named: never decided again
    finally:
        app.close()
def test_whatever_a_stale_kept_game_leads_to_but_a_stored_command_is_decided_again(app, game_id):
    stale = app._load_game(game_id, version=5)
    assert isinstance(send(app, game_id, 0, {"type": "draw"}), commands.Accepted)  # seat 1 to move now
    outcome = commands.send(app, CommandRequest(game_id, 1, {"type": "draw"}), stale, caught_up=False)
    assert isinstance(outcome, commands.Accepted) and outcome.game.version == 9
    outcome = commands.send(app, CommandRequest(game_id, 0, {"type": "draw", "expected_version": 9}), stale,
                            caught_up=False)
    assert isinstance(outcome, commands.Accepted)


def test_the_use_case_and_what_it_imports_know_nothing_of_http():
    """service/commands.py and every project module it imports (but the package's __init__,
    the Flask app factory) import neither Flask nor marshmallow nor werkzeug."""
    root = pathlib.Path(__file__).resolve().parents[2]
    seen, todo, http = set(), ["service.commands"], set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = root.joinpath(*module.split(".")).with_suffix(".py")
        if not path.exists():
            path = root.joinpath(*module.split("."), "__init__.py")
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module, *(f"{node.module}.{a.name}" for a in node.names)] \
                if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                top = name.split(".")[0]
                if top in ("flask", "flask_smorest", "marshmallow", "werkzeug", "webargs"):
                    http.add(f"{module} imports {name}")
                elif top in ("service", "domain", "disputes") and name != "service" and (
                        root.joinpath(*name.split(".")).with_suffix(".py").exists()
                        or root.joinpath(*name.split("."), "__init__.py").exists()):
                    todo.append(name)
    assert {"service.application", "domain.adjudication"} <= seen and not http, http
