"""Sending commands: the rules answer with events, or a rejection naming the rule."""
from __future__ import annotations

import random

import pytest

from tests.fakes.http import create

PROBLEM = "application/problem+json"


def test_a_legal_command_answers_its_events_and_the_new_view(client):
    game = create(client)
    response = game.send({"type": "draw"}, game.seat(0))
    assert response.status_code == 200 and response.headers["ETag"] == '"7"'
    body = response.get_json()
    assert body["version"] == 7
    drawn, passed = body["events"]
    assert drawn["version"] == 6 and drawn["event"]["type"] == "CardDrawn"
    assert drawn["command"] == {"seat": 0, "body": {"type": "draw"}}
    assert passed == {"version": 7, "recorded_at": passed["recorded_at"], "hash": passed["hash"],
                      "event": {"type": "TurnPassed", "seat": 1}}
    assert len(passed["hash"]) == 64 and passed["hash"] != drawn["hash"]
    assert len(body["game"]["state"]["hands"][0]) == 2 and body["game"]["to_move"] == [1]


def test_a_rules_rejection_is_422_with_code_and_section_and_nothing_is_stored(client):
    game = create(client)
    response = game.send({"type": "stand"}, game.seat(1))
    assert response.status_code == 422 and response.content_type == PROBLEM
    body = response.get_json()
    assert (body["code"], body["section"], body["detail"]) == ("NOT_YOUR_TURN", "Turns", "It is Kira's turn.")
    assert {"type", "title", "status", "instance"} <= set(body)
    assert game.view()["version"] == 5


def test_a_rejection_names_the_ruling_when_the_rule_is_ours(client):
    game = create(client)
    game.send({"type": "roll_bonus"}, game.seat(0))
    body = game.send({"type": "roll_bonus"}, game.seat(0)).get_json()
    assert body["code"] == "ALREADY_ROLLED" and body["ruling"] == "HH-1"


def test_a_seat_token_cannot_act_for_another_seat(client):
    game = create(client)
    response = game.send({"type": "draw", "seat": 1}, game.seat(0))
    assert response.status_code == 403 and response.get_json()["code"] == "NOT_YOUR_SEAT"
    assert game.send({"type": "draw", "seat": 0}, game.seat(0)).status_code == 200


def test_the_host_acts_for_the_seat_it_names(client):
    game = create(client)
    assert game.send({"type": "draw", "seat": 0}).status_code == 200
    assert game.send({"type": "draw"}).get_json()["code"] == "SEAT_REQUIRED"
    assert game.send({"type": "draw", "seat": 7}).get_json()["code"] == "NO_SUCH_SEAT"


def test_an_unknown_command_type_is_422_naming_the_known_ones(client):
    body = create(client).send({"type": "fly", "seat": 0}).get_json()
    assert body["status"] == 422 and body["code"] == "UNKNOWN_COMMAND"
    assert "draw, roll_bonus, stand" in body["detail"]


def test_a_command_breaking_its_schema_is_422_listing_the_problems(client):
    body = create(client).send({"type": "draw", "seat": 0, "cards": 2}).get_json()
    assert body["code"] == "INVALID_COMMAND" and len(body["problems"]) == 1
    # a field the command does not have is named as the client spelled it, with the ones it has
    # (not jsonschema's "('cards' was unexpected)", which quotes a Python tuple)
    assert body["problems"] == ["command: has no field 'cards'; its fields are 'type'"], body["problems"]
    several = create(client).send({"type": "draw", "seat": 0, "cards": 2, "Éclat": True}).get_json()
    assert several["problems"] == ["command: has no fields 'cards', 'Éclat'; its fields are 'type'"]


def test_a_body_without_a_type_is_400(client):
    response = create(client).send({"seat": 0})
    assert response.status_code == 400 and set(response.get_json()["errors"]) == {"type"}


def test_if_match_must_name_the_current_version_else_412(client):
    game = create(client)
    stale = game.send({"type": "draw", "seat": 0}, headers={"If-Match": '"4"'})
    assert stale.status_code == 412 and stale.headers["ETag"] == '"5"'
    assert stale.get_json()["code"] == "VERSION_MISMATCH"
    assert game.send({"type": "draw", "seat": 0}, headers={"If-Match": '"5"'}).status_code == 200
    assert game.send({"type": "draw", "seat": 1}, headers={"If-Match": "*"}).status_code == 200


def test_a_stale_expected_version_in_the_body_is_409(client):
    game = create(client)
    response = game.send({"type": "draw", "seat": 0, "expected_version": 4})
    assert response.status_code == 409 and response.get_json()["code"] == "VERSION_CONFLICT"
    assert game.send({"type": "draw", "seat": 0, "expected_version": 5}).status_code == 200


def test_no_command_is_accepted_once_the_game_is_finished(client):
    game = create(client)
    game.play_to_the_end(random.Random(1))
    body = game.send({"type": "stand", "seat": 0}).get_json()
    assert body["status"] == 422 and body["code"] == "GAME_FINISHED"
    assert game.legal() == []


def test_table_mode_commands_carry_what_was_rolled_at_the_table(client):
    from tests.fakes.hoard import CARDS

    game = create(client, chance="table", setup={"deck": sorted(CARDS)})
    inputs = game.get("/legal-commands", game.seat(0)).get_json()["table_inputs"]
    assert inputs == [{"seat": 0, "inputs": {"roll_bonus": {"dice": "the 1 face rolled, one of 1-6"}}}]
    missing = game.send({"type": "roll_bonus"}, game.seat(0)).get_json()
    assert missing["code"] == "TABLE_OUTCOME_REQUIRED"
    rolled = game.send({"type": "roll_bonus", "dice": ["4"]}, game.seat(0)).get_json()
    assert rolled["events"][0]["event"] == {"type": "BonusRolled", "seat": 0, "dice": ["4"]}


def test_server_mode_refuses_outcomes_sent_by_the_client(client):
    body = create(client).send({"type": "roll_bonus", "dice": ["6"]}, create(client).seat(0)).get_json()
    assert body["status"] == 401  # another game's token
    game = create(client)
    assert game.send({"type": "roll_bonus", "dice": ["6"], "seat": 0}).get_json()["code"] == "CHANCE_FROM_SERVER"


@pytest.mark.parametrize("seed", range(5))
def test_every_legal_command_is_accepted_and_every_seat_not_offered_one_is_refused(client, seed):
    rng = random.Random(seed)
    game = create(client, players=("Kira", "David", "Will"))
    while True:
        for seat in range(3):
            offered = game.legal(game.seat(seat))
            if not offered:
                for kind in ("draw", "stand", "roll_bonus"):
                    assert game.send({"type": kind}, game.seat(seat)).status_code == 422
        everyone = game.legal()
        if not everyone:
            break
        command = rng.choice(everyone)
        assert game.send(command).status_code == 200
    assert game.view()["status"] == "finished"
