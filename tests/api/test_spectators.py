"""Spectators: the creation answer's spectator_token reads a game as an audience may (what every
seat may see, never a seat's secret) and sends nothing; a game created with "public": true
answers its reads to anyone, without a token, the same way. The twins of
tests/api/test_hidden_everywhere.py compare the spectator's and the anonymous reader's every
answer; here, what each endpoint answers them."""
from __future__ import annotations

import random
import uuid

import pytest

from domain.registry import all_rulesets
from service import create_app
from tests.fakes.http import bearer, create, progressing

NO_TOKEN = {"Accept": "application/json"}  # tests.fakes.http falls back to the host's on an empty one
PLAYERS = {"corsairs-of-valeria": 3, "league-of-pirates": 2, "tesoros-del-rey-pirata": 3,
           "chrono-corsairs": 3, "valeria-card-kingdoms": 3, "crimson-seas": 3}


@pytest.fixture
def every_app():
    app = create_app({"RULESETS": all_rulesets(), "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    yield app
    app.extensions["parley"].close()


def spectator(game) -> dict:
    return bearer(game.created["spectator_token"])


def test_the_creation_answer_holds_a_spectator_token_of_its_own(client):
    game = create(client)
    token = game.created["spectator_token"]
    assert len(token) >= 43 and game.created["public"] is False
    others = [s["token"] for s in game.created["seats"]] + [game.created["host_token"]]
    assert token not in others
    assert game.view(spectator(game))["you"] == "spectator"
    other = create(client)
    assert other.get("", spectator(game)).status_code == 401  # one game's token reads that game only


@pytest.mark.parametrize("ruleset", sorted(PLAYERS))
def test_a_spectator_sees_what_the_rules_show_nobody_in_particular(every_app, ruleset):
    """Every ruleset: after some play, the spectator's view and log are the rules' view and
    redaction for viewer None (domain/ruleset.py: a spectator), which the domain's
    non-interference tests hold to what every seat may see."""
    client = every_app.test_client()
    names = ["Ana", "Ben", "Cy"][:PLAYERS[ruleset]]
    game = create(client, ruleset, players=names)
    rng = random.Random(ruleset)
    for _ in range(25):
        legal = game.legal()
        if not legal:
            break
        assert game.send(rng.choice(progressing(legal))).status_code == 200
    parley = every_app.extensions["parley"]
    stored = parley.get_game(uuid.UUID(game.id))
    rules = stored.ruleset
    seen = game.view(spectator(game))
    assert seen["state"] == rules.view(stored.state, None)
    assert seen["you"] == "spectator" and seen["version"] == stored.version
    log = game.all_events(spectator(game))
    records = parley.stored_events(uuid.UUID(game.id))
    assert len(log) == len(records)
    for entry, record in zip(log[1:], records[1:], strict=True):
        assert entry["event"] == rules.redact(record.event, None)
        if record.command is not None:
            body = record.command["body"]
            assert entry["command"]["body"] == rules.redact_command(body, record.command["seat"], None)
    assert "table_setup" not in log[0]["event"]


def test_a_spectator_sends_nothing(every_app):
    client = every_app.test_client()
    game = create(client, "league-of-pirates", players=("Ana", "Ben"), chance="table")
    command = game.legal()[0]
    for query in ("", "?dry_run=true"):
        answer = client.post(f"/games/{game.id}/commands{query}", json=command, headers=spectator(game))
        assert answer.status_code == 403 and answer.get_json()["code"] == "SPECTATOR_CANNOT_ACT"
        assert answer.content_type == "application/problem+json"
    legal = game.get("/legal-commands", spectator(game)).get_json()
    assert legal == {"commands": [], "table_inputs": []}
    assert game.view()["version"] == 1 + len([e for e in game.all_events()[1:]])  # nothing stored


def test_a_spectators_export_hides_what_a_seat_would_not_show_until_the_end(every_app):
    client = every_app.test_client()
    game = create(client, "tesoros-del-rey-pirata", players=("Ana", "Ben", "Cy"))
    running = game.get("/export", spectator(game)).get_json()
    assert running["exported_for"] == "spectator" and running["complete"] is False and running["seed"] is None
    # Each record as the spectator's log shows it (what every seat may see): no hand dealt.
    log = game.all_events(spectator(game))
    assert [e["event"] for e in running["setup"]] == [e["event"] for e in log[1:]]
    assert any(e.get("redacted") and e["salt"] is None for e in running["setup"])
    first = next(e for e in running["setup"] if e.get("redacted"))
    refused = client.post("/replays", json=running)   # a redacted log cannot be folded: the refusal says why
    assert refused.status_code == 422 and refused.get_json()["code"] == "UNREPLAYABLE_EXPORT"
    assert refused.get_json()["detail"].startswith(
        f"This export cannot be replayed: the event at version {first['version']} ({first['event']['type']}) is "
        "redacted, as this export was made for the spectator: replay needs a complete export")
    seats = client.post("/replays", json=game.get("/export", game.seat(1)).get_json()).get_json()
    assert "as this export was made for seat 1:" in seats["detail"]
    game.play_to_the_end(random.Random(2), max_commands=3000)
    done = game.get("/export", spectator(game)).get_json()
    assert done["complete"] is True and done["seed"] is not None  # after the end, as every seat gets it
    verified = client.post("/verifications", json=done).get_json()
    assert verified["verdict"] == "valid"



@pytest.mark.parametrize("ruleset", ["league-of-pirates", "tesoros-del-rey-pirata", "chrono-corsairs",
                                     "crimson-seas"])
def test_a_redacted_export_replays_every_version_before_its_first_redacted_record(every_app, ruleset):
    """A seat's or the spectator's export of a running game replays up to its first redacted
    record: those records are whole, so the game there is exactly what the host's complete export
    replays at that version. From the redacted record on it is refused, saying which version
    still replays (an outside review found League's version 2 refused for a record at 3)."""
    client = every_app.test_client()
    game = create(client, ruleset, players=("Ana", "Ben", "Cy")[:PLAYERS[ruleset]])
    game.play(random.Random(5), 12)
    whole = game.get("/export").get_json()   # the host's: complete
    assert not any(e.get("redacted") for e in whole["setup"] + [e for c in whole["commands"] for e in c["events"]])
    checked = 0
    for reader, auth in (("seat 1", game.seat(1)), ("the spectator", spectator(game))):
        export = game.get("/export", auth).get_json()
        records = export["setup"] + [e for c in export["commands"] for e in c["events"]]
        flagged = [e["version"] for e in records if e.get("redacted")] + [
            c["events"][0]["version"] for c in export["commands"] if c.get("redacted")]
        assert flagged, f"{ruleset}: {reader}'s export of a running game hides something"
        first = min(flagged)
        for at in range(1, first):
            mine = client.post(f"/replays?at={at}", json=export)
            assert mine.status_code == 200, (reader, at, mine.get_json())
            assert mine.get_json() == client.post(f"/replays?at={at}", json=whole).get_json(), (reader, at)
            checked += 1
        refused = client.post(f"/replays?at={first}", json=export)
        assert refused.status_code == 422 and refused.get_json()["code"] == "UNREPLAYABLE_EXPORT"
        assert f"at version {first} " in refused.get_json()["detail"]
        assert f"or a version before {first};" in refused.get_json()["detail"]
    assert checked >= 2

def test_a_public_game_answers_its_reads_without_a_token(client):
    game = create(client, public=True)
    assert game.created["public"] is True
    for path in ("", "/events", "/export"):
        answer = game.get(path, NO_TOKEN)
        assert answer.status_code == 200, (path, answer.get_json())
    # What one may send takes a token: the spectator's says nothing may be sent.
    assert game.get("/legal-commands", NO_TOKEN).status_code == 401
    assert game.view(NO_TOKEN)["you"] == "spectator"
    # Every view says the game is public, so an app can tell from it whom it may show it to.
    assert game.view(NO_TOKEN)["public"] is game.view()["public"] is game.view(game.seat(0))["public"] is True
    assert create(client).view()["public"] is False
    assert game.view(NO_TOKEN)["state"] == game.view(spectator(game))["state"]
    assert game.get("", NO_TOKEN).get_json() == game.get("", spectator(game)).get_json()
    # Acting still takes a token: none is 401, a wrong one 401, the spectator's 403.
    command = game.legal()[0]
    assert client.post(f"/games/{game.id}/commands", json=command, headers=NO_TOKEN).status_code == 401
    assert client.post(f"/games/{game.id}/commands", json=command,
                       headers=bearer("x" * 43)).status_code == 401


def test_without_a_token_a_private_game_and_a_missing_one_answer_alike(client):
    private = create(client)
    missing = uuid.uuid4()
    one = client.get(f"/games/{private.id}", headers=NO_TOKEN)
    other = client.get(f"/games/{missing}", headers=NO_TOKEN)
    assert one.status_code == other.status_code == 401
    assert {**one.get_json(), "instance": None} == {**other.get_json(), "instance": None}
    assert one.headers["WWW-Authenticate"] == other.headers["WWW-Authenticate"]
    # A public game read with a token that is not its own is still refused.
    public = create(client, public=True)
    assert public.get("", bearer("x" * 43)).status_code == 401
