"""Prefer: return=minimal / return=representation on POST /games/{id}/commands (RFC 7240).

Without the header (or with an unknown preference) the answer is today's: version, events and
the caller's new view. return=minimal leaves the view out; the events are those of the
default answer, as the caller may see them, with the same ETag. The preference followed is
named in Preference-Applied."""
from __future__ import annotations

import json
import uuid

import pytest

from service.api.commands import CommandResultSchema
from tests.api.test_hidden_everywhere import DRY_SEED, Seeds
from tests.api.test_tokens_and_secrets import HAND_1, TESOROS, _normalised, probes_naming, tesoros_pair
from tests.fakes.http import create

MINIMAL = {"Prefer": "return=minimal"}
REPRESENTATION = {"Prefer": "return=representation"}


def without_view(body: dict) -> dict:
    return {k: v for k, v in body.items() if k != "game"}


def log_entries(game, auth: dict, first: int, last: int) -> list[dict]:
    return [e for e in game.all_events(auth) if first <= e["version"] <= last]


@pytest.fixture
def seeds(monkeypatch):
    """domain.chance.new_seed fixed, so two dry runs of one command draw alike."""
    fixed = Seeds(monkeypatch)
    fixed.next = DRY_SEED
    return fixed


def test_without_prefer_the_answer_is_the_whole_one_and_names_no_preference(client):
    game = create(client)
    answer = game.send({"type": "draw"}, game.seat(0))
    body = answer.get_json()
    assert answer.status_code == 200 and "Preference-Applied" not in answer.headers
    assert list(body) == ["version", "events", "game"]
    assert body["game"] == game.view(game.seat(0))
    assert answer.headers["ETag"] == f'"{body["version"]}"'


def test_minimal_leaves_out_the_view_and_keeps_version_events_and_etag(client):
    game = create(client)
    answer = game.send({"type": "draw"}, game.seat(0), MINIMAL)
    body = answer.get_json()
    assert answer.status_code == 200 and answer.headers["Preference-Applied"] == "return=minimal"
    assert list(body) == ["version", "events"]
    assert body["version"] == game.view()["version"] and answer.headers["ETag"] == f'"{body["version"]}"'
    assert body["events"] == log_entries(game, game.seat(0), body["events"][0]["version"], body["version"])
    assert body["events"][0]["command"] == {"seat": 0, "body": {"type": "draw"}}


def test_representation_is_the_default_answer_and_says_so(client, seeds):
    game = create(client)
    url = f"/games/{game.id}/commands?dry_run=true"
    default = client.post(url, json={"type": "draw"}, headers=game.seat(0))
    represented = client.post(url, json={"type": "draw"}, headers={**game.seat(0), **REPRESENTATION})
    assert represented.headers["Preference-Applied"] == "return=representation"
    assert _normalised(represented.get_json(), game.id) == _normalised(default.get_json(), game.id)
    accepted = game.send({"type": "draw"}, game.seat(0), REPRESENTATION)
    assert accepted.status_code == 200 and accepted.get_json()["game"] == game.view(game.seat(0))


def test_a_minimal_dry_run_is_the_default_dry_run_without_the_view(client, seeds):
    game = create(client)
    version = game.view()["version"]
    url = f"/games/{game.id}/commands?dry_run=true"
    default = client.post(url, json={"type": "draw"}, headers=game.seat(0))
    minimal = client.post(url, json={"type": "draw"}, headers={**game.seat(0), **MINIMAL})
    assert minimal.status_code == 200 and minimal.headers["Preference-Applied"] == "return=minimal"
    assert list(minimal.get_json()) == ["version", "events", "dry_run"] and minimal.get_json()["dry_run"] is True
    assert _normalised(minimal.get_json(), game.id) == _normalised(without_view(default.get_json()), game.id)
    assert minimal.headers["ETag"] == default.headers["ETag"] == f'"{version}"'
    assert game.view()["version"] == version   # nothing stored


@pytest.mark.parametrize("first, retry", [(None, MINIMAL), (MINIMAL, REPRESENTATION), (MINIMAL, None)])
def test_a_replay_answers_the_first_result_in_the_form_the_retry_asks(client, first, retry):
    game = create(client)
    key = {"Idempotency-Key": f"prefer-{uuid.uuid4().hex}"}
    answer = game.send({"type": "draw"}, game.seat(0), {**key, **(first or {})})
    version = game.view()["version"]
    again = game.send({"type": "draw"}, game.seat(0), {**key, **(retry or {})})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == answer.headers["ETag"] and game.view()["version"] == version
    assert without_view(again.get_json()) == without_view(answer.get_json())
    assert ("game" in again.get_json()) == (retry != MINIMAL)
    if retry is None:
        assert "Preference-Applied" not in again.headers
    else:
        assert again.headers["Preference-Applied"] == retry["Prefer"]


@pytest.mark.parametrize("header, applied", [
    ("return=minimal", "minimal"),
    ("RETURN=minimal", "minimal"),                  # names are case-insensitive
    ('return="minimal"', "minimal"),                # a value may be quoted
    ("return=minimal; foo=bar", "minimal"),         # parameters
    ("respond-async, wait=10, return=minimal", "minimal"),
    ("return=representation, return=minimal", "representation"),   # the first one counts
    ("return=Minimal", None),                       # values are case-sensitive
    ("return=everything", None),
    ("return", None),
    ("handling=strict", None),
    ("", None),
])
def test_the_prefer_header_is_read_as_rfc_7240_says(client, header, applied):
    game = create(client)
    answer = game.send({"type": "draw"}, game.seat(0), {"Prefer": header})
    assert answer.status_code == 200
    assert answer.headers.get("Preference-Applied") == (f"return={applied}" if applied else None)
    assert ("game" in answer.get_json()) == (applied != "minimal")


def test_two_prefer_headers_count_as_one_list(client):
    game = create(client)
    answer = client.post(f"/games/{game.id}/commands", json={"type": "draw"},
                         headers=[*game.seat(0).items(), ("Prefer", "wait=5"), ("Prefer", "return=minimal")])
    assert answer.headers["Preference-Applied"] == "return=minimal" and "game" not in answer.get_json()


@pytest.mark.parametrize("prefer", [MINIMAL, REPRESENTATION])
def test_refusals_are_the_same_whatever_the_preference(client, prefer):
    game = create(client)
    plain = game.send({"type": "draw"}, game.seat(1))
    preferred = game.send({"type": "draw"}, game.seat(1), prefer)
    assert preferred.status_code == plain.status_code == 422
    assert preferred.get_json() == plain.get_json() and "Preference-Applied" not in preferred.headers


def test_answers_are_never_cached_so_they_need_no_vary_on_prefer(client):
    """RFC 7240 asks for Vary: Prefer on a cacheable answer that depends on it; command
    answers are POST answers marked no-store, which no cache keeps."""
    game = create(client)
    for prefer in ({}, MINIMAL, REPRESENTATION):
        seat = game.view()["to_move"][0]
        answer = game.send({"type": "draw"}, game.seat(seat), prefer)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"


def test_the_schema_adds_nothing_to_any_answer(client, seeds):
    """Command answers are sent as built (render.py), not dumped through CommandResultSchema:
    for every kind of answer the dump would be the same JSON, key order included."""
    game = create(client)
    key = {"Idempotency-Key": f"dump-{uuid.uuid4().hex}"}
    answers = [game.send({"type": "draw"}, game.seat(0), key), game.send({"type": "draw"}, game.seat(0), key),
               game.send({"type": "roll_bonus"}, game.seat(1), MINIMAL),
               game.send({"type": "stand", "seat": 1}, game.host, REPRESENTATION)]
    answers.append(client.post(f"/games/{game.id}/commands?dry_run=true", json={"type": "stand"}, headers=game.seat(0)))
    answers.append(client.post(f"/games/{game.id}/commands?dry_run=true", json={"type": "stand", "seat": 0},
                               headers={**game.host, **MINIMAL}))
    for answer in answers:
        assert answer.status_code in (200, 422), answer.get_json()
        if answer.status_code == 200:
            body = answer.get_json()
            assert json.dumps(CommandResultSchema().dump(body)) == json.dumps(body)


def test_a_whole_game_played_with_minimal_answers_ends_as_with_whole_ones(client):
    """Hidden Hoard to its end: each seat's minimal answers carry exactly the events its log shows."""
    game = create(client)
    sent = 0
    while game.view()["status"] != "finished" and sent < 50:
        seat = game.view()["to_move"][0]
        command = game.legal(game.seat(seat))[sent % 2]
        answer = game.send(command, game.seat(seat), MINIMAL)
        body = answer.get_json()
        assert answer.status_code == 200 and "game" not in body
        assert body["events"] == log_entries(game, game.seat(seat), body["events"][0]["version"], body["version"])
        sent += 1
    assert game.view()["status"] == "finished"


def test_a_seat_sees_nothing_more_in_a_minimal_answer(corsairs_client, seeds):
    """Two Tesoros games alike for seat 0, seat 1 holding other cards: seat 0's minimal
    answers (dry runs of every probe, then a real command) are the same in both, name none of
    seat 1's cards, and are its whole answers without the view."""
    (one, other), others = tesoros_pair(corsairs_client)
    probes = probes_naming(corsairs_client.get(f"/rulesets/{TESOROS}").get_json(), HAND_1 + others)
    for game in (one, other):
        assert game.send({"type": "draw_card", "seat": 0, "drawn": ["FAVOR-a"]}).status_code == 200

    def minimal_answers(game) -> list:
        out = []
        for probe in probes:
            url = f"/games/{game.id}/commands?dry_run=true"
            minimal = game.client.post(url, json=probe, headers={**game.seat(0), **MINIMAL})
            whole = game.client.post(url, json=probe, headers=game.seat(0))
            assert minimal.status_code == whole.status_code
            if whole.status_code == 200:
                assert _normalised(minimal.get_json(), game.id) == _normalised(without_view(whole.get_json()), game.id)
            out.append([minimal.status_code, _normalised(minimal.get_json(), game.id)])
        for command in game.legal(game.seat(0)):   # the first a seat may send without a table outcome
            real = game.send(command, game.seat(0), MINIMAL)
            out.append([command, real.status_code, _normalised(real.get_json(), game.id)])
            if real.status_code == 200:
                break
        assert real.status_code == 200, out[-1]
        body = real.get_json()
        assert body["events"] == log_entries(game, game.seat(0), body["events"][0]["version"], body["version"])
        return out + [_normalised(body, game.id)]

    seen = minimal_answers(one)
    assert seen == minimal_answers(other)
    assert not any(f'"{card}"' in json.dumps(seen) for card in HAND_1 + others)

