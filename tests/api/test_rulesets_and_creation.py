"""Finding a game to play, and creating one."""
from __future__ import annotations

import json

from tests.fakes.http import create

PROBLEM = "application/problem+json"


def test_the_rulesets_list_names_each_game_with_its_player_counts(client):
    body = client.get("/rulesets").get_json()
    assert body["rulesets"] == [{"id": "hidden-hoard", "name": "Hidden Hoard (test fake)",
                                 "version": "1.0", "min_players": 2, "max_players": 4,
                                 "summary": "Draw secret treasure cards; the biggest hoard wins."}]


def test_a_ruleset_shows_its_options_content_and_command_schemas(client):
    body = client.get("/rulesets/hidden-hoard").get_json()
    assert body["options_schema"]["properties"]["hand_limit"]["default"] == 3
    assert set(body["commands"]) == {"draw", "stand", "roll_bonus"}
    assert body["content_schema"] == {"type": "object"} and body["default_content"] == {}


def test_an_unknown_ruleset_is_a_404_problem(client):
    response = client.get("/rulesets/chess")
    assert response.status_code == 404 and response.content_type == PROBLEM
    assert response.get_json()["code"] == "RULESET_NOT_FOUND"


def test_creating_a_game_answers_201_with_location_seat_tokens_and_a_host_token(client):
    response = client.post("/games", json={"ruleset": "hidden-hoard",
                                           "players": [{"name": "Kira"}, {"name": "David"}]})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"/games/{body['id']}"
    assert [(s["seat"], s["name"]) for s in body["seats"]] == [(0, "Kira"), (1, "David")]
    tokens = [s["token"] for s in body["seats"]] + [body["host_token"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 40 for t in tokens)
    assert body["chance"]["mode"] == "server" and len(body["chance"]["commitment"]) == 64
    assert body["version"] == 5  # created, then the ruleset's four setup events


def test_tokens_are_stored_only_as_hashes(app, client):
    game = create(client)
    stored = app.extensions["parley"].stored_events(game.id)
    recorded = json.dumps([vars(e) for e in stored], default=str)
    for token in [s["token"] for s in game.created["seats"]] + [game.created["host_token"]]:
        assert token not in recorded


def test_a_game_for_too_many_players_is_422_listing_every_problem(client):
    response = client.post("/games", json={"ruleset": "hidden-hoard", "players": [{"name": n} for n in "ABCDE"],
                                           "options": {"hand_limit": 9, "sails": 2}})
    assert response.status_code == 422 and response.content_type == PROBLEM
    body = response.get_json()
    assert body["code"] == "INVALID_GAME"
    assert len(body["problems"]) == 3, body["problems"]


def test_an_unknown_ruleset_cannot_be_created_422(client):
    response = client.post("/games", json={"ruleset": "chess", "players": [{"name": "A"}]})
    assert response.status_code == 422
    assert response.get_json()["problems"] == ["ruleset: there is no ruleset 'chess'; GET /rulesets lists them."]
    # what was sent is quoted, not echoed whole: a 100 KB name came back twice (the contract audit)
    long = client.post("/games", json={"ruleset": "x" * 100_000, "players": [{"name": "A"}]})
    assert long.status_code == 422 and len(long.get_data()) < 2_000
    assert long.get_json()["problems"][0].startswith("ruleset: there is no ruleset 'xxxx")


def test_a_malformed_creation_body_is_a_400_problem_naming_the_fields(client):
    response = client.post("/games", json={"ruleset": "hidden-hoard", "players": "Kira", "chance": "dice"})
    assert response.status_code == 400 and response.content_type == PROBLEM
    assert set(response.get_json()["errors"]) == {"players", "chance"}


def test_a_body_that_is_not_json_is_400_and_a_body_of_another_type_is_415(client):
    broken = client.post("/games", data="{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.get_json()["detail"] == "The body is not valid JSON."
    text = client.post("/games", data="ruleset=hidden-hoard", content_type="text/plain")
    assert text.status_code == 415 and text.content_type == PROBLEM


def test_a_body_over_one_megabyte_is_413(client):
    response = client.post("/games", data='{"x": "' + "a" * (1024 * 1024) + '"}',
                           content_type="application/json")
    assert response.status_code == 413 and response.content_type == PROBLEM


def test_an_unsupported_method_is_405_with_allow(client):
    response = client.delete("/games")
    assert response.status_code == 405 and response.content_type == PROBLEM
    assert "POST" in response.headers["Allow"]


def test_table_mode_setup_uses_the_order_shuffled_at_the_table(client):
    from tests.fakes.hoard import CARDS

    deck = sorted(CARDS, reverse=True)
    game = create(client, chance="table", setup={"deck": deck})
    assert game.created["chance"] == {"mode": "table", "commitment": None}
    hands = game.view()["state"]["hands"]
    assert hands == [[deck[0]], [deck[1]]]


def test_table_mode_without_the_setup_outcomes_is_rejected(client):
    response = client.post("/games", json={"ruleset": "hidden-hoard", "chance": "table",
                                           "players": [{"name": "A"}, {"name": "B"}]})
    assert response.status_code == 422
    assert response.get_json()["code"] == "TABLE_OUTCOME_REQUIRED"
