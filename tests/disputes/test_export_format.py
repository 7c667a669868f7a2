"""What a well-formed export is (disputes/export.py), checked once for verify, replay and the
`parley` command alike: every export the service writes is one, and a malformed one is
refused with each problem named by its path, never a crash."""
from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from disputes.cli import main
from disputes.export import SCHEMA, MalformedExport, problems
from disputes.replay import replay
from disputes.verify import Unverifiable, verify
from tests.disputes.conftest import KINDS
from tests.disputes.games import CORSAIRS, LEAGUE, export, tampered
from tests.disputes.mutations import MUTATION, mutated


def ids(kind):
    return "-".join(kind)


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_every_export_the_service_writes_is_well_formed(finished_exports, running_games, kind):
    game = running_games[kind]
    for document in (finished_exports[kind], export(game), export(game, game.host), export(game, game.seat(0))):
        assert problems(document) == []


def test_a_malformed_export_names_each_problem_by_its_path(finished_exports):
    document = tampered(finished_exports[(CORSAIRS, "server")])
    document["setup"][0]["version"] = "2"
    document["commands"][1]["events"][0]["event"]["type"] = [1]
    del document["creation"]["seats"][0]["name"]
    found = problems(document)
    assert "$.setup[0].version: must be an integer, not a string" in found
    assert "$.commands[1].events[0].event.type: must be a string, not an array" in found
    assert "$.creation.seats[0].name: is missing" in found
    for check in (verify, replay):
        with pytest.raises(MalformedExport) as refused:
            check(document)
        assert refused.value.problems == found
        assert isinstance(refused.value, Unverifiable)  # what cannot be checked at all


# The check is compiled from SCHEMA (disputes/export.py says why); jsonschema is the reference.
# An export's integers are ints: not 2.0, which JSON Schema's "integer" admits.
REFERENCE = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: type(value) is int))(SCHEMA)


def reference_paths(document) -> set[str]:
    """Where jsonschema finds a problem, written as problems() writes paths."""
    found = set()
    for error in REFERENCE.iter_errors(document):
        path = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in error.absolute_path)
        if error.validator == "required":
            found |= {f"{path}.{key}" for key in error.validator_value if key not in error.instance}
        else:
            found.add(path)
    return found


def test_the_format_is_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(mutations=st.lists(MUTATION, min_size=1, max_size=3), envelope_only=st.booleans())
def test_the_check_finds_what_jsonschema_finds_where_it_finds_it(finished_exports, mutations, envelope_only):
    # The first 40 commands of a whole game hold every shape the format has; jsonschema on
    # every record of the whole game took over a minute for the 300 examples.
    whole = finished_exports[(LEAGUE, "table")]
    document = mutated({**whole, "commands": whole["commands"][:40]}, mutations, envelope_only)
    found = problems(document)
    expected = reference_paths(document)
    assert (found == []) == (expected == set()), (found, expected)
    for problem in found:
        if not problem.startswith("…"):
            assert problem.split(": ")[0] in expected, (problem, expected)


def test_a_problem_never_echoes_a_large_value():
    found = problems({"format": "x" * 100_000, "creation": ["y" * 100_000], "setup": [], "commands": []})
    assert found and all(len(p) < 300 for p in found)


def test_the_problems_are_bounded_however_many_there_are(finished_exports):
    document = tampered(finished_exports[(CORSAIRS, "server")])
    for command in document["commands"]:
        command["seat"] = "nobody"
    found = problems(document)
    assert len(found) == 21 and found[-1].startswith("…")


def test_replay_names_the_record_the_rules_cannot_apply(finished_exports):
    document = tampered(finished_exports[(LEAGUE, "server")])
    entry = document["commands"][2]["events"][0]
    kind = entry["event"]["type"]
    entry["event"] = {"type": kind, "seat": "nobody", "values": None}
    with pytest.raises(Unverifiable, match=rf"the event at version {entry['version']} \({kind}\)"):
        replay(document)
    assert replay(document, at=entry["version"] - 1)["version"] == entry["version"] - 1


# The parley command -------------------------------------------------------------------------

def write(tmp_path, text: str):
    path = tmp_path / "export.json"
    path.write_text(text)
    return str(path)


def test_parley_prints_the_problems_of_a_malformed_export_and_exits_3(tmp_path, finished_exports, capsys):
    document = tampered(finished_exports[(CORSAIRS, "server")])
    document["commands"][0]["events"][0]["event"] = {"type": [1]}
    path = write(tmp_path, json.dumps(document))
    for command in (["verify", path], ["replay", path], ["replay", path, "--at", "3"]):
        assert main(command) == 3
        err = capsys.readouterr().err
        assert "not a well-formed export" in err and "$.commands[0].events[0].event.type" in err
        assert "Traceback" not in err


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a": ' * 50_000, "[" * 65 + "]" * 65, '{"format": NaN}',
                                  "1" * 5000, "", "\ufeff{}"],
                         ids=["deep list", "deep object", "65 levels", "NaN", "5000 digits", "empty", "BOM"])
def test_parley_refuses_a_file_that_is_not_strict_json_without_a_traceback(tmp_path, capsys, text):
    path = write(tmp_path, text)
    for command in (["verify", path], ["replay", path]):
        assert main(command) == 3
        assert "not JSON" in capsys.readouterr().err


def test_parley_replay_names_the_record_it_cannot_apply(tmp_path, finished_exports, capsys):
    document = tampered(finished_exports[(CORSAIRS, "server")])
    entry = next(e for c in document["commands"] for e in c["events"] if e["event"]["type"] == "DiceRolled")
    entry["event"] = {"type": "DiceRolled"}
    path = write(tmp_path, json.dumps(document))
    assert main(["replay", path]) == 3
    assert f"the event at version {entry['version']} (DiceRolled) cannot be applied" in capsys.readouterr().err
    assert main(["verify", path]) == 1  # the log diverges there: a verdict
