"""Slow and idle clients, as an attacker holds them (issue 15): for the tests of the front and
of the Procfile's server."""
from __future__ import annotations

import socket
import threading
import time

import requests


class Attackers:
    """`slow` connections that each send one header line every `every` seconds, and `idle`
    connections that send nothing; one the server closes is opened again at once."""

    def __init__(self, port: int, slow: int, idle: int, every: float):
        self.port, self.every = port, every
        self.slow = [self._open(True) for _ in range(slow)]
        self.idle = [self._open(False) for _ in range(idle)]
        self.closed_by_server = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, slow: bool) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        if slow:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: parley\r\n")
        s.setblocking(False)
        return s

    def _alive(self, s: socket.socket) -> bool:
        try:
            return s.recv(4096) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False

    def _run(self) -> None:
        while not self.stopping.wait(self.every):
            for group, slow in ((self.slow, True), (self.idle, False)):
                for i, s in enumerate(group):
                    try:
                        alive = self._alive(s) and (not slow or s.send(b"X-Slow: 1\r\n") > 0)
                    except OSError:
                        alive = False
                    if not alive:
                        self.closed_by_server += 1
                        s.close()
                        group[i] = self._open(slow)

    def __enter__(self) -> Attackers:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(timeout=30)
        for s in self.slow + self.idle:
            s.close()


def health_every_second(base: str, seconds: float) -> list[float]:
    """GET /healthz once a second for `seconds`, each on a new connection; how long each took
    (a 200 within 2 s, or the check fails)."""
    waits = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        started = time.monotonic()
        response = requests.get(base + "/healthz", timeout=2, headers={"Connection": "close"})
        assert response.status_code == 200
        waits.append(time.monotonic() - started)
        time.sleep(max(0.0, 1 - (time.monotonic() - started)))
    return waits
