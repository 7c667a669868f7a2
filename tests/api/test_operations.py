"""For operators: liveness, readiness, Prometheus metrics, request ids and JSON logs."""
from __future__ import annotations

import io
import json
import logging
import re

import pytest
from eventsourcing.persistence import OperationalError

from service.logs import JsonFormatter
from tests.fakes.http import create

PROBLEM = "application/problem+json"


def sample(metrics_text: str, name: str, **labels) -> float:
    """The value of one sample in Prometheus text exposition (0 when absent)."""
    for line in metrics_text.splitlines():
        if not line.startswith(name + "{"):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line[len(name):line.rindex("}") + 1]))
        if found == {k: str(v) for k, v in labels.items()}:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_healthz_answers_without_the_store(client, app, monkeypatch):
    monkeypatch.setattr(app.extensions["parley"].events, "get", _broken)
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "alive"}


def test_readyz_is_200_when_the_store_answers(client):
    response = client.get("/readyz")
    assert response.status_code == 200 and response.get_json() == {"status": "ready"}


def _broken(*args, **kwargs):
    raise OperationalError("connection refused")


def test_readyz_is_503_with_retry_after_when_the_store_does_not(client, app, monkeypatch):
    monkeypatch.setattr(app.extensions["parley"].events, "get", _broken)
    response = client.get("/readyz")
    assert response.status_code == 503 and response.content_type == PROBLEM
    assert response.headers["Retry-After"].isdigit()
    body = response.get_json()
    assert body["code"] == "STORE_UNAVAILABLE" and "connection refused" not in json.dumps(body)


def test_metrics_count_requests_by_route_and_status(client):
    before = client.get("/metrics").get_data(as_text=True)
    game = create(client)
    game.get("")
    client.get(f"/games/{game.id}", headers={"Authorization": "Bearer nope"})
    after = client.get("/metrics")
    assert after.status_code == 200 and after.content_type.startswith("text/plain")
    text = after.get_data(as_text=True)
    route = "/games/<uuid:game_id>"
    for status, added in (("200", 1), ("401", 1)):
        assert (sample(text, "parley_http_requests_total", method="GET", route=route, status=status)
                - sample(before, "parley_http_requests_total", method="GET", route=route,
                         status=status)) == added
    # The raw path (with the game's id) is never a label.
    assert game.id not in text


def test_a_made_up_method_is_counted_as_other_so_the_labels_stay_bounded(client):
    """Anyone may send any token as a method (a 405, not rate limited): each must not add
    series to every worker's metrics."""
    before = client.get("/metrics").get_data(as_text=True)
    for method in ("ZZQAA", "ZZQAB", "ZZQAC"):
        assert client.open("/healthz", method=method).status_code == 405
    text = client.get("/metrics").get_data(as_text=True)
    assert "ZZQA" not in text
    added = (sample(text, "parley_http_requests_total", method="other", route="unmatched", status="405")
             - sample(before, "parley_http_requests_total", method="other", route="unmatched", status="405"))
    assert added == 3


def test_metrics_time_commands_and_count_rejections_by_code(client):
    before = client.get("/metrics").get_data(as_text=True)
    game = create(client)
    assert game.send({"type": "draw"}, game.seat(0)).status_code == 200
    assert game.send({"type": "stand"}, game.seat(0)).status_code == 422  # not seat 0's turn
    text = client.get("/metrics").get_data(as_text=True)

    def added(name, **labels):
        return sample(text, name, **labels) - sample(before, name, **labels)

    assert added("parley_command_rejections_total", ruleset="hidden-hoard", code="NOT_YOUR_TURN") == 1
    assert added("parley_command_duration_seconds_count", ruleset="hidden-hoard", outcome="accepted") == 1
    assert added("parley_command_duration_seconds_count", ruleset="hidden-hoard", outcome="rejected") == 1


def test_metrics_ask_for_the_metrics_token_when_one_is_set(app, client):
    app.config["METRICS_TOKEN"] = "m" * 40
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    ok = client.get("/metrics", headers={"Authorization": "Bearer " + "m" * 40})
    assert ok.status_code == 200


def test_every_response_carries_a_request_id(client):
    given = client.get("/rulesets", headers={"X-Request-ID": "trace-42.a"})
    assert given.headers["X-Request-ID"] == "trace-42.a"
    made = client.get("/rulesets")
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["X-Request-ID"])
    # An id that could forge log lines is replaced, not echoed.
    forged = client.get("/rulesets", headers={"X-Request-ID": 'x" {"level":"error"}'})
    assert re.fullmatch(r"[0-9a-f]{32}", forged.headers["X-Request-ID"])


def test_each_request_is_one_json_log_line_with_its_request_id_and_game_id(client):
    game = create(client)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("parley.requests")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        response = game.send({"type": "draw"}, game.seat(0), headers={"X-Request-ID": "req-7"})
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert response.status_code == 200
    (line,) = [json.loads(text) for text in stream.getvalue().splitlines()]
    assert line["request_id"] == "req-7" and line["game_id"] == game.id
    assert line["status"] == 200 and line["route"] == "/games/<uuid:game_id>/commands"
    assert line["method"] == "POST" and line["duration_ms"] >= 0 and line["level"] == "info"


def test_the_json_formatter_keeps_exceptions_out_of_the_message():
    formatter = JsonFormatter()
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed %s", ("here",),
                                   sys.exc_info())
    line = json.loads(formatter.format(record))
    assert line["msg"] == "failed here" and "ValueError: boom" in line["exc"]


def test_the_json_formatter_writes_what_json_dumps_wrote_and_what_orjson_refuses_too():
    """One JSON object a line, whatever the record carries: values orjson writes in its own way
    (a datetime, a dataclass) are written as str() writes them, as json.dumps wrote them; values
    orjson refuses (an integer past 64 bits, a lone surrogate) are still written."""
    import dataclasses
    import datetime

    @dataclasses.dataclass
    class Seat:
        n: int

    formatter = JsonFormatter()
    when = datetime.datetime(2026, 12, 4, 4, 30, tzinfo=datetime.UTC)
    extras = [{"when": when, "seat": Seat(1), "player": "Jäger", "ratio": 0.5, "none": None},
              {"big": 2 ** 70}, {"odd": "a\udc80b"}]
    for extra in extras:
        record = logging.LogRecord("parley.x", logging.INFO, __file__, 1, "hello %s", ("Jäger",), None)
        record.__dict__.update(extra)
        text = formatter.format(record)
        assert "\n" not in text   # one line
        line = json.loads(text)
        assert line["msg"] == "hello Jäger" and line["level"] == "info" and line["logger"] == "parley.x"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["ts"])
        for key, value in extra.items():
            expected = value if isinstance(value, (str, int, float, type(None))) else str(value)
            assert line[key] == expected, key
    # the second's text is kept between records: a record of another second gets its own
    early, late = (logging.LogRecord("x", logging.INFO, __file__, 1, "m", (), None) for _ in range(2))
    early.created, early.msecs = 0.25, 250.0
    late.created, late.msecs = 86400.5, 500.0
    assert json.loads(formatter.format(early))["ts"] == "1970-01-01T00:00:00.250Z"
    assert json.loads(formatter.format(late))["ts"] == "1970-01-02T00:00:00.500Z"


def test_the_app_remembers_which_functions_are_coroutines_but_not_a_requests_own(app):
    import gc

    from flask import after_this_request

    def view_hook():
        return None

    async def coroutine_view():
        return "x"

    assert app.ensure_sync(view_hook) is view_hook and app.ensure_sync(view_hook) is view_hook
    assert view_hook in app._sync
    # a coroutine still goes to Flask's async_to_sync (here without the async extra: its refusal)
    with pytest.raises(RuntimeError, match="async"):
        app.ensure_sync(coroutine_view)
    assert coroutine_view not in app._sync
    with app.test_request_context("/healthz"):
        @after_this_request
        def once(response):
            return response
        assert app.ensure_sync(once) is once and once in app._sync
    before = len(app._sync)
    del once
    gc.collect()
    assert len(app._sync) == before - 1  # gone with the request's function
