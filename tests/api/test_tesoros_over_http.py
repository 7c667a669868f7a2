"""Los Tesoros del Rey Pirata through the API: a whole game with the host token, an answer
out of turn, and a hand that stays with its seat."""
from __future__ import annotations

import random

from tests.fakes.http import create

ID = "tesoros-del-rey-pirata"
SHORT = {"pact_of_the_waves": 1, "sudden_death_max_turns": 2}


def pirate(rng: random.Random, commands: list[dict]) -> dict:
    """Claims and takes Treasure when it can, otherwise plays at random."""
    for wanted in ("claim_treasure", "take_treasure"):
        chosen = [c for c in commands if c["type"] == wanted]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(commands)


def test_tesoros_is_listed_for_two_to_four_players(corsairs_client):
    listed = corsairs_client.get("/rulesets").get_json()["rulesets"]
    assert {"id": ID, "min_players": 2, "max_players": 4}.items() <= next(r for r in listed if r["id"] == ID).items()
    five = [{"name": n} for n in "ABCDE"]
    response = corsairs_client.post("/games", json={"ruleset": ID, "players": five})
    assert response.status_code == 422 and response.get_json()["code"] == "INVALID_GAME"


def test_a_whole_game_is_played_over_http_with_the_host_token_until_a_result(corsairs_client):
    game = create(corsairs_client, ID, players=("Ana", "Diego", "Juan"), options=SHORT)
    rng = random.Random(4)
    for _ in range(3000):
        commands = game.legal()
        if not commands:
            break
        assert len({c["seat"] for c in commands}) == 1 or all(c["type"] == "keep_cards" for c in commands)
        response = game.send(pirate(rng, commands))
        assert response.status_code == 200, response.get_json()
    final = game.view(game.seat(1))
    assert final["status"] == "finished" and final["result"]["winners"]
    assert final["chance"]["seed"]


def test_the_defender_answers_out_of_turn_and_the_host_may_answer_for_it(corsairs_client):
    game = create(corsairs_client, ID, players=("Ana", "Diego"))
    assert game.send({"type": "draw_card"}, game.seat(0)).status_code == 200
    hand = game.view(game.seat(0))["state"]["seats"][0]["hand"]
    response = game.send({"type": "fire_cannons", "target": 1, "die": hand[0]}, game.seat(0))
    assert response.status_code == 200, response.get_json()
    view = game.view()
    assert view["to_move"] == [1] and view["phase"] == "defend"
    assert game.legal(game.seat(0)) == []
    assert {c["type"] for c in game.legal(game.seat(1))} == {"defend"}
    refused = game.send({"type": "defend", "die": "deck"}, game.seat(0))
    assert refused.status_code == 422 and refused.get_json()["code"] == "NOT_YOUR_DECISION"
    assert {(c["type"], c["seat"]) for c in game.legal()} == {("defend", 1)}
    assert game.send({"type": "defend", "die": "deck", "seat": 1}).status_code == 200
    assert game.view()["to_move"] in ([0], [1])


def test_a_hand_is_its_owners_alone_and_the_others_see_its_size(corsairs_client):
    game = create(corsairs_client, ID, players=("Ana", "Diego"))
    mine = game.view(game.seat(0))["state"]["seats"][0]
    theirs = game.view(game.seat(1))["state"]["seats"][0]
    assert len(mine["hand"]) == 5 and "hand" not in theirs and theirs["hand_count"] == 5
    assert game.send({"type": "draw_card"}, game.seat(0)).status_code == 200
    drawn_for_ana = [e["event"] for e in game.all_events(game.seat(0)) if e["event"]["type"] == "CardDrawn"]
    drawn_for_diego = [e["event"] for e in game.all_events(game.seat(1)) if e["event"]["type"] == "CardDrawn"]
    assert drawn_for_ana[0]["card"] in game.view(game.seat(0))["state"]["seats"][0]["hand"]
    assert "card" not in drawn_for_diego[0]
    dealt = next(e["event"] for e in game.all_events(game.seat(1)) if e["event"]["type"] == "CardsDealt")
    assert dealt["hands"][0] == 5 and dealt["deck"] == 32 and len(dealt["hands"][1]) == 5
    spectator = game.view(game.seat(1))["state"]
    assert "deck" not in spectator and spectator["deck_count"] == 31


def test_a_table_game_says_what_it_dealt_and_what_each_command_drew(corsairs_client):
    hands = [["MS-2", "MUT-2a", "SAB-1", "WTP-1a", "CS-3"], ["SAB-5", "MUT-4", "LS-5", "SAB-2", "WTP-2a"]]
    game = create(corsairs_client, ID, players=("Ana", "Diego"), chance="table",
                  setup={"hands": hands, "maps": ["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"]})
    body = corsairs_client.get(f"/games/{game.id}/legal-commands", headers=game.host).get_json()
    assert body["table_inputs"][0]["inputs"]["draw_card"]["drawn"]
    missing = game.send({"type": "draw_card", "seat": 0})
    assert missing.status_code == 422 and missing.get_json()["code"] == "TABLE_OUTCOME_REQUIRED"
    assert game.send({"type": "draw_card", "seat": 0, "drawn": ["FAVOR-a"]}).status_code == 200
    assert "FAVOR-a" in game.view(game.seat(0))["state"]["seats"][0]["hand"]
    command = [e for e in game.all_events(game.seat(1)) if e.get("command")][-1]["command"]
    assert command["body"] == {"type": "draw_card"}


# A two-player table's deal and Maps, and a draw-off the first seat wins (CP-4 against SAB-1)
TABLE_HANDS = [["CP-2", "CP-3", "CP-5", "CS-3", "CS-4"], ["MS-5", "LS-5", "WTP-1b", "WTP-2b", "SAB-2"]]
TABLE_MAPS = ["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"]
TABLE_DRAW_OFF = ["CP-4", "SAB-1"]


def test_at_a_table_scurvy_in_the_draw_off_is_chosen_by_each_seat_and_the_host_reports_the_rest(corsairs_client):
    # TA-5, TA-30: with Chaos on the high seas, the draw-off reveals Scurvy first; the game waits
    # for both choices, and the host sends the last one with the cards revealed after it.
    hands = TABLE_HANDS
    game = create(corsairs_client, ID, players=("Ana", "Diego"), chance="table",
                  options={"first_player": "draw_off", "chaos_on_the_high_seas": True},
                  setup={"hands": hands, "maps": TABLE_MAPS, "draw_off": ["scurvy"]})
    view = game.view()
    assert view["phase"] == "scurvy" and view["to_move"] == [0, 1]
    assert {c["type"] for c in game.legal(game.seat(0))} == {"keep_cards"}
    assert game.send({"type": "keep_cards", "cards": hands[0][:2]}, game.seat(0)).status_code == 200
    refused = game.send({"type": "keep_cards", "cards": hands[1][:2]}, game.seat(1))
    assert refused.status_code == 422 and refused.get_json()["code"] == "TABLE_OUTCOME_FROM_HOST"
    answer = game.send({"type": "keep_cards", "seat": 1, "cards": hands[1][:2], "drawn": ["SAB-1", "FAVOR-a"]})
    assert answer.status_code == 200, answer.get_json()
    view = game.view()
    assert view["phase"] == "draw" and view["to_move"] == [1]


def test_a_table_that_took_the_pacts_events_blind_names_each_as_it_turns_up(corsairs_client):
    """TP-22: with the pact of the waves at a table, 'setup.events' may be left out; the host's
    view then lists every Event as one pool, and nobody, the host included, is told which are
    out of the game. An outside table-mode review met a refusal here: the table had to name
    Events it had taken face down."""
    hands = [["MS-2", "MUT-2a", "SAB-1", "WTP-1a", "CS-3"], ["SAB-5", "MUT-4", "LS-5", "SAB-2", "WTP-2a"]]
    game = create(corsairs_client, ID, players=("Ana", "Diego"), chance="table", options={"pact_of_the_waves": 2},
                  setup={"hands": hands, "maps": ["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"]})
    host = game.view(game.host)["state"]
    every = sorted(e["id"] for e in corsairs_client.get(f"/rulesets/{ID}").get_json()["default_content"]["events"])
    assert host["nameable"]["events_under_anchor"] == every and host["events_out_of_game"] is None
    assert (host["events_under_anchor"], host["events_out_of_game_count"]) == (2, 3)
    for reader in (game.host, game.seat(0)):
        (placed,) = [e["event"] for e in game.all_events(reader) if e["event"]["type"] == "EventsPlacedUnderAnchor"]
        assert (placed["events"], placed["out_of_game"], placed["unnamed"]) == (2, 3, True)
