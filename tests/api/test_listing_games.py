"""GET /games: the games in the store, filtered and paged, never missing one just stored."""
from __future__ import annotations

from tests.fakes.http import create


def listed(client, **query):
    response = client.get("/games", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_game_is_listed_as_soon_as_its_creation_returns(corsairs_client):
    assert listed(corsairs_client)["games"] == []
    game = create(corsairs_client, "corsairs-of-valeria", players=("Kira", "David"))
    (row,) = listed(corsairs_client)["games"]
    assert row["id"] == game.id and row["ruleset"] == "corsairs-of-valeria"
    assert row["players"] == ["Kira", "David"] and row["status"] == "active"
    assert row["version"] == game.created["version"]
    assert "token" not in str(row) and game.created["host_token"] not in str(listed(corsairs_client))


def test_games_are_filtered_by_ruleset_status_and_player(corsairs_client):
    a = create(corsairs_client, "corsairs-of-valeria", players=("Kira", "David"))
    b = create(corsairs_client, "league-of-pirates", players=("Anne", "Ben"))
    assert [g["id"] for g in listed(corsairs_client, ruleset="league-of-pirates")["games"]] == [b.id]
    assert [g["id"] for g in listed(corsairs_client, player="kira")["games"]] == [a.id]
    assert listed(corsairs_client, status="finished")["games"] == []
    a.send({"type": "roll_dice", "seat": 0})
    (row,) = listed(corsairs_client, ruleset="corsairs-of-valeria")["games"]
    assert row["version"] == a.created["version"] + 1


def test_a_player_is_found_as_rfc_8266_compares_nicknames(corsairs_client):
    """The name asked for is read as names are stored: case, width, runs of spaces and how an
    accent is written aside; part of a name is not the name."""
    game = create(corsairs_client, "corsairs-of-valeria", players=("Zoë Kira", "David"))
    for asked in ("zoë kira", "  ZOË   KIRA ", "Ｚｏë Ｋｉｒａ", "Zoe\u0308 Kira"):
        assert [g["id"] for g in listed(corsairs_client, player=asked)["games"]] == [game.id], asked
    for asked in ("Zoë", "Zoe Kira", "Zoë\u200dKira"):
        assert listed(corsairs_client, player=asked)["games"] == [], asked


def test_a_finished_game_is_listed_as_finished(corsairs_client):
    import random

    from tests.fakes.http import progressing

    game = create(corsairs_client, "corsairs-of-valeria", players=("Kira", "David"))
    game.play_to_the_end(random.Random(5), prefer=progressing)
    (row,) = listed(corsairs_client, status="finished")["games"]
    assert row["id"] == game.id and listed(corsairs_client, status="active")["games"] == []


def test_pages_follow_the_cursor_and_the_link_header(corsairs_client):
    ids = [create(corsairs_client, "corsairs-of-valeria").id for _ in range(5)]
    first = corsairs_client.get("/games", query_string={"limit": 2})
    page = first.get_json()
    assert [g["id"] for g in page["games"]] == ids[:2] and 'rel="next"' in first.headers["Link"]
    seen = [g["id"] for g in page["games"]]
    while page["next"]:
        page = listed(corsairs_client, limit=2, after=page["next"])
        seen += [g["id"] for g in page["games"]]
    assert seen == ids


def test_a_cursor_that_is_no_game_is_refused_not_answered_as_the_end(corsairs_client):
    """An empty page means the end of the list only after a real cursor: one made up or cut short
    is 404 GAME_NOT_FOUND (an outside review got an empty last page for a made-up one)."""
    ids = [create(corsairs_client, "corsairs-of-valeria").id for _ in range(3)]
    assert listed(corsairs_client, after=ids[-1]) == {"games": [], "next": None}   # the last game: the end
    assert listed(corsairs_client, after=ids[-1], status="finished") == {"games": [], "next": None}
    assert listed(corsairs_client, after=ids[0], player="nobody at all") == {"games": [], "next": None}
    for after in ("00000000-0000-0000-0000-000000000000", ids[1][:-1] + ("0" if ids[1][-1] != "0" else "1")):
        for query in ({}, {"status": "finished"}, {"player": "nobody at all"}, {"ruleset": "corsairs-of-valeria"}):
            answer = corsairs_client.get("/games", query_string={"after": after, **query})
            assert answer.status_code == 404 and answer.mimetype == "application/problem+json", (after, query)
            assert answer.get_json()["code"] == "GAME_NOT_FOUND" and "'after'" in answer.get_json()["detail"]

def test_a_bad_filter_is_a_400_problem(corsairs_client):
    response = corsairs_client.get("/games", query_string={"status": "sunk"})
    assert response.status_code == 400 and response.mimetype == "application/problem+json"


def test_on_sqlite_two_apps_on_one_file_each_list_what_the_other_stored(tmp_path):
    # Two gunicorn workers are two apps over one store: each catches up from the shared log.
    from service import create_app

    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "games.sqlite")}
    one, two = create_app({"PERSISTENCE": env}), create_app({"PERSISTENCE": env})
    try:
        listed(two.test_client())  # two has caught up with an empty store
        game = create(one.test_client(), "league-of-pirates", players=("Anne", "Ben"))
        assert [g["id"] for g in listed(two.test_client())["games"]] == [game.id]
    finally:
        one.extensions["parley"].close()
        two.extensions["parley"].close()
