"""Every stored version of every game reads (issue 13): random playouts of all six rulesets,
folded again one event at a time from the first; after every event (setup included) view()
for the arbiter, each seat and a spectator, status() and legal_commands() for each seat
answer, with JSON-safe data.

A command stores several events and GET /games/{id}?version=N or POST /replays?at=N may
stop between two of them: the state there is half-way through a transition (every seat has
drawn but the next phase has not begun, ...), one that decide() never sees. Chrono Corsairs
is also played at a table, where a flipped Event token ends the command, so its commands
stop elsewhere."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from domain.chrono import RULESET as CHRONO
from domain.corsairs import RULESET as CORSAIRS
from domain.league import RULESET as LEAGUE
from domain.ruleset import ARBITER
from domain.tesoros import RULESET as TESOROS
from domain.valeria import CRIMSON_SEAS
from domain.valeria import RULESET as VALERIA
from tests.playouts import test_chrono_playouts as chrono_games
from tests.playouts import test_corsairs_playouts as corsairs_games
from tests.playouts import test_league_playouts as league_games
from tests.playouts import test_tesoros_playouts as tesoros_games
from tests.playouts import test_valeria_playouts as valeria_games
from tests.playouts.harness import play

# (game, players, commands): two whole games, and the first commands of a game at the most
# players. Reading one version for every viewer takes about a millisecond, and a whole game
# stores several hundred to a few thousand.
GAMES = ((0, 2, None), (1, 3, None), (2, "most", 150))


def assert_every_version_reads(ruleset, events: list[dict], seats: int, game: str) -> None:
    """Fold the log from nothing; after each event every reading answers JSON-safe data."""
    state = ruleset.initial_state()
    readable(ruleset, state, seats, f"{game}, before any event")
    for n, event in enumerate(json.loads(json.dumps(events)), start=1):
        state = ruleset.evolve(state, event)
        readable(ruleset, state, seats, f"{game}, after event {n} ({event['type']}), version {n + 1} over HTTP")


def readable(ruleset, state, seats: int, where: str) -> None:
    try:
        for viewer in (ARBITER, None, *range(seats)):
            json.dumps(ruleset.view(state, viewer))
        status = ruleset.status(state)
        json.dumps(dataclasses.asdict(status))
        assert set(status.to_move) <= set(range(seats)), status
        for seat in range(seats):
            json.dumps(ruleset.legal_commands(state, seat))
    except Exception as error:
        raise AssertionError(f"{ruleset.id}, {where}: {error!r}") from error


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def chrono(g: int, n: int, commands: int | None):
    return play(CHRONO, 7000 + g, names(n), None, policy=chrono_games.captain,
                **bounded(commands, 6000))[1]


def chrono_at_a_table(g: int, n: int, commands: int | None):
    from tests.domain.chrono.test_table_games import play_at_table
    if commands is not None:
        return None   # a table game is played to its end only
    table, _ = play_at_table(n, 7100 + g, probe=0.0)
    return table.events


def corsairs(g: int, n: int, commands: int | None):
    rng = random.Random(7200 + g)
    options = corsairs_games.random_options(rng)
    options["first_player"] = rng.randrange(n)
    return play(CORSAIRS, 7200 + g, names(n), options, policy=corsairs_games.racer,
                **bounded(commands, corsairs_games.MAX_COMMANDS))[1]


def league(g: int, n: int, commands: int | None):
    options = league_games.random_options(random.Random(7300 + g))
    return play(LEAGUE, 7300 + g, names(n), options, policy=league_games.sailor, **bounded(commands, 20000))[1]


def tesoros(g: int, n: int, commands: int | None):
    rng = random.Random(7400 + g)
    seen = [None]   # the state, for the captain's sense of direction

    def look(s, *_):
        seen[0] = s

    return play(TESOROS, 7400 + g, names(n), tesoros_games.random_options(rng),
                policy=lambda r, legal: tesoros_games.captain(r, legal, seen[0]),
                after_event=look, at_rest=look, **bounded(commands, 20000))[1]


def valeria(ruleset):
    def game(g: int, n: int, commands: int | None):
        return play(ruleset, 7500 + g, names(n), None, policy=valeria_games.duke_of_valeria,
                    **bounded(commands, 20000))[1]
    return game


def bounded(commands: int | None, most: int) -> dict:
    """play()'s arguments for a whole game (within `most` commands) or its first commands."""
    if commands is None:
        return {"max_commands": most}
    return {"max_commands": commands, "to_the_end": False}


PLAYOUTS = {
    "chrono-corsairs": (CHRONO, chrono),
    "chrono-corsairs at a table": (CHRONO, chrono_at_a_table),
    "corsairs-of-valeria": (CORSAIRS, corsairs),
    "league-of-pirates": (LEAGUE, league),
    "tesoros-del-rey-pirata": (TESOROS, tesoros),
    "valeria-card-kingdoms": (VALERIA, valeria(VALERIA)),
    "crimson-seas": (CRIMSON_SEAS, valeria(CRIMSON_SEAS)),
}


def test_all_six_rulesets_are_played():
    from domain.registry import all_rulesets
    assert {r.id for r, _ in PLAYOUTS.values()} == set(all_rulesets())


@pytest.mark.parametrize("name", PLAYOUTS)
def test_every_version_of_random_games_reads_for_the_arbiter_every_seat_and_a_spectator(name):
    ruleset, playout = PLAYOUTS[name]
    for g, n, commands in GAMES:
        n = ruleset.max_players if n == "most" else min(n, ruleset.max_players)
        events = playout(g, n, commands)
        if events is not None:
            assert_every_version_reads(ruleset, events, n, f"{name} game {g} ({n} players)")
