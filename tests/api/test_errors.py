"""Errors nobody asked for still answer problem+json, and never show a stack trace."""
from __future__ import annotations

from eventsourcing.persistence import OperationalError

from tests.fakes import hoard
from tests.fakes.http import create

PROBLEM = "application/problem+json"


def test_an_unexpected_failure_is_a_500_problem_without_a_stack_trace(client, monkeypatch):
    game = create(client)

    def broken(*args):
        raise RuntimeError("secret internals: kraken-ink at /srv/parley/rules.py line 42")

    monkeypatch.setattr(hoard.RULESET, "decide", broken)
    response = game.send({"type": "draw", "seat": 0})
    assert response.status_code == 500 and response.content_type == PROBLEM
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and "secret internals" not in text and "kraken" not in text
    assert response.get_json()["code"] == "INTERNAL_ERROR"
    assert game.view()["version"] == 5


def test_an_unreachable_event_store_is_a_503_problem_with_retry_after(app, client, monkeypatch):
    game = create(client)

    def down(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(app.extensions["parley"].repository, "get", down)
    response = game.get("")
    assert response.status_code == 503 and response.content_type == PROBLEM
    assert response.headers["Retry-After"] == "5"
    assert "connection refused" not in response.get_data(as_text=True)


def test_an_unknown_path_is_a_404_problem(client):
    response = client.get("/nowhere")
    assert response.status_code == 404 and response.content_type == PROBLEM
    assert response.get_json()["instance"] == "/nowhere"
