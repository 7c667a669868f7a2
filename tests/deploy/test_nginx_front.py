"""deploy/nginx/parley.conf in front of the Procfile's service, started by scripts/front
(issue 15, part 7): a whole game passes through it, slow and idle clients cost Parley nothing,
and nginx's own refusals (400, 404, 405, 413, 414, 429, 431, 501) are problem+json with the
headers Parley's answers carry."""
from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import requests

from tests.deploy.attack import Attackers, health_every_second
from tests.fakes.http import Seated, bearer, progressing
from tests.fakes.sse import Stream
from tests.postgres.live import stop_group

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = "application/problem+json"

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Front:
    """scripts/front: nginx on one port, gunicorn from the Procfile on another."""

    def __init__(self, env: dict | None = None):
        self.port, self.upstream = free_port(), free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.dir = Path(tempfile.mkdtemp(prefix="parley-front-"))
        # Run as root, nginx's workers are 'nobody' and buffer large bodies (an export sent to
        # /verifications) under the front's directory: they must be able to reach it.
        self.dir.chmod(0o755)
        self.env = {**os.environ, "PORT": str(self.port), "UPSTREAM_PORT": str(self.upstream),
                    "HOST": "127.0.0.1", "SQLITE_DBNAME": str(self.dir / "parley.sqlite"),
                    "WEB_CONCURRENCY": "1", "PARLEY_FRONT_DIR": str(self.dir / "nginx"), **(env or {})}
        for name in ("PERSISTENCE_MODULE", "PROMETHEUS_MULTIPROC_DIR"):
            self.env.pop(name, None)
        self.log = self.dir / "front.log"

    def start(self, wait: float = 90) -> Front:
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([str(ROOT / "scripts" / "front")], cwd=ROOT, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + wait
        while True:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                if requests.get(self.base + "/readyz", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, "the front did not answer in time:\n" + self.log.read_text()[-3000:]
            time.sleep(0.3)

    def stop(self) -> None:
        stop_group(self.process)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def front():
    if shutil.which("nginx") is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is not installed; .ci/run installs it (apt-get install nginx)")
        pytest.skip("needs nginx (apt-get install nginx); CI installs it")
    server = Front().start()
    yield server
    server.stop()


class _Answer:
    def __init__(self, response: requests.Response):
        self.status_code = response.status_code
        self._response = response

    def get_json(self):
        return self._response.json()


class Polite:
    """requests in the shape tests/fakes/http.py drives (a Flask test client's), as a polite
    client: a 429 is sent again after its Retry-After."""

    def __init__(self, base: str):
        self.base = base
        self.session = requests.Session()
        self.waited = 0

    def _send(self, method: str, path: str, **kwargs) -> _Answer:
        if "query_string" in kwargs:
            kwargs["params"] = kwargs.pop("query_string")
        for _ in range(30):
            response = self.session.request(method, self.base + path, timeout=30, **kwargs)
            if response.status_code != 429:
                return _Answer(response)
            self.waited += 1
            time.sleep(float(response.headers["Retry-After"]))
        raise AssertionError(f"still limited after 30 tries: {method} {path}")

    def get(self, path, **kwargs):
        return self._send("GET", path, **kwargs)

    def post(self, path, **kwargs):
        return self._send("POST", path, **kwargs)


def test_a_whole_game_passes_through_the_front_and_verifies(front):
    client = Polite(front.base)
    created = client.post("/games", json={"ruleset": "corsairs-of-valeria", "chance": "server",
                                          "players": [{"name": "Kira"}, {"name": "David"}]})
    assert created.status_code == 201, created.get_json()
    game = Seated(client, created.get_json())
    sent = game.play_to_the_end(random.Random(7), prefer=progressing)
    assert sent > 10 and game.view()["status"] == "finished"
    exported = game.get("/export")
    assert exported.status_code == 200
    verdict = client.post("/verifications", json=exported.get_json())
    assert verdict.status_code == 200 and verdict.get_json()["verdict"] == "valid", verdict.get_json()


def _is_problem(response: requests.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text[:300]
    assert response.headers["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status and body["code"] == code and body["title"] and body["detail"]
    assert response.headers["Cache-Control"] == "no-store"


def test_bodies_over_the_fronts_caps_are_refused_as_problems(front):
    big = b'{"x": "' + b"a" * (2 * 1024 * 1024) + b'"}'
    _is_problem(requests.post(front.base + "/games", data=big, timeout=30,
                              headers={"Content-Type": "application/json"}), 413, "BODY_TOO_LARGE")
    export = b'{"x": "' + b"a" * (9 * 1024 * 1024) + b'"}'
    started = time.monotonic()
    _is_problem(requests.post(front.base + "/verifications", data=export, timeout=30,
                              headers={"Content-Type": "application/json"}), 413, "BODY_TOO_LARGE")
    assert time.monotonic() - started < 10


def test_a_body_over_nginxs_buffer_reaches_parley(front):
    """A body over client_body_buffer_size (128k) is buffered to a file under the front's
    directory before nginx passes it on: Parley answers it (here a 400, not an export), not
    nginx with a 500 it cannot write that file (a CI run met that with the front's directory
    unreachable for nginx's workers)."""
    body = b'{"format": "parley-export/1", "pad": "' + b"a" * 300_000 + b'"}'
    _is_problem(requests.post(front.base + "/verifications", data=body, timeout=30,
                              headers={"Content-Type": "application/json"}), 400, "MALFORMED_EXPORT")


def test_a_burst_of_creations_from_one_address_meets_429_with_retry_after(front):
    body = {"ruleset": "league-of-pirates", "players": [{"name": "A"}, {"name": "B"}]}
    session = requests.Session()
    answers = [session.post(front.base + "/games", json=body, timeout=30) for _ in range(120)]
    codes = [a.status_code for a in answers]
    assert codes[0] == 201 and 429 in codes, codes
    limited = answers[codes.index(429)]
    _is_problem(limited, 429, "RATE_LIMITED")
    assert int(limited.headers["Retry-After"]) >= 1
    time.sleep(3)  # the budget refills: a person creating a game now is served
    assert session.post(front.base + "/games", json=body, timeout=30).status_code == 201


def test_slow_and_idle_clients_cost_no_thread(front):
    """50 connections sending a header line every 4 s and 300 idle ones, held for 20 s:
    /healthz answers within 2 s every second meanwhile, and nginx's header deadline (10 s)
    closes the slow ones."""
    with Attackers(front.port, slow=50, idle=300, every=4) as attack:
        waits = health_every_second(front.base, seconds=20)
        closed = attack.closed_by_server
    assert len(waits) >= 15 and max(waits) < 2, waits
    assert closed >= 50, f"only {closed} slow or idle connections were closed by the header deadline"


def test_a_stream_passes_through_the_front_as_each_event_is_stored(front):
    """Server-Sent Events through nginx: no buffer holds a message back (proxy_buffering off,
    X-Accel-Buffering: no), so each command's events arrive while the stream stays open."""
    client = Polite(front.base)
    created = client.post("/games", json={"ruleset": "corsairs-of-valeria", "chance": "server",
                                          "players": [{"name": "Kira"}, {"name": "David"}]}).get_json()
    game = Seated(client, created)
    stream = Stream(f"{front.base}/games/{game.id}/stream", {"Authorization": f"Bearer {created['spectator_token']}"})
    try:
        assert stream.until_status() == 200 and stream.content_type.startswith("text/event-stream")
        for _ in range(3):
            sent = game.send(game.legal()[0])
            assert sent.status_code == 200
            version = sent.get_json()["version"]
            stream.arrival(version, 5)
            assert not stream.ended
        assert [m.entry for m in stream.messages] == game.all_events(bearer(created["spectator_token"]))
    finally:
        stream.close()


def _raw(port: int, request: bytes) -> tuple[str, dict, bytes]:
    """The status line, headers and body of nginx's answer to bytes no HTTP library would send."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *fields = head.decode("latin-1").split("\r\n")
    return status, {k.lower(): v.strip() for k, _, v in (f.partition(":") for f in fields)}, body


NGINX_REFUSES = [
    (b"TRACE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405, "METHOD_NOT_ALLOWED"),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "URI_TOO_LONG"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 9000 + b"\r\n\r\n", 431, "HEADERS_TOO_LARGE"),
    (b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400, "MALFORMED_REQUEST"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, "MALFORMED_REQUEST"),
    (b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", 400, "MALFORMED_REQUEST"),
    (b"GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "MALFORMED_REQUEST"),
    (b"POST /games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, "NOT_IMPLEMENTED"),
    (b"GET /.parley/too-many HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404, "NOT_FOUND"),
]


@pytest.mark.parametrize(("request_bytes", "status", "code"), NGINX_REFUSES, ids=[c for _, _, c in NGINX_REFUSES])
def test_every_refusal_nginx_makes_itself_is_problem_json_with_the_headers_parleys_carry(front, request_bytes,
                                                                                       status, code):
    line, headers, body = _raw(front.port, request_bytes)
    assert line.split()[1] == str(status), line
    assert headers["content-type"].startswith(PROBLEM)
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (status, code) and problem["detail"]
    assert headers["access-control-allow-origin"] == "*" and "Retry-After" in headers["access-control-expose-headers"]
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "no-referrer"
    assert headers["content-security-policy"].startswith("default-src 'none'")


def test_an_http_1_0_request_without_host_is_served_through_the_front(front):
    """nginx speaks HTTP/1.1 to Parley, where a request without Host is malformed: it states one."""
    line, _, body = _raw(front.port, b"GET /healthz HTTP/1.0\r\n\r\n")
    assert line.split()[1] == "200" and json.loads(body) == {"status": "alive"}


def test_a_dry_run_spelled_any_way_parley_reads_as_true_spends_the_dry_run_budget(front):
    """nginx's dry-run limit (2 a second, bursts of 60) holds for every spelling Parley takes."""
    session = requests.Session()
    game = f"/games/{uuid.uuid4()}/commands"
    time.sleep(4)  # every request's budget (50 a second, bursts of 200) refills from the tests before

    def paced(spelling: str) -> requests.Response:
        time.sleep(0.03)  # under 50 a second: only the dry-run budget can refuse these
        return session.post(f"{front.base}{game}?dry_run={spelling}", json={"type": "x"}, timeout=10)

    real = [paced("false") for _ in range(70)]
    assert [a.status_code for a in real] == [401] * 70, [(a.status_code, a.text[:300]) for a in real if a.status_code != 401]
    spellings = ("1", "%74rue") * 70  # turn about: once the burst is spent, both are refused
    codes = [(spelling, paced(spelling).status_code) for spelling in spellings]
    for spelling in ("1", "%74rue"):
        assert [code for s, code in codes if s == spelling].count(429) >= 5, codes


def test_an_anonymous_export_over_parleys_limit_is_parleys_413_through_the_front(front):
    """Refused on its header by Parley (4 MiB without the arbiter's token) while nginx (8 MiB)
    was still sending it: the answer is Parley's own 413 (its words name 4 MiB), never nginx's
    nor a 503 for a connection cut. The cut a review saw (5 of 10 through nginx) did not
    happen on this machine with or without the drain: the drain's own guard is
    tests/deploy/test_serving.py's test_closing_reads_the_rest_of_a_body_refused_unread_..."""
    export = b'{"format": "parley-export/1", "pad": "' + b"a" * (5 * 1024 * 1024) + b'"}'
    for _ in range(5):
        answer = requests.post(front.base + "/verifications", data=export, timeout=30,
                               headers={"Content-Type": "application/json"})
        assert answer.headers["Content-Type"].startswith(PROBLEM), (answer.status_code, answer.text[:300])
        _is_problem(answer, 413, "BODY_TOO_LARGE")
        assert "4 MiB" in answer.json()["detail"] or "4,194,304" in answer.json()["detail"], answer.json()


def test_a_refused_export_over_a_mib_is_still_answered_as_a_problem(front):
    """nginx's error pages inherited the 1 MiB body limit: redirected there, a refused export
    over 1 MiB met it again and got nginx's HTML 413 instead of its problem (a review's find)."""
    def chunks():
        piece = b"a" * 1024 * 1024
        yield b'{"format": "parley-export/1", "pad": "'
        for _ in range(9):   # past the 8 MiB that /verifications takes through the front
            yield piece
        yield b'"}'

    answer = requests.post(front.base + "/verifications", data=chunks(), timeout=30,
                           headers={"Content-Type": "application/json"})
    _is_problem(answer, 413, "BODY_TOO_LARGE")
