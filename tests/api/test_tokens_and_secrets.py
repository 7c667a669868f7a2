"""Tokens and secrets: a token opens one game and acts for one seat; a seat learns nothing the
rules hide from it through any response; tokens are kept only as hashes and compared in
constant time; an unexpected failure shows no stack trace; and at a table, a seat cannot use
a draw to find out where hidden cards are (ruling TM-1)."""
from __future__ import annotations

import hashlib
import hmac
import json
import random
import sqlite3
from uuid import UUID

import pytest

from service import create_app
from tests.domain.chrono.table import LAYOUT as CHRONO_LAYOUT
from tests.fakes import hoard
from tests.fakes.http import Seated, bearer, create
from tests.playouts.leaks import texts

PROBLEM = "application/problem+json"
TESOROS, CHRONO = "tesoros-del-rey-pirata", "chrono-corsairs"
TESOROS_MAPS = ["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"]
HAND_0 = ["MS-2", "MUT-2a", "SAB-1", "WTP-1a", "CS-3"]
HAND_1 = ["SAB-5", "MUT-4", "LS-5", "SAB-2", "WTP-2a"]
VOLATILE = {"hash", "salt", "recorded_at", "head_hash", "id", "game_id"}


def game_routes(game_id: str) -> list[tuple[str, str]]:
    return [("GET", f"/games/{game_id}"), ("GET", f"/games/{game_id}?version=1"),
            ("GET", f"/games/{game_id}/events"), ("GET", f"/games/{game_id}/legal-commands"),
            ("GET", f"/games/{game_id}/export"), ("POST", f"/games/{game_id}/commands"),
            ("POST", f"/games/{game_id}/commands?dry_run=true")]


def call(client, method: str, path: str, auth: dict, body: dict | None = None):
    if method == "GET":
        return client.get(path, headers=auth)
    return client.post(path, json=body or {"type": "draw", "seat": 0}, headers=auth)


# One game's tokens on another game ------------------------------------------------------

def test_a_token_of_one_game_opens_no_route_of_another(client):
    mine, theirs = create(client), create(client)
    before = theirs.view()["version"]
    for token in [mine.created["host_token"]] + [s["token"] for s in mine.created["seats"]]:
        for method, path in game_routes(theirs.id):
            response = call(client, method, path, bearer(token))
            assert response.status_code == 401, (method, path, response.get_json())
            assert response.content_type == PROBLEM and response.get_json()["code"] == "INVALID_TOKEN"
            assert "Bearer" in response.headers["WWW-Authenticate"]
        # and the same token still works where it belongs
        assert call(client, "GET", f"/games/{mine.id}", bearer(token)).status_code == 200
    assert theirs.view()["version"] == before


def test_a_refused_token_is_told_the_same_whether_or_not_the_game_exists_behind_it(client):
    """401 before anything else: a missing token is refused before the game is even looked up."""
    game = create(client)
    for method, path in game_routes(game.id) + game_routes("00000000-0000-4000-8000-000000000000"):
        response = call(client, method, path, {})
        assert response.status_code == 401 and response.get_json()["code"] == "UNAUTHENTICATED", path


# One seat's token for another seat ------------------------------------------------------

def test_a_seat_token_cannot_act_for_another_seat(client):
    game = create(client, players=("Kira", "David", "Will"))
    before = game.view()["version"]
    for mine in range(3):
        for other in range(3):
            if other == mine:
                continue
            for dry in ("", "?dry_run=true"):
                response = client.post(f"/games/{game.id}/commands{dry}",
                                       json={"type": "draw", "seat": other}, headers=game.seat(mine))
                assert response.status_code == 403 and response.get_json()["code"] == "NOT_YOUR_SEAT"
    assert game.view()["version"] == before
    # The seat field cannot be smuggled in another shape either.
    for seat in ("1", 1.0, True, [1]):
        response = game.send({"type": "draw", "seat": seat}, game.seat(0))
        assert response.status_code == 400 and response.get_json()["code"] == "MALFORMED_REQUEST", seat


def _normalised(value, game_id: str):
    """A response as a seat sees it, without what differs between two games anyway (ids,
    timestamps, the salted hash chain)."""
    text = json.dumps(value).replace(game_id, "GAME")

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in VOLATILE}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return strip(json.loads(text))


def seen_by(game, seat: int, probes: list[dict]) -> list:
    """Everything a seat can ask: view, log, legal commands, export, and the answers (dry runs,
    nothing stored) to every probe command, refusals included."""
    auth = game.seat(seat)
    seen = [game.view(auth), game.all_events(auth), game.get("/legal-commands", auth).get_json(),
            game.get("/export", auth).get_json()]
    for probe in probes:
        response = game.client.post(f"/games/{game.id}/commands?dry_run=true", json=probe, headers=auth)
        seen.append([response.status_code, response.get_json()])
    return _normalised(seen, game.id)


def probes_naming(ruleset: dict, names: list[str]) -> list[dict]:
    """Every command type bare, and with each of its fields naming each of these cards."""
    probes = []
    for kind, schema in ruleset["commands"].items():
        probes.append({"type": kind})
        for field, spec in (schema.get("properties") or {}).items():
            if field == "type":
                continue
            for name in names:
                probes.append({"type": kind, field: [name] if spec.get("type") == "array" else name})
    return probes


def tesoros_pair(client):
    """Two table-mode Tesoros games alike for seat 0; seat 1 holds other cards."""
    content = client.get(f"/rulesets/{TESOROS}").get_json()["default_content"]
    cards = [c["id"] for c in content["playCards"]]
    other = [c for c in reversed(cards) if c not in HAND_0 + HAND_1 + ["FAVOR-a"]][:5]
    games = [create(client, TESOROS, players=("Ana", "Diego"), chance="table", public=True,
                    setup={"hands": [HAND_0, hand], "maps": TESOROS_MAPS}) for hand in (HAND_1, other)]
    return games, other


def test_tesoros_a_seat_sees_nothing_of_the_other_hand_in_any_response(corsairs_client):
    (a, b), other = tesoros_pair(corsairs_client)
    ruleset = corsairs_client.get(f"/rulesets/{TESOROS}").get_json()
    probes = probes_naming(ruleset, HAND_1 + other)
    assert sorted(a.view()["state"]["seats"][1]["hand"]) == sorted(HAND_1)    # the host sees them differ
    assert sorted(b.view()["state"]["seats"][1]["hand"]) == sorted(other)
    assert seen_by(a, 0, probes) == seen_by(b, 0, probes)
    # and seat 0's own turn (a draw sent by the host) changes nothing of that
    for game in (a, b):
        assert game.send({"type": "draw_card", "seat": 0, "drawn": ["FAVOR-a"]}).status_code == 200
    assert seen_by(a, 0, probes) == seen_by(b, 0, probes)
    text = json.dumps(seen_by(a, 0, probes[:1]))
    assert not any(f'"{card}"' in text for card in HAND_1)


def chrono_pair(client):
    """Two table-mode Chrono games; seat 1 has drawn other Plan cards in each (Flag: 1 then 0)."""
    games = []
    for plans in (["S02", "U02"], ["S30", "U19"]):
        game = create(client, CHRONO, players=("Ana", "Diego"), chance="table", public=True,
                      setup={**CHRONO_LAYOUT, "flag": [1, 0]})
        drawn = game.send({"type": "draw_plans", "seat": 1, "plans": plans})
        assert drawn.status_code == 200, drawn.get_json()
        games.append(game)
    return games


def test_chrono_a_seat_sees_nothing_of_the_plans_another_drew_in_any_response(corsairs_client):
    a, b = chrono_pair(corsairs_client)
    ruleset = corsairs_client.get(f"/rulesets/{CHRONO}").get_json()
    probes = probes_naming(ruleset, ["S02", "U02", "S30", "U19"])
    assert a.view()["state"]["seats"][1] != b.view()["state"]["seats"][1]   # the host sees them differ
    assert seen_by(a, 0, probes) == seen_by(b, 0, probes)


# TM-1: a seat cannot report a draw ---------------------------------------------------------

def assert_same_refusal(responses):
    bodies = [(r.status_code, r.get_json()) for r in responses]
    assert bodies[0][0] == 422 and bodies[0][1]["code"] == "TABLE_OUTCOME_FROM_HOST", bodies[0]
    assert bodies[0][1]["ruling"] == "TM-1" and bodies[0][1]["section"] == "Parley: table mode"
    assert all(b == bodies[0] for b in bodies), bodies


def test_tm1_tesoros_a_seat_drawing_learns_nothing_of_where_a_card_is(corsairs_client):
    (game, _), _ = tesoros_pair(corsairs_client)
    before = game.view()["version"]
    in_the_deck, in_their_hand, nowhere = "FAVOR-a", HAND_1[0], "NO-SUCH-CARD"
    assert_same_refusal([game.send({"type": "draw_card", "drawn": [card]}, game.seat(0))
                         for card in (in_the_deck, in_their_hand, nowhere)])
    assert game.view()["version"] == before
    # The host (who sees everything) is answered on the merits: the oracle a seat was denied.
    refused = game.send({"type": "draw_card", "seat": 0, "drawn": [in_their_hand]})
    assert refused.status_code == 422 and refused.get_json()["code"] == "TABLE_OUTCOME_INVALID"
    assert game.send({"type": "draw_card", "seat": 0, "drawn": [in_the_deck]}).status_code == 200


def test_tm1_chrono_a_seat_drawing_plans_learns_nothing_of_where_a_card_is(corsairs_client):
    game, _ = chrono_pair(corsairs_client)       # seat 1 holds S02 and U02
    before = game.view()["version"]
    probes = [["S05", "U05"], ["S02", "U05"], ["S05", "U02"], ["S02", "U02"], ["NOPE", "NOPE"]]
    assert_same_refusal([game.send({"type": "draw_plans", "plans": plans}, game.seat(0)) for plans in probes]
                        + [game.client.post(f"/games/{game.id}/commands?dry_run=true", headers=game.seat(0),
                                            json={"type": "draw_plans", "plans": plans}) for plans in probes])
    assert game.view()["version"] == before
    refused = game.send({"type": "draw_plans", "seat": 0, "plans": ["S02", "U05"]})
    assert refused.get_json()["code"] == "TABLE_OUTCOME_INVALID"
    assert game.send({"type": "draw_plans", "seat": 0, "plans": ["S05", "U05"]}).status_code == 200


def test_tm1_dice_stay_reportable_by_the_seat_that_rolled(client):
    game = create(client, chance="table", setup={"deck": sorted(hoard.CARDS)})
    rolled = game.send({"type": "roll_bonus", "dice": ["4"]}, game.seat(0))
    assert rolled.status_code == 200, rolled.get_json()


def test_tm1_every_draw_and_shuffle_is_refused_to_a_seat_before_the_pool_is_read():
    """Domain level, for every pool at once: TableChance(reporter="seat") never touches the
    items (a pool that explodes when read proves it) and answers one text per field."""
    from domain.chance import TableChance
    from domain.ruleset import Rejected

    class Untouchable(list):
        def __iter__(self):
            raise AssertionError("the pool was read")

        def __len__(self):
            raise AssertionError("the pool was read")

        def __contains__(self, item):
            raise AssertionError("the pool was read")

    seat = TableChance("seat")
    answers = set()
    for supplied in (None, ["a"], ["b", "c"], "garbage"):
        for draw in (lambda supplied=supplied: seat.pick(Untouchable(), 1, supplied, "drawn"),
                     lambda supplied=supplied: seat.shuffle(Untouchable(), supplied, "drawn")):
            with pytest.raises(Rejected) as refused:
                draw()
            answers.add((refused.value.code, refused.value.rule, refused.value.detail, refused.value.ruling))
    assert len(answers) == 1 and next(iter(answers))[0] == "TABLE_OUTCOME_FROM_HOST"
    assert seat.roll(1, ["1", "2"], ["2"], "dice") == ["2"]
    assert TableChance().pick(["a", "b"], 1, ["b"], "drawn") == ["b"]      # the domain default
    assert TableChance("host").pick(["a", "b"], 1, ["b"], "drawn") == ["b"]


# Tokens at rest --------------------------------------------------------------------------

def all_tokens(game) -> list[str]:
    return [game.created["host_token"]] + [s["token"] for s in game.created["seats"]]


def test_the_created_event_keeps_only_hashes_of_the_tokens(app, client):
    game = create(client)
    for _ in range(6):          # past the snapshot interval (4): snapshots are stored too
        legal = game.legal()
        if legal:
            game.send(legal[-1] if legal[-1]["type"] != "roll_bonus" else legal[0])
    parley = app.extensions["parley"]
    created = parley.stored_events(UUID(game.id))[0]
    tokens = all_tokens(game)
    assert created.host_token_hash == hashlib.sha256(tokens[0].encode()).hexdigest()
    assert created.seat_token_hashes == [hashlib.sha256(t.encode()).hexdigest() for t in tokens[1:]]
    stored = b"".join(n.state for n in parley.recorder.select_notifications(start=1, limit=10_000))
    snapshots = b"".join(s.state for s in parley.snapshots.recorder.select_events(UUID(game.id)))
    assert stored and snapshots
    for token in tokens:
        assert token.encode() not in stored and token.encode() not in snapshots
        assert token not in json.dumps(game.all_events()) and token not in json.dumps(game.view())
        assert token not in json.dumps(game.get("/export").get_json())
    assert_not_in_database(app, tokens)


def assert_not_in_database(app, tokens: list[str]) -> None:
    """Every row of every table of the store, as the database holds it (PostgreSQL here; the
    SQLite file is read byte by byte in its own test)."""
    env = app.extensions["parley"].env
    from service import store

    # Parley names its own PostgreSQL factory (store.TOPIC) where the environment says eventsourcing.postgres
    if env.get("PERSISTENCE_MODULE") not in ("eventsourcing.postgres", store.TOPIC):
        return
    import psycopg

    from tests.postgres.conftest import CONNINFO

    schema = env["POSTGRES_SCHEMA"]
    with psycopg.connect(**CONNINFO) as connection:
        tables = [r[0] for r in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,))]
        assert "parley_events" in tables
        dump = []
        for table in tables:
            for row in connection.execute(f'SELECT * FROM "{schema}"."{table}"'):
                dump += [bytes(v) if isinstance(v, (bytes, memoryview)) else str(v).encode() for v in row]
    blob = b"\n".join(dump)
    assert len(blob) > 1000
    for token in tokens:
        assert token.encode() not in blob


def test_no_token_is_anywhere_in_the_sqlite_file(tmp_path):
    db = tmp_path / "parley.sqlite"
    app = create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "SNAPSHOT_INTERVAL": 2,
                      "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}})
    client = app.test_client()
    games = [create(client) for _ in range(3)]
    # a game created with an Idempotency-Key keeps its tokens too, sealed, for its retries
    keyed = client.post("/games", json={"ruleset": hoard.RULESET.id, "chance": "server",
                                        "players": [{"name": "Kira"}, {"name": "David"}]},
                        headers={"Idempotency-Key": "secrets-test-creation-key-0001"})
    assert keyed.status_code == 201
    games.append(Seated(client, keyed.get_json()))
    for game in games:
        game.play_to_the_end(random.Random(1))
    app.extensions["parley"].close()
    blob = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    with sqlite3.connect(db) as connection:
        tables = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = [r for t in tables for r in connection.execute(f'SELECT * FROM "{t}"')]
        snapshots = [bytes(r[0]) for r in connection.execute("SELECT state FROM stored_snapshots")]
        created = [json.loads(bytes(r[0])) for r in connection.execute(
            "SELECT state FROM stored_events WHERE topic LIKE '%Game.Created'")]
    assert "stored_events" in tables and len(rows) > 20
    (sealed,) = [c["creation_retry"]["tokens"] for c in created if c.get("creation_retry")]
    assert sealed.startswith("sealed:1:") and snapshots   # in the creation record only, sealed
    assert not any(b"creation_retry" in state or sealed.encode() in state for state in snapshots)
    blob += repr(rows).encode()
    assert hashlib.sha256(games[0].created["host_token"].encode()).hexdigest().encode() in blob
    for game in games:
        for token in all_tokens(game):
            assert token.encode() not in blob


# Constant-time comparison ----------------------------------------------------------------

def test_every_token_check_goes_through_hmac_compare_digest(client, monkeypatch):
    game = create(client, players=("Kira", "David", "Will"))
    calls = []
    real = hmac.compare_digest

    def counting(a, b):
        calls.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    for auth in (game.seat(1), game.host, bearer(game.created["spectator_token"]), bearer("x" * 43)):
        calls.clear()
        game.get("", auth)
        # every stored hash is compared, whichever matches (3 seats, the host and the spectator)
        assert calls == [(64, 64)] * 5, calls
    # If compare_digest says no, no token is accepted: there is no other comparison.
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: False)
    assert game.get("", game.seat(0)).status_code == 401
    assert game.get("", game.host).status_code == 401
    assert game.get("", bearer(game.created["spectator_token"])).status_code == 401


def test_the_arbiter_token_is_compared_in_constant_time_too(monkeypatch):
    arbiter = "A" * 40
    app = create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "ARBITER_TOKEN": arbiter,
                      "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    client = app.test_client()
    game = create(client)
    assert client.get(f"/games/{game.id}/export", headers=bearer(arbiter)).status_code == 200
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: False)
    assert client.get(f"/games/{game.id}/export", headers=bearer(arbiter)).status_code == 401


# No stack trace in any error body --------------------------------------------------------

SECRET = "kraken-ink at /srv/parley/service/api/games.py line 42 psycopg.errors.Boom sqlalchemy"


def boom(*args, **kwargs):
    raise RuntimeError(SECRET)


@pytest.mark.parametrize("target, request_", [
    ("service.api.games.game_view", ("GET", "/games/{id}")),
    ("service.api.events.event_entry", ("GET", "/games/{id}/events")),
    ("service.api.exports.export_parts", ("GET", "/games/{id}/export")),
    ("domain.adjudication.schema_problems", ("POST", "/games/{id}/commands")),
    ("service.api.games.check_creation", ("POST", "/games")),
    ("service.application.Parley.list_games", ("GET", "/games")),
    ("service.api.rulesets.summary", ("GET", "/rulesets")),
    ("service.game.Game.seat_for_token", ("GET", "/games/{id}/legal-commands")),
])
def test_an_unexpected_failure_in_any_route_is_a_bare_500_problem(client, monkeypatch, target, request_):
    game = create(client)
    before = game.view()["version"]
    monkeypatch.setattr(target, boom)
    method, path = request_
    path = path.replace("{id}", game.id)
    if method == "GET":
        response = client.get(path, headers=game.host)
    else:
        body = {"type": "draw", "seat": 0} if "commands" in path else \
            {"ruleset": "hidden-hoard", "players": [{"name": "A"}, {"name": "B"}]}
        response = client.post(path, json=body, headers=game.host)
    assert response.status_code == 500 and response.content_type == PROBLEM
    problem = response.get_json()
    assert problem["code"] == "INTERNAL_ERROR" and problem["instance"] == path
    text = response.get_data(as_text=True)
    for leak in ("Traceback", "kraken", "/srv/", ".py", "psycopg", "sqlalchemy", "RuntimeError", "line 42"):
        assert leak not in text, leak
    monkeypatch.undo()
    assert game.view()["version"] == before


class _Enough(Exception):
    pass


DRAW_FIELDS = {
    "league-of-pirates": {"coins"},
    "tesoros-del-rey-pirata": {"drawn", "events", "stolen", "maps"},
    "chrono-corsairs": {"plans", "artifacts", "event_tokens", "anomaly"},
    "valeria-card-kingdoms": {"revealed"},
    "crimson-seas": {"revealed"},
}


@pytest.mark.parametrize("ruleset_id", sorted(DRAW_FIELDS))
def test_tm1_in_every_game_with_hidden_pools_a_seat_drawing_gets_one_answer_whatever_it_names(ruleset_id):
    """Rules level, every game with draws: wherever a random game reaches a command that draws,
    decide() with a seat reporting is sent that command naming each thing the arbiter can see
    (cards in hands, in decks, in bags, on the table) and a name that is nothing: one answer."""
    from domain.chance import TableChance
    from domain.registry import all_rulesets
    from domain.ruleset import ARBITER, Rejected
    from tests.playouts.harness import play

    ruleset = all_rulesets()[ruleset_id]
    fields = DRAW_FIELDS[ruleset_id]
    hits = []

    def probe(server_state):
        # The same position as if it were played at a table (the state records the mode).
        state = server_state.clone()
        object.__setattr__(state, "chance_mode", "table")
        for seat in ruleset.status(state).to_move:
            inputs = ruleset.table_inputs(state, seat)
            for command in ruleset.legal_commands(state, seat):
                drawn = fields & set(inputs.get(command["type"], {}))
                for field in sorted(drawn):
                    names = sorted(texts(ruleset.view(state, ARBITER)))[:40] + ["no-such-thing"]
                    answers = set()
                    for name in names:
                        try:
                            ruleset.decide(state, seat, {**command, field: [name]}, TableChance("seat"))
                            answers.add("accepted")
                        except Rejected as refused:
                            answers.add((refused.code, refused.rule, refused.detail, refused.ruling))
                    assert len(answers) == 1, (command, field, answers)
                    hits.append(next(iter(answers)))
                    if sum(h[0] == "TABLE_OUTCOME_FROM_HOST" for h in hits) >= 4:
                        raise _Enough

    players = ["A", "B"] if ruleset_id == "league-of-pirates" else ["A", "B", "C"]
    for game_no in range(1, 6):
        try:
            play(ruleset, game_no, players, None, at_rest=probe, max_commands=4000)
        except _Enough:
            break
    # Every probe had one answer whatever was named (asserted above). Commands that may turn
    # something up but did not, or that need another field too, are refused for that; those
    # that drew were refused for the seat.
    assert sum(h[0] == "TABLE_OUTCOME_FROM_HOST" for h in hits) >= 4, hits
    assert {h if h == "accepted" else h[0] for h in hits} <= {
        "TABLE_OUTCOME_FROM_HOST", "TABLE_OUTCOME_INVALID", "TABLE_OUTCOME_REQUIRED", "accepted"}, set(hits)


def test_every_ruleset_declares_as_drawn_exactly_the_fields_tm1_refuses_a_seat():
    """domain/*/legal.py DRAWN_FIELDS tells a seat which table inputs only the host reports;
    DRAW_FIELDS above, which the TM-1 probe shows refused to a seat, is its oracle."""
    from domain.registry import all_rulesets

    declared = {rid: set(r.drawn_fields) for rid, r in all_rulesets().items()}
    assert declared == {**{rid: set() for rid in declared}, **DRAW_FIELDS}


@pytest.mark.parametrize("ruleset_id", ["league-of-pirates", "chrono-corsairs"])
def test_legal_commands_tell_a_seat_which_table_inputs_the_host_reports(corsairs_client, ruleset_id):
    """A seat's /legal-commands never asks it for a field it would be refused (TM-1): drawn
    fields move to host_reports; the host's own listing asks for every field."""
    from domain.registry import all_rulesets
    from tests.disputes.games import play, played

    ruleset = all_rulesets()[ruleset_id]
    game = played(corsairs_client, ruleset_id, "table", commands=0)
    parley = corsairs_client.application.extensions["parley"]
    rng = random.Random(5)
    for _ in range(400):
        state = parley.get_game(UUID(game.id)).state
        seat = ruleset.status(state).to_move[0]
        needed = ruleset.table_inputs(state, seat)
        drawn = {kind: sorted(set(fields) & ruleset.drawn_fields) for kind, fields in needed.items()}
        if any(drawn.values()):
            break
        play(game, rng, 1)
    else:
        raise AssertionError("no command that draws was reached")

    as_seat = game.get("/legal-commands", game.seat(seat)).get_json()["table_inputs"]
    assert [entry["seat"] for entry in as_seat] == [seat]
    assert as_seat[0]["host_reports"] == {kind: fields for kind, fields in drawn.items() if fields}
    for kind, fields in as_seat[0]["inputs"].items():
        assert not set(fields) & ruleset.drawn_fields
        assert fields == {f: spec for f, spec in needed[kind].items() if f not in ruleset.drawn_fields}

    as_host = game.get("/legal-commands", game.host).get_json()["table_inputs"]
    mine = next(entry for entry in as_host if entry["seat"] == seat)
    assert mine["inputs"] == needed and "host_reports" not in mine
