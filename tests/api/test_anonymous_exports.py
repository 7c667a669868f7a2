"""Exports sent to /verifications and /replays by anyone are bounded (issue 15, part 3): in
bytes, and in JSON values counted before anything is parsed; the arbiter's token allows more."""
from __future__ import annotations

import json

import pytest

from service import create_app
from tests.fakes.http import create

ARBITER = "arbiter-" + "a" * 40
PROBLEM = "application/problem+json"


@pytest.fixture
def app():
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}, "ARBITER_TOKEN": ARBITER,
                      "ANONYMOUS_EXPORT_MAX_LENGTH": 64 * 1024, "ANONYMOUS_EXPORT_MAX_VALUES": 5_000})
    yield app
    app.extensions["parley"].close()


def post(client, path, data: bytes, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(path, data=data, content_type="application/json", headers=headers)


@pytest.mark.parametrize("path", ["/verifications", "/replays"])
def test_an_anonymous_export_over_the_byte_cap_is_413_and_the_arbiters_is_read(app, path):
    client = app.test_client()
    body = json.dumps({"format": "x", "pad": "a" * (70 * 1024)}).encode()
    refused = post(client, path, body)
    assert refused.status_code == 413 and refused.content_type == PROBLEM
    assert refused.get_json()["code"] == "BODY_TOO_LARGE"
    assert refused.get_json()["detail"] == ("The request's body is larger than this operation accepts: at most "
                                            "64 KiB. An export sent with the arbiter's token may hold 64 MiB.")
    read = post(client, path, body, token=ARBITER)
    assert read.status_code == 400 and read.get_json()["code"] == "MALFORMED_EXPORT"


@pytest.mark.parametrize("path", ["/verifications", "/replays"])
def test_an_anonymous_export_with_too_many_values_is_413_before_it_is_parsed(app, path, monkeypatch):
    client = app.test_client()
    body = json.dumps([{} for _ in range(6_000)]).encode()  # 24 KB: under the byte cap
    assert len(body) < 64 * 1024
    parsed = []
    import service.api.exports as exports

    real = exports.loads_strictly
    monkeypatch.setattr(exports, "loads_strictly", lambda data: parsed.append(1) or real(data))
    refused = post(client, path, body)
    assert refused.status_code == 413 and refused.get_json()["code"] == "BODY_TOO_LARGE"
    assert "5,000" in refused.get_json()["detail"] and parsed == []
    assert post(client, path, body, token=ARBITER).status_code == 400
    assert parsed == [1]


def test_strings_holding_commas_and_brackets_are_one_value_each(app):
    client = app.test_client()
    body = json.dumps({"format": "x", "pad": [",[{" * 1500] * 10}).encode()
    answer = post(client, "/verifications", body)
    assert answer.status_code == 400 and answer.get_json()["code"] == "MALFORMED_EXPORT"


def test_a_real_export_is_verified_anonymously_under_the_default_caps():
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    client = app.test_client()
    import random

    game = create(client, "tesoros-del-rey-pirata", players=("A", "B", "C", "D"))
    game.play_to_the_end(random.Random(1), max_commands=3000)
    export = client.get(f"/games/{game.id}/export", headers=game.host)
    verdict = post(client, "/verifications", export.get_data())
    assert verdict.status_code == 200 and verdict.get_json()["verdict"] == "valid"
    app.extensions["parley"].close()


def test_a_body_too_large_elsewhere_names_that_operations_limit(app):
    refused = app.test_client().post("/games", data=b'{"x": "' + b"y" * (1024 * 1024) + b'"}',
                                     content_type="application/json")
    assert refused.status_code == 413 and refused.get_json()["code"] == "BODY_TOO_LARGE"
    assert refused.get_json()["detail"] == "The request's body is larger than this operation accepts: at most 1 MiB."


def test_the_arbiters_export_limit_is_named_only_on_the_export_operations():
    """The sentence on the arbiter's limit follows the operation, not a limit that happens to be
    of the same size (an anonymous export limit of 1 MiB, as every other body's)."""
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}, "ARBITER_TOKEN": ARBITER,
                      "ANONYMOUS_EXPORT_MAX_LENGTH": 1024 * 1024})
    try:
        client = app.test_client()
        big = b'{"x": "' + b"y" * (1024 * 1024) + b'"}'
        created = client.post("/games", data=big, content_type="application/json")
        assert created.status_code == 413
        assert created.get_json()["detail"] == "The request's body is larger than this operation accepts: at most 1 MiB."
        verified = post(client, "/verifications", big)
        assert verified.status_code == 413 and "arbiter's token may hold 64 MiB" in verified.get_json()["detail"]
    finally:
        app.extensions["parley"].close()
