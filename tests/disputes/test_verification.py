"""POST /verifications' logic (disputes.verify): valid logs verify; every kind of tampering is
found at the version where it was done, by the hash chain or, when the forger re-chained, by
the rules themselves."""
from __future__ import annotations

import pytest

from disputes import chain
from disputes.verify import Unverifiable, verify
from tests.disputes.conftest import KINDS
from tests.disputes.games import CORSAIRS, LEAGUE, SEAS, TESOROS, VALERIA, export, rechain, records, tampered

SERVER_KINDS = [k for k in KINDS if k[1] == "server"]
ROLLS = {"DiceRolled": "rolled", "DiceThrown": "values"}  # Corsairs, League


def ids(kind):
    return "-".join(kind)


def command_at(document: dict, index: int) -> dict:
    """A command some way into the log (skipping the very first ones)."""
    return document["commands"][index]


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_a_finished_game_exported_by_a_seat_verifies_valid(finished_exports, kind):
    document = finished_exports[kind]
    assert document["complete"] and document["status"] == "finished"
    assert (document["seed"] is not None) == (kind[1] == "server")
    report = verify(document)
    assert report.verdict == "valid", report.divergence
    assert report.valid and report.divergence is None and report.version == document["version"]


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_the_arbiters_export_of_a_running_game_verifies_valid(running_games, kind):
    document = export(running_games[kind])
    assert document["status"] == "active" and document["complete"]
    report = verify(document)
    assert report.verdict == "valid", report.divergence


def test_a_running_server_game_without_its_seed_is_incomplete_not_valid(running_games):
    game = running_games[(CORSAIRS, "server")]
    document = export(game, game.host)
    assert document["complete"] and document["seed"] is None
    report = verify(document)
    assert report.verdict == "incomplete" and not report.valid
    assert "seed" in " ".join(report.notes) and "altered" not in " ".join(report.notes)


def test_a_finished_server_games_export_without_its_seed_is_said_to_be_altered(finished_exports):
    document = tampered(finished_exports[(CORSAIRS, "server")])
    assert document["status"] == "finished" and document["seed"]
    document["seed"] = None
    report = verify(document)
    assert report.verdict == "incomplete"
    assert report.notes[-1] == ("This export says the game is finished yet carries no seed, which every export of "
                                "a finished game does: it was altered or cut.")


def test_every_recorded_hash_is_the_chain_recomputed(finished_exports):
    from disputes import chain

    document = finished_exports[(CORSAIRS, "server")]
    previous = document["creation"]["hash"]
    for entry in records(document):
        assert entry["hash"] == chain.event_hash(previous, entry["version"], entry["salt"],
                                                 entry["event"], entry["command"])
        previous = entry["hash"]
    assert previous == document["head_hash"]


# Tampering ---------------------------------------------------------------------------------

def divergence(document: dict):
    report = verify(document)
    assert report.verdict == "divergent", report
    return report.divergence


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_an_edited_event_breaks_the_chain_at_its_version(finished_exports, kind):
    document = tampered(finished_exports[kind])
    entry = command_at(document, 10)["events"][0]
    entry["event"]["edited"] = True
    found = divergence(document)
    assert (found.version, found.check) == (entry["version"], "hash_chain")


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_an_edited_event_re_chained_is_refuted_by_the_rules_at_its_version(finished_exports, kind):
    document = tampered(finished_exports[kind])
    entry = command_at(document, 10)["events"][0]
    original = dict(entry["event"])
    entry["event"]["edited"] = True
    found = divergence(rechain(document))
    assert (found.version, found.check) == (entry["version"], "events")
    assert found.expected == original and found.recorded == entry["event"]


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_reordered_commands_are_found_where_the_order_changes(finished_exports, kind):
    document = tampered(finished_exports[kind])
    commands = document["commands"]
    first = commands[12]["events"][0]["version"]
    commands[12], commands[13] = commands[13], commands[12]
    found = divergence(document)
    assert (found.version, found.check) == (first, "sequence")


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_reordered_events_renumbered_break_the_chain_where_the_order_changes(finished_exports, kind):
    document = tampered(finished_exports[kind])
    setup = document["setup"] if len(document["setup"]) > 1 else None
    entries = setup or next(c["events"] for c in document["commands"] if len(c["events"]) > 1)
    first, second = entries[0]["version"], entries[1]["version"]
    entries[0], entries[1] = entries[1], entries[0]
    entries[0]["version"], entries[1]["version"] = first, second
    found = divergence(document)
    assert (found.version, found.check) == (first, "hash_chain")


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_a_deleted_event_is_found_at_its_version(finished_exports, kind):
    document = tampered(finished_exports[kind])
    batch = next(c for c in document["commands"][10:] if len(c["events"]) > 1)
    gone = batch["events"].pop(1)
    found = divergence(document)
    assert (found.version, found.check) == (gone["version"], "sequence")


@pytest.mark.parametrize("kind", SERVER_KINDS, ids=ids)
def test_a_deleted_command_renumbered_and_re_chained_is_refuted_by_the_rules(finished_exports, kind):
    document = tampered(finished_exports[kind])
    gone = document["commands"].pop(15)
    start = gone["events"][0]["version"]
    for command in document["commands"][15:]:
        command["version_before"] -= len(gone["events"])
        for entry in command["events"]:
            entry["version"] -= len(gone["events"])
    found = divergence(rechain(document))
    # Found where the log stops being the game the seed and the rules make: at the gap, or
    # at the first later command whose outcome the shifted chance position changes.
    assert found.version >= start and found.check in ("events", "rules")


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_a_command_whose_version_before_is_not_the_version_before_it_is_found_there(finished_exports, kind):
    """version_before is outside the hash chain: checked against the command's first event."""
    document = tampered(finished_exports[kind])
    command = document["commands"][10]
    command["version_before"] = 1
    found = divergence(document)
    first = command["events"][0]["version"]
    assert (found.version, found.check, found.recorded, found.expected) == (first, "sequence", 1, first - 1)


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_an_edited_command_breaks_the_chain_at_its_first_event(finished_exports, kind):
    document = tampered(finished_exports[kind])
    command = command_at(document, 20)
    command["body"]["edited"] = True
    found = divergence(document)
    assert (found.version, found.check) == (command["events"][0]["version"], "hash_chain")


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_a_command_moved_to_another_seat_and_re_chained_is_refused_by_the_rules(finished_exports, kind):
    document = tampered(finished_exports[kind])
    command = command_at(document, 20)
    command["seat"] = 1 - command["seat"]
    found = divergence(rechain(document))
    assert found.version == command["events"][0]["version"]
    if found.check == "rules":  # the rules refuse it, and say which rule
        assert found.rule["code"] and found.rule["rule"] and found.rule["detail"]
    else:  # or accept it for that seat with other events
        assert found.check == "events"


def appended(document: dict, seat: int, body: dict) -> dict:
    """The export with one more command at its end (one made-up event), re-chained."""
    document = tampered(document)
    version = document["version"] + 1
    document["commands"].append({"seat": seat, "body": body, "version_before": version - 1, "events": [
        {"version": version, "event": {"type": "Forged"}, "salt": "0" * 32, "hash": None}]})
    document["version"] = version
    return rechain(document)


@pytest.mark.parametrize("body, finished", [
    ({"type": "summon_kraken"}, False),
    ({"type": "roll_dice", "kraken": True, "extra": [1]}, False),
    ({"type": "roll_dice"}, True),
], ids=["unknown command", "off its schema", "after the end"])
def test_a_forged_command_is_refused_with_the_services_own_answer(finished_games, running_games, body, finished):
    """The verifier and the service decide a command with the same checks (domain/adjudication.py):
    a forged record is refused with the code, section, words and problems the service answers."""
    game = (finished_games if finished else running_games)[(CORSAIRS, "server")]
    found = divergence(appended(export(game), 0, body))
    assert (found.check, found.version) == ("rules", export(game)["version"] + 1)
    answer = game.send({**body, "seat": 0}, game.host)
    assert answer.status_code == 422
    problem = answer.get_json()
    assert found.rule["code"] == problem["code"] and found.rule["rule"] == problem["section"] == "Parley: commands"
    assert found.detail == f"The rules refuse the recorded command: {problem['detail']}"
    assert found.rule.get("problems") == problem.get("problems")
    assert problem["code"] == ("GAME_FINISHED" if finished else "UNKNOWN_COMMAND" if "kraken" in body["type"]
                               else "INVALID_COMMAND")


def test_a_forged_command_by_a_seat_the_game_lacks_is_refused_as_the_service_refuses_it(running_games):
    game = running_games[(CORSAIRS, "server")]
    found = divergence(appended(export(game), 5, {"type": "summon_kraken"}))
    assert found.rule["code"] == "NO_SUCH_SEAT" and found.rule["detail"] == "This game has seats 0 to 1."
    assert game.send({"type": "summon_kraken", "seat": 5}, game.host).get_json()["detail"] == found.rule["detail"]


@pytest.mark.parametrize("kind", SERVER_KINDS, ids=ids)
def test_a_wrong_seed_is_found_against_the_commitment(finished_exports, kind):
    document = tampered(finished_exports[kind])
    document["seed"] = "00" * 32
    found = divergence(document)
    assert (found.version, found.check) == (1, "seed")


@pytest.mark.parametrize("kind", [k for k in KINDS if k[0] in (CORSAIRS, LEAGUE)], ids=ids)
def test_a_forged_roll_re_chained_is_refuted_at_its_version(finished_exports, kind):
    document = tampered(finished_exports[kind])
    for command in document["commands"][5:]:
        entry = next((e for e in command["events"] if e["event"]["type"] in ROLLS), None)
        if entry is not None:
            break
    event = entry["event"]
    field = ROLLS[event["type"]]
    faces = sorted({f for e in records(document) if e["event"]["type"] == event["type"]
                    for f in e["event"][field]}, key=repr)
    forged = next(f for f in faces if f != event[field][0])
    event[field][0] = forged
    if kind[1] == "table":  # at a table the outcome is in the command: forge both
        body = command["body"]
        body[next(k for k in ("faces", "values") if k in body)][0] = forged
    found = divergence(rechain(document))
    assert found.version == entry["version"] and found.check == "events"


@pytest.mark.parametrize("kind", [k for k in KINDS if k[1] == "table" and k[0] in (TESOROS, VALERIA, SEAS)],
                         ids=ids)
def test_a_table_outcome_changed_in_a_command_and_re_chained_is_refuted_there(finished_exports, kind):
    """What the table reported (a card drawn, one turned face up, the dice) is part of the
    command: another report, its events left as they were, is found at that command."""
    document = tampered(finished_exports[kind])
    reported = [(c, f) for c in document["commands"][5:] for f in ("drawn", "revealed", "dice") if c["body"].get(f)]
    assert reported, "the game carries no table outcome to change"
    command, field = reported[0]
    first = command["body"][field][0]
    others = [x for c, f in reported if f == field for x in c["body"][f] if x != first]
    command["body"][field][0] = first % 6 + 1 if field == "dice" else others[0]
    found = divergence(rechain(document))
    assert found.version == command["events"][0]["version"], found


def test_a_game_that_never_ended_cannot_claim_to_have_finished(running_games):
    document = export(running_games[(CORSAIRS, "server")])
    document["status"] = "finished"
    found = divergence(document)
    # What would end it is missing after its last record.
    assert found.check == "status" and found.version == document["version"] + 1


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_a_log_cut_short_under_its_own_header_is_found_where_the_records_are_missing(running_games, kind):
    """A running game's log cut after any command keeps an intact chain and is still a legal
    game: only the export's own version and head_hash (a player's receipt) say it was cut."""
    whole = export(running_games[kind])
    document = tampered(whole)
    kept = document["commands"][:-3]
    document["commands"] = kept
    found = divergence(document)
    assert (found.check, found.version) == ("sequence", kept[-1]["events"][-1]["version"] + 1), found
    assert (found.recorded, found.expected) == (whole["version"], found.version - 1)
    assert verify(rechain(document)).verdict == "valid"   # re-headed by the forger: only a kept receipt tells


def test_an_export_whose_header_names_another_head_is_divergent(running_games):
    whole = export(running_games[(CORSAIRS, "server")])
    assert "head: the export's version and head_hash are its last record's" in verify(whole).checked
    document = tampered(whole)
    document["head_hash"] = "0" * 64
    found = divergence(document)
    assert (found.check, found.version, found.recorded) == ("hash_chain", whole["version"], "0" * 64)
    assert found.expected == records(whole)[-1]["hash"]
    lower = tampered(whole)
    lower["version"] = whole["version"] - 2
    found = divergence(lower)
    assert (found.check, found.version) == ("sequence", whole["version"] - 1)
    headless = tampered(whole)
    del headless["version"], headless["head_hash"]   # both optional: a hand-written export may leave them out
    assert verify(headless).verdict == "valid"


def test_a_seed_in_a_table_games_export_is_noted_as_not_read(finished_exports):
    document = tampered(finished_exports[(CORSAIRS, "table")])
    assert document["seed"] is None and verify(document).notes == []
    document["seed"] = "ab" * 32
    report = verify(document)
    assert report.verdict == "valid" and report.notes == ["A table game has no seed: the one in this export was not read."]


def test_an_export_of_rules_the_verifier_lacks_is_unverifiable(finished_exports):
    document = tampered(finished_exports[(CORSAIRS, "server")])
    document["creation"]["ruleset_version"] = "0.0.1"
    with pytest.raises(Unverifiable, match="0.0.1"):
        verify(document)
    with pytest.raises(Unverifiable):
        verify({"format": "something else"})


@pytest.mark.parametrize("options", [{"pact_of_the_waves": 2}, {"pact_of_the_waves": 3, "scanning_the_horizon": True},
                                     {"pact_of_the_waves": 2, "chaos_on_the_high_seas": True}],
                         ids=["pact", "pact-scanning", "pact-chaos"])
def test_a_table_game_that_took_the_pacts_events_blind_is_played_to_its_end_and_verifies(disputes_app, options):
    """TP-22 over a whole game: the table names each Event as it turns up (from under the Anchor,
    or with Chaos from the Play Deck), from every Event not yet seen (the driver guesses from the host's nameable list and the refusals, as
    tests/disputes/games.py does for every table game), and the export re-adjudicates alike."""
    import random

    from tests.disputes.games import ARBITER, TABLE_SETUP, play
    from tests.fakes.http import create

    setup = dict(TABLE_SETUP[TESOROS])
    if options.get("scanning_the_horizon"):
        setup["face_up_event"] = "storm"
    game = create(disputes_app.test_client(), TESOROS, chance="table", options=options, setup=setup)
    chaos = options.get("chaos_on_the_high_seas", False)
    # with Chaos the last Event ends nothing, and random play seldom claims the last Treasure:
    # a long stretch of it, exported by the arbiter (complete while it runs)
    play(game, random.Random(11), 1500 if chaos else None)
    document = export(game, ARBITER if chaos else game.seat(0))
    assert document["status"] == ("active" if chaos else "finished") and document["complete"]
    placed = next(r["event"] for r in records(document) if r["event"]["type"] == "EventsPlacedUnderAnchor")
    assert placed["unnamed"] is True
    resolved = [r["event"]["event"] for r in records(document) if r["event"]["type"] == "EventResolved"]
    assert 0 < len(resolved) == len(set(resolved)) <= options["pact_of_the_waves"]   # none twice, never more than in play
    report = verify(document)
    assert report.verdict == "valid", report.divergence


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_a_finished_games_log_cut_short_under_its_header_is_found_where_the_records_are_missing(finished_exports,
                                                                                                 kind):
    """Not at its last kept record, which is intact, for the status it no longer reaches: the
    header's version names the first one missing, and that comes first."""
    whole = finished_exports[kind]
    document = tampered(whole)
    document["commands"] = document["commands"][:-1]
    found = divergence(document)
    assert (found.check, found.version) == ("sequence", document["commands"][-1]["events"][-1]["version"] + 1), found


def _json_retyped(value, ones: bool):
    """Every 0 and 1 as false and true (ones), or every other whole number as a decimal."""
    if isinstance(value, dict):
        return {k: _json_retyped(v, ones) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_retyped(v, ones) for v in value]
    if type(value) is int:
        if ones and value in (0, 1):
            return bool(value)
        if not ones and value > 1:
            return float(value)
    return value


@pytest.mark.parametrize("ones", [True, False], ids=["booleans", "decimals"])
@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_events_retyped_and_re_chained_are_not_the_events_the_rules_produce(finished_exports, kind, ones):
    """Python's == holds True == 1 and 5.0 == 5; JSON does not, and the log is JSON."""
    document = tampered(finished_exports[kind])
    changed = None
    for entries in [document["setup"]] + [c["events"] for c in document["commands"]]:
        for entry in entries:
            retyped = _json_retyped(entry["event"], ones)
            if changed is None and chain.canonical(retyped) != chain.canonical(entry["event"]):
                changed = entry["version"]
            entry["event"] = retyped
    if changed is None:
        pytest.skip("no event of this game holds such a number")
    found = divergence(rechain(document))
    assert (found.version, found.check) == (changed, "setup" if changed <= len(document["setup"]) + 1 else "events")


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_the_seat_numbers_of_the_creation_record_are_in_its_hash(finished_exports, kind):
    for seats in ([{"seat": s["seat"], "name": s["name"]} for s in reversed(finished_exports[kind]["creation"]["seats"])],
                  [{"seat": 0, "name": s["name"]} for s in finished_exports[kind]["creation"]["seats"]]):
        document = tampered(finished_exports[kind])
        names = [s["name"] for s in document["creation"]["seats"]]
        document["creation"]["seats"] = [{"seat": s["seat"], "name": n} for s, n in zip(seats, names, strict=True)]
        found = divergence(document)
        assert (found.version, found.check) == (1, "hash_chain"), found
