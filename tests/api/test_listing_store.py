"""The game list as stored (service/listing.py): written with the events in one transaction,
read with every filter, paged by cursor, and rebuilt from the events of a database written
before it was stored. In memory here; on SQLite in test_listing_store_sqlite.py and on
PostgreSQL in tests/postgres/test_api_on_postgres.py (the same tests, another `persistence`)."""
from __future__ import annotations

import itertools
import random
import re
from uuid import UUID

import pytest

from domain.registry import all_rulesets
from service import create_app, listing
from service.application import Parley
from tests.fakes import hoard
from tests.fakes.http import create

LEAGUE = all_rulesets()["league-of-pirates"]
RULESETS = {hoard.RULESET.id: hoard.RULESET, LEAGUE.id: LEAGUE}
PLAYERS = [("Kira", "David"), ("kira", "Straße"), ("Anne", "Ben", "KIRA"), ("Ben", "Anne"),
           ("STRASSE", "Ösel"), ("Zoë", "Ben")]


@pytest.fixture
def listing_app(persistence):
    app = create_app({"RULESETS": RULESETS, "PERSISTENCE": persistence})
    yield app
    app.extensions["parley"].close()


def parley(app) -> Parley:
    return app.extensions["parley"]


def every_page(client, **query) -> tuple[list[dict], list]:
    """Every game the filters list, following `next` (and checking the Link header agrees)."""
    seen, cursors, after = [], [], None
    while True:
        response = client.get("/games", query_string={**query, **({"after": after} if after else {})})
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        assert len(body["games"]) <= query.get("limit", 50)
        seen += body["games"]
        cursors.append(body["next"])
        if body["next"] is None:
            assert "Link" not in response.headers
            return seen, cursors
        assert f"after={body['next']}" in response.headers["Link"] and body["next"] == body["games"][-1]["id"]
        after = body["next"]


@pytest.fixture
def stored_games(listing_app):
    """Twelve games of two rulesets, some finished, some moved on, some public, in creation order."""
    client = listing_app.test_client()
    games = []
    for i in range(12):
        ruleset = hoard.RULESET.id if i % 3 else LEAGUE.id
        game = create(client, ruleset, players=PLAYERS[i % len(PLAYERS)], public=i % 4 == 1)
        if ruleset == hoard.RULESET.id and i % 2:
            game.play_to_the_end(random.Random(i))
        elif ruleset == hoard.RULESET.id:
            assert game.send({"type": "draw"}, game.seat(0)).status_code == 200
        games.append(game)
    return client, games


def expected(games, ruleset=None, status=None, player=None, public=None) -> list[dict]:
    rows = []
    for game in games:
        view = game.view()
        row = {"id": game.id, "ruleset": game.created["ruleset"], "players": [s["name"] for s in game.created["seats"]],
               "status": view["status"], "version": view["version"], "public": game.created["public"]}
        if (ruleset in (None, row["ruleset"]) and status in (None, row["status"])
                and public in (None, row["public"])
                and (player is None or player.casefold() in [p.casefold() for p in row["players"]])):
            rows.append(row)
    return rows


def test_every_filter_and_every_page_size_lists_exactly_the_matching_games_in_creation_order(stored_games):
    client, games = stored_games
    assert {g.view()["status"] for g in games} == {"active", "finished"}
    for ruleset, status, player in itertools.product(
            (None, hoard.RULESET.id, LEAGUE.id, "no-such-game"), (None, "active", "finished"),
            (None, "KIRA", "strasse", "ben", "ösel", "Nobody")):
        query = {k: v for k, v in {"ruleset": ruleset, "status": status, "player": player}.items() if v}
        want = expected(games, ruleset, status, player)
        for limit in (1, 5, 50):
            seen, _ = every_page(client, **query, limit=limit)
            assert [{k: g[k] for k in ("id", "ruleset", "players", "status", "version", "public")}
                    for g in seen] == want, (query, limit)
    assert expected(games, player="strasse") and expected(games, player="KIRA")  # casefold: "Straße" is "STRASSE"


def test_the_newest_first_lists_the_same_games_in_reverse_with_every_filter_and_page_size(stored_games):
    """order=newest (a lobby of recent games): exactly the games the filters match, the latest
    created first, paged back in time by the same cursor; the Link header keeps the order."""
    client, games = stored_games
    for ruleset, status, player, public in itertools.product(
            (None, LEAGUE.id), (None, "finished"), (None, "ben"), (None, "true")):
        query = {k: v for k, v in {"ruleset": ruleset, "status": status, "player": player, "public": public}.items() if v}
        want = list(reversed(expected(games, ruleset, status, player, None if public is None else True)))
        for limit in (1, 5, 50):
            seen, _ = every_page(client, **query, order="newest", limit=limit)
            assert [{k: g[k] for k in ("id", "ruleset", "players", "status", "version", "public")}
                    for g in seen] == want, (query, limit)
    first = client.get("/games", query_string={"order": "newest", "limit": 2})
    assert [g["id"] for g in first.get_json()["games"]] == [games[-1].id, games[-2].id]
    assert "order=newest" in first.headers["Link"]
    assert client.get("/games", query_string={"order": "newest", "after": games[0].id}).get_json()["games"] == []
    refused = client.get("/games", query_string={"order": "latest"})
    assert refused.status_code == 400 and refused.get_json()["code"] == "MALFORMED_REQUEST"


def test_the_public_filter_lists_the_games_anyone_may_watch_with_every_other_filter(stored_games):
    """An audience's app lists the games it may watch without a token (public=true)."""
    client, games = stored_games
    assert {g.created["public"] for g in games} == {True, False}
    for public, ruleset, status, player in itertools.product(
            (True, False), (None, hoard.RULESET.id), (None, "active", "finished"), (None, "ben")):
        query = {k: v for k, v in {"ruleset": ruleset, "status": status, "player": player}.items() if v}
        want = expected(games, ruleset, status, player, public)
        for limit in (1, 50):
            seen, _ = every_page(client, **query, public=str(public).lower(), limit=limit)
            assert [{k: g[k] for k in ("id", "ruleset", "players", "status", "version", "public")}
                    for g in seen] == want, (public, query, limit)
            if len(want) > 1 and limit == 1:  # the Link header keeps the filter
                first = client.get("/games", query_string={**query, "public": str(public).lower(), "limit": 1})
                assert f"public={str(public).lower()}" in first.headers["Link"]
    for unclear in ("1", "True", "yes", ""):
        refused = client.get("/games", query_string={"public": unclear})
        assert refused.status_code == 400 and refused.get_json()["code"] == "MALFORMED_REQUEST", unclear


def test_created_at_is_the_creation_events_time_and_never_changes(stored_games, listing_app):
    client, games = stored_games
    listed = {g["id"]: g["created_at"] for g in every_page(client)[0]}
    for game in games:
        created = parley(listing_app).stored_events(UUID(game.id))[0]
        assert listed[game.id] == created.timestamp.isoformat()


def test_a_cursor_that_is_no_listed_game_is_refused_and_the_last_game_ends_the_list(stored_games):
    client, games = stored_games
    refused = client.get("/games", query_string={"after": "00000000-0000-4000-8000-000000000000"})
    assert refused.status_code == 404 and refused.get_json()["code"] == "GAME_NOT_FOUND"
    body = client.get("/games", query_string={"after": games[-1].id}).get_json()
    assert body == {"games": [], "next": None}
    body = client.get("/games", query_string={"after": games[3].id, "limit": 2}).get_json()
    assert [g["id"] for g in body["games"]] == [g.id for g in games[4:6]] and body["next"] == games[5].id


def test_a_filter_with_a_nul_lists_nothing_rather_than_failing(stored_games):
    """No name or ruleset holds a NUL (PostgreSQL text cannot): found by schemathesis as a 500."""
    client, _ = stored_games
    for query in ({"player": "Kira\x00"}, {"ruleset": "hidden-hoard\x00", "status": "active"}, {"player": "\x00"}):
        response = client.get("/games", query_string=query)
        assert response.status_code == 200 and response.get_json() == {"games": [], "next": None}, query


def test_a_game_that_finishes_is_listed_finished_at_its_last_version(listing_app):
    client = listing_app.test_client()
    game = create(client, players=("Kira", "David"))
    assert every_page(client, status="finished")[0] == []
    game.play_to_the_end(random.Random(2))
    (row,) = every_page(client, status="finished")[0]
    assert row["id"] == game.id and row["version"] == game.view()["version"]
    assert every_page(client, status="active")[0] == []


def break_the_listing(monkeypatch, drop: str) -> None:
    """The next inserts' listing changes lack `drop`: writing them fails after the events were
    inserted, inside the same transaction."""
    real = listing.changes

    def broken(events):
        found = real(events)
        for change in found:
            change.pop(drop, None)
            if drop == "players":
                change.pop("names", None)
                change["ruleset"] = None
        return found

    monkeypatch.setattr(listing, "changes", broken)


def test_a_creation_whose_listing_fails_stores_neither_events_nor_a_row(listing_app, monkeypatch):
    client = listing_app.test_client()
    kept = create(client)
    events_before = parley(listing_app).recorder.max_notification_id()
    break_the_listing(monkeypatch, "players")
    with pytest.raises(Exception):  # noqa: B017 - whichever error the store raises
        parley(listing_app).create_game(hoard.RULESET.id, ["Anne", "Ben"], "server")
    monkeypatch.undo()
    assert parley(listing_app).recorder.max_notification_id() == events_before
    assert [g["id"] for g in every_page(client)[0]] == [kept.id]
    again = create(client, players=("Anne", "Ben"))
    assert [g["id"] for g in every_page(client)[0]] == [kept.id, again.id]


def test_a_command_whose_listing_fails_stores_neither_events_nor_a_change(listing_app, monkeypatch):
    client = listing_app.test_client()
    game = create(client)
    before = game.view()["version"]
    events = game.all_events()
    break_the_listing(monkeypatch, "finished")
    answer = game.send({"type": "draw"}, game.seat(0))
    assert answer.status_code >= 500 or answer.status_code == 409  # PostgreSQL: a constraint, taken as a clash
    monkeypatch.undo()
    assert game.all_events() == events
    (row,) = every_page(client)[0]
    assert row["version"] == before
    assert game.send({"type": "draw"}, game.seat(0)).status_code == 200
    (row,) = every_page(client)[0]
    assert row["version"] == game.view()["version"] > before


def test_a_stale_writer_is_refused_and_the_listing_keeps_the_true_version(listing_app):
    from eventsourcing.persistence import IntegrityError

    client = listing_app.test_client()
    game = create(client)
    app = parley(listing_app)
    stale = app._load_game(UUID(game.id))
    assert game.send({"type": "draw"}, game.seat(0)).status_code == 200
    with pytest.raises(IntegrityError):
        app.execute(UUID(game.id), 0, {"type": "stand"}, game=stale)
    (row,) = every_page(client)[0]
    assert row["version"] == game.view()["version"] and row["status"] == "active"


def forget_the_listing(app) -> None:
    """The store as the code before the stored list left it: events, no listing tables."""
    recorder = parley(app).recorder
    if hasattr(recorder, "_games"):  # in memory
        recorder._games = None
        recorder._names = {}
        return
    if hasattr(recorder.datastore, "schema"):  # PostgreSQL
        with recorder.datastore.get_connection() as conn:
            conn.execute(f'DROP TABLE "{recorder.datastore.schema}".{listing.PLAYERS}, '
                         f'"{recorder.datastore.schema}".{listing.GAMES}')
        return
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(f"DROP TABLE {listing.PLAYERS}")
        cursor.execute(f"DROP TABLE {listing.GAMES}")


def forget_public(app) -> None:
    """The list as the code before `public` left it: no such column, nor its index, and on
    PostgreSQL the function that wrote the list without it."""
    recorder = parley(app).recorder
    if hasattr(recorder.datastore, "schema"):  # PostgreSQL
        schema = recorder.datastore.schema
        with recorder.datastore.get_connection() as conn:
            conn.execute(f'ALTER TABLE "{schema}".{listing.GAMES} DROP COLUMN public')
            function = conn.execute("SELECT p.oid::regprocedure::text AS f FROM pg_proc p JOIN pg_namespace n "
                                    "ON n.oid = p.pronamespace WHERE n.nspname = %s AND p.proname LIKE "
                                    "'parley_list_games_%%'", (schema,)).fetchone()["f"]
            body = conn.execute("SELECT pg_get_functiondef(%s::regprocedure) AS d", (function,)).fetchone()["d"]
            old = re.sub(r",\s*COALESCE\(\(change->>'public'\)::boolean, false\)", "",
                         re.sub(r",\s*finished,\s*public\)", ", finished)", body))
            assert old != body and "public" not in old
            conn.execute(old)
        return
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(f"DROP INDEX {listing.GAMES}_by_public")
        cursor.execute(f"ALTER TABLE {listing.GAMES} DROP COLUMN public")


def rebuilt(app, persistence):
    """The listing made again from the stored events, as a process starting on the old
    store makes it: another app on the same store (the same recorder, in memory)."""
    if persistence.get("PERSISTENCE_MODULE") == "eventsourcing.popo":
        parley(app).recorder.create_listing(listing.Backfill(parley(app).mapper))
        return app
    return create_app({"RULESETS": RULESETS, "PERSISTENCE": persistence})


def test_a_store_written_before_the_list_was_stored_is_listed_once_it_starts(stored_games, listing_app, persistence):
    client, games = stored_games
    before = [every_page(client, **q, limit=4)[0] for q in ({}, {"status": "finished"}, {"player": "kira"},
                                                         {"ruleset": LEAGUE.id})]
    forget_the_listing(listing_app)
    new = rebuilt(listing_app, persistence)
    try:
        client = new.test_client()
        after = [every_page(client, **q, limit=4)[0] for q in ({}, {"status": "finished"}, {"player": "kira"},
                                                            {"ruleset": LEAGUE.id})]
        assert after == before and len(after[0]) == len(games)
        # Once made, it is not made again: starting again lists each game once.
        again = rebuilt(new, persistence)
        assert every_page(again.test_client())[0] == before[0]
        if again is not new:
            parley(again).close()
        moved = create(client, players=("Kira", "Ben"))
        assert [g["id"] for g in every_page(client, player="kira")[0]][-1] == moved.id
    finally:
        if new is not listing_app:
            parley(new).close()


def test_a_list_stored_before_public_gets_it_from_the_stored_creations_once_it_starts(
        stored_games, listing_app, persistence):
    if persistence.get("PERSISTENCE_MODULE") == "eventsourcing.popo":
        pytest.skip("an in-memory list never outlives its process")
    client, games = stored_games
    everything, public = every_page(client)[0], every_page(client, public="true")[0]
    assert public and len(public) < len(games)
    forget_public(listing_app)
    new = rebuilt(listing_app, persistence)
    try:
        client = new.test_client()
        assert every_page(client, public="true")[0] == public
        assert every_page(client)[0] == everything
        watched = create(client, players=("Kira", "Ben"), public=True)
        assert every_page(client, public="true")[0][-1]["id"] == watched.id
        assert len(every_page(client)[0]) == len(games) + 1
    finally:
        parley(new).close()


def test_the_listing_is_the_same_as_a_replay_of_every_event(stored_games, listing_app):
    """What the projection holds equals folding the whole notification log (the old way)."""
    client, _ = stored_games
    app = parley(listing_app)
    notifications = app.recorder.select_notifications(start=1, limit=100_000)
    folded: dict = {}
    listing.apply_in_memory(folded, {}, listing.changes(app.mapper.to_domain_event(n) for n in notifications))
    assert [vars(row) for row in folded.values()] == [
        {"id": g["id"], "ruleset": g["ruleset"], "players": g["players"], "created_at": g["created_at"],
         "version": g["version"], "finished": g["status"] == "finished", "public": g["public"]}
        for g in every_page(client)[0]]
