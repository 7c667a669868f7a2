"""Corsairs of Valeria through the API: the same flows as the fake, with the real rules."""
from __future__ import annotations

import hashlib
import random
from uuid import UUID

import pytest

from domain.chance import ServerChance
from domain.corsairs import RULESET as CORSAIRS
from tests.fakes.http import create, progressing

ID = "corsairs-of-valeria"


def test_corsairs_is_listed_with_its_options_content_and_commands(corsairs_client):
    listed = corsairs_client.get("/rulesets").get_json()["rulesets"]
    assert {"id": ID, "min_players": 2, "max_players": 5}.items() <= next(r for r in listed if r["id"] == ID).items()
    ruleset = corsairs_client.get(f"/rulesets/{ID}").get_json()
    assert {"roll_dice", "reroll_dice", "end_turn"} <= set(ruleset["commands"])
    assert ruleset["options_schema"]["type"] == "object" and ruleset["default_content"]


def test_content_that_breaks_its_schema_is_422_listing_what_is_wrong(corsairs_client):
    response = corsairs_client.post("/games", json={
        "ruleset": ID, "players": [{"name": "Kira"}, {"name": "David"}], "content": {"dice": 6}})
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == "INVALID_GAME" and body["problems"]


def test_a_command_out_of_turn_is_rejected_naming_the_rulebook_section(corsairs_client):
    game = create(corsairs_client, ID)
    waiting = next(s for s in range(2) if s not in game.view()["to_move"])
    command = dict(game.legal(game.seat(1 - waiting))[0])
    response = game.send(command, game.seat(waiting))
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] and body["section"] and body["detail"]
    assert game.view()["version"] == game.created["version"]


def readjudicate(log: list[dict], seed: str) -> None:
    """Decide every stored command again from the log alone: the same events come out."""
    state = CORSAIRS.initial_state()
    pending: list[dict] = []
    for entry in log[1:]:
        if "command" in entry:
            command = entry["command"]
            decided = CORSAIRS.decide(state, command["seat"], command["body"],
                                      ServerChance(seed, entry["version"] - 1))
            pending = list(decided)
        if pending:
            assert pending.pop(0) == entry["event"], entry["version"]
        state = CORSAIRS.evolve(state, entry["event"])
    assert not pending and CORSAIRS.status(state).finished


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_corsairs_game_is_played_over_http_until_a_result(corsairs_app, corsairs_client, seed):
    game = create(corsairs_client, ID, players=("Kira", "David"))
    rng = random.Random(seed)
    views = {}
    while True:
        commands = game.legal()
        if not commands:
            break
        response = game.send(rng.choice(progressing(commands) if seed % 2 else commands))
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        views[body["version"]] = body["game"]
    final = game.view(game.seat(0))
    assert final["status"] == "finished" and final["result"]["winners"]
    assert hashlib.sha256(bytes.fromhex(final["chance"]["seed"])).hexdigest() == game.created["chance"]["commitment"]
    # Reading any past version agrees with the view answered at that time.
    for version in rng.sample(sorted(views), min(25, len(views))):
        assert game.get("", query_string={"version": version}).get_json() == views[version]
    # The log, with the revealed seed, re-adjudicates to the same events.
    readjudicate(game.all_events(), final["chance"]["seed"])
    # Snapshots restore the same game as a full replay.
    parley = corsairs_app.extensions["parley"]
    restored, replayed = parley.get_game(UUID(game.id)), parley.replay(UUID(game.id))
    assert CORSAIRS.dump_state(restored.state) == CORSAIRS.dump_state(replayed.state)
    assert restored.version == replayed.version


def test_a_seat_never_sees_another_seats_legal_commands(corsairs_client):
    game = create(corsairs_client, ID, players=("Kira", "David", "Will"))
    everyone = game.legal()
    for seat in range(3):
        mine = game.legal(game.seat(seat))
        assert mine == [{k: v for k, v in c.items() if k != "seat"} for c in everyone if c["seat"] == seat]


def test_a_table_mode_corsairs_game_takes_its_setup_and_rolls_from_the_client(corsairs_client):
    ruleset = corsairs_client.get(f"/rulesets/{ID}").get_json()
    assert ruleset["setup_schema"]["required"] == ["captains", "track"]
    setup = {"captains": ["HOOK", "BONES"],
             "track": [{"tile": "T1", "side": "A"}, {"tile": "T2", "side": "B"}, {"tile": "T3", "side": "A"}]}
    game = create(corsairs_client, ID, chance="table", setup=setup)
    assert game.created["chance"] == {"mode": "table", "commitment": None}
    kira = game.seat(0)
    answer = game.get("/legal-commands", kira).get_json()
    assert answer["commands"] == [{"type": "roll_dice"}]
    needed = answer["table_inputs"][0]["inputs"]["roll_dice"]["faces"]
    assert needed["count"] == 5
    refused = game.send({"type": "roll_dice"}, kira).get_json()
    assert refused["code"] == "TABLE_OUTCOME_REQUIRED"
    faces = [needed["one_of"][0]] * needed["count"]
    rolled = game.send({"type": "roll_dice", "faces": faces}, kira)
    assert rolled.status_code == 200, rolled.get_json()
    assert rolled.get_json()["events"][0]["command"]["body"] == {"type": "roll_dice", "faces": faces}
