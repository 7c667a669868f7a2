"""One app and a few real games, played once for every dispute test."""
from __future__ import annotations

import pytest

from tests.disputes.games import CHRONO, CORSAIRS, LEAGUE, SEAS, TESOROS, VALERIA, export, new_app, played

# Tesoros and the Valeria rulesets in table mode are not driven here yet: their tables need
# game-specific dealing (tests/domain/<game>/table.py) that this driver does not do.
KINDS = [(CORSAIRS, "server"), (CORSAIRS, "table"), (LEAGUE, "server"), (LEAGUE, "table"),
         (TESOROS, "server"), (CHRONO, "server"), (CHRONO, "table"), (VALERIA, "server"),
         (SEAS, "server")]


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
