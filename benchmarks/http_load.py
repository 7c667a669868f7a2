"""Commands per second through HTTP: gunicorn from the Procfile on PostgreSQL, many games at
once, a load generator on loopback.

    .venv/bin/python benchmarks/http_load.py [--clients 16] [--seconds 20]

Phase 1 (saturation): each client thread owns one Corsairs game and sends random legal
commands back to back; prints accepted commands/s and latency. Phase 2: the same clients
paced to half the saturated rate; prints p50 and p99 latency there. The clients keep each
game's state locally (folding the events the host is sent), so every command is one HTTP
request. The load generator shares the machine's 2 cores with the server: the rate is a
floor for what the server does alone. Figures, not tests.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _pg import fresh_schema  # noqa: E402
from domain.registry import all_rulesets  # noqa: E402

RULESET = all_rulesets()["corsairs-of-valeria"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict, port: int) -> subprocess.Popen:
    web = next(line.split(":", 1)[1].strip() for line in (ROOT / "Procfile").read_text().splitlines()
               if line.startswith("web:"))
    full = {**os.environ, **env, "HOST": "127.0.0.1", "PORT": str(port),
            "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}"}
    proc = subprocess.Popen(["bash", "-c", f"exec {web}"], cwd=ROOT, env=full,
                            stdout=subprocess.DEVNULL, stderr=open(os.environ.get("BENCH_SERVER_LOG", os.devnull), "w"),
                            start_new_session=True)
    for _ in range(300):
        try:
            if requests.get(f"http://127.0.0.1:{port}/rulesets", timeout=5).ok:
                return proc
        except requests.RequestException:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGTERM)
    raise RuntimeError("server did not start")


class Client(threading.Thread):
    def __init__(self, base: str, seed: int, stop: threading.Event, interval: float = 0.0):
        super().__init__(daemon=True)
        self.base, self.rng, self.stop, self.interval = base, random.Random(seed), stop, interval
        self.http = requests.Session()
        self.latencies: list[float] = []
        self.errors = 0

    def new_game(self):
        r = self.http.post(f"{self.base}/games", json={"ruleset": RULESET.id, "chance": "server",
                                                       "players": [{"name": n} for n in ("A", "B", "C")]})
        created = r.json()
        self.game, self.auth = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
        self.state = RULESET.initial_state()
        after = 0
        while after is not None:
            page = self.http.get(f"{self.base}/games/{self.game}/events", headers=self.auth,
                                 params={"after": after, "limit": 100}).json()
            for entry in page["events"][(1 if after == 0 else 0):]:
                self.state = RULESET.evolve(self.state, entry["event"])
            after = page["next"]

    def run(self):
        try:
            self._run()
        except Exception as error:  # a crashed client is reported, not silently idle
            self.failure = error

    failure: Exception | None = None

    def _run(self):
        self.new_game()
        next_at = time.perf_counter()
        while not self.stop.is_set():
            status = RULESET.status(self.state)
            if status.finished:
                self.new_game()
                continue
            seat = status.to_move[0]
            command = {**self.rng.choice(RULESET.legal_commands(self.state, seat)), "seat": seat}
            if self.interval:
                next_at += self.interval
                delay = next_at - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
            start = time.perf_counter()
            r = self.http.post(f"{self.base}/games/{self.game}/commands", json=command, headers=self.auth)
            self.latencies.append((time.perf_counter() - start) * 1000)
            if r.status_code != 200:
                self.errors += 1
                self.new_game()
                continue
            for entry in r.json()["events"]:
                self.state = RULESET.evolve(self.state, entry["event"])


def run_phase(base: str, clients: int, seconds: float, interval: float = 0.0) -> tuple[int, list[float], int, float]:
    stop = threading.Event()
    threads = [Client(base, i, stop, interval) for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # games created; start counting
    marks = [len(t.latencies) for t in threads]
    start = time.perf_counter()
    time.sleep(seconds)
    elapsed = time.perf_counter() - start
    done = sum(len(t.latencies) - m for t, m in zip(threads, marks))
    lat = [x for t, m in zip(threads, marks) for x in t.latencies[m:]]
    stop.set()
    for t in threads:
        t.join(timeout=10)
    failures = [t.failure for t in threads if t.failure]
    if failures:
        raise RuntimeError(f"{len(failures)} clients failed, e.g. {failures[0]!r}")
    return done, lat, sum(t.errors for t in threads), elapsed


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=20)
    args = ap.parse_args()
    port = free_port()
    with fresh_schema("http") as (_, env):
        server = start_server(env, port)
        try:
            base = f"http://127.0.0.1:{port}"
            done, lat, errors, elapsed = run_phase(base, args.clients, args.seconds)
            rate = done / elapsed
            print(f"saturation, {args.clients} clients: {rate:,.0f} commands/s, "
                  f"p50 {statistics.median(lat):.1f} ms, p99 {pct(lat, 0.99):.1f} ms, non-200: {errors}")
            interval = args.clients / (rate / 2)
            done, lat, errors, elapsed = run_phase(base, args.clients, args.seconds, interval)
            print(f"half load ({rate / 2:,.0f}/s asked, {done / elapsed:,.0f}/s done): "
                  f"p50 {statistics.median(lat):.1f} ms, p99 {pct(lat, 0.99):.1f} ms, non-200: {errors}")
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)


if __name__ == "__main__":
    main()
