"""The event log: paged by cursor, redacted per seat, and enough to re-adjudicate a game."""
from __future__ import annotations

import random

from domain.chance import ServerChance
from tests.fakes import hoard
from tests.fakes.http import create


def test_the_log_pages_by_cursor_with_a_link_to_the_next_page(client):
    game = create(client)
    first = game.get("/events", query_string={"limit": 2})
    body = first.get_json()
    assert [e["version"] for e in body["events"]] == [1, 2] and body["next"] == 2
    assert first.headers["Link"] == f'</games/{game.id}/events?after=2&limit=2>; rel="next"'
    last = game.get("/events", query_string={"after": 4, "limit": 2})
    assert [e["version"] for e in last.get_json()["events"]] == [5]
    assert last.get_json()["next"] is None and "Link" not in last.headers
    assert body["resume_after"] == 2 and last.get_json()["resume_after"] == 5
    assert game.get("/events", query_string={"after": 5}).get_json() == {"events": [], "next": None, "resume_after": 5}


def test_the_creation_event_records_ruleset_seats_options_and_chance(client):
    game = create(client, options={"hand_limit": 2})
    created = game.all_events(game.seat(1))[0]
    assert created["version"] == 1
    assert created["event"] == {
        "type": "GameCreated", "ruleset": "hidden-hoard", "ruleset_version": "1.0",
        "seats": [{"seat": 0, "name": "Kira"}, {"seat": 1, "name": "David"}],
        "chance": {"mode": "server", "commitment": game.created["chance"]["commitment"]},
        "options": {"hand_limit": 2}, "content": None}


def test_a_finished_game_can_be_readjudicated_command_by_command_from_its_log(client):
    game = create(client, players=("Kira", "David", "Will"))
    game.play_to_the_end(random.Random(7))
    seed = game.view()["chance"]["seed"]
    log = game.all_events()
    created = log[0]["event"]
    ruleset = hoard.RULESET
    batches, setup = [], []
    for entry in log[1:]:
        if "command" in entry:
            batches.append((entry["version"] - 1, entry["command"], [entry["event"]]))
        elif batches:
            batches[-1][2].append(entry["event"])
        else:
            setup.append(entry["event"])
    players = [s["name"] for s in created["seats"]]
    assert ruleset.setup(players, created["options"], created["content"], ServerChance(seed, 0), None) == setup
    state = ruleset.initial_state()
    for event in setup:
        state = ruleset.evolve(state, event)
    for position, command, events in batches:
        assert ruleset.decide(state, command["seat"], command["body"], ServerChance(seed, position)) == events
        for event in events:
            state = ruleset.evolve(state, event)
    assert ruleset.status(state).finished


def test_no_response_event_or_error_shows_a_seat_what_it_may_not_know(client):
    game = create(client, players=("Kira", "David", "Will"))
    kira = game.seat(0)
    seen = []

    def look(response):
        seen.append(response.get_data(as_text=True))
        return response

    rng = random.Random(11)
    for _ in range(8):  # play a while: everyone draws, rolls or stands, nobody finishes
        if game.view()["status"] == "finished":
            break
        command = rng.choice([c for c in game.legal() if c["type"] != "stand"] or game.legal())
        if command["seat"] == 0:
            look(game.send(command, kira))
        else:
            game.send(command)  # the host sees everything: not Kira's business
        for kind in ("draw", "roll_bonus", "fly"):
            look(game.send({"type": kind}, kira))
        look(game.send({"type": "draw", "cards": 3}, kira))
        look(game.get("", kira))
        look(game.get("/legal-commands", kira))
        look(game.get("/events", kira))
    for version in range(1, game.view()["version"] + 1):
        look(game.get("", kira, query_string={"version": version}))
    assert game.view()["status"] == "active"
    mine = set(game.view(kira)["state"]["hands"][0])
    secrets = set(hoard.CARDS) - mine
    leaks = {card for card in secrets for text in seen if card in text}
    assert not leaks


def test_the_host_log_shows_every_card_and_the_table_setup(client):
    deck = sorted(hoard.CARDS)
    game = create(client, chance="table", setup={"deck": deck})
    created, *rest = game.all_events()
    assert created["event"]["table_setup"] == {"deck": deck}
    assert rest[1]["event"] == {"type": "DeckShuffled", "deck": deck}
    assert "table_setup" not in game.all_events(game.seat(0))[0]["event"]
