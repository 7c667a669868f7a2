"""A lean HTTP/1.1 client for the load generators: one kept-alive connection, the same request
bytes as the standard library's http.client, a fraction of its CPU.

The load generators share the machine's two cores with the server they measure, and
http.client spent most of their CPU: every answer's header went through the email package's
parser (about 2 ms of a profiled client's 4 per command, `benchmarks/issue5.py`'s Player with
`Prefer: return=minimal`). A real client is not on the server's cores; the less this one takes
of them, the less the figures measure the client. The server sees exactly what http.client
sent (tests/test_bench_wire.py compares the bytes), so its work per request is unchanged.

Answers are read by Content-Length or chunked transfer coding; an answer with neither is read
to the connection's end, as RFC 9112 section 6.3 says.
"""
from __future__ import annotations

import socket


class RemoteClosed(ConnectionError):
    """The server closed the connection before answering."""


class Connection:
    def __init__(self, host: str, port: int, timeout: float = 60):
        self.host, self.port, self.timeout = host, port, timeout
        self._host_header = f"Host: {host}:{port}\r\n" if port != 80 else f"Host: {host}\r\n"
        self._sock: socket.socket | None = None
        self._buffer = b""

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
        self._sock, self._buffer = None, b""

    def request_bytes(self, method: str, path: str, body: bytes | None, headers: dict) -> bytes:
        """What http.client's `request` sends: Host and Accept-Encoding, Content-Length for a
        body (and 0 for a bodiless POST, PUT or PATCH), then the caller's headers in order."""
        head = [f"{method} {path} HTTP/1.1\r\n", self._host_header, "Accept-Encoding: identity\r\n"]
        if body is not None:
            head.append(f"Content-Length: {len(body)}\r\n")
        elif method in ("POST", "PUT", "PATCH"):
            head.append("Content-Length: 0\r\n")
        head.extend(f"{name}: {value}\r\n" for name, value in headers.items())
        head.append("\r\n")
        data = "".join(head).encode("latin-1")
        return data + body if body is not None else data

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> tuple[int, dict[str, str], bytes]:
        """Send one request and read its answer: (status, headers with lower-case names, body).
        A kept-alive connection the server closed while idle is opened again and the request
        sent once more, as the load generators did with http.client."""
        data = self.request_bytes(method, path, body, headers or {})
        reused = self._sock is not None
        try:
            return self._exchange(method, data)
        except (BrokenPipeError, ConnectionResetError, RemoteClosed):
            self.close()
            if not reused:
                raise
            return self._exchange(method, data)

    def _exchange(self, method: str, data: bytes) -> tuple[int, dict[str, str], bytes]:
        if self._sock is None:
            self._sock = socket.create_connection((self.host, self.port), self.timeout)
            self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock.sendall(data)
        while True:
            status, headers = self._read_head()
            if not 100 <= status < 200:
                break  # an interim answer (100 Continue) is skipped
        if method == "HEAD" or status in (204, 304):
            body = b""
        elif headers.get("transfer-encoding", "").lower().endswith("chunked"):
            body = self._read_chunked()
        elif "content-length" in headers:
            body = self._read_exactly(int(headers["content-length"]))
        else:
            body = self._read_to_close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body

    def _fill(self) -> bool:
        chunk = self._sock.recv(65536)
        if not chunk:
            return False
        self._buffer += chunk
        return True

    def _read_head(self) -> tuple[int, dict[str, str]]:
        while (end := self._buffer.find(b"\r\n\r\n")) < 0:
            if not self._fill():
                if self._buffer:
                    raise ConnectionError(f"the connection ended inside an answer's header: {self._buffer[:80]!r}")
                raise RemoteClosed("the server closed the connection without answering")
        head, self._buffer = self._buffer[:end].decode("latin-1"), self._buffer[end + 4:]
        lines = head.split("\r\n")
        version, _, rest = lines[0].partition(" ")
        if not version.startswith("HTTP/1."):
            raise ConnectionError(f"not an HTTP/1.x answer: {lines[0]!r}")
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            headers[name] = f"{headers[name]}, {value.strip()}" if name in headers else value.strip()
        return int(rest[:3]), headers

    def _read_exactly(self, n: int) -> bytes:
        while len(self._buffer) < n:
            if not self._fill():
                raise ConnectionError(f"the connection ended {n - len(self._buffer)} bytes before the answer's end")
        body, self._buffer = self._buffer[:n], self._buffer[n:]
        return body

    def _read_line(self) -> bytes:
        while (end := self._buffer.find(b"\r\n")) < 0:
            if not self._fill():
                raise ConnectionError("the connection ended inside a chunked answer")
        line, self._buffer = self._buffer[:end], self._buffer[end + 2:]
        return line

    def _read_chunked(self) -> bytes:
        parts = []
        while True:
            size = int(self._read_line().split(b";", 1)[0].strip(), 16)
            if size == 0:
                while self._read_line():  # trailer fields, up to the empty line
                    pass
                return b"".join(parts)
            parts.append(self._read_exactly(size))
            if self._read_line():
                raise ConnectionError("a chunk did not end with CRLF")

    def _read_to_close(self) -> bytes:
        while self._fill():
            pass
        body, self._buffer = self._buffer, b""
        self.close()
        return body
