"""Rate limits per client address (issue 15), counted by the `limits` library.

Two budgets per address:
- **costly**: creating a game, a dry run, a verification and a replay (they cost the most CPU
  or storage per request) each have one: 100 a minute by default. A person or a table app
  creating a game every few seconds never meets it; a script creating a few hundred within a
  minute does.
  A game created with custom content spends CUSTOM_CONTENT_COST (20) of it: validating nested
  content holds the CPU for seconds, so an address may create 5 such games a minute.
- **everything else**: 6,000 a minute (100 a second) by default; the costly requests count
  here too. /healthz, /readyz and /metrics are never limited (probes and scrapers), nor is a
  request for no route (404, 405: nothing is served).

Over a limit the answer is 429 problem+json `RATE_LIMITED` with `Retry-After` (seconds). Every
counted answer carries `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds) of the
budget it was counted against: the costly one for a costly request, else the address's whole.

Settings (app config, else the environment):
    RATE_LIMITS          PARLEY_RATE_LIMITS          "off" turns every limit off (test rigs,
                                                     benchmarks); default on
    RATE_LIMIT_COSTLY    PARLEY_RATE_LIMIT_COSTLY    default "100 per minute", for each costly kind
    RATE_LIMIT_DEFAULT   PARLEY_RATE_LIMIT_DEFAULT   default "6000 per minute"
    RATE_LIMIT_STORAGE   PARLEY_RATE_LIMIT_STORAGE   where counters live: "memory://" (default:
                         each gunicorn worker counts apart, so a client may get up to one
                         budget per worker), or shared by every worker and node:
                         "redis://127.0.0.1:6379/0" (any storage the `limits` library knows)
    TRUSTED_PROXIES      PARLEY_TRUSTED_PROXIES      how many proxies in front of Parley set
                         X-Forwarded-For (default 0: the address is the peer's, and no header a
                         client sends is believed). With 1 (nginx, deploy/nginx), the address is
                         the one that proxy states, when the request comes from an address in
                         FORWARDED_ALLOW_IPS (the environment variable deploy/gunicorn.conf.py
                         reads too; default loopback, 127.0.0.1 and ::1), or over a Unix socket:
                         any other peer is counted as itself, so a client that reaches gunicorn
                         past the proxy cannot name its own address.

An IPv6 client is counted by its /64 network: one host usually holds a whole /64, and counting
each address apart would let it take a new budget per address.

Counting is done here on the `limits` library (the engine Flask-Limiter drives), with the
same moving windows and storage keys Flask-Limiter used: Flask-Limiter's own bookkeeping
(parsing the limit strings again, resolving exemptions and scopes, twice for a costly
endpoint) cost more than a whole command's adjudication (docs/performance.md).
"""
from __future__ import annotations

import ipaddress
import logging
import os
import threading
import time
from collections import deque
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import Flask, Response, g, request
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from limits.util import WindowStats
from werkzeug.middleware.proxy_fix import ProxyFix

from service.errors import Problem

log = logging.getLogger(__name__)

COSTLY_DEFAULT = "100 per minute"
EVERYTHING_DEFAULT = "6000 per minute"
# The endpoints that spend the costly budget; a command only when it is a dry run.
COSTLY = ("games.create_game", "verifications.verify_export", "replays.replay_export", "commands.send_command")
UNLIMITED = ("operations.health", "operations.readiness", "operations.metrics")
CUSTOM_CONTENT_COST = 20
TRUTHY = {"true", "t", "yes", "y", "on", "1"}  # what the dry_run query parameter accepts as true
KEY_PREFIX = "parley"
EVERYTHING_SCOPE = "global"  # the address's whole budget (a costly one is scoped by its endpoint)
# After a shared store (Redis) fails, each worker counts in memory and tries the store again
# after this many seconds, doubling while it keeps failing, up to the last.
RETRY_STORE_SECONDS = (1, 2, 4, 8, 16, 30)


def _setting(app: Flask, name: str, default: str) -> str:
    value = app.config.get(name)
    if value is None:
        value = os.environ.get(f"PARLEY_{name}") or default
    return str(value)


@dataclass(frozen=True)
class Counted:
    """The budget a request was counted against, as its answer's headers tell it, and where
    it was counted (the shared store, or this worker's memory while the store failed)."""

    limit: RateLimitItem
    identifiers: tuple[str, ...]
    allowed: bool
    where: Any


class MemoryWindows:
    """Moving windows in this worker's memory, as the `limits` library's strategy asks them
    (hit, get_window_stats): for each budget and address, the times of its hits still in the
    window. The library's own memory storage starts a timer thread every few requests to
    expire its entries; here a window drops its expired hits when it is next asked, and
    windows left empty are swept once a minute."""

    SWEEP_SECONDS = 60.0

    def __init__(self):
        self._hits: dict[tuple, deque] = {}
        self._lock = threading.Lock()
        self._sweep_at = time.monotonic() + self.SWEEP_SECONDS

    def hit(self, item: RateLimitItem, *identifiers: str, cost: int = 1) -> bool:
        now = time.time()
        with self._lock:
            hits = self._window(item, identifiers, now)
            if len(hits) + cost > item.amount:
                return False
            hits.extend([now] * cost)
            if time.monotonic() >= self._sweep_at:
                self._sweep(now)
            return True

    def get_window_stats(self, item: RateLimitItem, *identifiers: str) -> WindowStats:
        now = time.time()
        with self._lock:
            hits = self._window(item, identifiers, now)
            return WindowStats((hits[0] if hits else now) + item.get_expiry(), item.amount - len(hits))

    def _window(self, item: RateLimitItem, identifiers: tuple, now: float) -> deque:
        key = (item.amount, item.get_expiry(), identifiers)
        hits = self._hits.get(key)
        if hits is None:
            hits = self._hits[key] = deque()
        start = now - key[1]
        while hits and hits[0] <= start:
            hits.popleft()
        return hits

    def _sweep(self, now: float) -> None:
        for key in [k for k, hits in self._hits.items() if not hits or hits[-1] <= now - k[1]]:
            del self._hits[key]
        self._sweep_at = time.monotonic() + self.SWEEP_SECONDS


class Budgets:
    """Moving-window budgets in this worker's memory, or in a store shared by every worker and
    node (Redis), falling back to this worker's memory while the shared store fails."""

    def __init__(self, storage_uri: str):
        self.memory = MemoryWindows()
        self.shared = not storage_uri.startswith("memory://")
        self.store = MovingWindowRateLimiter(storage_from_string(storage_uri)) if self.shared else self.memory
        self._retry_at = 0.0
        self._failures = 0
        self._lock = threading.Lock()

    def spend(self, limit: RateLimitItem, identifiers: tuple[str, ...], cost: int = 1) -> Counted:
        allowed, where = self._ask(lambda s: s.hit(limit, *identifiers, cost=cost))
        return Counted(limit, identifiers, allowed, where)

    def headers(self, counted: Counted) -> dict[str, str]:
        """X-RateLimit-* of this budget now, and Retry-After (seconds) when it was refused: read
        where the request was counted (around an outage, the other store has not seen it)."""
        def stats(store):
            return store.get_window_stats(counted.limit, *counted.identifiers)

        if counted.where is not self.store or not self.shared:
            reset_time, remaining = stats(counted.where)
        elif time.monotonic() < self._retry_at:  # failed since, and left alone: memory's word
            reset_time, remaining = stats(self.memory)
        else:
            try:
                reset_time, remaining = stats(self.store)
            except Exception as error:  # failed since: what this worker's memory says
                self._store_failed(error)
                reset_time, remaining = stats(self.memory)
        reset_at = int(reset_time + 1)
        headers = {"X-RateLimit-Limit": str(counted.limit.amount),
                   "X-RateLimit-Remaining": str(max(0, remaining)),
                   "X-RateLimit-Reset": str(reset_at)}
        if not counted.allowed:
            headers["Retry-After"] = str(max(1, int(reset_at - time.time())))
        return headers

    def _ask(self, question):
        """question's answer from the shared store, or from memory while it fails, and which."""
        if self.shared and time.monotonic() >= self._retry_at:
            try:
                answer = question(self.store)
            except Exception as error:  # the shared store is away: never fail a request for it
                self._store_failed(error)
            else:
                if self._failures:
                    log.warning("rate limit store answers again; counting there")
                    self._failures = 0
                    self.memory = MemoryWindows()  # what was counted meanwhile is let go, not kept
                return answer, self.store
        memory = self.memory
        return question(memory), memory

    def _store_failed(self, error: Exception) -> None:
        with self._lock:
            now = time.monotonic()
            if now < self._retry_at:
                return  # a request in flight with the one that saw it first: one failure, one pause
            wait = RETRY_STORE_SECONDS[min(self._failures, len(RETRY_STORE_SECONDS) - 1)]
            self._failures += 1
            self._retry_at = now + wait
        log.warning("rate limit store unreachable (%s): counting in this worker's memory for %s s",
                    error, wait)


# Parsed addresses, by the address as given: ipaddress parses slowly and a client sends many
# requests. Bounded: cleared when full.
_ADDRESSES: dict[str, str] = {}
ADDRESSES_KEPT = 4096


def client_address(remote_addr: str | None) -> str:
    """The address a request is counted against, from its WSGI REMOTE_ADDR (request.remote_addr):
    the peer's (or, behind trusted proxies, the one they state), an IPv6 address as its /64
    network; "unknown" when the server gave none."""
    given = remote_addr or "unknown"
    address = _ADDRESSES.get(given)
    if address is None:
        address = _counted_address(given)
        if len(_ADDRESSES) >= ADDRESSES_KEPT:
            _ADDRESSES.clear()
        _ADDRESSES[given] = address
    return address


def _counted_address(address: str) -> str:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _cost() -> int:
    """What a costly request spends: a game created with custom content, CUSTOM_CONTENT_COST."""
    if request.endpoint == "games.create_game" and request.is_json:
        from service.api import loads_strictly  # (service.api imports this module's users)

        try:  # strictly, as the view will: Flask's own parser lets a deep body raise RecursionError
            body = loads_strictly(request.get_data(cache=True))
        except Problem:
            return 1  # the view refuses it, 400
        if isinstance(body, dict) and body.get("content") is not None:
            return CUSTOM_CONTENT_COST
    return 1


def _not_costly() -> bool:
    if request.endpoint == "commands.send_command":
        return request.args.get("dry_run", "").lower() not in TRUTHY
    return False


def _costly_words() -> str:
    if request.endpoint == "commands.send_command":
        return "dry runs"
    return {"games.create_game": "games created", "verifications.verify_export": "verifications",
            "replays.replay_export": "replays"}.get(request.endpoint or "", "requests")


def _too_many(limit: RateLimitItem, what: str, cost: int = 1) -> Problem:
    """The 429; for a request that spends more than one (a game created with custom content),
    what it spends, so that a budget not yet at 0 (X-RateLimit-Remaining) is not a puzzle."""
    costs = (f" A game created with custom content counts as {cost}, more than is left of the budget."
             if cost > 1 else "")
    return Problem(429, f"Too many {what} from your address: at most {limit}.{costs} "
                        "Wait as long as Retry-After says, then send it again.", "RATE_LIMITED")


@dataclass(frozen=True)
class Limits:
    """The app's budgets, and the address's whole one, which every served request spends."""

    budgets: Budgets
    everything: RateLimitItem

    def spend(self, remote_addr: str | None) -> None:
        """Spend one of this address's whole budget (before anything else is done for the
        request): a 429 problem when it is spent. The request's answer tells this budget
        (g.rate_limit) unless a costly one is spent after it."""
        counted = self.budgets.spend(self.everything, (KEY_PREFIX, client_address(remote_addr), EVERYTHING_SCOPE))
        g.rate_limit = counted
        if not counted.allowed:
            raise _too_many(self.everything, "requests")


class FromProxies:
    """X-Forwarded-For believed (werkzeug's ProxyFix, `proxies` deep) only from a peer among
    `allowed` (gunicorn's FORWARDED_ALLOW_IPS: comma-separated addresses or networks, or '*'):
    a client that reaches gunicorn itself, past the proxy, is counted by its own address."""

    def __init__(self, app, proxies: int, allowed: str):
        self.app = app
        self.fixed = ProxyFix(app, x_for=proxies, x_proto=0, x_host=0, x_port=0, x_prefix=0)
        entries = [a.strip() for a in allowed.split(",") if a.strip()]
        self.everyone = "*" in entries
        self.networks = [ipaddress.ip_network(a, strict=False) for a in entries if a != "*"]

    def __call__(self, environ: dict, start_response):
        return (self.fixed if self._trusted(environ.get("REMOTE_ADDR")) else self.app)(environ, start_response)

    def _trusted(self, peer: str | None) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(peer or "")
        except ValueError:
            # No IP address: a Unix socket, which only a process on this machine (the proxy) can
            # reach; gunicorn treats such peers as allowed too.
            return True
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped   # 127.0.0.1 as a dual-stack listener sees it
        return any(address in network for network in self.networks)


def install(app: Flask) -> Limits | None:
    """Rate-limit the app as its settings say; None when the limits are off."""
    if _setting(app, "RATE_LIMITS", "on").lower() in ("off", "false", "0", "no"):
        return None
    proxies = int(_setting(app, "TRUSTED_PROXIES", "0"))
    if proxies:
        # Flask's documented way to wrap its WSGI app:
        app.wsgi_app = FromProxies(app.wsgi_app, proxies, app.config.get("FORWARDED_ALLOW_IPS")  # type: ignore[method-assign]
                                   or os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1")
    budgets = Budgets(_setting(app, "RATE_LIMIT_STORAGE", "memory://"))
    everything = parse(_setting(app, "RATE_LIMIT_DEFAULT", EVERYTHING_DEFAULT))
    costly = parse(_setting(app, "RATE_LIMIT_COSTLY", COSTLY_DEFAULT))
    limits = Limits(budgets, everything)
    app.extensions["parley.limits"] = limits

    @app.before_request
    def _spend_the_address_budget() -> None:
        # A request for no route (404, 405) is served nothing and counted nowhere.
        if request.routing_exception is not None or request.endpoint in UNLIMITED:
            return
        limits.spend(request.remote_addr)

    def spending_the_costly_budget(view):
        # Around the view, as its own budget: after every before-request check (a 415 spends
        # none of it), each costly endpoint counted apart.
        @wraps(view)
        def limited(*args, **kwargs):
            if not _not_costly():
                cost = _cost()
                counted = budgets.spend(costly, (KEY_PREFIX, client_address(request.remote_addr), request.endpoint),
                                        cost)
                g.rate_limit = counted
                if not counted.allowed:
                    raise _too_many(costly, _costly_words(), cost)
            return view(*args, **kwargs)
        return limited

    for endpoint in COSTLY:
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = spending_the_costly_budget(app.view_functions[endpoint])

    @app.after_request
    def _tell_the_budget(response: Response) -> Response:
        counted = g.get("rate_limit")
        if counted is not None:
            response.headers.update(budgets.headers(counted))
        return response

    return limits
