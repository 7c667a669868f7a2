"""API tests run through the Flask test client on the in-memory event store."""
from __future__ import annotations

import pytest

from service import create_app
from tests.fakes import hoard


@pytest.fixture
def persistence() -> dict:
    return {"PERSISTENCE_MODULE": "eventsourcing.popo"}


@pytest.fixture
def app(persistence):
    # A stream read through the test client is read to its end: here it ends after 0.2 s.
    app = create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET},
                      "PERSISTENCE": persistence, "SNAPSHOT_INTERVAL": 4, "STREAM_SECONDS": 0.2})
    yield app
    app.extensions["parley"].close()


@pytest.fixture
def corsairs_app(persistence):
    app = create_app({"PERSISTENCE": persistence, "STREAM_SECONDS": 0.2})
    yield app
    app.extensions["parley"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def corsairs_client(corsairs_app):
    return corsairs_app.test_client()
