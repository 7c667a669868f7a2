"""Anonymous work is bounded on the Procfile's server (issue 15, part 3): a 16 MiB anonymous
export is refused with 413 at once, and no anonymous export within the caps makes a worker
grow by more than 100 MB."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
import requests

from service import create_app
from tests.fakes.http import create
from tests.postgres.live import Gunicorn

pytestmark = pytest.mark.slow
MB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("anonymous")
    running = Gunicorn({"SQLITE_DBNAME": str(folder / "parley.sqlite")}, workers=1).start()
    yield running
    running.stop()


def peak_mb(pid: int) -> float:
    """The worker's peak resident memory so far (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def post(server, body: bytes) -> requests.Response:
    return requests.post(server.base + "/verifications", data=body, timeout=60,
                         headers={"Content-Type": "application/json"})


def test_a_16_mib_anonymous_export_is_refused_with_413_at_once(server):
    body = b'{"format": "' + b"a" * (16 * MB) + b'"}'
    started = time.monotonic()
    refused = post(server, body)
    assert refused.status_code == 413 and refused.json()["code"] == "BODY_TOO_LARGE"
    assert time.monotonic() - started < 5


def a_long_real_export() -> bytes:
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    client = app.test_client()
    game = create(client, "valeria-card-kingdoms", players=("A", "B", "C", "D", "E"))
    game.play_to_the_end(random.Random(1), max_commands=3000)
    export = client.get(f"/games/{game.id}/export", headers=game.host).get_data()
    app.extensions["parley"].close()
    return export


def test_no_anonymous_export_within_the_caps_grows_a_worker_by_100_mb(server):
    (worker,) = server.workers()
    requests.get(server.base + "/healthz", timeout=10)
    start = peak_mb(worker)
    most = 250_000  # the default ANONYMOUS_EXPORT_MAX_VALUES
    bodies = {
        "the longest string": json.dumps({"format": "x", "pad": "a" * (4 * MB - 100)}).encode(),
        "values up to the cap: strings": json.dumps(["ab"] * (most - 1_000)).encode(),
        "values up to the cap: numbers": json.dumps([0] * (most - 1_000)).encode(),
        "values up to the cap: objects": json.dumps([{"a": 1}] * (most // 2 - 1_000)).encode(),
        "values over the cap: empty objects": json.dumps([{}] * most).encode(),
        "nesting": (b"[" * 60 + b"0" + b"]" * 60) * 10_000,
        "a long real game": a_long_real_export(),
    }
    answers = {}
    for name, body in bodies.items():
        answer = post(server, body)
        assert answer.status_code in (200, 400, 413), (name, answer.status_code, answer.text[:300])
        answers[name] = answer.status_code
    assert answers["a long real game"] == 200 and answers["values over the cap: empty objects"] == 413
    grown = peak_mb(worker) - start
    assert grown < 100, f"the worker grew by {grown:.0f} MB"
