"""/metrics on an internal port of its own (issue 15, part 6): with PARLEY_METRICS_PORT the
Procfile's server serves every worker's metrics there, and /metrics on the service port is
404; without it, /metrics is on the service port, behind PARLEY_METRICS_TOKEN when set."""
from __future__ import annotations

import pytest
import requests

from tests.postgres.live import Gunicorn, free_port

pytestmark = pytest.mark.slow


def test_metrics_are_served_on_their_own_port_and_not_on_the_services(tmp_path):
    port = free_port()
    server = Gunicorn({"SQLITE_DBNAME": str(tmp_path / "parley.sqlite"), "PARLEY_METRICS_PORT": str(port)},
                      workers=2).start()
    try:
        for _ in range(6):
            assert requests.get(server.base + "/rulesets", timeout=10).status_code == 200
        hidden = requests.get(server.base + "/metrics", timeout=10)
        assert hidden.status_code == 404 and hidden.json()["code"] == "NOT_FOUND"
        text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
        counted = sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                      if line.startswith("parley_http_requests_total{") and 'route="/rulesets"' in line)
        assert counted == 6
    finally:
        server.stop()


def test_without_a_port_metrics_are_on_the_service_port_behind_the_token(tmp_path):
    token = "m" * 40
    server = Gunicorn({"SQLITE_DBNAME": str(tmp_path / "parley.sqlite"), "PARLEY_METRICS_TOKEN": token},
                      workers=1).start()
    try:
        assert requests.get(server.base + "/metrics", timeout=10).status_code == 401
        answer = requests.get(server.base + "/metrics", timeout=10, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200 and "parley_http_requests_total" in answer.text
    finally:
        server.stop()
