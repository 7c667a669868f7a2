"""The recorders' select_events_after (the live hub's one read of every moved game's events),
on SQLite and in memory; on PostgreSQL in tests/postgres/test_live_nodes.py."""
from __future__ import annotations

import random
import uuid

import pytest

from domain.registry import all_rulesets
from service import create_app
from tests.fakes.http import create, progressing


@pytest.mark.parametrize("store", ["sqlite", "popo"])
def test_every_event_after_each_games_version_in_one_answer(tmp_path, store):
    persistence = ({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "e.sqlite")}
                   if store == "sqlite" else {"PERSISTENCE_MODULE": "eventsourcing.popo"})
    app = create_app({"RULESETS": all_rulesets(), "PERSISTENCE": persistence})
    try:
        assert_reads_events_after(app)
    finally:
        app.extensions["parley"].close()


def assert_reads_events_after(app) -> None:
    client, parley = app.test_client(), app.extensions["parley"]
    games = [create(client, "corsairs-of-valeria", players=("Ana", "Ben")) for _ in range(3)]
    rng = random.Random(3)
    for game in games:
        for _ in range(rng.randint(2, 6)):
            assert game.send(rng.choice(progressing(game.legal()))).status_code == 200
    after = {games[0].id: 3, games[1].id: 0, games[2].id: 10_000, str(uuid.uuid4()): 0}
    found = parley._events_since(after)
    for game in games[:2]:
        expected = parley.stored_events(uuid.UUID(game.id), after=after[game.id])
        assert [(e.originator_version, e.hash) for e in found[game.id]] == \
            [(e.originator_version, e.hash) for e in expected]
        assert type(found[game.id][0]).__name__ in ("Created", "Happened")
    assert games[2].id not in found and len(found) == 2


def test_one_read_returns_at_most_its_limit_a_prefix_in_order(tmp_path, monkeypatch):
    """After a long pause the poller's one read stops at EVENTS_AFTER_LIMIT events: the first,
    in order by game and version (the waiters read the rest themselves, service/live.py)."""
    from service import recorders

    app = create_app({"RULESETS": all_rulesets(), "PERSISTENCE": {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "l.sqlite")}})
    try:
        client, parley = app.test_client(), app.extensions["parley"]
        game = create(client, "corsairs-of-valeria", players=("Ana", "Ben"))
        monkeypatch.setattr(recorders, "EVENTS_AFTER_LIMIT", 3)
        found = parley._events_since({game.id: 0})
        assert [e.originator_version for e in found[game.id]] == [1, 2, 3]
    finally:
        app.extensions["parley"].close()


@pytest.mark.parametrize("store", ["sqlite", "popo"])
@pytest.mark.parametrize("after", [2**63 - 1, 2**63, 10**30])
def test_an_after_past_any_version_is_version_not_found_on_every_store(tmp_path, store, after):
    """No version is past 2**63 - 1 (PostgreSQL's bigint, SQLite's INTEGER): /events answers 404
    VERSION_NOT_FOUND at once, as for any `after` past the end, where SQLite would refuse the number."""
    persistence = ({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "e.sqlite")}
                   if store == "sqlite" else {"PERSISTENCE_MODULE": "eventsourcing.popo"})
    app = create_app({"RULESETS": all_rulesets(), "PERSISTENCE": persistence})
    try:
        game = create(app.test_client(), "corsairs-of-valeria", players=("Ana", "Ben"))
        for wait in ("", "&wait=1"):
            answer = game.get(f"/events?after={after}{wait}")
            assert (answer.status_code, answer.get_json()["code"]) == (404, "VERSION_NOT_FOUND")
    finally:
        app.extensions["parley"].close()
