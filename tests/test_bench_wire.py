"""benchmarks/wire.py, the load generators' lean HTTP client: the server must see exactly what
http.client sent (so a benchmark's server does the same work per request whichever client
plays), and answers must read as http.client reads them."""
from __future__ import annotations

import http.client
import socket
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import wire  # noqa: E402


class Scripted:
    """A loopback server answering each request it reads with the next scripted answer (raw
    bytes, sent in pieces of `piece` bytes to split it across reads); an answer ending with
    CLOSE closes the connection after it. It records each request's bytes as received."""

    CLOSE = object()

    def __init__(self, answers: list, piece: int = 0):
        self.answers, self.piece = list(answers), piece
        self.requests: list[bytes] = []
        self.connections = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while self.answers:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                buffered = b""
                while self.answers:
                    request, buffered = self._read_request(conn, buffered)
                    if request is None:
                        break
                    self.requests.append(request)
                    answer = self.answers.pop(0)
                    close = isinstance(answer, tuple) and answer[1] is self.CLOSE
                    raw = answer[0] if isinstance(answer, tuple) else answer
                    step = self.piece or len(raw)
                    for i in range(0, len(raw), step):
                        conn.sendall(raw[i:i + step])
                    if close:
                        break

    @staticmethod
    def _read_request(conn, buffered: bytes):
        while b"\r\n\r\n" not in buffered:
            chunk = conn.recv(65536)
            if not chunk:
                return None, b""
            buffered += chunk
        head, _, rest = buffered.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(rest) < length:
            rest += conn.recv(65536)
        return head + b"\r\n\r\n" + rest[:length], rest[length:]

    def close(self):
        self.listener.close()


OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

REQUESTS = [
    ("GET", "/games/abc/events?after=0&limit=100", None, {"Authorization": "Bearer t0k"}),
    ("POST", "/games", '{"ruleset": "corsairs-of-valeria"}', {"Content-Type": "application/json"}),
    ("POST", "/games/abc/commands", '{"type": "pass", "seat": 0}',
     {"Content-Type": "application/json", "Authorization": "Bearer t0k", "Prefer": "return=minimal"}),
    ("POST", "/games/abc/close", None, {}),
    ("DELETE", "/games/abc", None, {"Authorization": "Bearer t0k"}),
]


def test_the_server_receives_the_bytes_http_client_sends():
    stdlib_server, wire_server = Scripted([OK] * len(REQUESTS)), Scripted([OK] * len(REQUESTS))
    try:
        stdlib = http.client.HTTPConnection("127.0.0.1", stdlib_server.port, timeout=5)
        lean = wire.Connection("127.0.0.1", wire_server.port, timeout=5)
        for method, path, body, headers in REQUESTS:
            stdlib.request(method, path, body=body, headers=headers)
            assert stdlib.getresponse().read() == b"{}"
            status, _, answer = lean.request(method, path, None if body is None else body.encode("latin-1"), headers)
            assert (status, answer) == (200, b"{}")
        sent = [r.replace(str(stdlib_server.port).encode(), b"PORT") for r in stdlib_server.requests]
        assert [r.replace(str(wire_server.port).encode(), b"PORT") for r in wire_server.requests] == sent
        assert len(sent) == len(REQUESTS) and wire_server.connections == 1  # one kept-alive connection
    finally:
        stdlib_server.close()
        wire_server.close()


ANSWERS = {
    "content-length": b"HTTP/1.1 201 CREATED\r\nContent-Length: 11\r\nX-A: 1\r\n\r\nhello world",
    "chunked, extension and trailer": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                       b"5;note=x\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"),
    "204": b"HTTP/1.1 204 NO CONTENT\r\nX-A: 1\r\n\r\n",
    "304 with a length it does not send": b"HTTP/1.1 304 NOT MODIFIED\r\nContent-Length: 40\r\n\r\n",
    "100 Continue first": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 422 UNPROCESSABLE\r\nContent-Length: 3\r\n\r\nno!",
    "a header twice": b"HTTP/1.1 200 OK\r\nVary: A\r\nvary: B\r\nContent-Length: 1\r\n\r\nx",
}


@pytest.mark.parametrize("piece", [0, 1, 7])
@pytest.mark.parametrize("kind", sorted(ANSWERS))
def test_answers_read_as_http_client_reads_them(kind, piece):
    raw = ANSWERS[kind]
    stdlib_server, wire_server = Scripted([raw, OK], piece), Scripted([raw, OK], piece)
    try:
        stdlib = http.client.HTTPConnection("127.0.0.1", stdlib_server.port, timeout=5)
        stdlib.request("GET", "/x")
        response = stdlib.getresponse()
        expected = (response.status, response.read(), response.headers.get_all("vary"))
        stdlib.request("GET", "/y")  # the connection is still usable after that answer
        assert stdlib.getresponse().read() == b"{}"

        lean = wire.Connection("127.0.0.1", wire_server.port, timeout=5)
        status, headers, body = lean.request("GET", "/x")
        vary = headers["vary"].split(", ") if "vary" in headers else None
        assert (status, body, vary) == expected
        assert lean.request("GET", "/y")[2] == b"{}"
        assert wire_server.connections == stdlib_server.connections == 1
    finally:
        stdlib_server.close()
        wire_server.close()


def test_an_answer_without_length_is_read_to_the_end_and_the_next_request_reconnects():
    server = Scripted([(b"HTTP/1.1 200 OK\r\n\r\nall of it", Scripted.CLOSE), OK])
    try:
        lean = wire.Connection("127.0.0.1", server.port, timeout=5)
        assert lean.request("GET", "/x")[::2] == (200, b"all of it")
        assert lean.request("GET", "/y")[::2] == (200, b"{}")
        assert server.connections == 2
    finally:
        server.close()


def test_connection_close_is_honoured_and_an_idle_close_is_retried_once():
    closing = (b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na", Scripted.CLOSE)
    idle_closed = (OK, Scripted.CLOSE)  # answered with keep-alive, then closed while idle
    server = Scripted([closing, idle_closed, OK])
    try:
        lean = wire.Connection("127.0.0.1", server.port, timeout=5)
        assert lean.request("GET", "/a")[2] == b"a"
        assert lean.request("GET", "/b")[2] == b"{}"
        # the server closed that connection after answering: the next request is sent again
        # on a new one, once, and not counted twice
        assert lean.request("GET", "/c")[2] == b"{}"
        assert [r.split(b" ")[1] for r in server.requests] == [b"/a", b"/b", b"/c"]
        assert server.connections == 3
    finally:
        server.close()


def test_a_server_that_never_answers_a_new_connection_is_an_error():
    listener = socket.create_server(("127.0.0.1", 0))

    def refuse():
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.close()

    threading.Thread(target=refuse, daemon=True).start()
    try:
        with pytest.raises(wire.RemoteClosed):
            wire.Connection("127.0.0.1", listener.getsockname()[1], timeout=5).request("GET", "/x")
    finally:
        listener.close()


def test_an_answer_cut_short_is_an_error():
    server = Scripted([(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", Scripted.CLOSE)])
    try:
        with pytest.raises(ConnectionError, match="7 bytes before"):
            wire.Connection("127.0.0.1", server.port, timeout=5).request("GET", "/x")
    finally:
        server.close()
