"""Issue 16, item 4: what the Procfile's serving stack costs a request before Parley's app does
anything: gunicorn with deploy/gunicorn.conf.py (its worker class, service.serving.Worker, and
its logger) serving a WSGI app that reads the body and answers a fixed 1.2 KB JSON, driven by
the same lean client as benchmarks/commands.py (benchmarks/wire.py), with a command-sized
POST body and a bearer token.

    .venv/bin/python benchmarks/serving_floor.py                   # about 40 s
    .venv/bin/python benchmarks/serving_floor.py --seconds 10 --rounds 5

Prints requests/s and the worker's CPU per request (user + system, from /proc) for each round,
and their medians. The worker CPU per command of benchmarks/commands.py less this floor is what
the app itself costs in a worker; the floor is what no change to the app can remove.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from issue5 import TICK, free_port, stop_server, workers_of
from wire import Connection

APP = '''
BODY = b'{"events":[{"type":"X","version":1}],"game":{"version":1}}' * 20

def app(environ, start_response):
    length = int(environ.get("CONTENT_LENGTH") or 0)
    if length:
        environ["wsgi.input"].read(length)
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))])
    return [BODY]
'''
COMMAND = b'{"type": "move_ship", "seat": 0, "expected_version": 31, "steps": [{"direction": "forward"}]}'


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def drive(port: int, clients: int, seconds: float) -> int:
    counts = [0] * clients
    stop = time.monotonic() + seconds
    headers = {"Content-Type": "application/json", "Authorization": "Bearer " + "k" * 43}

    def run(i: int) -> None:
        connection = Connection("127.0.0.1", port)
        while time.monotonic() < stop:
            status, _, _ = connection.request("POST", "/games/x/commands", COMMAND, headers)
            assert status == 200, status
            counts[i] += 1
        connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=12)
    ap.add_argument("--workers", type=int, default=1, help="gunicorn workers (1: the CPU is one process's)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="parley-floor-") as tmp:
        Path(tmp, "floor_app.py").write_text(APP)
        port = free_port()
        env = {**os.environ, "PYTHONPATH": f"{tmp}:{ROOT}", "WEB_CONCURRENCY": str(args.workers),
               "PROMETHEUS_MULTIPROC_DIR": str(Path(tmp, "metrics"))}
        gunicorn = ROOT / ".venv" / "bin" / "gunicorn"
        server = subprocess.Popen([str(gunicorn), "--config", str(ROOT / "deploy" / "gunicorn.conf.py"),
                                   "--bind", f"127.0.0.1:{port}", "floor_app:app"], cwd=tmp, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            for _ in range(100):
                try:
                    Connection("127.0.0.1", port).request("GET", "/", None, {})
                    break
                except OSError:
                    time.sleep(0.1)
            workers = workers_of(server.pid)
            print(f"serving floor: gunicorn {len(workers)} worker(s) (deploy/gunicorn.conf.py), "
                  f"{args.clients} clients (wire), {args.seconds:g} s a round, load average "
                  f"{os.getloadavg()[0]:.2f} at the start")
            rates, cpus = [], []
            for k in range(args.rounds):
                before = cpu_seconds(workers)
                n = drive(port, args.clients, args.seconds)
                used = cpu_seconds(workers) - before
                rates.append(n / args.seconds)
                cpus.append(1000 * used / n)
                print(f"  round {k + 1}: {rates[-1]:.0f} requests/s, worker CPU {cpus[-1]:.3f} ms a request")
            print(f"median: {statistics.median(rates):.0f} requests/s, worker CPU "
                  f"{statistics.median(cpus):.3f} ms a request")
        finally:
            stop_server(server)


if __name__ == "__main__":
    main()
