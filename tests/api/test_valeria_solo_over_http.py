"""The Valeria Solo Variant through the API [BR p.16-18]: a solo game created and played by its
seat, the Monsters Phase's choice sent as a command, the result against the Dark Lord; and the
Dark Lord's Duke, reported by a table, shown nowhere to the seat until the end (two twins that
differ only in it answer the seat's token alike everywhere: tests/api/test_hidden_everywhere.py)."""
from __future__ import annotations

import random

import pytest

import domain.chance
from tests.api.test_hidden_everywhere import GAME_SEED, Seeds, assert_same_everywhere, assert_same_refusals
from tests.fakes.http import create
from tests.playouts.test_valeria_playouts import duke_of_valeria

ID = "valeria-card-kingdoms"
SETUP = {"domains": ["granary", "barracks", "chapel", "palace_of_the_dawn", "foxgrove"], "dukes": [["duke_ash", "duke_bran"]],
         "first_player": 0}


@pytest.fixture
def seeds(monkeypatch):
    return Seeds(monkeypatch)


def test_a_solo_game_is_created_and_played_by_its_seat_to_a_result(corsairs_client):
    refused = corsairs_client.post("/games", json={"ruleset": ID, "players": [{"name": "Ana"}, {"name": "Ben"}],
                                                   "options": {"variant": "solo"}})
    assert refused.status_code == 422 and "the solo variant is for one player, not 2 [BR p.16]" in str(refused.get_json())
    game = create(corsairs_client, ID, players=("Ana",), options={"variant": "solo"})
    me = game.seat(0)
    state = game.view(me)["state"]
    assert state["dark_lord"]["duke"] is None and state["dark_lord"]["captured"] == []
    assert [c["monster"] for c in state["dark_lord"]["columns"]] == list(state["monster_stacks"])
    assert game.view()["state"]["dark_lord"]["duke"]          # the host token sees as the arbiter
    rng = random.Random(2)
    sent = set()
    for _ in range(3000):
        commands = game.legal(me)
        if not commands:
            break
        command = duke_of_valeria(rng, commands)
        response = game.send(command, me)
        assert response.status_code == 200, (command, response.get_json())
        sent.add(command["type"])
        if command["type"] == "activate_monster":
            wrong = {"type": "activate_monster", "die": 7}
            assert game.send(wrong, me).status_code == 422
    final = game.view(me)
    assert final["status"] == "finished" and {"keep_duke", "roll_dice", "announce_roll"} <= sent
    result = final["result"]
    assert result["solo"] in ("won", "lost", "draw") and result["dark_lord"]["duke"]
    assert final["state"]["dark_lord"]["duke"] == result["dark_lord"]["duke"]        # revealed at the end
    assert (result["winners"] == [0]) == (result["solo"] == "won")


def test_crimson_seas_refuses_solo_play_with_its_reason(corsairs_client):
    """VA-4: one player, or the solo variant asked of two, is refused with the reason, its section
    and its ruling."""
    for players, field in ((["Ana"], "options.variant"), (["Ana", "Ben"], "options.variant"), (["Ana"], "players")):
        response = corsairs_client.post("/games", json={"ruleset": "crimson-seas", "players": [{"name": p} for p in players],
                                                        **({"options": {"variant": "solo"}} if field == "options.variant" else {})})
        assert response.status_code == 422
        problems = [p for p in response.get_json()["causes"] if "solo play is not defined with Crimson Seas" in p["detail"]]
        assert problems and all(p["section"] == "CS Game Setup" and p["ruling"] == "VA-4" for p in problems), response.get_json()
        assert any(p["field"] == field for p in problems), problems


def test_the_dark_lord_reported_by_the_table_shows_nowhere_to_the_seat(corsairs_client, seeds):
    """[BR p.16] 'randomly place one Duke face down above the Monster stacks': twins at a table, one
    with the Duke of Dara as the Dark Lord, the other with the Duke of Eld, played alike."""
    seeds.next = GAME_SEED
    one, other = [create(corsairs_client, ID, players=("Ana",), chance="table", public=True, options={"variant": "solo"},
                         setup={**SETUP, "dark_lord": dark}) for dark in ("duke_dara", "duke_eld")]
    probes = [{"type": "keep_duke", "duke": d} for d in ("duke_dara", "duke_eld", "duke_ash")]
    assert_same_everywhere(one, other, 0, probes, seeds)
    assert_same_refusals(one, other, 0, probes[:2] + [{"type": "roll_dice", "dice": [1, 2]}])
    rng = random.Random(4)
    for step in range(40):
        commands = [c for c in one.legal(one.seat(0)) if c["type"] not in ("build",)]
        command = rng.choice([c for c in commands if c["type"] != "gain_resource"] or commands)
        if command["type"] == "roll_dice":
            command = {**command, "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
        for game in (one, other):
            response = game.send(command, game.seat(0))
            assert response.status_code == 200, (command, response.get_json())
        if step in (12, 39):
            assert_same_everywhere(one, other, 0, [{"type": "activate_monster", "die": 0}], seeds, most=20)
    assert one.view()["state"]["dark_lord"]["duke"] == "duke_dara"


@pytest.fixture(autouse=True)
def _fresh_seed_after(monkeypatch):
    yield
    monkeypatch.setattr(domain.chance, "new_seed", domain.chance.new_seed)
