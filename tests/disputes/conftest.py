"""One app and a few real games, played once for every dispute test."""
from __future__ import annotations

import pytest

from tests.disputes.games import CHRONO, CORSAIRS, LEAGUE, SEAS, TESOROS, VALERIA, export, new_app, played

# Every ruleset, with server chance and at a table (tests/disputes/games.py: a table's outcomes
# are found by asking the rules, one card or die at a time, for Tesoros and the Valerias).
KINDS = [(CORSAIRS, "server"), (CORSAIRS, "table"), (LEAGUE, "server"), (LEAGUE, "table"),
         (TESOROS, "server"), (TESOROS, "table"), (CHRONO, "server"), (CHRONO, "table"),
         (VALERIA, "server"), (VALERIA, "table"), (SEAS, "server"), (SEAS, "table")]


@pytest.fixture(scope="session")
def disputes_app():
    app = new_app()
    yield app
    app.extensions["parley"].close()


@pytest.fixture(scope="session")
def finished_games(disputes_app):
    """{(ruleset, chance): game} each played to its end."""
    client = disputes_app.test_client()
    return {kind: played(client, *kind, commands=None) for kind in KINDS}


@pytest.fixture(scope="session")
def running_games(disputes_app):
    """{(ruleset, chance): game} each 40 commands in."""
    client = disputes_app.test_client()
    return {kind: played(client, *kind, commands=40) for kind in KINDS}


@pytest.fixture(scope="session")
def finished_exports(finished_games):
    """A seat's export of each finished game: complete, with the seed."""
    return {kind: export(game, game.seat(1)) for kind, game in finished_games.items()}
