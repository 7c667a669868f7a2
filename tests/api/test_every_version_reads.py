"""Every stored version of every game reads over HTTP (issue 13): a random game of each of
the six rulesets, then GET /games/{id}?version=N for every N with the host token and each
seat's, and POST /replays?at=N of the host's export for every N, as the arbiter and as each
seat. A command stores several events, so most versions fall between two events of one
command (tests/playouts/test_every_version_reads.py covers whole games in the domain)."""
from __future__ import annotations

import random

import pytest

from tests.fakes.http import create, progressing
from tests.playouts.test_chrono_playouts import captain as chrono_captain
from tests.playouts.test_league_playouts import sailor
from tests.playouts.test_tesoros_playouts import captain as tesoros_captain
from tests.playouts.test_valeria_playouts import duke_of_valeria

VERSIONS = 40    # each POST /replays reads the whole export, so reading every version costs N squared
COMMANDS = 300


def hurried(rng: random.Random, legal: list[dict]) -> dict:
    """A Chrono captain who mostly forgoes plans and buys little, so the round ends sooner."""
    kinds = {c["type"]: c for c in legal}
    for kind in ("forgo_plan", "done_outfitting"):
        if kind in kinds and rng.random() < 0.8:
            return kinds[kind]
    return chrono_captain(rng, legal)


def far_enough(ruleset: str, view: dict) -> bool:
    if ruleset == "chrono-corsairs":   # past its first round's end (about version 100 for two)
        return view["state"]["round"] >= 2
    return view["version"] >= VERSIONS


POLICIES = {
    "chrono-corsairs": hurried,
    "corsairs-of-valeria": lambda rng, legal: rng.choice(progressing(legal)),
    "league-of-pirates": sailor,
    "tesoros-del-rey-pirata": tesoros_captain,
    "valeria-card-kingdoms": duke_of_valeria,
    "crimson-seas": duke_of_valeria,
}


def test_every_ruleset_is_played(corsairs_client):
    listed = {r["id"] for r in corsairs_client.get("/rulesets").get_json()["rulesets"]}
    assert listed == set(POLICIES)


@pytest.mark.parametrize("ruleset", POLICIES)
def test_every_version_of_a_random_game_reads_for_the_host_and_each_seat(corsairs_client, ruleset):
    game = create(corsairs_client, ruleset, players=("Anne", "Ben"))
    rng = random.Random(13)
    for _ in range(COMMANDS):
        if far_enough(ruleset, game.view()):
            break
        commands = game.legal()
        if not commands:
            break
        response = game.send(POLICIES[ruleset](rng, commands))
        assert response.status_code == 200, response.get_json()
    assert far_enough(ruleset, game.view())
    last = game.view()["version"]
    tokens = {"host": game.host, 0: game.seat(0), 1: game.seat(1)}

    for version in range(1, last + 1):
        for who, auth in tokens.items():
            response = game.get("", auth, query_string={"version": version})
            assert response.status_code == 200, (version, who, response.get_json())
            assert response.get_json()["version"] == version and response.get_json()["you"] == who

    export = game.get("/export").get_json()
    assert export["complete"]
    for at in range(1, last + 1):
        for seat in (None, 0, 1):
            query = {"at": at} if seat is None else {"at": at, "seat": seat}
            response = corsairs_client.post("/replays", json=export, query_string=query)
            assert response.status_code == 200, (at, seat, response.get_json())
            assert response.get_json()["version"] == at
