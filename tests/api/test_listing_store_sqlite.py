"""The stored game list's tests (test_listing_store.py) on SQLite, the embedded default."""
from __future__ import annotations

import pytest

from tests.api.test_listing_store import *  # noqa: F401,F403


@pytest.fixture
def persistence(tmp_path) -> dict:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "parley.sqlite")}
