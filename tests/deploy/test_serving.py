"""The Procfile's serving model (service/serving.py, issue 15 part 1): deadlines for reading a
request, slow and idle clients that cost no thread, CPU-heavy work off the event loop."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from service.serving import BodyTimeout, DeadlineSocket
from tests.deploy.attack import Attackers, health_every_second
from tests.fakes.http import progressing
from tests.postgres.live import ROOT, Gunicorn

PROBLEM = "application/problem+json"


def errors_logged(log: str) -> list[dict]:
    """The lines of a JSON log (service/logs.py) at level error or above."""
    lines = []
    for text in log.splitlines():
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if isinstance(line, dict) and line.get("level") in ("error", "critical"):
            lines.append(line)
    return lines


# -- DeadlineSocket on a socket pair -----------------------------------------------------------

@pytest.fixture
def pair():
    server, client = socket.socketpair()
    yield DeadlineSocket(server, header_seconds=0.3, body_seconds=0.3), client
    server.close()
    client.close()


def test_a_header_that_arrives_in_time_is_read_whole(pair):
    served, client = pair
    client.sendall(b"GET / HTTP/1.1\r\n")
    assert served.recv(100) == b"GET / HTTP/1.1\r\n"
    client.sendall(b"Host: x\r\n\r\n")
    assert served.recv(100) == b"Host: x\r\n\r\n"


def test_a_header_past_its_deadline_is_answered_408_and_closed(pair):
    served, client = pair
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    served.recv(100)
    with pytest.raises(ConnectionResetError):
        served.recv(100)  # nothing more comes within 0.3 s
    answer = client.recv(4096)
    head, body = answer.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 408 ") and PROBLEM.encode() in head and b"Connection: close" in head
    assert json.loads(body)["code"] == "REQUEST_TIMEOUT"


def test_the_end_of_the_header_may_be_split_across_reads(pair):
    served, client = pair
    client.sendall(b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r")
    served.recv(100)
    client.sendall(b"\n")
    served.recv(100)
    # The header is complete: the body's deadline applies now, and it passes.
    with pytest.raises(BodyTimeout) as late:
        served.recv(100)
    assert late.value.code == 408


def test_a_body_past_its_deadline_is_a_408_for_the_app(pair):
    served, client = pair
    client.sendall(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
    assert served.recv(100).endswith(b"abc")
    with pytest.raises(BodyTimeout):
        served.recv(100)


def test_a_kept_alive_connection_may_idle_between_requests(pair):
    served, client = pair
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    served.recv(100)
    served.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    client.recv(100)
    time.sleep(0.5)  # longer than either deadline: idling is not sending a request slowly
    client.sendall(b"GET / HTTP/1.1\r\n")
    assert served.recv(100) == b"GET / HTTP/1.1\r\n"


def test_a_client_that_stops_taking_its_answer_is_cut_at_the_send_deadline():
    server, client = socket.socketpair()
    served = DeadlineSocket(server, send_seconds=0.3)
    started = time.monotonic()
    with pytest.raises(ConnectionResetError):
        served.sendall(b"x" * 20_000_000)  # far more than the socket pair's buffers hold; never read
    assert 0.3 <= time.monotonic() - started < 5
    assert server.gettimeout() is None  # the socket is left as it was
    server.close()
    client.close()


def test_a_file_answer_is_under_the_send_deadline_too(tmp_path):
    """gunicorn sends a static file with sock.sendfile, past sendall (found by a review)."""
    server, client = socket.socketpair()
    served = DeadlineSocket(server, send_seconds=0.3)
    big = tmp_path / "viewer.js"
    big.write_bytes(b"x" * 20_000_000)
    started = time.monotonic()
    with big.open("rb") as file, pytest.raises(ConnectionResetError):
        served.sendfile(file)
    assert 0.3 <= time.monotonic() - started < 5 and server.gettimeout() is None
    server.close()
    client.close()


def test_a_client_that_takes_its_answer_slowly_but_steadily_gets_all_of_it():
    server, client = socket.socketpair()
    served = DeadlineSocket(server, send_seconds=0.3)
    answer = os.urandom(3_000_000)
    got = bytearray()

    def read_slowly():
        while len(got) < len(answer):
            got.extend(client.recv(200_000))
            time.sleep(0.05)

    reading = threading.Thread(target=read_slowly)
    reading.start()
    started = time.monotonic()
    served.sendall(answer)
    reading.join(10)
    assert bytes(got) == answer and time.monotonic() - started > 0.3  # longer than one deadline in all
    server.close()
    client.close()


def test_closing_reads_the_rest_of_a_body_refused_unread_so_its_sender_is_not_cut_off():
    """A 413 to an anonymous 5 MiB export, refused on its header: the front (nginx) is still
    sending the body it buffered. Closing after 64 KiB (gunicorn's own drain) cut it off mid-send,
    and nginx answered its client 502 (503 through the front) instead of Parley's 413."""
    server, client = socket.socketpair()
    served = DeadlineSocket(server)
    failed: list = []

    def send_the_body():
        try:
            client.sendall(b"x" * 3_000_000)
            client.shutdown(socket.SHUT_WR)
        except OSError as error:
            failed.append(error)

    sending = threading.Thread(target=send_the_body)
    sending.start()
    served.close()
    sending.join(5)
    assert not sending.is_alive() and not failed, failed
    client.close()


def test_a_stopping_worker_ends_a_kept_alive_connection_between_requests_only():
    server, client = socket.socketpair()
    stopping = {"now": False}
    served = DeadlineSocket(server, header_seconds=5, body_seconds=5, stopping=lambda: stopping["now"])
    seen: dict = {}
    reading = threading.Thread(target=lambda: seen.update(data=served.recv(100)))
    reading.start()
    time.sleep(0.1)
    assert not served.idle  # a new connection waiting for its first request is served
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    reading.join(5)
    served.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")  # answered: kept alive from now on
    reading = threading.Thread(target=lambda: seen.update(data=served.recv(100)))
    reading.start()
    time.sleep(0.1)
    assert served.idle  # blocked, waiting for the next request: what a drain closes
    client.sendall(b"POST / HTTP/1.1\r\n")
    reading.join(5)
    assert seen["data"] == b"POST / HTTP/1.1\r\n" and not served.idle
    stopping["now"] = True
    client.sendall(b"Expect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    assert served.recv(100).endswith(b"\r\n\r\n")  # a request under way is read whole
    served.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")  # no answer: its body is still to come
    client.sendall(b"{}")
    assert served.recv(100) == b"{}"
    served.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")
    client.sendall(b"GET /waiting HTTP/1.1\r\n")  # already here when the connection is next read
    time.sleep(0.05)
    assert served.pending() and served.recv(100) == b"GET /waiting HTTP/1.1\r\n"
    served.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")
    assert not served.pending()
    assert served.recv(100) == b""  # nothing more came: as if the client had closed
    server.close()
    client.close()


def test_the_body_deadline_holds_after_100_continue(pair):
    served, client = pair
    client.sendall(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    served.recv(100)
    served.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    with pytest.raises(BodyTimeout):
        served.recv(100)  # the body does not come within 0.3 s


def test_an_owed_100_continue_is_sent_when_the_body_is_read_and_never_after_the_answer(pair):
    served, client = pair
    client.sendall(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    served.recv(100)
    served.owe_continue()
    client.settimeout(0.2)
    with pytest.raises(TimeoutError):
        client.recv(100)   # nothing yet: the app has not asked for the body
    client.sendall(b"{}")
    assert served.recv(100) == b"{}" and client.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
    assert not served.continue_withheld
    served.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")
    client.sendall(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    served.recv(100)
    served.owe_continue()
    assert served.continue_withheld
    served.sendall(b"HTTP/1.1 413 Content Too Large\r\nConnection: close\r\n\r\n")   # refused unread
    assert not served.continue_withheld


# -- offload --------------------------------------------------------------------------------

def test_offloaded_work_runs_in_a_native_thread_under_gevent_and_inline_otherwise():
    script = """
import threading
from service.serving import offload
inline = offload(threading.get_native_id) == threading.get_native_id()
from gevent import monkey
monkey.patch_all()
import threading
print(inline, offload(threading.get_native_id) != threading.get_native_id())
"""
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"], out.stderr


def test_what_offloaded_work_raises_is_raised_in_the_caller_and_nothing_is_printed():
    """Under gevent the work's exception reaches the caller (a malformed export's 400), and the
    hub prints no traceback: every line a worker writes is JSON (deploy/gunicorn.conf.py)."""
    script = """
from gevent import monkey
monkey.patch_all()
from disputes.export import MalformedExport, check
from service.serving import offload
try:
    offload(check, {})
except MalformedExport as error:
    print("raised", len(error.problems) > 0)
"""
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["raised", "True"], out.stderr
    assert out.stderr == "", out.stderr


def test_offloaded_threads_and_greenlets_share_the_rules_caches_without_hanging():
    """Verifications run in the hub's native threads (offload) while the worker's greenlets adjudicate,
    and both use the rulesets' compiled-content caches (kit.LRU). Under gevent a threading.Lock is
    a gevent lock, which native threads contending for it waited on for ever: an audit left 9 of a
    worker's 10 pool threads stuck, their verifications unanswered. Ten threads and a greenlet
    hammer one small cache here; every one must finish."""
    script = """
from gevent import monkey
monkey.patch_all()
import gevent
from domain.kit import LRU
cache = LRU(4)
def use(i):
    for k in range(20000):
        key = f"k{(i + k) % 7}"
        assert cache.get_or_build(key, lambda: [key])[0] == key
    return i
pool = gevent.get_hub().threadpool
pool.maxsize = 10
jobs = [pool.spawn(use, i) for i in range(10)]
def greenlet():
    for k in range(20000):
        cache.get_or_build(f"k{k % 7}", lambda: [f"k{k % 7}"])
        if k % 100 == 0:
            gevent.sleep(0)
jobs.append(gevent.spawn(greenlet))
done = gevent.joinall(jobs, timeout=20)
print(len(done), len(jobs), len(cache) <= 4)
"""
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=60)
    assert out.stdout.split() == ["11", "11", "True"], out.stderr


# -- the Procfile's server --------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serving")
    env = {"SQLITE_DBNAME": str(folder / "parley.sqlite"), "PARLEY_HEADER_SECONDS": "2",
           "PARLEY_BODY_SECONDS": "2"}
    for name in ("PERSISTENCE_MODULE", "PARLEY_PERSISTENCE_MODULE"):
        os.environ.pop(name, None)
    running = Gunicorn(env, workers=2).start()
    yield running
    running.stop()




@pytest.mark.slow
def test_slow_and_idle_clients_cost_no_thread(server):
    """The issue's check, with nothing in front of the Procfile's server: 50 connections that
    send a header line every 4 s and 300 idle ones, held for 20 s; /healthz answers within
    2 s every second meanwhile, and the header deadline closes the slow ones. Each held
    connection costs the workers little memory (what live updates will need: many
    long-lived connections)."""
    before = sum(resident_kb(pid) for pid in server.workers())
    with Attackers(server.port, slow=50, idle=300, every=4) as attack:
        time.sleep(1)
        held = sum(resident_kb(pid) for pid in server.workers())
        waits = health_every_second(server.base, seconds=20)
        closed = attack.closed_by_server
    assert len(waits) >= 15 and max(waits) < 2, waits
    assert closed >= 50, f"only {closed} slow connections were closed by the header deadline"
    per_connection = (held - before) / 350
    assert per_connection < 64, f"{per_connection:.0f} KB of worker memory per held connection"


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _raw(server, data: bytes, then: float) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(data)
        time.sleep(then)
        return _read_to_close(s, 10)


def _read_to_close(sock: socket.socket, seconds: float = 30) -> bytes:
    """Everything the server sends until it closes the connection (a timeout if it does not)."""
    sock.settimeout(seconds)
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.slow
def test_a_late_header_gets_408_problem_json(server):
    answer = _raw(server, b"GET /healthz HTTP/1.1\r\nHost: parley\r\n", then=3)
    head, body = answer.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 408 ") and PROBLEM.encode() in head
    assert json.loads(body)["code"] == "REQUEST_TIMEOUT"


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/games", "/games/00000000-0000-4000-8000-000000000000/commands"])
def test_a_late_body_gets_408_problem_json_from_the_app(server, path):
    """Also on the command route, which a plain command takes without Flask's request context
    (service/api/commands.py LeanRoute): the body's failure is Flask's to answer there too."""
    answer = _raw(server, b"POST " + path.encode() + b" HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"ruleset\":", then=3)
    head, body = answer.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 408 "), head
    problem = json.loads(body)
    assert problem["status"] == 408 and problem["code"] == "REQUEST_TIMEOUT"
    assert "body" in problem["detail"]


def _chunked(path: str, body: bytes, chunk: int = 65536, headers: bytes = b"") -> bytes:
    """A POST whose body is sent in chunks (Transfer-Encoding: chunked), no Content-Length."""
    out = [b"POST " + path.encode() + b" HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\nConnection: close\r\n" + headers + b"\r\n"]
    for i in range(0, len(body), chunk):
        part = body[i:i + chunk]
        out.append(b"%x\r\n" % len(part) + part + b"\r\n")
    out.append(b"0\r\n\r\n")
    return b"".join(out)


def _answer(server, data: bytes) -> tuple[bytes, dict]:
    head, body = _raw(server, data, then=0).split(b"\r\n\r\n", 1)
    return head, json.loads(body)


@pytest.mark.slow
def test_a_chunked_body_over_the_limit_is_413_not_cut_and_served(server):
    """A chunked body is held to the same 1 MiB as one of stated length: a command padded to
    exactly 1 MiB and followed by more is refused whole, not acted on from its first MiB."""
    created = requests.post(server.base + "/games", timeout=10, json={
        "ruleset": "corsairs-of-valeria", "players": [{"name": "A"}, {"name": "B"}]}).json()
    path = f"/games/{created['id']}/commands"
    auth = f"Authorization: Bearer {created['seats'][0]['token']}\r\n".encode()
    command = b'{"type": "roll_dice"}'
    padded = command + b" " * (1024 * 1024 - len(command))
    head, problem = _answer(server, _chunked(path, padded + b"GARBAGE-NOT-JSON", headers=auth))
    assert head.startswith(b"HTTP/1.1 413 ") and PROBLEM.encode() in head, head
    assert problem["code"] == "BODY_TOO_LARGE"
    game = requests.get(server.base + f"/games/{created['id']}", timeout=10,
                        headers={"Authorization": f"Bearer {created['host_token']}"}).json()
    assert game["version"] == created["version"]            # nothing was stored
    head, problem = _answer(server, _chunked("/games", b'{"ruleset": "league-of-pirates", "players": '
                                                       b'[{"name": "A"}, {"name": "B"}]}' + b" " * (1024 * 1024)))
    assert head.startswith(b"HTTP/1.1 413 ") and problem["code"] == "BODY_TOO_LARGE"
    head, answer = _answer(server, _chunked(path, padded, headers=auth))   # exactly the limit: served
    assert head.startswith(b"HTTP/1.1 200 "), (head, answer)
    assert answer["version"] > created["version"]


def _head(sock: socket.socket, seconds: float = 10) -> bytes:
    """What the server sends up to the end of one answer's header (a 100 Continue is one)."""
    sock.settimeout(seconds)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(1)
        assert chunk, data
        data += chunk
    return data


@pytest.mark.slow
def test_100_continue_is_sent_only_when_the_body_is_read(server):
    """RFC 9110 10.1.1: a body the app refuses on its header alone (over the 1 MiB limit) is
    answered 413 without 100 Continue, so the client never sends it, and the connection is
    closed (the client may send it yet); a body the app reads gets 100 Continue first, and
    the connection stays open for the next request."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 2000000\r\nExpect: 100-continue\r\n\r\n")
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 413 ") and b"Connection: close" in head, head
        _read_to_close(s, 10)   # the problem, then the end of the connection
    body = json.dumps({"ruleset": "corsairs-of-valeria", "players": [{"name": "A"}, {"name": "B"}]}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n" % len(body))
        assert _head(s) == b"HTTP/1.1 100 Continue\r\n\r\n"
        s.sendall(body)
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 201 ") and b"Connection: keep-alive" in head, head
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        s.settimeout(10)
        while length:
            length -= len(s.recv(length))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: parley\r\n\r\n")   # the same connection goes on
        assert _head(s).startswith(b"HTTP/1.1 200 ")


def _body_of(sock: socket.socket, head: bytes) -> bytes:
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    body = b""
    while len(body) < length:
        body += sock.recv(length - len(body))
    return body


@pytest.mark.slow
def test_a_small_body_refused_unread_closes_and_one_sent_with_its_header_or_pipelined_is_served(server):
    """A 2-byte body refused on its header (a type not taken: 415) gets no 100 Continue and
    closes the connection, though gunicorn would keep it open for a body this small. A client
    that sends its body with the header does not wait for the 100: none is owed, the
    connection stays open. A request with Expect pipelined behind another gets its 100 when
    its body is read."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: text/plain\r\n"
                  b"Content-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 415 ") and b"Connection: close" in head, head
    body = json.dumps({"ruleset": "corsairs-of-valeria", "players": [{"name": "A"}, {"name": "B"}]}).encode()
    creation = (b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n" % len(body))
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(creation + body)   # not waiting for the 100
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 201 ") and b"Connection: keep-alive" in head, head
        _body_of(s, head)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: parley\r\n\r\n" + creation)   # pipelined
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 200 "), head
        _body_of(s, head)
        assert _head(s, 5) == b"HTTP/1.1 100 Continue\r\n\r\n"
        s.sendall(body)
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 201 ") and b"Connection: keep-alive" in head, head


@pytest.mark.slow
def test_an_answer_before_the_body_came_whole_closes_and_is_the_only_answer(server):
    """A request answered before its body was read whole (no such route: 404; a chunked body
    over the limit: 413) is answered with Connection: close, and nothing else follows: kept
    open, what is left of the body, still on its way, was read as the connection's next
    request and answered a second time (408 or 500) once the deadline passed (an outside
    fault probe)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /no-such-route HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{\"a\": 1")   # 8 of its 100 bytes
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 404 ") and b"Connection: close" in head, head
        _body_of(s, head)
        s.sendall(b" " * 92)   # the rest of the body, after the answer
        assert _read_to_close(s, 10) == b""   # closed: no second answer
    chunk = b" " * 65536
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n" + (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 17)
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 413 ") and b"Connection: close" in head, head
        _body_of(s, head)
        with contextlib.suppress(OSError):
            s.sendall(b"0\r\n\r\n")   # the end of the body, after the answer
        assert _read_to_close(s, 10) == b""


@pytest.mark.slow
def test_a_body_pipelined_behind_another_request_is_read_under_the_body_deadline(server):
    """A request whose header came in one write with the request before it, and whose body
    never comes, gets 408 within the body's deadline (2 s here); it was read with no deadline
    at all and held its connection open (an outside fault probe)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: parley\r\n\r\n"
                  b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 50\r\n\r\n")
        head = _head(s)
        assert head.startswith(b"HTTP/1.1 200 "), head
        _body_of(s, head)
        started = time.monotonic()
        head = _head(s, 10)
        assert head.startswith(b"HTTP/1.1 408 ") and time.monotonic() - started < 6, head


@pytest.mark.slow
def test_an_idempotency_key_sent_twice_is_refused_not_read_as_one(server):
    """Two Idempotency-Key lines reach the app joined by a comma (RFC 9110 5.3): 400, nothing
    stored, rather than a key no retry would send again (an outside review found it accepted)."""
    created = requests.post(server.base + "/games", timeout=10, json={
        "ruleset": "corsairs-of-valeria", "players": [{"name": "A"}, {"name": "B"}]}).json()
    body = b'{"type": "roll_dice"}'
    request = (f"POST /games/{created['id']}/commands HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
               f"Authorization: Bearer {created['seats'][0]['token']}\r\nIdempotency-Key: key-one\r\n"
               f"Idempotency-Key: key-two\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    head, problem = _answer(server, request + body)
    assert head.startswith(b"HTTP/1.1 400 ") and problem["code"] == "INVALID_IDEMPOTENCY_KEY", (head, problem)
    game = requests.get(server.base + f"/games/{created['id']}", timeout=10,
                        headers={"Authorization": f"Bearer {created['host_token']}"}).json()
    assert game["version"] == created["version"]

@pytest.mark.slow
@pytest.mark.parametrize("framing", [b"zz\r\n{}\r\n0\r\n\r\n", b"-1\r\n{}\r\n0\r\n\r\n",
                                     b"2\r\n{}XX0\r\n\r\n", b"2\r\n{}\r\n0\r\nTrailer:\r\n\r\n"])
def test_a_malformed_chunked_body_is_400_problem_json(server, framing):
    head, problem = _answer(server, b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                                    b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + framing)
    assert head.startswith(b"HTTP/1.1 400 ") and PROBLEM.encode() in head, head
    assert problem["code"] == "MALFORMED_REQUEST"


@pytest.mark.slow
@pytest.mark.parametrize(("header", "status", "reason", "code"), [
    (b"Transfer-Encoding: xchunked", 501, b"Not Implemented", "NOT_IMPLEMENTED"),
    (b"Expect: 200-ok", 417, b"Expectation Failed", "EXPECTATION_FAILED"),
])
def test_the_http_servers_other_refusals_are_problems_named_by_their_status(server, header, status, reason, code):
    """gunicorn answers these itself, and names a 501 "Bad Request": the problem says what its
    status says, with a code of its own."""
    head, problem = _answer(server, b"POST /games HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\n"
                                    + header + b"\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    assert head.startswith(b"HTTP/1.1 %d " % status + reason + b"\r\n") and PROBLEM.encode() in head, head
    assert (problem["status"], problem["title"], problem["code"]) == (status, reason.decode(), code)
    assert problem["type"].endswith("/" + code.lower().replace("_", "-"))
    assert b"\r\nDate: " in head  # RFC 9110 6.6.1, as on every other answer


@pytest.mark.slow
@pytest.mark.parametrize(("request_bytes", "status", "words"), [
    (b"GET /healthz HTTP/2.0\r\nHost: parley\r\n\r\n", 400, "Only HTTP/1.0 and HTTP/1.1 are served."),
    (b"GARBAGE\r\n\r\n", 400, "The request line is not of the form: METHOD /path HTTP/1.1."),
    (b"POST /games HTTP/1.1\r\nHost: parley\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}", 417,
     "Only 'Expect: 100-continue' is understood."),
    (b"GET /healthz HTTP/1.1\r\nHost: parley\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(120)) + b"\r\n",
     431, "The request has too many header fields, or one too large."),
])
def test_the_http_servers_refusals_are_in_words_not_its_exceptions(server, request_bytes, status, words):
    """gunicorn's messages quote its exceptions ("Invalid HTTP Version 'Invalid HTTP Version:
    (2, 0)'", the contract audit of 2026-12-03): the problem says what is wrong in words."""
    head, problem = _answer(server, request_bytes)
    assert head.startswith(b"HTTP/1.1 %d " % status), head
    assert problem["detail"] == words


@pytest.mark.slow
def test_requests_are_served_meanwhile_on_one_kept_alive_connection(server):
    session = requests.Session()
    body = {"ruleset": "league-of-pirates", "players": [{"name": "A"}, {"name": "B"}]}
    assert session.post(server.base + "/games", json=body, timeout=10).status_code == 201
    time.sleep(3)  # idle longer than the header deadline
    assert session.post(server.base + "/games", json=body, timeout=10).status_code == 201


@pytest.mark.slow
def test_a_long_verification_does_not_stop_the_worker(server):
    """A verification's CPU runs in a native thread (serving.offload): /healthz is answered
    while several run at once on both workers."""
    session = requests.Session()
    body = {"ruleset": "league-of-pirates", "players": [{"name": "A"}, {"name": "B"}]}
    created = session.post(server.base + "/games", json=body, timeout=10).json()
    export = session.get(f"{server.base}/games/{created['id']}/export", timeout=10,
                         headers={"Authorization": f"Bearer {created['host_token']}"}).json()
    stop = threading.Event()

    def verify_again_and_again():
        s = requests.Session()
        while not stop.is_set():
            assert s.post(server.base + "/verifications", json=export, timeout=30).status_code == 200

    workers = [threading.Thread(target=verify_again_and_again) for _ in range(4)]
    for w in workers:
        w.start()
    try:
        for _ in range(5):
            assert requests.get(server.base + "/healthz", timeout=2).status_code == 200
            time.sleep(0.5)
    finally:
        stop.set()
        for w in workers:
            w.join()


# -- gunicorn's access log, built only when printed ---------------------------------------------

def _logger(monkeypatch, tmp_path, access_level: str):
    """gunicorn's logger as deploy/gunicorn.conf.py configures it (its access level changed)."""
    import copy
    import runpy

    from gunicorn import util
    from gunicorn.config import Config

    from service import serving

    # What reading the config changes in this process is put back after the test.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    monkeypatch.setattr(util, "write_error", util.write_error)
    conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    cfg = Config()
    logconfig = copy.deepcopy(conf["logconfig_dict"])
    logconfig["loggers"]["gunicorn.access"]["level"] = access_level
    cfg.set("logconfig_dict", logconfig)
    assert conf["logger_class"] == "service.serving.Logger"
    return serving.Logger(cfg)


@pytest.mark.parametrize("level, built", [("WARNING", False), ("INFO", True)])
def test_an_access_line_is_built_only_when_gunicorn_access_would_print_it(monkeypatch, tmp_path, level, built):
    logger = _logger(monkeypatch, tmp_path, level)
    made = []
    monkeypatch.setattr(logger, "atoms", lambda *args: made.append(args) or {})
    monkeypatch.setattr(logger.access_log, "info", lambda *args, **kwargs: None)
    logger.access(None, None, {}, None)
    assert logger.access_log_enabled is built and bool(made) is built


# -- an answer of known length goes out in one write with its header ---------------------------

class Recording:
    """A socket that records what is sent, one entry per sendall."""

    def __init__(self):
        self.sent: list[bytes] = []

    def sendall(self, data, *flags):
        self.sent.append(bytes(data))

    def send(self, data, *flags):
        self.sent.append(bytes(data))
        return len(data)


def _response(request: bytes):
    from gunicorn.config import Config
    from gunicorn.http import wsgi
    from gunicorn.http.parser import RequestParser

    from service.serving import _response_class

    reader, writer = socket.socketpair()
    writer.sendall(request)
    cfg = Config()
    req = next(RequestParser(cfg, reader, ("127.0.0.1", 1)))
    sock = Recording()
    resp, _ = wsgi.create(req, sock, ("127.0.0.1", 1), ("127.0.0.1", 8000), cfg, response_class=_response_class())
    reader.close()
    writer.close()
    return resp, sock


GET = b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n"


def test_a_body_of_known_length_is_sent_with_its_header_in_one_write():
    resp, sock = _response(GET)
    resp.start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "7")])
    resp.write(b'{"a":1}')
    resp.close()
    assert len(sock.sent) == 1
    head, body = sock.sent[0].split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 200 OK\r\n") and b"Content-Length: 7" in head and body == b'{"a":1}'


def test_a_body_in_parts_sends_the_header_with_the_first_part_only():
    resp, sock = _response(GET)
    resp.start_response("200 OK", [("Content-Length", "6")])
    resp.write(b"abc")
    resp.write(b"def")
    resp.close()
    assert len(sock.sent) == 2 and sock.sent[0].endswith(b"\r\n\r\nabc") and sock.sent[1] == b"def"


def test_a_stream_gets_its_header_at_once_alone():
    resp, sock = _response(GET)
    resp.start_response("200 OK", [("Content-Type", "text/event-stream")])  # no length: chunked
    resp.write(b": hello\n\n")
    assert sock.sent[0].endswith(b"\r\n\r\n") and b"Transfer-Encoding: chunked" in sock.sent[0]
    assert sock.sent[1:] == [b"9\r\n: hello\n\n\r\n"]


@pytest.mark.parametrize(("request_bytes", "status", "body"), [
    (b"HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n", "200 OK", b"12345"),   # gunicorn drops a HEAD's body
    (GET, "304 Not Modified", b""),                                  # no body at all
    (GET, "204 No Content", b""),
])
def test_an_answer_without_a_body_still_sends_its_header(request_bytes, status, body):
    resp, sock = _response(request_bytes)
    resp.start_response(status, [("Content-Length", "5")] if body else [])
    resp.write(body)
    resp.close()
    assert len(sock.sent) == 1 and sock.sent[0].startswith(b"HTTP/1.1 " + status.encode())
    assert sock.sent[0].endswith(b"\r\n\r\n")


# -- stopping: a deploy, a restart, a scale down ----------------------------------------------

@pytest.mark.slow
def test_a_stopped_server_ends_its_streams_cleanly_answers_its_long_polls_and_closes_idle_connections(tmp_path):
    """SIGTERM to the master (what a deploy or a scale down sends): every stream gets every
    stored event and a proper end (the last chunk), not a cut connection after gunicorn's
    graceful timeout; a long poll answers at once; a kept-alive connection idle between
    requests is closed; requests under way (a body still coming, after 100 Continue or not)
    are answered, with Connection: close; a connection opened meanwhile is answered or
    refused, never dropped unanswered; nothing is logged as an error; and every worker stops
    by itself rather than being killed."""
    server = Gunicorn({"SQLITE_DBNAME": str(tmp_path / "parley.sqlite"), "PARLEY_RATE_LIMITS": "off"},
                      workers=2).start()
    try:
        http = requests.Session()
        game = http.post(server.base + "/games", json={"ruleset": "corsairs-of-valeria",
                                                        "players": [{"name": "Ana"}, {"name": "Ben"}]}).json()
        host = f"Bearer {game['host_token']}"
        for _ in range(4):
            legal = http.get(f"{server.base}/games/{game['id']}/legal-commands",
                             headers={"Authorization": host}).json()["commands"]
            assert http.post(f"{server.base}/games/{game['id']}/commands", json=progressing(legal)[0],
                             headers={"Authorization": host}).status_code == 200
        last = http.get(f"{server.base}/games/{game['id']}", headers={"Authorization": host}).json()["version"]
        streams = []
        for _ in range(6):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(f"GET /games/{game['id']}/stream HTTP/1.1\r\nHost: p\r\n"
                         f"Authorization: {host}\r\n\r\n".encode())
            streams.append(sock)
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: p\r\n\r\n")
        head = idle.recv(65536)
        assert head.startswith(b"HTTP/1.1 200 ") and b"Connection: close" not in head
        polled: dict = {}
        poll = threading.Thread(target=lambda: polled.update(answer=requests.get(
            f"{server.base}/games/{game['id']}/events", params={"after": last, "wait": 25},
            headers={"Authorization": host}, timeout=60)))
        poll.start()
        under_way = []
        for expect in (False, True):  # a command whose body is still coming, on a game of its own
            other = http.post(server.base + "/games", json={"ruleset": "corsairs-of-valeria",
                                                             "players": [{"name": "Cy"}, {"name": "Di"}]}).json()
            legal = http.get(f"{server.base}/games/{other['id']}/legal-commands",
                             headers={"Authorization": f"Bearer {other['host_token']}"}).json()["commands"]
            body = json.dumps(progressing(legal)[0]).encode()
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall((f"POST /games/{other['id']}/commands HTTP/1.1\r\nHost: p\r\n"
                          f"Authorization: Bearer {other['host_token']}\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(body)}\r\n" + ("Expect: 100-continue\r\n" if expect else "")
                          + "\r\n").encode())
            if expect:
                assert sock.recv(100).startswith(b"HTTP/1.1 100 Continue")
            under_way.append((sock, body))
        time.sleep(1.5)  # every stream has sent what is stored, and waits
        workers = server.workers()
        assert len(workers) == 2 and poll.is_alive()

        os.kill(server.process.pid, signal.SIGTERM)
        time.sleep(0.1)
        try:  # gunicorn accepts for up to a second more: such a connection is served
            late = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            late.sendall(b"GET /healthz HTTP/1.1\r\nHost: p\r\n\r\n")
            late_answer = _read_to_close(late)
            late.close()
        except ConnectionError:  # refused, or reset from the closed listener's queue: not dropped
            late_answer = None
        for sock, body in under_way:
            sock.sendall(body)
            answer = _read_to_close(sock)
            head = answer.split(b"\r\n\r\n", 1)[0]
            assert head.startswith(b"HTTP/1.1 200 ") and b"Connection: close" in head, answer[:300]
            sock.close()
        assert late_answer is None or late_answer.startswith(b"HTTP/1.1 200 "), late_answer
        for sock in streams:
            received = _read_to_close(sock)
            assert received.endswith(b"\r\n0\r\n\r\n"), received[-200:]  # the last chunk: a proper end
            ids = [int(line[4:]) for line in received.split(b"\n") if line.startswith(b"id: ")]
            assert ids == list(range(1, last + 1))
            sock.close()
        assert _read_to_close(idle) == b""  # closed by the server, nothing more sent
        idle.close()
        poll.join(30)
        assert polled["answer"].status_code == 200 and polled["answer"].json()["events"] == [] and polled["answer"].json()["next"] is None
        server.process.wait(timeout=60)
        log = server.log_path.read_text()
        for pid in workers:  # each stopped by itself (a worker killed at the graceful timeout says nothing)
            assert f"Worker exiting (pid: {pid})" in log, log[-3000:]
        assert not errors_logged(log) and "Traceback" not in log, log[-3000:]
    finally:
        server.stop()


DRAIN_PROBE = """
import json
from service.serving import Worker

class Log:
    def __init__(self):
        self.lines = []
    def info(self, msg, *a): self.lines.append(("info", msg % a if a else msg))
    def warning(self, msg, *a): self.lines.append(("warning", msg % a if a else msg))
    def exception(self, msg, *a): self.lines.append(("exception", msg % a if a else msg))

worker = object.__new__(Worker)
worker.log, worker._connections = Log(), set()
worker._drain()                     # stopped while booting: gunicorn has not set worker.wsgi yet
print(json.dumps(worker.log.lines))
"""


def test_a_worker_stopped_while_booting_has_nothing_to_drain_and_logs_no_error():
    """SIGTERM may reach a worker before gunicorn has imported the app into it (`wsgi` unset):
    the drain then has nothing to do. It logged an AttributeError as an error, from every such
    worker, whenever a server was stopped soon after it started (seen in the test suite's logs).
    Run in a child process: the worker class imports gevent."""
    out = subprocess.run([sys.executable, "-c", DRAIN_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [["info", "stopping while booting: nothing to drain"]]


@pytest.mark.slow
def test_a_coding_parley_does_not_undo_is_refused_not_read_as_plain_json(server):
    """gunicorn frames 'gzip, chunked' and passes the gzip on unapplied: the plain JSON inside
    would have been acted on as if the coding were not there (501 now); a Content-Encoding is
    not undone either (415). Nothing is stored."""
    created = requests.post(server.base + "/games", timeout=10, json={
        "ruleset": "corsairs-of-valeria", "players": [{"name": "A"}, {"name": "B"}]}).json()
    path = f"/games/{created['id']}/commands"
    auth = f"Authorization: Bearer {created['seats'][0]['token']}\r\n".encode()
    sent = _chunked(path, b'{"type": "roll_dice"}', headers=auth).replace(
        b"Transfer-Encoding: chunked", b"Transfer-Encoding: gzip, chunked")
    head, problem = _answer(server, sent)
    assert head.startswith(b"HTTP/1.1 501 ") and PROBLEM.encode() in head, head
    assert problem["code"] == "NOT_IMPLEMENTED" and "gzip, chunked" in problem["detail"]
    body = b'{"type": "roll_dice"}'
    head, problem = _answer(server, b"POST " + path.encode() + b" HTTP/1.1\r\nHost: parley\r\n" + auth
                            + b"Content-Type: application/json\r\nContent-Encoding: gzip\r\nConnection: close\r\n"
                            + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert head.startswith(b"HTTP/1.1 415 ") and problem["code"] == "UNSUPPORTED_MEDIA_TYPE", head
    game = requests.get(server.base + f"/games/{created['id']}", timeout=10,
                        headers={"Authorization": f"Bearer {created['host_token']}"}).json()
    assert game["version"] == created["version"]
    head, answer = _answer(server, _chunked(path, body, headers=auth))   # chunked alone: served
    assert head.startswith(b"HTTP/1.1 200 "), (head, answer)


@pytest.mark.slow
def test_an_http_1_1_request_without_a_valid_host_is_400_on_every_route(server):
    """RFC 9112 3.2: a server MUST answer 400 to an HTTP/1.1 request lacking Host, or with a Host
    that is not a host (gunicorn itself refuses two Host lines). The command route, which a plain
    command takes without Flask's request context, refuses it too; HTTP/1.0 may leave Host out."""
    created = requests.post(server.base + "/games", timeout=10, json={
        "ruleset": "corsairs-of-valeria", "players": [{"name": "A"}, {"name": "B"}]}).json()
    path = f"/games/{created['id']}/commands".encode()
    body = b'{"type": "roll_dice"}'
    command = (b"POST " + path + b" HTTP/1.1\r\n%sAuthorization: Bearer " + created["seats"][0]["token"].encode()
               + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
               + body)
    for host in (b"", b"Host: two words\r\n", b"Host: parley\x01\r\n"):
        for request in (b"GET /healthz HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n",
                        b"GET /no-such-route HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n",
                        command.replace(b"%s", host)):
            head, problem = _answer(server, request)
            assert head.startswith(b"HTTP/1.1 400 ") and problem["code"] == "MALFORMED_REQUEST", (host, head)
            assert "host" in problem["detail"].lower()   # gunicorn refuses a control character itself
    game = requests.get(server.base + f"/games/{created['id']}", timeout=10,
                        headers={"Authorization": f"Bearer {created['host_token']}"}).json()
    assert game["version"] == created["version"]   # the command without Host was not acted on
    for fine in (b"GET /healthz HTTP/1.0\r\n\r\n", b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nConnection: close\r\n\r\n",
                 b"GET /healthz HTTP/1.1\r\nHost: [::1]:8000\r\nConnection: close\r\n\r\n",
                 # RFC 9110 7.2: a target without an authority is sent with an empty Host, a valid value
                 b"GET /healthz HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n"):
        assert _answer(server, fine)[0].split(b" ")[1] == b"200", fine
    head, answer = _answer(server, command.replace(b"%s", b"Host: parley\r\n"))
    assert head.startswith(b"HTTP/1.1 200 "), (head, answer)


def test_a_worker_freezes_what_the_app_built_and_collects_its_oldest_generation_seldom(monkeypatch, tmp_path):
    """deploy/gunicorn.conf.py post_worker_init: the objects a loaded app holds for the worker's
    life leave the collector's generations (gc.freeze), and a full collection runs after 100
    collections of the middle generation instead of 10 (PARLEY_GC_FULL_EVERY): the benchmark's
    workers spent a tenth of their CPU in full collections before (docs/performance.md)."""
    import gc
    import runpy

    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    before = gc.get_threshold()
    try:
        gc.unfreeze()
        conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
        conf["post_worker_init"](None)
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (700, 10, 100)
        monkeypatch.setenv("PARLEY_GC_FULL_EVERY", "25")
        runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["post_worker_init"](None)
        assert gc.get_threshold() == (700, 10, 25)
        monkeypatch.setenv("PARLEY_GC_FULL_EVERY", "")   # set but empty, as in an env file: the default
        runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["post_worker_init"](None)
        assert gc.get_threshold() == (700, 10, 100)
        for wrong in ("0", "-5", "ten", "1e3", "²"):   # refused when the file is read, saying why
            monkeypatch.setenv("PARLEY_GC_FULL_EVERY", wrong)
            with pytest.raises(SystemExit, match="PARLEY_GC_FULL_EVERY"):
                runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
