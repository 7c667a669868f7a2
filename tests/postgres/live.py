"""The real service for tests: gunicorn from the Procfile on PostgreSQL, a private PostgreSQL
cluster that a test may stop and start, and scripted clients that play many games at once.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from tests.fakes.http import progressing

ROOT = Path(__file__).resolve().parents[2]
ARBITER = "arbiter-" + "a" * 40

# The servers' logs: in a folder of this test process's own, removed when it exits (they used to
# pile up in var/, 25 files a run). A failing test's report carries the last lines of each server
# it could have talked to (tests/postgres/conftest.py), which is where a post-mortem starts.
LOG_DIR = Path(tempfile.mkdtemp(prefix="parley-test-gunicorn-"))
atexit.register(shutil.rmtree, LOG_DIR, ignore_errors=True)
SERVERS: list[Gunicorn] = []   # every server this process started, oldest first


def procfile_web_line() -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith("web:"):
            return line[len("web:"):].strip()
    raise AssertionError("Procfile has no web: line")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HTTP:
    def __init__(self, base: str, timeout: float = 30):
        self.base = base
        self.timeout = timeout
        self.session = requests.Session()

    def get(self, path, token, headers=None, **kwargs):
        return self.session.get(self.base + path, timeout=self.timeout,
                                headers={"Authorization": f"Bearer {token}", **(headers or {})},
                                **kwargs)

    def post(self, path, body, token=None, headers=None):
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        return self.session.post(self.base + path, json=body, headers={**auth, **(headers or {})},
                                 timeout=self.timeout)


def stop_group(process: subprocess.Popen) -> None:
    """Stop a process started in its own group, and its children: SIGTERM, then SIGKILL."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass


class Gunicorn:
    """gunicorn started exactly as the Procfile says, in its own process group."""

    def __init__(self, env: dict, workers: int = 3):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **env, "PORT": str(self.port), "HOST": "127.0.0.1",
                    "WEB_CONCURRENCY": str(workers), "PARLEY_ARBITER_TOKEN": ARBITER,
                    "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
        self.env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        self.log_path = LOG_DIR / f"gunicorn-{self.port}.log"  # read after stop() by some tests
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0

    def start(self, wait: float = 60, tries: int = 3) -> Gunicorn:
        self.log = open(self.log_path, "w")  # noqa: SIM115 (the server's, closed in stop())
        self.started_at = time.monotonic()
        if self not in SERVERS:
            SERVERS.append(self)
        self.process = subprocess.Popen(["bash", "-c", f"exec {procfile_web_line()}"], cwd=ROOT,
                                        env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + wait
        while True:
            if self.process.poll() is not None:
                self.log.close()
                told = self.tail()
                # free_port() only finds a port free a moment before: another test's client socket
                # (an ephemeral port) may take it first, and gunicorn gives up on the bind
                if "in use" in told and tries > 1:
                    self.port = free_port()
                    self.base = f"http://127.0.0.1:{self.port}"
                    self.env["PORT"] = str(self.port)
                    self.log_path = LOG_DIR / f"gunicorn-{self.port}.log"
                    return self.start(wait, tries - 1)
                raise AssertionError(f"gunicorn exited while starting:\n{told}")
            try:
                if requests.get(self.base + "/readyz", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:  # not listening yet, or a worker still booting
                pass
            assert time.monotonic() < deadline, f"gunicorn was not ready within {wait} s"
            time.sleep(0.3)

    def workers(self) -> list[int]:
        """The worker processes' ids (the master's children)."""
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.process.pid)],
                             capture_output=True, text=True).stdout
        return [int(pid) for pid in out.split()]

    def stop(self) -> None:
        if self.process is None:
            return
        stop_group(self.process)
        self.log.close()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def tail(self, lines: int = 60) -> str:
        """The last lines of the server's log (for a failing test's report)."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError as error:
            return f"(no log: {error})"


class PrivateCluster:
    """A PostgreSQL cluster of the test's own (initdb in a temporary folder, its own port),
    so that a test can stop the database without stopping everyone else's.

    PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` user.
    """

    def __init__(self):
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
        if not versions:
            raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql")
        self.bin = versions[-1].parent
        self.dir = Path(tempfile.mkdtemp(prefix="parley-pg-"))
        self.port = free_port()
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.run_as:
            shutil.chown(self.dir, "postgres")
        self._run("initdb", "-D", str(self.dir / "data"), "-A", "trust", "-U", "postgres")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.run_as, str(self.bin / tool), *args], check=True,
                       capture_output=True, text=True)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-l", str(self.dir / "log"), "-w",
                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        # fast: every session is ended at once, as when a database host goes away.
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")

    def env(self) -> dict:
        return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "postgres",
                "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": str(self.port),
                "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": "",
                "POSTGRES_CONNECT_TIMEOUT": "3"}

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def private_cluster_or_fail() -> PrivateCluster:
    try:
        return PrivateCluster()
    except (OSError, RuntimeError, subprocess.CalledProcessError) as error:
        message = f"cannot create a private PostgreSQL cluster: {error}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message + " (CI must run the fault tests)")
        pytest.skip(message)


@dataclass
class Ack:
    """One command the service acknowledged (200), with the records it said it stored."""

    game: str
    version: int
    hashes: list[str]


@dataclass
class Answer:
    started: float       # time.monotonic() when the request was sent
    seconds: float       # how long the answer took
    status: int | str    # the HTTP status, or the exception's name when the connection dropped
    content_type: str = ""
    retry_after: str | None = None
    body: dict | None = None


@dataclass
class Players:
    """Scripted clients, each playing its own games with random legal commands as the host.

    Every 200 is remembered; every other answer is counted by status (or by the exception's
    name when the connection dropped), with the time the answer took.
    """

    base: str
    clients: int = 8
    ruleset: str = "corsairs-of-valeria"
    timeout: float = 15
    acks: list[Ack] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    games: dict[str, str] = field(default_factory=dict)  # id -> host token
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def _note(self, started: float, response=None, error: Exception | None = None) -> None:
        if response is None:
            answer = Answer(started, time.monotonic() - started, type(error).__name__)
        else:
            answer = Answer(started, time.monotonic() - started, response.status_code,
                            response.headers.get("Content-Type", ""),
                            response.headers.get("Retry-After"), _json(response))
        with self.lock:
            self.answers.append(answer)

    def _play(self, seed: int) -> None:
        rng = random.Random(seed)
        http = HTTP(self.base, timeout=self.timeout)
        game = None
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                if game is None:
                    created = http.post("/games", {"ruleset": self.ruleset, "chance": "server",
                                                   "players": [{"name": "A"}, {"name": "B"}]})
                    self._note(started, created)
                    if created.status_code == 201:
                        game = created.json()
                        with self.lock:
                            self.games[game["id"]] = game["host_token"]
                    else:
                        time.sleep(0.2)
                    continue
                path, host = f"/games/{game['id']}", game["host_token"]
                legal = http.get(path + "/legal-commands", host)
                self._note(started, legal)
                if legal.status_code != 200:
                    time.sleep(0.2)
                    continue
                commands = legal.json()["commands"]
                if not commands:
                    game = None
                    continue
                started = time.monotonic()
                sent = http.post(path + "/commands", rng.choice(progressing(commands)), host,
                                 {"Idempotency-Key": uuid.uuid4().hex})
                self._note(started, sent)
                if sent.status_code == 200:
                    body = sent.json()
                    with self.lock:
                        self.acks.append(Ack(game["id"], body["version"],
                                             [e["hash"] for e in body["events"]]))
                elif sent.status_code >= 500:
                    time.sleep(0.2)
            except requests.RequestException as error:
                self._note(started, error=error)
                http = HTTP(self.base, timeout=self.timeout)
                time.sleep(0.2)

    def run(self, seconds: float, during=None) -> None:
        """Play for `seconds`; `during(players)` runs in this thread meanwhile."""
        threads = [threading.Thread(target=self._play, args=(i,), daemon=True)
                   for i in range(self.clients)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + seconds
        if during is not None:
            during(self)
        while time.monotonic() < deadline:
            time.sleep(0.1)
        self.stop.set()
        for t in threads:
            t.join(timeout=self.timeout + 5)

    def statuses(self) -> dict:
        counts: dict = {}
        for answer in self.answers:
            counts[answer.status] = counts.get(answer.status, 0) + 1
        return counts


def _json(response):
    try:
        return response.json()
    except ValueError:
        return None


def stored_hashes(http: HTTP, game_id: str, token: str) -> dict[int, str]:
    """Version -> record hash of every stored event of a game."""
    found, after = {}, 0
    while after is not None:
        page = http.get(f"/games/{game_id}/events", token, params={"after": after, "limit": 500})
        assert page.status_code == 200, page.text
        for entry in page.json()["events"]:
            found[entry["version"]] = entry["hash"]
        after = page.json()["next"]
    return found


def assert_every_ack_is_stored_and_every_game_verifies(http: HTTP, players: Players) -> None:
    """Nothing acknowledged is lost, and every stored log re-adjudicates to itself (a command
    stored with only part of its events would not)."""
    by_game: dict[str, dict[int, str]] = {}
    for game_id, token in players.games.items():
        by_game[game_id] = stored_hashes(http, game_id, token)
    for ack in players.acks:
        stored = by_game[ack.game]
        first = ack.version - len(ack.hashes) + 1
        assert [stored.get(v) for v in range(first, ack.version + 1)] == ack.hashes, ack
    for game_id in players.games:
        document = http.get(f"/games/{game_id}/export", ARBITER)
        assert document.status_code == 200, document.text
        verdict = http.post("/verifications", document.json())
        assert verdict.status_code == 200 and verdict.json()["verdict"] == "valid", verdict.text
