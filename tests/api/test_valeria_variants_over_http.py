"""Valeria's two printed variants through the API: the Mixed Citizen Variant [BR p.18] and Crimson
Seas' Monster Events on the base game on their own [CS Monster Event Cards], created and played
(server and table chance), with the face-down Citizens and Monster Events kept from every seat
on every endpoint a game's commands reach (VP-40, VP-43)."""
from __future__ import annotations

import random

from tests.fakes.http import create
from tests.playouts.test_valeria_playouts import duke_of_valeria

ID, SEAS = "valeria-card-kingdoms", "crimson-seas"
MIXED = {"variant": "mixed_citizens"}
EVENTS = {"expansions": ["monster_events"]}
TOPS = ["cleric", "merchant", "mercenary", "archer", "peasant", "knight", "thief", "champion", "rogue", "miner"]


def play(game, rng: random.Random, commands: int, after=None) -> list[dict]:
    """Random legal commands as the host; the events each sent command produced. `after` is
    called with each answer's events."""
    produced = []
    for _ in range(commands):
        legal = game.legal()
        if not legal:
            break
        response = game.send(duke_of_valeria(rng, legal))
        assert response.status_code == 200, response.get_json()
        produced += [e["event"]["type"] for e in response.get_json()["events"]]
        if after is not None:
            after([e["event"] for e in response.get_json()["events"]])
    return produced


def test_a_mixed_citizen_game_is_created_and_played_to_its_end_and_no_seat_sees_under_a_stack(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben", "Cleo"), options=MIXED)
    stacks = game.view(game.seat(0))["state"]["citizen_stacks"]
    assert list(stacks) == ["mixed_1", "mixed_2", "mixed_3", "mixed_4", "mixed_5", "mixed_6", "mixed_7", "mixed_8",
                            "mixed_9_10", "mixed_11_12"]
    assert all(p[:4] == ["face_down"] * 4 and len(p) == 5 for p in stacks.values())
    produced = play(game, random.Random(4), 4000)
    assert "CitizenRevealed" in produced
    final = game.view(game.seat(1))
    assert final["status"] == "finished" and final["result"]["winners"]
    for seat in range(3):           # a Citizen shows in a seat's log only when it is turned up
        for entry in game.all_events(game.seat(seat)):
            e = entry["event"]
            if e["type"] == "CenterLaidOut":
                assert all(set(p[:-1]) <= {"face_down"} for p in e["citizens"].values())


def test_monster_events_on_the_base_game_are_created_and_played_and_their_deal_is_nobodys(corsairs_client):
    game = create(corsairs_client, ID, players=("Anne", "Ben"), options=EVENTS)
    view = game.view(game.seat(0))["state"]
    assert view["monster_events_face_down"] == 2 and "islands" not in view
    set_out = next(e["event"] for e in game.all_events(game.seat(1)) if e["event"]["type"] == "MonsterEventsSetOut")
    assert set_out["event_pool"] == 6                           # a count to a seat
    host = next(e["event"] for e in game.all_events() if e["event"]["type"] == "MonsterEventsSetOut")
    assert len(host["event_pool"]) == 6                         # the host sees the pool, sorted: no order
    produced = play(game, random.Random(8), 5000)
    assert "EventRevealed" in produced
    assert game.view()["status"] == "finished"


def test_both_variants_at_a_table_the_host_reports_the_citizens_turned_up_and_a_seat_may_not(corsairs_client):
    setup = {"domains": ["granary", "barracks", "chapel", "keep", "foxgrove"],
             "dukes": [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"]], "first_player": 0}
    refused = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "A"}, {"name": "B"}],
                                                   "chance": "table", "options": MIXED, "setup": setup})
    assert refused.status_code == 422 and "setup.citizens" in str(refused.get_json())
    game = create(corsairs_client, ID, players=("Anne", "Ben"), chance="table",
                  options={**MIXED, **EVENTS}, setup={**setup, "citizens": TOPS})
    for seat in (0, 1):
        duke = game.view(game.seat(seat))["state"]["seats"][seat]["duke_offer"][0]
        assert game.send({"type": "keep_duke", "duke": duke}, game.seat(seat)).status_code == 200
    assert game.send({"type": "roll_dice", "dice": [1, 2]}, game.seat(0)).status_code == 200
    assert game.send({"type": "announce_roll"}, game.seat(0)).status_code == 200
    while game.view()["state"]["phase"] == "harvest":
        assert game.send(game.legal()[0]).status_code == 200
    recruit = {"type": "recruit", "stack": "mixed_2"}
    assert any(c["type"] == "recruit" and c["stack"] == "mixed_2" for c in game.legal(game.seat(0)))
    inputs = game.get("/legal-commands", game.seat(0)).get_json()
    assert "recruit" in str(inputs)
    by_seat = game.send({**recruit, "revealed": ["merchant"]}, game.seat(0))
    assert by_seat.status_code != 200 and "host" in str(by_seat.get_json())      # TM-1
    by_host = game.send({**recruit, "revealed": ["merchant"], "seat": 0})
    assert by_host.status_code == 200, by_host.get_json()
    assert [e["event"] for e in by_host.get_json()["events"] if e["event"]["type"] == "CitizenRevealed"] == \
        [{"type": "CitizenRevealed", "stack": "mixed_2", "card": "merchant#2"}]


def test_crimson_seas_plays_the_mixed_citizen_variant_over_http(corsairs_client):
    game = create(corsairs_client, SEAS, players=("Kira", "David"), options={"variant": ["mixed_citizens"]})
    assert "mixed_1" in game.view(game.seat(0))["state"]["citizen_stacks"]
    play(game, random.Random(2), 150)
    redundant = corsairs_client.post("/games", json={"ruleset": SEAS, "players": [{"name": "A"}, {"name": "B"}],
                                                     "options": {"expansions": ["crimson_seas", "monster_events"]}})
    assert redundant.status_code == 201


def test_a_seats_dry_run_turns_up_a_citizen_from_fresh_randomness_not_the_games(corsairs_client):
    """DR-1, VP-40: dry runs of a recruit that turns a face-down Citizen up show Monks and Clerics
    alike (each from its own fresh seed), so none tells the seat what the game's seed will turn up;
    the game itself is unchanged by them."""
    game = create(corsairs_client, ID, players=("Anne", "Ben"), options={**MIXED, "first_player": 0})
    rng = random.Random(1)
    while game.view()["state"]["phase"] != "action":
        assert game.send(duke_of_valeria(rng, game.legal())).status_code == 200
    before = game.view()["version"]
    recruit = next(c for c in game.legal(game.seat(0)) if c["type"] == "recruit" and c["stack"] == "mixed_1")
    drawn = set()
    for _ in range(30):
        answer = corsairs_client.post(f"/games/{game.id}/commands?dry_run=true", json=recruit, headers=game.seat(0))
        assert answer.status_code == 200, answer.get_json()
        drawn |= {e["event"]["card"].split("#")[0] for e in answer.get_json()["events"]
                  if e["event"]["type"] == "CitizenRevealed"}
    assert drawn == {"monk", "cleric"} and game.view()["version"] == before


def test_a_game_with_a_preselected_monster_event_turns_it_up_and_the_option_is_offered(corsairs_client):
    """[CS Monster Event Cards, Setup] 'you may preselect it' (VP-48): offered in the options schema,
    refused where no Monster Events are played, and the Event preselected in a two-player game
    whose two Events are both chosen is among those turned up."""
    schema = corsairs_client.get(f"/rulesets/{ID}").get_json()["options_schema"]["properties"]
    assert "monster_events_preselected" in schema and "VP-48" in schema["monster_events_preselected"]["description"]
    refused = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "Anne"}, {"name": "Ben"}],
                                                   "options": {"monster_events_preselected": ["leviathan"]}})
    assert refused.status_code == 422 and "only where they are played" in str(refused.get_json())
    game = create(corsairs_client, ID, players=("Anne", "Ben"),
                  options={**EVENTS, "monster_events_preselected": ["leviathan", "giants"]})
    for _ in range(40):
        produced = [e for e in game.all_events(game.seat(0)) if e["event"]["type"] == "EventRevealed"]
        if len(produced) == 2:
            break
        play(game, random.Random(len(produced)), 100)
    assert sorted(e["event"]["card"] for e in produced) == ["giants", "leviathan"]


def test_a_solo_game_with_mixed_citizens_is_played_to_its_end_and_the_seat_never_sees_under_a_stack(corsairs_client):
    """VP-49: the Solo Variant and the Mixed Citizen Variant together, over HTTP: 4 face down and 1 up
    on each stack; a Monster's capture from a mixed stack turns up the Citizen below in the same
    command's events; the seat's view and log never name a face-down Citizen."""
    options = {"variant": ["solo", "mixed_citizens"]}
    found = []
    tops: dict = {}   # every card the seat has seen on top of each stack

    def check(events: list[dict]) -> None:
        for k, e in enumerate(events):
            if e["type"] == "CardCaptured" and e["stack"].startswith("mixed_"):
                found.extend(x for x in events[k + 1:] if x["type"] == "CitizenRevealed" and x["stack"] == e["stack"])
        seen = game.view(game.seat(0))["state"]["citizen_stacks"]
        for stack, pile in seen.items():
            if pile:
                tops.setdefault(stack, set()).add(pile[-1])
            # under the top: face down, or a card once on top and covered since (a Citizen returned
            # onto the stack by a Domain's power lies on the one that was face up)
            assert all(c == "face_down" or c in tops[stack] for c in pile[:-1]), (stack, pile)

    for attempt in range(8):         # games end by chance: play until a capture from a mixed stack
        game = create(corsairs_client, ID, players=("Anne",), options=options)
        stacks = game.view(game.seat(0))["state"]["citizen_stacks"]
        assert all(p[:4] == ["face_down"] * 4 and len(p) == 5 for p in stacks.values())
        play(game, random.Random(attempt), 4000, after=check)
        final = game.view(game.seat(0))
        assert final["status"] == "finished" and final["result"]["details"]["solo"] in ("won", "lost", "draw")
        if found:
            break
    assert found      # a capture from a mixed stack turned up the Citizen below it
    for entry in game.all_events(game.seat(0)):
        e = entry["event"]
        if e["type"] == "CenterLaidOut":
            assert all(set(p[:-1]) <= {"face_down"} for p in e["citizens"].values())


def test_a_solo_table_that_placed_the_dark_lord_unseen_need_not_name_it(corsairs_client):
    """VP-55: a solo game at a table may leave setup.dark_lord out (the card lies face down,
    [BR p.16]); nobody is told which it is, the host included, and the host's view lists the
    Dukes it may be, to report when it is turned up to be scored. An outside table-mode review
    met the refusal that made the player look at it."""
    setup = {"domains": ["granary", "barracks", "chapel", "palace_of_the_dawn", "foxgrove"],
             "dukes": [["duke_ash", "duke_bran"]], "first_player": 0}
    game = create(corsairs_client, ID, players=("Anne",), options={"variant": "solo"}, chance="table", setup=setup)
    host = game.view(game.host)["state"]
    assert host["dark_lord"]["duke"] is None
    assert host["nameable"]["dark_lord"] and not {"duke_ash", "duke_bran"} & set(host["nameable"]["dark_lord"])
    for reader in (game.host, game.seat(0)):
        placed = [e["event"] for e in game.all_events(reader) if e["event"]["type"] == "DarkLordPlaced"]
        assert placed == [{"type": "DarkLordPlaced", "unnamed": True}]
