"""League of Pirates through the API: both seats act at once, and secrets stay with their seat."""
from __future__ import annotations

import random

from tests.fakes.http import create
from tests.playouts.test_league_playouts import sailor

ID = "league-of-pirates"


def test_league_is_listed_for_exactly_two_players(corsairs_client):
    listed = corsairs_client.get("/rulesets").get_json()["rulesets"]
    assert {"id": ID, "min_players": 2, "max_players": 2}.items() <= next(r for r in listed if r["id"] == ID).items()
    response = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
    assert response.status_code == 422 and response.get_json()["code"] == "INVALID_GAME"


def test_both_seats_may_act_at_once_each_with_its_own_token(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben"))
    assert game.view()["to_move"] == [0, 1]
    for seat, league in ((1, "blue"), (0, "red")):
        response = game.send({"type": "choose_league", "league": league}, game.seat(seat))
        assert response.status_code == 200, response.get_json()
    assert game.view()["to_move"] == [0, 1]  # the first Dice Challenge: both throw
    assert game.send({"type": "throw_dice"}, game.seat(1)).status_code == 200
    assert game.send({"type": "throw_dice"}, game.seat(0)).status_code == 200


def test_the_other_seat_never_learns_a_sealed_league_or_a_drawn_coin(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben"))
    game.send({"type": "choose_league", "league": "yellow"}, game.seat(0))
    assert game.view(game.seat(1))["state"]["seats"][0]["league"] is None
    assert game.view(game.seat(0))["state"]["seats"][0]["league"] == "yellow"
    chosen = [e for e in game.all_events(game.seat(1)) if e["event"]["type"] == "LeagueChosen"]
    assert chosen and all(set(e["event"]) == {"type", "seat"} for e in chosen)
    assert all(e["command"]["body"] == {"type": "choose_league"} for e in chosen if "command" in e)
    game.send({"type": "choose_league", "league": "red"}, game.seat(1))
    rng = random.Random(7)
    drawn = None
    for _ in range(400):  # play until a blind draw is pending
        view = game.view()
        pending = view["state"]["pending"]
        if pending and pending.get("kind") == "draw":
            drawn = [c["id"] for c in pending["drawn"]]
            drawer = pending["seat"]
            break
        command = sailor(rng, game.legal())
        assert game.send(command).status_code == 200
    assert drawn, "a draw happened"
    other = game.seat(1 - drawer)
    pending = game.view(other)["state"]["pending"]
    assert pending["count"] == len(drawn) and "drawn" not in pending
    draws = [e for e in game.all_events(other) if e["event"]["type"] in ("CoinsDrawn", "CoinsReturned")]
    assert draws and all("coins" not in e["event"] for e in draws)
    assert all("coins" not in e["event"] for e in game.all_events(game.seat(drawer))
               if e["event"]["type"] in ("CoinsDrawn", "CoinsReturned") and e["event"]["seat"] != drawer)
    mine = [e for e in game.all_events(game.seat(drawer)) if e["event"]["type"] == "CoinsDrawn"]
    assert mine[-1]["event"]["coins"] == drawn


def test_a_whole_league_game_is_played_over_http_until_a_result(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben"))
    rng = random.Random(3)
    for _ in range(6000):
        commands = game.legal()
        if not commands:
            break
        response = game.send(sailor(rng, commands))
        assert response.status_code == 200, response.get_json()
    final = game.view(game.seat(1))
    assert final["status"] == "finished" and final["result"]["winners"]
    assert final["chance"]["seed"]
