"""Where a command's CPU goes in one process: the WSGI app called as gunicorn calls it (an
environ as gunicorn builds one; games are created through Flask's test client), on a
throwaway PostgreSQL schema, 12 Corsairs games played with random legal commands (the host
token), as benchmarks/issue5.py's load generator plays them. Prints CPU per command and,
with --profile, cProfile's top entries (cumulative and own time) for the requests alone.

    .venv/bin/python benchmarks/profile_commands.py --commands 3000 --profile
    .venv/bin/python benchmarks/profile_commands.py --prefer return=minimal
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
if "--root" in sys.argv:  # the service of another checkout (A/B), before anything imports it
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--root") + 1]).resolve()))

from _pg import fresh_schema

from domain.registry import all_rulesets

CORSAIRS = all_rulesets()["corsairs-of-valeria"]


class Player:
    def __init__(self, client, seed: int, headers: dict):
        self.client, self.rng, self.headers = client, random.Random(seed), headers
        self.new_game()

    def new_game(self):
        answer = self.client.post("/games", json={"ruleset": CORSAIRS.id, "chance": "server",
                                                  "players": [{"name": n} for n in "ABC"]})
        created = answer.get_json()
        self.game, self.auth = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
        self.state = CORSAIRS.initial_state()
        page = self.client.get(f"/games/{self.game}/events?limit=100", headers=self.auth).get_json()
        for entry in page["events"]:
            if entry["version"] > 1:
                self.state = CORSAIRS.evolve(self.state, entry["event"])

    def next_command(self) -> dict:
        while CORSAIRS.status(self.state).finished:
            self.new_game()
        seat = CORSAIRS.status(self.state).to_move[0]
        return {**self.rng.choice(CORSAIRS.legal_commands(self.state, seat)), "seat": seat}

    def send(self, command: dict, profiler) -> None:
        data = json.dumps(command).encode()
        environ = wsgi_environ(f"/games/{self.game}/commands", data, {**self.auth, **self.headers})
        answered: list = []
        if profiler is not None:
            profiler.enable()
        start = time.process_time()
        chunks = self.client.application(environ, lambda status, headers, exc_info=None: answered.append(status))
        body = b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()
        spent = time.process_time() - start
        if profiler is not None:
            profiler.disable()
        assert answered[0].startswith("200"), body[:300]
        for entry in json.loads(body)["events"]:
            self.state = CORSAIRS.evolve(self.state, entry["event"])
        return spent


def wsgi_environ(path: str, body: bytes, headers: dict) -> dict:
    """A POST's environ as gunicorn builds it: the same keys, the body in a stream."""
    environ = {
        "REQUEST_METHOD": "POST", "SCRIPT_NAME": "", "PATH_INFO": path, "QUERY_STRING": "",
        "RAW_URI": path, "SERVER_PROTOCOL": "HTTP/1.1", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
        "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "40000", "wsgi.url_scheme": "http", "wsgi.version": (1, 0),
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": False,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.input_terminated": True,
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
        "HTTP_HOST": "127.0.0.1:8000", "HTTP_CONTENT_TYPE": "application/json",
        "HTTP_CONTENT_LENGTH": str(len(body)), "HTTP_USER_AGENT": "python-requests/2.32",
        "HTTP_ACCEPT": "*/*", "HTTP_CONNECTION": "keep-alive",
    }
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


# With --rate-limits: the address's whole budget, large enough that the benchmark's one address
# is never refused (the default, 6,000 a minute, would refuse it), counted as any other.
RATE_LIMITS_BUDGET = "1000000 per minute"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commands", type=int, default=3000)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--prefer", default=None, help="a Prefer header to send, e.g. return=minimal")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose service is measured (A/B runs)")
    ap.add_argument("--dump", default=None, help="write the raw profile here (pstats)")
    ap.add_argument("--warm-up", type=int, default=200, help="commands sent before measuring")
    ap.add_argument("--rate-limits", action="store_true",
                    help="count every request in the rate limits, as a default deployment does (a "
                         f"budget of {RATE_LIMITS_BUDGET}, which this one address never spends)")
    args = ap.parse_args()
    # The same games every run (server seeds from a counter, not the system's randomness), so
    # that two runs, or two builds, are compared on the same commands: with valgrind's
    # instruction counts (callgrind), runs of --commands N and M give the instructions per
    # command whatever else the machine is doing (docs/performance.md).
    import hashlib as _hashlib

    import domain.chance
    counter = iter(range(10**9))
    domain.chance.new_seed = lambda: _hashlib.sha256(b"bench-%d" % next(counter)).hexdigest()
    import service
    from service import create_app

    print(f"service from {Path(service.__file__).parent}")

    headers = {"Prefer": args.prefer} if args.prefer else {}
    with fresh_schema("prof") as (_, env):
        limits = {"RATE_LIMITS": "on", "RATE_LIMIT_DEFAULT": RATE_LIMITS_BUDGET} if args.rate_limits else {"RATE_LIMITS": "off"}
        app = create_app({"PERSISTENCE": env, **limits})
        client = app.test_client()
        players = [Player(client, i, headers) for i in range(args.games)]
        for i in range(args.warm_up):  # warm up
            p = players[i % len(players)]
            p.send(p.next_command(), None)
        profiler = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not waits
        used = 0.0
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        wall = time.perf_counter()
        for i in range(args.commands):
            p = players[i % len(players)]
            used += p.send(p.next_command(), profiler)
        wall = time.perf_counter() - wall
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        app.extensions["parley"].close()
    total = (cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime) * 1000 / args.commands
    print(f"{args.commands} commands, Prefer: {args.prefer or '(none)'}: {used * 1000 / args.commands:.3f} ms "
          f"of CPU per request (the client's folding excluded; {total:.3f} ms with it), {wall:.1f} s")
    if profiler is not None:
        if args.dump:
            profiler.dump_stats(args.dump)
        for key in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(args.top)
            print(out.getvalue())


if __name__ == "__main__":
    main()
