"""Chrono Corsairs through the API: a whole game with the host token, and a seat that never
sees another seat's drawn plans, sealed selection or artifacts."""
from __future__ import annotations

import random

from tests.fakes.http import create
from tests.playouts.test_chrono_playouts import captain

ID = "chrono-corsairs"


def test_chrono_is_listed_for_2_to_5_players_and_bad_content_is_a_422(corsairs_client):
    listed = corsairs_client.get("/rulesets").get_json()["rulesets"]
    assert {"id": ID, "min_players": 2, "max_players": 5}.items() <= next(r for r in listed if r["id"] == ID).items()
    response = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "A"}]})
    assert response.status_code == 422
    response = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "A"}, {"name": "B"}],
                                                    "content": {"id": "mine"}})
    assert response.status_code == 422 and response.get_json()["code"] == "INVALID_GAME"


def test_a_whole_chrono_game_is_played_over_http_until_a_result(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben", "Cy"))
    rng = random.Random(5)
    for _ in range(3000):
        commands = game.legal()
        if not commands:
            break
        response = game.send(captain(rng, commands))
        assert response.status_code == 200, response.get_json()
    final = game.view(game.seat(1))
    assert final["status"] == "finished" and final["result"]["winners"]
    assert final["chance"]["seed"]


def test_a_seat_never_sees_another_seats_drawn_plans_or_sealed_selection(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben"))
    # Phase 1's Anomaly may ask a seat to resolve an effect first: play those steps (as the
    # host) until the seats draw their plans.
    for _ in range(50):
        commands = game.legal()
        if any(c["type"] == "draw_plans" for c in commands):
            break
        assert game.send(commands[0]).status_code == 200
    first = next(c["seat"] for c in game.legal() if c["type"] == "draw_plans")
    assert game.send({"type": "draw_plans"}, game.seat(first)).status_code == 200
    other = 1 - first
    seen = game.view(game.seat(other))["state"]["seats"][first]
    assert seen["drawn_count"] == 2 and "drawn" not in seen
    mine = game.view(game.seat(first))["state"]["seats"][first]["drawn"]
    assert len(mine) == 2
    drawn = [e for e in game.all_events(game.seat(other)) if e["event"]["type"] == "PlansDrawn"]
    assert drawn and all("cards" not in e["event"] for e in drawn)
    assert game.send({"type": "draw_plans"}, game.seat(other)).status_code == 200
    assert game.send({"type": "select_plan", "card": mine[0], "slot": "EVENING"}, game.seat(first)).status_code == 200
    assert game.view(game.seat(other))["state"]["seats"][first]["selected"] is True
    assert "selection" not in game.view(game.seat(other))["state"]["seats"][first]
    sealed = [e for e in game.all_events(game.seat(other)) if e["event"]["type"] == "PlanSelected"]
    assert sealed and all(set(e["event"]) == {"type", "seat"} for e in sealed)
    assert all(e["command"]["body"] == {"type": "select_plan"} for e in sealed if "command" in e)
    assert game.send({"type": "forgo_plan"}, game.seat(other)).status_code == 422


def test_a_table_game_over_http_is_driven_by_the_announced_table_inputs_alone(corsairs_client):
    """At a table, /legal-commands' table_inputs says what each command must carry; the host
    adds exactly that (turned up from the physical decks, which only this test, the table,
    knows) and every command is accepted, to the end of the game."""
    from uuid import UUID

    from tests.domain.chrono.table import LAYOUT
    from tests.domain.chrono.test_table_games import announced, turn_up

    game = create(corsairs_client, ID, players=("Anne", "Ben"), chance="table", setup=LAYOUT)
    parley = corsairs_client.application.extensions["parley"]
    rng = random.Random(11)
    for _ in range(4000):
        body = game.get("/legal-commands").get_json()
        if not body["commands"]:
            break
        pick = captain(rng, body["commands"])
        seat = pick["seat"]
        inputs = next((x["inputs"] for x in body["table_inputs"] if x["seat"] == seat), {})
        cmd = {k: v for k, v in pick.items() if k != "seat"}
        table = parley.get_game(UUID(game.id)).state            # the physical decks
        needs = announced(inputs, cmd)
        for field, spec in needs.items():
            pick[field] = turn_up(table, field, spec, rng)
        response = game.send(pick)
        assert response.status_code == 200, (pick, response.get_json())
    final = game.view(game.seat(0))
    assert final["status"] == "finished" and final["result"]["winners"]
