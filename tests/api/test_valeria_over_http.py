"""Valeria: Card Kingdoms through the API: a whole game with the host token, and the Dukes kept
from every other seat until the game is scored."""
from __future__ import annotations

import random

import pytest

from domain.registry import all_rulesets
from domain.valeria import CRIMSON_SEAS
from service import create_app
from tests.fakes.http import create
from tests.playouts.test_valeria_playouts import duke_of_valeria

ID = "valeria-card-kingdoms"


def test_valeria_is_listed_for_one_to_five_players_and_refuses_solo_without_its_option_and_expansions(corsairs_client):
    listed = corsairs_client.get("/rulesets").get_json()["rulesets"]
    assert {"id": ID, "min_players": 1, "max_players": 5}.items() <= next(r for r in listed if r["id"] == ID).items()
    solo = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "A"}]})
    assert solo.status_code == 422 and "options.variant 'solo'" in str(solo.get_json())
    seas = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "A"}, {"name": "B"}],
                                                "options": {"expansions": ["crimson_seas"]}})
    assert seas.status_code == 422 and "expansions" in str(seas.get_json())


def test_a_seat_never_sees_another_seats_duke_until_the_end(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben", "Cleo"))
    offer = game.view(game.seat(0))["state"]["seats"][0]["duke_offer"]
    assert len(offer) == 2
    assert "duke_offer" not in game.view(game.seat(1))["state"]["seats"][0]
    response = game.send({"type": "keep_duke", "duke": offer[1]}, game.seat(0))
    assert response.status_code == 200, response.get_json()
    for seat in (1, 2):
        state = game.view(game.seat(seat))["state"]
        assert "duke" not in state["seats"][0] and state["seats"][0]["has_kept_duke"]
        for e in game.all_events(game.seat(seat)):
            if e["event"]["type"] != "GameSetUp":   # which lists the content: every Duke there is
                assert offer[1] not in str(e) and offer[0] not in str(e), e
    assert game.view(game.seat(0))["state"]["seats"][0]["duke"] == offer[1]


def test_a_die_changed_to_zero_is_refused_by_the_rules_not_by_the_schema(corsairs_client):
    """[BR p.19] forbids rolling a die down to zero: `to: 0` is a well-formed command for the rules
    to judge (tests/domain/valeria/test_rulebook_examples.py), not one the command schema refuses
    as INVALID_COMMAND; here the rules refuse it first because the game is still choosing Dukes."""
    game = create(corsairs_client, ID, players=("Anne", "Ben"))
    for to in (0, 7):
        answer = game.send({"type": "change_die", "domain": "palace_of_the_dawn", "die": 0, "to": to},
                           game.seat(0))
        assert answer.status_code == 422 and answer.get_json()["code"] != "INVALID_COMMAND", answer.get_json()
    answer = game.send({"type": "change_die", "domain": "palace_of_the_dawn", "die": 0, "to": "one"}, game.seat(0))
    assert answer.status_code == 422 and answer.get_json()["code"] == "INVALID_COMMAND"


def test_a_whole_game_is_played_over_http_until_a_result(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben"))
    rng = random.Random(5)
    for _ in range(4000):
        commands = game.legal()
        if not commands:
            break
        response = game.send(duke_of_valeria(rng, commands))
        assert response.status_code == 200, response.get_json()
    final = game.view(game.seat(1))
    assert final["status"] == "finished" and final["result"]["winners"]
    assert all(s["duke"] for s in final["state"]["seats"])   # revealed for scoring
    assert final["chance"]["seed"]


SEAS = "crimson-seas"


@pytest.fixture
def seas_client(persistence):
    """Crimson Seas is not in domain/registry.py yet (serving it changes openapi.yaml's list of
    ruleset ids, which its owners regenerate); this app serves it beside the registered games."""
    app = create_app({"RULESETS": {**all_rulesets(), SEAS: CRIMSON_SEAS}, "PERSISTENCE": persistence})
    yield app.test_client()
    app.extensions["parley"].close()


def test_crimson_seas_is_listed_and_a_whole_game_is_played_over_http(seas_client):
    listed = seas_client.get("/rulesets").get_json()["rulesets"]
    assert {"id": SEAS, "min_players": 2, "max_players": 5}.items() <= next(r for r in listed if r["id"] == SEAS).items()
    game = create(seas_client, SEAS, players=("Kira", "David"))
    rng = random.Random(9)
    for _ in range(5000):
        commands = game.legal()
        if not commands:
            break
        response = game.send(duke_of_valeria(rng, commands))
        assert response.status_code == 200, response.get_json()
    final = game.view(game.seat(0))
    assert final["status"] == "finished" and final["result"]["winners"]
    assert "goods" in final["result"]["points"][0]
    islands = game.view(game.seat(1))["state"]["islands"]
    assert isinstance(islands["goods_supply"], int) and isinstance(islands["noble_deck"], int)


def test_crimson_seas_keeps_a_seats_duke_from_the_others(seas_client):
    game = create(seas_client, SEAS, players=("Kira", "David"))
    offer = game.view(game.seat(0))["state"]["seats"][0]["duke_offer"]
    assert game.send({"type": "keep_duke", "duke": offer[0]}, game.seat(0)).status_code == 200
    other = game.view(game.seat(1))["state"]["seats"][0]
    assert "duke" not in other and "duke_offer" not in other
    assert all(offer[0] not in str(e) for e in game.all_events(game.seat(1)) if e["event"]["type"] != "GameSetUp")


def test_operator_card_data_with_problems_gets_a_422_listing_each(seas_client):
    """Card data is content an operator may send; what is wrong with it comes back as one problem
    document listing every problem: here a discount misused, an action granted in the Harvest and
    a number the rulebook prints (VP-12, VP-14, VP-15)."""
    import copy
    content = copy.deepcopy(CRIMSON_SEAS.default_content)
    content["id"] = "operator-cards"
    content["domains"][0]["ongoing"] = [{"when": "always", "discount": {"action": "tome", "ignore_plus": True}}]
    content["citizens"][0]["off_turn"] = {"action": "slay"}
    content["crimson_seas"]["exekratys_start"]["gold"] = 5
    response = seas_client.post("/games", json={"ruleset": SEAS, "players": [{"name": "Kira"}, {"name": "David"}],
                                                "content": content})
    assert response.status_code == 422 and response.content_type == "application/problem+json"
    problems = response.get_json()["problems"]
    assert any("'+' to ignore" in p for p in problems), problems
    assert any("content.citizens[0]: an additional action" in p for p in problems), problems
    assert any("Exekratys" in p for p in problems), problems
