"""Rate limits per client address (service/limits.py; issue 15, part 2)."""
from __future__ import annotations

import os
import time
import uuid

import pytest

from service import create_app
from service.limits import COSTLY_DEFAULT, EVERYTHING_DEFAULT
from tests.fakes import hoard
from tests.fakes.http import Seated

PROBLEM = "application/problem+json"
NEW_GAME = {"ruleset": "hidden-hoard", "players": [{"name": "Kira"}, {"name": "David"}], "chance": "server"}


def limited_app(**config):
    settings = {"RULESETS": {hoard.RULESET.id: hoard.RULESET}, "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"},
                "RATE_LIMITS": "on", "RATE_LIMIT_COSTLY": "5 per minute", "RATE_LIMIT_DEFAULT": "60 per minute",
                "RATE_LIMIT_STORAGE": "memory://"}
    settings.update(config)
    return create_app(settings)


@pytest.fixture
def app():
    app = limited_app()
    yield app
    app.extensions["parley"].close()


def create(client, address="10.0.0.1", **kwargs):
    return client.post("/games", json=NEW_GAME, environ_base={"REMOTE_ADDR": address}, **kwargs)


def assert_limited(response, costly: bool) -> None:
    assert response.status_code == 429, response.get_json()
    assert response.content_type == PROBLEM
    body = response.get_json()
    assert body["code"] == "RATE_LIMITED" and body["status"] == 429 and body["instance"]
    assert body["detail"].startswith("Too many requests") != costly
    assert int(response.headers["Retry-After"]) >= 1


def test_creating_games_past_the_costly_budget_is_429_problem_json_with_retry_after(app):
    client = app.test_client()
    assert [create(client).status_code for _ in range(5)] == [201] * 5
    assert_limited(create(client), costly=True)
    # Another address has its own budget.
    assert create(client, address="10.0.0.2").status_code == 201


def test_dry_runs_verifications_and_replays_each_have_a_costly_budget_and_commands_do_not(app):
    client = app.test_client()
    game = Seated(client, create(client).get_json())
    env = {"REMOTE_ADDR": "10.0.0.1"}
    for _ in range(6):  # real commands spend no costly budget
        client.post(f"/games/{game.id}/commands", json={"type": "draw"}, headers=game.seat(0), environ_base=env)
    export = client.get(f"/games/{game.id}/export", headers=game.host, environ_base=env).get_json()
    sends = {
        "verifications": lambda: client.post("/verifications", json=export, environ_base=env),
        "replays": lambda: client.post("/replays", json=export, environ_base=env),
        "dry runs": lambda: client.post(f"/games/{game.id}/commands?dry_run=true", json={"type": "draw"},
                                        headers=game.seat(1), environ_base=env),
    }
    for what, send in sends.items():
        assert all(send().status_code in (200, 422) for _ in range(5)), what
        refused = send()
        assert_limited(refused, costly=True)
        assert what in refused.get_json()["detail"]
    # Creating games has a budget of its own, not spent by the others: 4 of 5 are left.
    assert [create(client).status_code for _ in range(5)] == [201] * 4 + [429]
    # A real command is still served.
    answer = client.post(f"/games/{game.id}/commands", json={"type": "stand"}, headers=game.seat(0), environ_base=env)
    assert answer.status_code in (200, 422), answer.get_json()


def test_everything_else_has_a_larger_budget_and_health_is_never_limited(app):
    client = app.test_client()
    env = {"REMOTE_ADDR": "10.0.0.9"}
    codes = [client.get("/rulesets", environ_base=env).status_code for _ in range(60)]
    assert codes == [200] * 60
    assert_limited(client.get("/rulesets", environ_base=env), costly=False)
    assert all(client.get(path, environ_base=env).status_code == 200 for path in ("/healthz", "/readyz") for _ in range(50))


def test_a_forwarded_for_header_is_believed_only_from_a_trusted_proxy():
    app = limited_app()
    client = app.test_client()
    # No proxy is trusted: a client that says it is someone else each time is still itself.
    answers = [client.post("/games", json=NEW_GAME, headers={"X-Forwarded-For": f"192.0.2.{i}"},
                           environ_base={"REMOTE_ADDR": "10.0.0.3"}).status_code for i in range(6)]
    assert answers == [201] * 5 + [429]
    app.extensions["parley"].close()
    # Behind one trusted proxy (deploy/nginx), the address is the one it states, and what the
    # client itself put first in the header is ignored.
    app = limited_app(TRUSTED_PROXIES=1)
    client = app.test_client()
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    for i in range(5):
        assert client.post("/games", json=NEW_GAME, environ_base=proxy,
                           headers={"X-Forwarded-For": f"6.6.6.{i}, 198.51.100.7"}).status_code == 201
    assert_limited(client.post("/games", json=NEW_GAME, environ_base=proxy,
                               headers={"X-Forwarded-For": "198.51.100.7"}), costly=True)
    assert client.post("/games", json=NEW_GAME, environ_base=proxy,
                       headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 201
    app.extensions["parley"].close()


def test_the_proxys_word_is_taken_only_from_the_proxy():
    """A client that reaches gunicorn past nginx (its port open to the world) and sends
    X-Forwarded-For is counted as itself: only a peer in FORWARDED_ALLOW_IPS states addresses."""
    app = limited_app(TRUSTED_PROXIES=1)
    client = app.test_client()
    outsider = {"REMOTE_ADDR": "203.0.113.9"}
    answers = [client.post("/games", json=NEW_GAME, environ_base=outsider,
                           headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code for i in range(6)]
    assert answers == [201] * 5 + [429]
    app.extensions["parley"].close()
    app = limited_app(TRUSTED_PROXIES=1, FORWARDED_ALLOW_IPS="10.0.0.0/8, ::1")
    client = app.test_client()
    for peer in ("10.1.2.3", "::1", "::ffff:10.0.0.9", ""):  # "": a Unix socket, as gunicorn gives it
        answers = [client.post("/games", json=NEW_GAME, environ_base={"REMOTE_ADDR": peer},
                               headers={"X-Forwarded-For": f"198.51.{len(peer)}.{i}"}).status_code for i in range(6)]
        assert answers == [201] * 6, (peer, answers)  # each a client of its own, as the proxy says
    app.extensions["parley"].close()


def test_ipv6_clients_are_counted_by_their_64_network(app):
    client = app.test_client()
    for i in range(5):
        assert create(client, address=f"2001:db8:1:2::{i + 1}").status_code == 201
    assert_limited(create(client, address="2001:db8:1:2:ffff::9"), costly=True)
    assert create(client, address="2001:db8:1:3::1").status_code == 201


def test_off_turns_every_limit_off(monkeypatch):
    monkeypatch.setenv("PARLEY_RATE_LIMITS", "off")
    app = limited_app(RATE_LIMITS=None)
    client = app.test_client()
    assert all(create(client).status_code == 201 for _ in range(20))
    app.extensions["parley"].close()


def test_the_defaults_serve_a_table_and_stop_a_burst(monkeypatch):
    """A table app creating a game every few seconds stays within the default budget; a
    burst of a few hundred creations within a minute meets it."""
    from limits import parse

    costly = parse(COSTLY_DEFAULT)
    assert costly.amount / costly.get_expiry() >= 1 / 3  # a game every 3 s, sustained
    assert parse(EVERYTHING_DEFAULT).amount >= 10 * costly.amount
    app = limited_app(RATE_LIMIT_COSTLY=None, RATE_LIMIT_DEFAULT=None)
    monkeypatch.delenv("PARLEY_RATE_LIMIT_COSTLY", raising=False)
    client = app.test_client()
    codes = [create(client).status_code for _ in range(300)]
    assert codes.count(201) == costly.amount and codes[-1] == 429
    app.extensions["parley"].close()


def test_counters_in_redis_are_shared_by_every_worker():
    """Two apps (two workers, or two nodes) counting in one Redis share one budget."""
    import redis

    url = os.environ.get("PARLEY_TEST_REDIS", "redis://127.0.0.1:6379/15")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is not answering at {url}: {error}")
        pytest.skip(f"needs Redis at {url}")
    address = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7"  # fresh counters each run
    apps = [limited_app(RATE_LIMIT_STORAGE=url) for _ in range(2)]
    clients = [a.test_client() for a in apps]
    codes = [create(clients[i % 2], address=address).status_code for i in range(6)]
    assert codes == [201] * 5 + [429]
    for a in apps:
        a.extensions["parley"].close()


def test_a_game_with_custom_content_spends_more_of_the_creation_budget():
    from service.limits import CUSTOM_CONTENT_COST

    app = limited_app(RATE_LIMIT_COSTLY=f"{2 * CUSTOM_CONTENT_COST} per minute")
    client = app.test_client()
    custom = {**NEW_GAME, "content": hoard.RULESET.default_content}
    env = {"REMOTE_ADDR": "10.0.0.5"}
    codes = [client.post("/games", json=custom, environ_base=env).status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    # the budget spent, a plain game waits too; with one left, a plain one is made and a custom one told why not
    assert client.post("/games", json=NEW_GAME, environ_base=env).status_code == 429
    app.extensions["parley"].close()
    app = limited_app(RATE_LIMIT_COSTLY=f"{CUSTOM_CONTENT_COST + 1} per minute")
    client = app.test_client()
    assert client.post("/games", json=custom, environ_base=env).status_code == 201
    refused = client.post("/games", json=custom, environ_base=env)
    assert refused.status_code == 429 and refused.headers["X-RateLimit-Remaining"] == "1"
    assert f"counts as {CUSTOM_CONTENT_COST}, more than is left" in refused.get_json()["detail"]
    assert client.post("/games", json=NEW_GAME, environ_base=env).status_code == 201
    app.extensions["parley"].close()


@pytest.mark.parametrize("body", ["[" * 100_000 + "]" * 100_000, '{"a": ' * 5000, "{not json", '{"a": NaN}'])
def test_a_creation_the_parser_refuses_is_400_and_spends_one_of_the_budget(app, body):
    """The creation's cost is read from its body (custom content costs more) as strictly as the
    view reads it: a body nested past Python's recursion limit is 400, not a RecursionError."""
    client = app.test_client()
    env = {"REMOTE_ADDR": "10.0.0.9"}
    refused = client.post("/games", data=body, content_type="application/json", environ_base=env)
    assert refused.status_code == 400 and refused.get_json()["code"] == "MALFORMED_REQUEST"
    assert refused.headers["X-RateLimit-Remaining"] == "4"   # of 5 a minute: it cost 1


def test_every_counted_answer_tells_its_budget_and_only_a_refusal_says_when_to_retry(app):
    """X-RateLimit-* name the budget the request was counted against: the address's whole for
    a command and a read, the costly one for a creation or a dry run. Retry-After is on a 429
    only: on a served answer it would tell a client to wait for nothing."""
    client = app.test_client()
    env = {"REMOTE_ADDR": "10.0.0.11"}
    created = create(client, address="10.0.0.11")
    assert created.headers["X-RateLimit-Limit"] == "5" and created.headers["X-RateLimit-Remaining"] == "4"
    game = Seated(client, created.get_json())
    command = client.post(f"/games/{game.id}/commands", json={"type": "draw"}, headers=game.seat(0), environ_base=env)
    read = client.get(f"/games/{game.id}", headers=game.seat(1), environ_base=env)
    dry = client.post(f"/games/{game.id}/commands?dry_run=true", json={"type": "stand"}, headers=game.seat(1),
                      environ_base=env)
    # The whole budget: the creation, the command and the read spent 3 of 60.
    assert (command.headers["X-RateLimit-Limit"], command.headers["X-RateLimit-Remaining"]) == ("60", "58")
    assert (read.headers["X-RateLimit-Limit"], read.headers["X-RateLimit-Remaining"]) == ("60", "57")
    assert (dry.headers["X-RateLimit-Limit"], dry.headers["X-RateLimit-Remaining"]) == ("5", "4")
    for answer in (created, command, read, dry):
        assert "Retry-After" not in answer.headers
        assert int(answer.headers["X-RateLimit-Reset"]) > 0
    # Probes and requests for no route are counted nowhere and told nothing.
    for path in ("/healthz", "/readyz", "/no-such-thing"):
        assert "X-RateLimit-Limit" not in client.get(path, environ_base=env).headers
    assert client.get("/rulesets", environ_base=env).headers["X-RateLimit-Remaining"] == "55"


def test_a_shared_store_that_fails_never_fails_a_request_and_the_worker_counts_in_memory_meanwhile(caplog):
    """Redis away (nothing listens on port 1): every request is still answered, the limits
    still hold (each worker counting in its memory), and the outage is logged."""
    app = limited_app(RATE_LIMIT_STORAGE="redis://127.0.0.1:1/0")
    client = app.test_client()
    with caplog.at_level("WARNING", logger="service.limits"):
        codes = [create(client, address="10.0.0.12").status_code for _ in range(6)]
    assert codes == [201] * 5 + [429]
    assert any("rate limit store unreachable" in r.getMessage() for r in caplog.records)
    app.extensions["parley"].close()


def test_windows_in_memory_count_as_the_limits_library_does(monkeypatch):
    """service.limits.MemoryWindows against the library's own moving window in memory, hit for
    hit on one clock: the same verdicts, the same remaining budget and reset time, for several
    addresses, costs above one and hits spread across more than a window."""
    import random
    import time as time_module

    from limits import parse
    from limits.storage import MemoryStorage
    from limits.strategies import MovingWindowRateLimiter

    from service.limits import MemoryWindows

    clock = [1_800_000_000.0]
    monkeypatch.setattr(time_module, "time", lambda: clock[0])
    ours, theirs = MemoryWindows(), MovingWindowRateLimiter(MemoryStorage())
    chosen = random.Random(16)
    limit = parse("7 per 10 seconds")
    verdicts = []
    for _ in range(600):
        clock[0] += chosen.choice((0.0, 0.1, 0.7, 2.5, 11.0))
        who = ("parley", chosen.choice(("10.0.0.1", "10.0.0.2")), "global")
        cost = chosen.choice((1, 1, 1, 2, 5))
        verdict = ours.hit(limit, *who, cost=cost)
        assert verdict == theirs.hit(limit, *who, cost=cost)
        assert tuple(ours.get_window_stats(limit, *who)) == tuple(theirs.get_window_stats(limit, *who))
        verdicts.append(verdict)
    assert True in verdicts and False in verdicts  # both kinds of verdict were compared


def test_a_shared_store_is_tried_again_after_a_pause_and_counted_in_once_it_answers(monkeypatch):
    """While the shared store fails, a worker counts in memory and asks the store again only
    after a pause (1 s, doubling); once it answers, counting goes back to it."""
    from limits import parse

    from service import limits as limits_module
    from service.limits import Budgets

    class Store:
        def __init__(self):
            self.down, self.asked = True, 0

        def hit(self, item, *identifiers, cost=1):
            self.asked += 1
            if self.down:
                raise ConnectionError("redis is away")
            return True

    clock = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: clock[0])
    budgets = Budgets("redis://127.0.0.1:1/0")
    budgets.store = store = Store()
    limit, who = parse("2 per minute"), ("parley", "10.0.0.13", "global")
    assert [budgets.spend(limit, who).allowed for _ in range(3)] == [True, True, False]  # in memory
    assert store.asked == 1  # asked once, then left alone during the pause
    clock[0] += 1.5
    budgets.spend(limit, who)
    assert store.asked == 2  # asked again after the pause: still away, the next pause is 2 s
    clock[0] += 1.5
    budgets.spend(limit, who)
    assert store.asked == 2
    store.down = False
    clock[0] += 1
    assert budgets.spend(limit, who).allowed and store.asked == 3  # back: the store's own count
    assert budgets.spend(limit, who).allowed and store.asked == 4
    # What was counted in memory meanwhile was let go once the store answered: a later outage
    # starts this worker's memory afresh (it held a spent budget for this address before).
    store.down = True
    assert budgets.spend(limit, who).allowed and store.asked == 5


def test_requests_in_flight_when_the_shared_store_fails_count_as_one_failure(monkeypatch):
    """Eight requests asking the store at once, all failing: one outage, so one pause of 1 s
    (not the longest pause, as eight failures in a row would give) and one warning."""
    import threading

    from limits import parse

    from service import limits as limits_module
    from service.limits import Budgets

    together = threading.Barrier(8)

    class Store:
        asked = 0

        def hit(self, item, *identifiers, cost=1):
            Store.asked += 1
            together.wait(timeout=10)  # all eight in flight before any fails
            raise ConnectionError("redis is away")

    clock = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: clock[0])
    budgets = Budgets("redis://127.0.0.1:1/0")
    budgets.store = Store()
    warnings = []
    monkeypatch.setattr(limits_module.log, "warning", lambda *args: warnings.append(args))
    limit = parse("100 per minute")
    threads = [threading.Thread(target=budgets.spend, args=(limit, ("parley", f"10.0.1.{i}", "global")))
               for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Store.asked == 8 and len(warnings) == 1
    clock[0] += 1.5  # past the first pause: the store is asked again
    budgets.spend(limit, ("parley", "10.0.1.9", "global"))
    assert Store.asked == 9


def test_an_answer_tells_the_budget_where_its_request_was_counted(monkeypatch):
    """Around an outage the two stores differ: a request counted in memory while the store
    failed is told memory's count even if the store answers again by the time its headers are
    written, and one counted in the store is told the store's, or memory's if it fails since."""
    from limits import parse
    from limits.util import WindowStats

    from service import limits as limits_module
    from service.limits import Budgets

    class Store:
        def __init__(self):
            self.down, self.hits = True, 0

        def hit(self, item, *identifiers, cost=1):
            if self.down:
                raise ConnectionError("redis is away")
            self.hits += cost
            return True

        def get_window_stats(self, item, *identifiers):
            if self.down:
                raise ConnectionError("redis is away")
            return WindowStats(time.time() + 60, item.amount - self.hits)

    clock = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: clock[0])
    budgets = Budgets("redis://127.0.0.1:1/0")
    budgets.store = store = Store()
    limit, who = parse("5 per minute"), ("parley", "10.0.0.14", "global")
    in_memory = [budgets.spend(limit, who) for _ in range(3)]  # counted in memory: 2 left there
    store.down = False
    clock[0] += 5  # the store would be asked again now
    assert budgets.headers(in_memory[-1])["X-RateLimit-Remaining"] == "2"  # not the store's 5
    in_store = budgets.spend(limit, who)
    assert in_store.allowed and store.hits == 1
    assert budgets.headers(in_store)["X-RateLimit-Remaining"] == "4"  # the store's count
    store.down = True  # fails after counting, before the headers: memory's word, not a failure
    assert budgets.headers(in_store)["X-RateLimit-Limit"] == "5"
    # Failed since (another request saw it): the store is left alone for its pause, headers too.
    store.down, asked = False, []
    clock[0] += 60
    counted = budgets.spend(limit, who)
    assert counted.where is store
    store.down = True
    budgets.spend(limit, ("parley", "10.0.0.15", "global"))  # fails: a pause begins
    store.down = False
    monkeypatch.setattr(store, "get_window_stats", lambda *a: asked.append(a))
    assert budgets.headers(counted)["X-RateLimit-Limit"] == "5" and asked == []


def test_a_request_refused_for_its_host_spends_no_budget():
    """RFC 9112 3.2's 400 comes before the rate limits: requests without a valid Host are refused
    every time, and leave the address's budget to its valid requests."""
    app = limited_app(RATE_LIMIT_DEFAULT="2 per minute")
    try:
        client = app.test_client()
        env = {"REMOTE_ADDR": "10.0.0.7"}
        bad = [client.get("/rulesets", headers={"Host": "two words"}, environ_base=env) for _ in range(5)]
        assert [r.status_code for r in bad] == [400] * 5 and all("Host" in r.get_json()["detail"] for r in bad)
        assert [client.get("/rulesets", environ_base=env).status_code for _ in range(2)] == [200, 200]
        assert_limited(client.get("/rulesets", environ_base=env), costly=False)
    finally:
        app.extensions["parley"].close()
