"""Stored games: snapshots, past versions and concurrent writers."""
from __future__ import annotations

import json
import random
import threading
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from domain.registry import all_rulesets
from service.application import Parley
from service.game import Game, project_game
from tests.fakes.http import create


def comparable(game: Game) -> dict:
    fields = {k: v for k, v in vars(game).items() if k not in ("state", "_pending_events", "_modified_on")}
    return {**fields, "state": game.ruleset.dump_state(game.state)}


def test_a_game_restored_from_a_snapshot_equals_the_same_game_replayed(app, client):
    game = create(client, players=("Kira", "David", "Will"))
    game.play_to_the_end(random.Random(5))
    parley = app.extensions["parley"]
    game_id = UUID(game.id)
    assert len(list(parley.snapshots.get(game_id))) >= 2  # one every 4 events in these tests
    from_snapshot, replayed = parley.get_game(game_id), parley.replay(game_id)
    assert comparable(from_snapshot) == comparable(replayed)
    assert from_snapshot.state == replayed.state


def test_every_past_version_read_through_snapshots_equals_a_replay_to_that_version(app, client):
    game = create(client)
    game.play_to_the_end(random.Random(2))
    parley = app.extensions["parley"]
    game_id = UUID(game.id)
    events = parley.stored_events(game_id)
    for version in range(1, len(events) + 1):
        replayed = None
        for stored in events[:version]:
            replayed = stored.mutate(replayed)
        assert comparable(parley.get_game(game_id, version=version)) == comparable(replayed)


def test_two_writers_on_one_version_one_is_stored_and_the_other_conflicts(app, client):
    game = create(client)
    parley = app.extensions["parley"]
    game_id = UUID(game.id)
    first, second = parley.get_game(game_id), parley.get_game(game_id)
    parley.execute(game_id, 0, {"type": "draw"}, game=first)
    with pytest.raises(IntegrityError):
        parley.execute(game_id, 0, {"type": "stand"}, game=second)
    assert [e.originator_version for e in parley.stored_events(game_id)] == list(range(1, 8))
    assert parley.replay(game_id).version == 7


def test_racing_clients_with_the_same_precondition_one_wins_the_other_is_refused(app):
    seed_client = app.test_client()
    game = create(seed_client)
    barrier = threading.Barrier(2)
    statuses = []

    def send(command):
        client = app.test_client()
        barrier.wait()
        response = client.post(f"/games/{game.id}/commands", json=command,
                               headers={**game.host, "If-Match": '"5"'})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=send, args=({"type": kind, "seat": 0},)) for kind in ("draw", "stand")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) in ([200, 409], [200, 412])
    assert game.view()["version"] == 7
    parley = app.extensions["parley"]
    assert parley.replay(UUID(game.id)).version == 7


def test_by_default_games_go_to_an_sqlite_file_under_var_and_survive_a_restart(tmp_path, monkeypatch):
    from service import create_app
    from tests.fakes import hoard

    monkeypatch.chdir(tmp_path)
    for name in ("PERSISTENCE_MODULE", "PARLEY_PERSISTENCE_MODULE", "SQLITE_DBNAME", "PARLEY_SQLITE_DBNAME"):
        monkeypatch.delenv(name, raising=False)
    first = create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}})
    game = create(first.test_client())
    game.send({"type": "draw", "seat": 0})
    first.extensions["parley"].close()
    assert (tmp_path / "var" / "parley.sqlite").is_file()

    again = create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}})
    game.client = again.test_client()
    assert game.view()["version"] == 7
    assert game.send({"type": "stand", "seat": 1}).status_code == 200
    again.extensions["parley"].close()


def test_records_stored_before_idempotency_keys_existed_still_load(tmp_path):
    """Happened and the snapshot's Game were reshaped (class version 2: idempotency keys),
    then Created and the snapshot's Game again (Created 2, Game 3: the spectator's token and
    public games), then Created (3: a creation's Idempotency-Key): records in the first shape,
    as stored before, are upcast when read."""
    import json
    import sqlite3

    from service import create_app
    from tests.fakes import hoard

    def parley_app():
        return create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "SNAPSHOT_INTERVAL": 4,
                           "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                           "SQLITE_DBNAME": str(tmp_path / "old.sqlite")}})

    app = parley_app()
    game = create(app.test_client())
    game.play_to_the_end(random.Random(3), max_commands=6)  # part of a game, snapshots included
    game_id = UUID(game.id)
    def older(game: Game) -> dict:  # what the first shape held: no spectator's token hash
        fields = comparable(game)
        fields.pop("spectator_token_hash")
        return fields

    before = [older(app.extensions["parley"].get_game(game_id, version=v))
              for v in range(1, game.view()["version"] + 1)]
    app.extensions["parley"].close()

    with sqlite3.connect(tmp_path / "old.sqlite") as connection:
        for table in ("stored_events", "stored_snapshots"):
            rows = connection.execute(
                f"SELECT originator_id, originator_version, topic, state FROM {table}").fetchall()
            for originator, version, topic, state in rows:
                record = json.loads(state)
                if topic.endswith("Game.Happened"):
                    assert record.pop("class_version") == 2
                    record.pop("idempotency")
                elif topic.endswith("Game.Snapshot"):
                    assert record["state"].pop("class_version") == 3
                    for added in ("idempotency", "spectator_token_hash", "public"):
                        record["state"].pop(added)
                elif topic.endswith("Game.Created"):
                    assert record.pop("class_version") == 3
                    assert record.pop("creation_retry") is None   # class version 3: a creation's key
                    record.pop("spectator_token_hash"), record.pop("public")
                else:
                    continue
                connection.execute(f"UPDATE {table} SET state = ? WHERE originator_id = ? AND "
                                   "originator_version = ?",
                                   (json.dumps(record).encode(), originator, version))
        assert connection.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0] >= 1

    app = parley_app()
    parley = app.extensions["parley"]
    after = [older(parley.get_game(game_id, version=v)) for v in range(1, len(before) + 1)]
    assert after == before
    assert parley.get_game(game_id).idempotency == {}
    assert parley.get_game(game_id).spectator_token_hash is None and parley.get_game(game_id).public is False
    assert parley.stored_events(game_id, limit=1)[0].creation_retry is None
    client = app.test_client()
    reopened = type(game)(client, game.created)
    if reopened.legal():
        command = reopened.legal()[0]
        first = reopened.send(command, headers={"Idempotency-Key": "after-upgrade"})
        again = reopened.send(command, headers={"Idempotency-Key": "after-upgrade"})
        assert first.status_code == 200 and again.get_json() == first.get_json()
    app.extensions["parley"].close()


def test_records_keep_the_topics_they_had_before_the_aggregate_moved_to_service_game(tmp_path, monkeypatch):
    """Every record names its class by topic, and the aggregate moved from
    service/application.py to service/game.py (issue 14). Records are still stored under the
    old topics (Game.TOPIC...), so what was stored before loads, and what is stored now can
    be read by a build from before the move (a rollback; old and new workers side by side).
    Reading them never imports the old module."""
    import sqlite3

    import eventsourcing.utils

    from service import create_app
    from tests.fakes import hoard

    def parley_app():
        return create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "SNAPSHOT_INTERVAL": 4,
                           "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                           "SQLITE_DBNAME": str(tmp_path / "moved.sqlite")}})

    app = parley_app()
    game = create(app.test_client())
    game.play_to_the_end(random.Random(3), max_commands=6)
    game_id = UUID(game.id)
    last = game.view()["version"]
    before = [comparable(app.extensions["parley"].get_game(game_id, version=v)) for v in range(1, last + 1)]
    events = game.all_events()
    app.extensions["parley"].close()

    old = {"service.application:Game", "service.application:Game.Created", "service.application:Game.Happened",
           "service.application:Game.Snapshot"}
    with sqlite3.connect(tmp_path / "moved.sqlite") as connection:
        rows = [row for table in ("stored_events", "stored_snapshots")
                for row in connection.execute(f"SELECT topic, state FROM {table}").fetchall()]
        assert connection.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0] >= 1
    assert len(rows) == last + len(before) // 4
    assert {topic for topic, _ in rows} <= old
    assert all(b"service.game" not in bytes(state) for _, state in rows)

    real = eventsourcing.utils.importlib

    class NoOldModule:
        @staticmethod
        def import_module(name, *args):
            assert name != "service.application", "an old topic was resolved by importing its module"
            return real.import_module(name, *args)

    monkeypatch.setattr(eventsourcing.utils, "importlib", NoOldModule)

    app = parley_app()
    parley = app.extensions["parley"]
    assert [comparable(parley.get_game(game_id, version=v)) for v in range(1, last + 1)] == before
    assert comparable(parley.replay(game_id)) == before[-1]
    client = app.test_client()
    assert [g["id"] for g in client.get("/games").get_json()["games"]] == [game.id]
    reopened = type(game)(client, game.created)
    assert reopened.all_events() == events
    app.extensions["parley"].close()


def committed_then_lost(real_save):
    """A save that stores, then fails as a retried insert meeting its own first attempt does."""
    def save(*aggregates, **kwargs):
        real_save(*aggregates, **kwargs)
        raise IntegrityError("duplicate key: the retry met the records the first attempt stored")
    return save


def test_a_save_whose_lost_first_attempt_had_committed_answers_success_not_a_conflict(app, client, monkeypatch):
    # service/store.py retries an insert after a broken connection; if the first attempt had
    # committed, the retry meets its own records (IntegrityError). That is our command, stored.
    game = create(client)
    parley = app.extensions["parley"]
    real_save = parley.save
    monkeypatch.setattr(parley, "save", committed_then_lost(real_save))
    answer = game.send({"type": "draw"}, game.seat(0))
    monkeypatch.setattr(parley, "save", real_save)
    assert answer.status_code == 200, answer.get_json()
    assert [e["version"] for e in answer.get_json()["events"]] == [6, 7]
    assert answer.get_json()["events"] == game.all_events()[5:]



def test_the_answer_after_a_lost_first_attempt_has_only_this_commands_events(app, client, monkeypatch):
    # Between the lost first attempt and the retry, another command may have been stored after
    # ours: the answer must not carry its events.
    game = create(client)
    parley = app.extensions["parley"]
    game_id = UUID(game.id)
    real_save = parley.save

    def committed_then_lost_and_overtaken(*aggregates, **kwargs):
        real_save(*aggregates, **kwargs)
        monkeypatch.setattr(parley, "save", real_save)
        parley.execute(game_id, 1, {"type": "draw"}, game=parley._load_game(game_id))
        raise IntegrityError("duplicate key: the retry met the records the first attempt stored")

    monkeypatch.setattr(parley, "save", committed_then_lost_and_overtaken)
    answer = game.send({"type": "draw"}, game.seat(0))
    assert answer.status_code == 200, answer.get_json()
    assert [e["version"] for e in answer.get_json()["events"]] == [6, 7]
    assert len(game.all_events()) > 7


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_snapshots_taken_from_the_game_in_hand_equal_those_of_the_game_replayed(ruleset_id):
    """Parley takes a command's snapshot from the game it just saved (_take_snapshots), not from
    the game loaded again, as eventsourcing does: every ruleset's snapshots, read back from the
    store, hold what a snapshot of the game replayed to that version holds."""
    rulesets = all_rulesets()
    ruleset = rulesets[ruleset_id]
    parley = Parley({ruleset_id: ruleset}, env={"PERSISTENCE_MODULE": "eventsourcing.popo"}, snapshot_interval=3)
    try:
        players = ["Kira", "David", "Will"][:max(ruleset.min_players, 2)]
        game_id = parley.create_game(ruleset_id, players, "server").game.id
        rng = random.Random(ruleset_id)
        game = parley.get_game(game_id)
        # One snapshot for each save whose events reach a multiple of the interval. A server-mode
        # game's cards are shuffled afresh each run, so how far it goes differs: count, don't guess.
        due = int(any(v % 3 == 0 for v in range(1, game.version + 1)))
        while game.version < 60 and not game.status.finished:
            seat = rng.choice(game.status.to_move)
            before = game.version
            parley.execute(game_id, seat, rng.choice(ruleset.legal_commands(game.state, seat)), reporter="host")
            game = parley.get_game(game_id)
            due += any(v % 3 == 0 for v in range(before + 1, game.version + 1))
        snapshots = list(parley.snapshots.get(game_id))
        assert len(snapshots) == due
        assert len(snapshots) >= 5
        events = parley.stored_events(game_id)
        for snapshot in snapshots:
            replayed = project_game(None, events[:snapshot.originator_version])
            taken = Game.Snapshot.take(replayed)
            assert taken.originator_version == snapshot.originator_version
            assert json.dumps(snapshot.state, default=str, sort_keys=True) == json.dumps(taken.state, default=str, sort_keys=True)
            assert comparable(snapshot.mutate(None)) == comparable(replayed)
    finally:
        parley.close()


@pytest.mark.parametrize("keyed", [False, True])
def test_a_creation_whose_lost_first_attempt_had_committed_answers_201_with_its_game(app, client, monkeypatch, keyed):
    # As for a command (above): the retried insert meets the creation its first attempt stored.
    # Without a key that was a 500 while the game existed and was listed; with one, a replay
    # (Idempotent-Replayed: true) of a creation nobody had been answered (two-node review).
    parley = app.extensions["parley"]
    real_save = parley.save
    monkeypatch.setattr(parley, "save", committed_then_lost(real_save))
    headers = {"Idempotency-Key": "lost-then-found-0001"} if keyed else {}
    answer = client.post("/games", json={"ruleset": "hidden-hoard", "players": [{"name": "Kira"}, {"name": "David"}]},
                         headers=headers)
    monkeypatch.setattr(parley, "save", real_save)
    assert answer.status_code == 201, answer.get_json().get("problems")
    assert "Idempotent-Replayed" not in answer.headers
    created = answer.get_json()
    listed = [g["id"] for g in client.get("/games").get_json()["games"]]
    assert listed.count(created["id"]) == 1
    view = client.get(f"/games/{created['id']}", headers={"Authorization": f"Bearer {created['host_token']}"})
    assert view.status_code == 200 and view.get_json()["version"] == created["version"]
