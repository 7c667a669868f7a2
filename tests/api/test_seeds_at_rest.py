"""A server seed is stored sealed, with a key held outside the event store (service/seeds.py;
issue 15, part 5): not in events, snapshots or the database file; the key file beside the
SQLite file; rotation; a lost key; seeds stored in the clear before still read."""
from __future__ import annotations

import json
import random
import sqlite3
import stat
from uuid import UUID

import pytest

from service import create_app
from service.seeds import PREFIX, SeedKeys, SeedUnavailable, new_key
from tests.fakes import hoard
from tests.fakes.http import Seated, create


def sqlite_app(path, **env):
    return create_app({"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "SNAPSHOT_INTERVAL": 2,
                       "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path),
                                       **env}})


def stored_bytes(path) -> bytes:
    with sqlite3.connect(path) as connection:
        rows = [bytes(state) for table in ("stored_events", "stored_snapshots")
                for (state,) in connection.execute(f"SELECT state FROM {table}")]
    return b"\n".join(rows) + path.read_bytes()


def test_a_running_games_seed_is_nowhere_in_the_database_and_its_key_is_beside_it(tmp_path):
    db = tmp_path / "parley.sqlite"
    app = sqlite_app(db)
    game = create(app.test_client())
    for seat in (0, 1):  # snapshots too (every 2 events)
        assert game.send({"type": "draw"}, game.seat(seat)).status_code == 200
    assert game.view()["status"] == "active"
    parley = app.extensions["parley"]
    assert len(list(parley.snapshots.get(UUID(game.id)))) >= 1
    seed = parley.get_game(UUID(game.id)).server_seed()
    assert len(seed) == 64
    app.extensions["parley"].close()
    stored = stored_bytes(db)
    assert seed.encode() not in stored and PREFIX.encode() in stored
    keys = tmp_path / "parley.sqlite.seed-keys"
    assert keys.exists() and stat.S_IMODE(keys.stat().st_mode) == 0o600
    assert seed.encode() not in keys.read_bytes()
    # Another process (a restart) opens it with the same key file, and plays on to the end,
    # where the seed is revealed and matches the commitment published at creation.
    app = sqlite_app(db)
    client = app.test_client()
    again = Seated(client, game.created)
    again.play_to_the_end(random.Random(2))
    export = client.get(f"/games/{game.id}/export", headers=game.host).get_json()
    assert export["seed"] == seed
    assert client.post("/verifications", json=export).get_json()["verdict"] == "valid"
    app.extensions["parley"].close()


def test_keys_rotate_and_a_lost_key_stops_only_the_unfinished_games_it_sealed(tmp_path, monkeypatch):
    db = tmp_path / "parley.sqlite"
    old, new = new_key(), new_key()
    monkeypatch.setenv("PARLEY_SEED_KEYS", old)
    app = sqlite_app(db)
    client = app.test_client()
    running, finished = create(client), create(client)
    finished.play_to_the_end(random.Random(3))
    app.extensions["parley"].close()

    monkeypatch.setenv("PARLEY_SEED_KEYS", f"{new},{old}")  # rotated: the new key seals
    app = sqlite_app(db)
    client = app.test_client()
    fresh = create(client)
    for game in (running, fresh):
        assert Seated(client, game.created).send({"type": "draw"}, game.seat(0)).status_code == 200
    parley = app.extensions["parley"]
    assert parley.get_game(UUID(fresh.id)).seed.split(":")[2] != parley.get_game(UUID(running.id)).seed.split(":")[2]
    app.extensions["parley"].close()

    monkeypatch.setenv("PARLEY_SEED_KEYS", new)  # the old key is lost
    app = sqlite_app(db)
    client = app.test_client()
    assert Seated(client, fresh.created).send({"type": "stand"}, fresh.seat(1)).status_code == 200
    stuck = Seated(client, running.created).send({"type": "stand"}, running.seat(1))
    assert stuck.status_code == 503 and stuck.get_json()["code"] == "SEED_UNAVAILABLE"
    assert old not in stuck.get_data(as_text=True)
    # A dry run draws from a fresh seed, never the game's: it is answered all the same, for a
    # seat and for the host (an outside review got 503 on a node holding other keys).
    for auth, seat in ((running.seat(1), None), (running.host, 1)):
        body = {"type": "stand", **({"seat": seat} if seat is not None else {})}
        dry = client.post(f"/games/{running.id}/commands?dry_run=true", json=body, headers=auth)
        assert dry.status_code == 200 and dry.get_json()["dry_run"] is True, dry.get_json()
        assert dry.get_json()["game"].get("seed") is None
    # A finished game's seed was revealed by the rules: its export still carries it and verifies.
    export = client.get(f"/games/{finished.id}/export", headers=finished.host).get_json()
    assert export["seed"] and client.post("/verifications", json=export).get_json()["verdict"] == "valid"
    app.extensions["parley"].close()


def test_a_sealed_seed_opens_only_for_its_own_games_commitment():
    keys = SeedKeys([new_key()])
    sealed = keys.seal("ab" * 32, "commitment-of-game-1")
    assert keys.open(sealed, "commitment-of-game-1") == "ab" * 32
    with pytest.raises(SeedUnavailable):
        keys.open(sealed, "commitment-of-game-2")
    with pytest.raises(SeedUnavailable):
        SeedKeys([new_key()]).open(sealed, "commitment-of-game-1")
    assert keys.open("cd" * 32, "anything") == "cd" * 32  # stored before seeds were sealed


def test_seeds_opened_lately_are_kept_but_open_only_as_before(monkeypatch):
    from service import seeds

    monkeypatch.setattr(seeds, "OPENED_KEPT", 3)
    keys = SeedKeys([new_key()])
    sealed = keys.seal("ab" * 32, "commitment-of-game-1")
    assert keys.open(sealed, "commitment-of-game-1") == keys.open(sealed, "commitment-of-game-1") == "ab" * 32
    with pytest.raises(SeedUnavailable):  # kept for its own commitment only
        keys.open(sealed, "commitment-of-game-2")
    tampered = sealed[:-4] + ("AAAA" if not sealed.endswith("AAAA") else "BBBB")
    with pytest.raises(SeedUnavailable):
        keys.open(tampered, "commitment-of-game-1")
    for n in range(10):
        other = keys.seal(f"{n:02d}" * 32, f"c{n}")
        assert keys.open(other, f"c{n}") == f"{n:02d}" * 32
        assert len(keys._opened) <= 3


def test_a_seed_stored_in_the_clear_before_sealing_still_reads_and_plays(tmp_path):
    db = tmp_path / "parley.sqlite"
    app = sqlite_app(db)
    game = create(app.test_client())
    parley = app.extensions["parley"]
    seed = parley.get_game(UUID(game.id)).server_seed()
    app.extensions["parley"].close()
    with sqlite3.connect(db) as connection:  # as a build before sealing stored it
        rows = connection.execute("SELECT originator_version, state FROM stored_events WHERE originator_version = 1").fetchall()
        for version, state in rows:
            record = json.loads(bytes(state))
            assert record["seed"].startswith(PREFIX)
            record["seed"] = seed
            connection.execute("UPDATE stored_events SET state = ? WHERE originator_version = ?",
                               (json.dumps(record).encode(), version))
    app = sqlite_app(db)
    client = app.test_client()
    again = Seated(client, game.created)
    again.play_to_the_end(random.Random(4))
    export = client.get(f"/games/{game.id}/export", headers=game.host).get_json()
    assert export["seed"] == seed and client.post("/verifications", json=export).get_json()["verdict"] == "valid"
    app.extensions["parley"].close()


def test_a_key_is_read_padded_or_not_and_anything_but_32_bytes_is_refused():
    """docs/api.md "Seeds at rest": `secrets.token_urlsafe(32)` (43 characters, no padding) is as
    good a key as the padded form; a key of another length stops the server at start."""
    import secrets
    unpadded = secrets.token_urlsafe(32)
    assert len(unpadded) == 43
    padded = unpadded + "="
    sealed = SeedKeys([unpadded]).seal("ab" * 32, "commitment")
    assert SeedKeys([padded]).open(sealed, "commitment") == "ab" * 32
    # a 43rd character whose last 2 bits are not 0 ("B") spells no key: it would be a second
    # spelling of the one whose last character is "A"
    for bad in (secrets.token_urlsafe(31), secrets.token_urlsafe(33), "not base64!", "",
                unpadded + "!!", "====" + unpadded, unpadded + "==", unpadded[:42] + "B",
                "+" + unpadded[1:], "/" + unpadded[1:]):
        with pytest.raises(ValueError, match="32 bytes"):
            SeedKeys([bad])
