"""POST /replays and POST /verifications refuse a malformed export cleanly (issue 13, part 4).

A document not shaped like an export is 400 MALFORMED_EXPORT, with `problems` naming each
problem by its path; an export replay cannot show (a broken sequence, a record the rules
cannot apply) is 422 UNREPLAYABLE_EXPORT naming the record; a well-formed export whose log
differs from what the rules produce stays a 200 "divergent" verdict. Never a 5xx.
"""
from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.test_hostile_input import INTERNALS, RFC9457
from tests.disputes.games import CORSAIRS, export, new_app, played, rechain
from tests.disputes.mutations import MUTATION, mutated

PROBLEM = "application/problem+json"
TOTAL = "/replays", "/replays?at=2", "/verifications"


@pytest.fixture(scope="module")
def disputes_client():
    app = new_app()
    yield app.test_client()
    app.extensions["parley"].close()


@pytest.fixture(scope="module")
def real(disputes_client) -> dict:
    """The arbiter's export of a running Corsairs game (server chance): complete, with the seed."""
    document = export(played(disputes_client, CORSAIRS, "server", commands=12))
    assert disputes_client.post("/verifications", json=document).get_json()["verdict"] == "valid"
    return document


def post(client, path: str, document) -> tuple[int, dict]:
    response = client.post(path, data=json.dumps(document), content_type="application/json")
    assert response.status_code < 500, (path, response.status_code, response.get_data()[:500])
    body = response.get_json()
    if response.status_code >= 400:
        assert response.content_type == PROBLEM, response.content_type
        for member in RFC9457 + ("code",):
            assert member in body, (member, body)
        text = response.get_data(as_text=True)
        for leak in INTERNALS:
            assert leak not in text, (leak, text[:500])
    return response.status_code, body


# Where things are in the Corsairs export (tests/disputes/games.py plays it): the creation
# record is version 1, setup versions 2 to 6, the first command (roll_dice) version 7.

def roll(document: dict) -> tuple[int, int, dict]:
    """The first DiceRolled entry: (command index, event index, entry)."""
    for i, command in enumerate(document["commands"]):
        for j, entry in enumerate(command["events"]):
            if entry["event"]["type"] == "DiceRolled":
                return i, j, entry
    raise AssertionError("no DiceRolled in the export")


def at_roll(path_in_entry: str) -> Callable[[dict], str]:
    def where(document):
        i, j, _ = roll(document)
        return f"$.commands[{i}].events[{j}]{path_in_entry}"
    return where


def edit(change: Callable[[dict], object]) -> Callable[[dict], dict]:
    """A mutation: `change` edits the document in place, or returns a replacement."""
    def mutate(document):
        document = copy.deepcopy(document)
        replaced = change(document)
        return document if replaced is None else replaced
    return mutate


def setitem(target: Callable[[dict], tuple[object, object]], value) -> Callable[[dict], None]:
    def change(document):
        container, key = target(document)
        container[key] = value
    return change


def delitem(target: Callable[[dict], tuple[object, object]]) -> Callable[[dict], None]:
    def change(document):
        container, key = target(document)
        del container[key]
    return change


def the(*keys) -> Callable[[dict], tuple[object, object]]:
    """(container, key) at a path of keys from the document's root."""
    def target(document):
        container = document
        for key in keys[:-1]:
            container = container[key]
        return container, keys[-1]
    return target


def rolled(key: str | None = None) -> Callable[[dict], tuple[object, object]]:
    """(container, key) in the first DiceRolled entry (key None: the entry's event)."""
    def target(document):
        entry = roll(document)[2]
        return (entry, "event") if key is None else (entry["event"], key)
    return target


# Not shaped like an export: 400 MALFORMED_EXPORT everywhere, a problem naming the path ---------

@dataclass
class Malformed:
    mutate: Callable[[dict], object]
    path: str | Callable[[dict], str]  # the path one problem names
    words: str = ""  # and words that problem says


MALFORMED: dict[str, Malformed] = {
    # the three the issue names
    "an event type that is a list": Malformed(edit(setitem(rolled(), {"type": [1]})), at_roll(".event.type"), "string"),
    "a setup version that is a string": Malformed(edit(setitem(the("setup", 0, "version"), "two")), "$.setup[0].version", "integer"),
    "a setup version below 1": Malformed(edit(setitem(the("setup", 1, "version"), -3)), "$.setup[1].version", "at least 1"),
    # the document itself
    "a list": Malformed(lambda d: [d], "$", "object"),
    "a string": Malformed(lambda d: "parley-export/1", "$", "object"),
    "null": Malformed(lambda d: None, "$", "object"),
    "an empty object": Malformed(lambda d: {}, "$.format", "missing"),
    "another format": Malformed(edit(setitem(the("format"), "parley-export/2")), "$.format", "parley-export/1"),
    "a format that is a number": Malformed(edit(setitem(the("format"), 1)), "$.format"),
    "no creation": Malformed(edit(delitem(the("creation"))), "$.creation", "missing"),
    "no commands": Malformed(edit(delitem(the("commands"))), "$.commands", "missing"),
    # wrong types everywhere in the envelope
    "a creation that is a string": Malformed(edit(setitem(the("creation"), "corsairs")), "$.creation", "object"),
    "seats that are an object": Malformed(edit(setitem(the("creation", "seats"), {"0": "Kira"})), "$.creation.seats", "array"),
    "a seat name that is a number": Malformed(edit(setitem(the("creation", "seats", 1, "name"), 7)), "$.creation.seats[1].name", "string"),
    "a seat number that is a string": Malformed(edit(setitem(the("creation", "seats", 0, "seat"), "0")), "$.creation.seats[0].seat", "integer"),
    "a ruleset that is a list": Malformed(edit(setitem(the("creation", "ruleset"), ["corsairs-of-valeria"])), "$.creation.ruleset", "string"),
    "options that are a list": Malformed(edit(setitem(the("creation", "options"), [])), "$.creation.options", "object"),
    "a table setup that is a number": Malformed(edit(setitem(the("creation", "table_setup"), 3)), "$.creation.table_setup", "object"),
    "a chance mode of dice": Malformed(edit(setitem(the("creation", "chance", "mode"), "dice")), "$.creation.chance.mode", "server"),
    "a commitment that is a number": Malformed(edit(setitem(the("creation", "chance", "commitment"), 4)), "$.creation.chance.commitment", "string"),
    "setup that is an object": Malformed(edit(setitem(the("setup"), {})), "$.setup", "array"),
    "commands that are a string": Malformed(edit(setitem(the("commands"), "roll_dice")), "$.commands", "array"),
    "a setup entry that is a number": Malformed(edit(setitem(the("setup", 0), 5)), "$.setup[0]", "object"),
    "an event that is a string": Malformed(edit(setitem(the("setup", 0, "event"), "GameSetUp")), "$.setup[0].event", "object"),
    "an event without a type": Malformed(edit(delitem(rolled("type"))), at_roll(".event.type"), "missing"),
    "an event entry without its event": Malformed(edit(delitem(the("setup", 2, "event"))), "$.setup[2].event", "missing"),
    "a command body that is a list": Malformed(edit(setitem(the("commands", 0, "body"), ["roll_dice"])), "$.commands[0].body", "object"),
    "a command body without a type": Malformed(edit(setitem(the("commands", 0, "body"), {})), "$.commands[0].body.type", "missing"),
    "a command type that is a list": Malformed(edit(setitem(the("commands", 0, "body", "type"), [1])), "$.commands[0].body.type", "string"),
    "a command seat that is a string": Malformed(edit(setitem(the("commands", 0, "seat"), "0")), "$.commands[0].seat", "integer"),
    "a command seat that is a boolean": Malformed(edit(setitem(the("commands", 0, "seat"), False)), "$.commands[0].seat", "integer"),
    "command events that are an object": Malformed(edit(setitem(the("commands", 1, "events"), {})), "$.commands[1].events", "array"),
    "a salt that is a number": Malformed(edit(setitem(the("setup", 0, "salt"), 12)), "$.setup[0].salt", "string"),
    "a hash that is a list": Malformed(edit(setitem(the("commands", 2, "events", 0, "hash"), [])), "$.commands[2].events[0].hash", "string"),
    "redacted that is a string": Malformed(edit(setitem(the("setup", 0, "redacted"), "yes")), "$.setup[0].redacted", "boolean"),
    "a status of over": Malformed(edit(setitem(the("status"), "over")), "$.status", "active"),
    "a seed that is a number": Malformed(edit(setitem(the("seed"), 7)), "$.seed", "string"),
    "exported for nobody": Malformed(edit(setitem(the("exported_for"), "me")), "$.exported_for"),
    "an export version that is a string": Malformed(edit(setitem(the("version"), "22")), "$.version", "integer"),
    "a member the format does not have": Malformed(edit(setitem(the("setup", 0, "extra"), 1)), "$.setup[0]", "extra"),
    # at the top too: a verdict of 'valid' must not pass for one on a member no verifier read
    "a top-level member the format does not have": Malformed(edit(setitem(the("winner"), 0)), "$", "winner"),
    # versions that cannot be versions
    "a version that is a float": Malformed(edit(setitem(the("setup", 0, "version"), 2.0)), "$.setup[0].version", "integer"),
    "a version that is a boolean": Malformed(edit(setitem(the("setup", 0, "version"), True)), "$.setup[0].version", "integer"),
    "a version of 10**30": Malformed(edit(setitem(the("setup", 0, "version"), 10**30)), "$.setup[0].version", "at most"),
    "a creation version of 0": Malformed(edit(setitem(the("creation", "version"), 0)), "$.creation.version", "at least 1"),
    # seats no game has, and absurd sizes
    "a command seat of 10**30": Malformed(edit(setitem(the("commands", 0, "seat"), 10**30)), "$.commands[0].seat", "at most"),
    "a command seat of -1": Malformed(edit(setitem(the("commands", 0, "seat"), -1)), "$.commands[0].seat", "at least 0"),
    "no seats": Malformed(edit(setitem(the("creation", "seats"), [])), "$.creation.seats", "at least 1"),
    "a thousand seats": Malformed(edit(setitem(the("creation", "seats"), [{"seat": i, "name": f"P{i}"} for i in range(1000)])),
                                  "$.creation.seats", "at most 16"),
    "a 100k-character ruleset": Malformed(edit(setitem(the("creation", "ruleset"), "r" * 100_000)), "$.creation.ruleset", "at most"),
    "a 10k-character seat name": Malformed(edit(setitem(the("creation", "seats", 0, "name"), "\U0001F3F4" * 10_000)),
                                           "$.creation.seats[0].name", "at most"),
    "a 1k-character event type": Malformed(edit(setitem(rolled("type"), "D" * 1000)), at_roll(".event.type"), "at most"),
    "a seed that is not hex": Malformed(edit(setitem(the("seed"), "not a seed")), "$.seed"),
    # JSON Schema's '$' ends the text; Python's re.search let a final newline follow it.
    "a seed with a final newline": Malformed(edit(setitem(the("seed"), "ab" * 32 + "\n")), "$.seed", "hexadecimal"),
    "a head hash with a final newline": Malformed(edit(setitem(the("head_hash"), "ab" * 32 + "\n")), "$.head_hash",
                                                  "hexadecimal"),
    "a salt with a final newline": Malformed(edit(setitem(the("creation", "salt"), "ab" * 16 + "\n")),
                                             "$.creation.salt", "hexadecimal"),
}


def named_path(case: Malformed, document: dict) -> str:
    return case.path(document) if callable(case.path) else case.path


@pytest.mark.parametrize("name", list(MALFORMED))
@pytest.mark.parametrize("path", TOTAL)
def test_a_malformed_export_is_a_400_naming_each_problem_by_its_path(disputes_client, real, name, path):
    case = MALFORMED[name]
    status, problem = post(disputes_client, path, case.mutate(real))
    assert (status, problem["code"]) == (400, "MALFORMED_EXPORT"), problem
    where = named_path(case, real)
    found = [p for p in problem["problems"] if p.startswith(where + ": ")]
    assert found, (where, problem["problems"])
    assert case.words in found[0], (case.words, found)
    assert where in problem["detail"] or "problems" in problem["detail"]


def test_every_problem_is_listed_up_to_a_bound_and_none_echoes_a_huge_value(disputes_client, real):
    document = copy.deepcopy(real)
    for entry in document["setup"] + [e for c in document["commands"] for e in c["events"]]:
        entry["event"]["type"] = ["x" * 10_000]
    status, problem = post(disputes_client, "/verifications", document)
    assert (status, problem["code"]) == (400, "MALFORMED_EXPORT")
    assert 10 <= len(problem["problems"]) <= 21
    assert problem["problems"][0].startswith("$.setup[0].event.type: ")
    # More than are listed were found: the detail does not count them as if they were all listed.
    assert len(problem["problems"]) == 21 and problem["detail"].endswith(" (and more: see 'problems')"), problem["detail"]
    assert "more" in problem["problems"][-1]
    assert len(json.dumps(problem)) < 5000


# Well-formed, but not a log replay can show: 422 for replay, a divergent verdict --------------

@dataclass
class Inconsistent:
    mutate: Callable[[dict], object]
    replay_says: str  # words the 422 UNREPLAYABLE_EXPORT detail holds
    check: str  # the divergence POST /verifications reports


def _swap_commands(document):
    document["commands"][3], document["commands"][4] = document["commands"][4], document["commands"][3]


def _drop_event(document):
    batch = next(c for c in document["commands"] if len(c["events"]) > 1)
    batch["events"].pop(0)


def _duplicate_version(document):
    document["commands"][1]["events"][0]["version"] = document["commands"][0]["events"][-1]["version"]


def _seat_no_game_has(document):
    document["commands"][2]["seat"] = 7  # a seat some game may have, not this 2-seat one
    rechain(document)


INCONSISTENT: dict[str, Inconsistent] = {
    "a setup list with bogus versions": Inconsistent(edit(setitem(the("setup", 0, "version"), 99)), "version 1 is followed by version 99", "sequence"),
    "versions out of order": Inconsistent(edit(_swap_commands), "version", "sequence"),
    "a version missing": Inconsistent(edit(_drop_event), "version", "sequence"),
    "a version duplicated": Inconsistent(edit(_duplicate_version), "version", "sequence"),
    "a creation record that is not version 1": Inconsistent(edit(setitem(the("creation", "version"), 5)), "version 1", "sequence"),
    "a command by a seat the game does not have": Inconsistent(edit(_seat_no_game_has), "seat 7", "rules"),
}


@pytest.mark.parametrize("name", list(INCONSISTENT))
def test_a_log_out_of_sequence_cannot_be_replayed_and_verifies_divergent(disputes_client, real, name):
    case = INCONSISTENT[name]
    document = case.mutate(real)
    for path in ("/replays", "/replays?at=2"):
        status, problem = post(disputes_client, path, document)
        assert (status, problem["code"]) == (422, "UNREPLAYABLE_EXPORT"), problem
        assert case.replay_says in problem["detail"], problem["detail"]
    status, report = post(disputes_client, "/verifications", document)
    assert status == 200 and report["verdict"] == "divergent", report
    assert report["divergence"]["check"] == case.check, report["divergence"]


def test_an_unknown_ruleset_is_unreplayable_and_unverifiable(disputes_client, real):
    document = copy.deepcopy(real)
    document["creation"]["ruleset"] = "chess"
    for path in ("/replays", "/replays?at=2"):
        status, problem = post(disputes_client, path, document)
        assert (status, problem["code"]) == (422, "UNREPLAYABLE_EXPORT") and "chess" in problem["detail"]
    status, problem = post(disputes_client, "/verifications", document)
    assert (status, problem["code"]) == (422, "UNVERIFIABLE_EXPORT") and "chess" in problem["detail"]


def test_a_version_past_the_end_is_unreplayable(disputes_client, real):
    status, problem = post(disputes_client, f"/replays?at={10**30}", real)
    assert (status, problem["code"]) == (422, "UNREPLAYABLE_EXPORT")
    assert "no version" in problem["detail"]


# Well-shaped records the rules cannot apply ----------------------------------------------

def test_an_event_with_its_fields_missing_is_a_422_naming_its_version_and_type(disputes_client, real):
    # The issue's own example: {"type": "DiceRolled"} replayed was a 500.
    document = copy.deepcopy(real)
    entry = roll(document)[2]
    entry["event"] = {"type": "DiceRolled"}
    version = entry["version"]
    status, problem = post(disputes_client, "/replays", document)
    assert (status, problem["code"]) == (422, "UNREPLAYABLE_EXPORT"), problem
    assert f"the event at version {version} (DiceRolled) cannot be applied" in problem["detail"]
    status, problem = post(disputes_client, f"/replays?at={version}", document)
    assert status == 422 and f"version {version} (DiceRolled)" in problem["detail"]
    # the game before that record is still the game the log records
    status, shown = post(disputes_client, f"/replays?at={version - 1}", document)
    assert status == 200 and shown["version"] == version - 1
    # verification answers where the log parts from the rules: a verdict, not a refusal
    status, report = post(disputes_client, "/verifications", rechain(document))
    assert status == 200 and report["verdict"] == "divergent"
    found = report["divergence"]
    assert (found["version"], found["check"]) == (version, "events")
    assert found["recorded"] == {"type": "DiceRolled"} and found["expected"]["type"] == "DiceRolled"


def test_a_setup_event_the_rules_cannot_apply_is_refused_from_its_version(disputes_client, real):
    document = copy.deepcopy(real)
    document["setup"][0]["event"] = {"type": "GameSetUp", "players": 3}
    status, problem = post(disputes_client, "/replays?at=2", document)
    assert (status, problem["code"]) == (422, "UNREPLAYABLE_EXPORT")
    assert "version 2 (GameSetUp)" in problem["detail"]
    status, report = post(disputes_client, "/verifications", rechain(document))
    assert status == 200 and report["divergence"]["check"] == "setup"


CONTENT = {
    "dice that are a string": {"rolled": "six"},
    "dice that are numbers": {"rolled": [1, 2, 3], "dice": 10**20},
    "a seat that is a string": {"seat": "Kira"},
    "a seat no game has": {"seat": 12},
    "an event type the rules do not know": {"type": "KrakenReleased"},
    "nested nonsense": {"rolled": [[[{"a": None}]]], "dice": {"b": [True]}},
}


@pytest.mark.parametrize("name", list(CONTENT))
def test_event_content_the_rules_cannot_read_is_never_a_5xx(disputes_client, real, name):
    document = copy.deepcopy(real)
    entry = roll(document)[2]
    entry["event"].update(CONTENT[name])
    for path in ("/replays", f"/replays?at={entry['version']}"):
        status, body = post(disputes_client, path, document)
        if status != 200:
            assert (status, body["code"]) == (422, "UNREPLAYABLE_EXPORT"), body
            assert f"version {entry['version']}" in body["detail"]
    status, report = post(disputes_client, "/verifications", rechain(document))
    assert status == 200 and report["verdict"] == "divergent"
    assert report["divergence"]["version"] == entry["version"]


def test_a_valid_export_still_replays_and_verifies(disputes_client, real):
    status, shown = post(disputes_client, "/replays?at=7", real)
    assert status == 200 and shown["version"] == 7 and shown["last_command"]["body"] == {"type": "roll_dice"}
    status, report = post(disputes_client, "/verifications", real)
    assert status == 200 and report["verdict"] == "valid"


def test_the_request_body_documented_is_the_export_format_that_is_checked(disputes_client):
    from disputes.export import SCHEMA
    from service.api.exports import export_document, openapi_schema

    served = disputes_client.get("/openapi.json").get_json()
    for path in ("/replays", "/verifications"):
        body = served["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/ExportDocument"}
    assert served["components"]["schemas"]["ExportDocument"] == export_document()
    assert {**export_document(), "title": SCHEMA["title"]} == {**openapi_schema(SCHEMA), "description": SCHEMA["title"]}


# Any mutation of a real export: never a 5xx --------------------------------------------------

@settings(max_examples=100, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutations=st.lists(MUTATION, min_size=1, max_size=3), envelope_only=st.booleans(),
       chained=st.booleans(), at=st.integers(min_value=1, max_value=40))
def test_no_mutation_of_a_real_export_is_ever_a_5xx(disputes_client, real, mutations, envelope_only, chained, at):
    # Most paths lead into event contents: half the time only the envelope is edited.
    document = mutated(real, mutations, envelope_only)
    if chained:  # a forger who re-chains gets past the hash chain to the rules themselves
        with contextlib.suppress(Exception):
            rechain(document)
    for path in ("/replays", f"/replays?at={at}", "/verifications"):
        status, body = post(disputes_client, path, document)
        if status >= 400:
            assert (status, body["code"]) in {(400, "MALFORMED_EXPORT"), (422, "UNREPLAYABLE_EXPORT"),
                                              (422, "UNVERIFIABLE_EXPORT")}, body
            if body["code"] == "MALFORMED_EXPORT":
                assert body["problems"] and all(p.startswith("$") for p in body["problems"])
