"""Rate limits per client address (issue 15), by Flask-Limiter.

Two budgets per address:
- **costly**: creating a game, a dry run, a verification and a replay (they cost the most CPU
  or storage per request) each have one: 100 a minute by default. A person or a table app
  creating a game every few seconds never meets it; a script creating a few hundred within a
  minute does.
  A game created with custom content spends CUSTOM_CONTENT_COST (20) of it: validating nested
  content holds the CPU for seconds, so an address may create 5 such games a minute.
- **everything else**: 6,000 a minute (100 a second) by default; the costly requests count
  here too. /healthz, /readyz and /metrics are never limited (probes and scrapers).

Over a limit the answer is 429 problem+json `RATE_LIMITED` with `Retry-After` (seconds).

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
                         the one that proxy states.

An IPv6 client is counted by its /64 network: one host usually holds a whole /64, and counting
each address apart would let it take a new budget per address.
"""
from __future__ import annotations

import ipaddress
import os

from flask import Flask, request
from flask_limiter import Limiter, RateLimitExceeded
from werkzeug.middleware.proxy_fix import ProxyFix

from service.errors import problem_response

COSTLY_DEFAULT = "100 per minute"
EVERYTHING_DEFAULT = "6000 per minute"
# The endpoints that spend the costly budget; a command only when it is a dry run.
COSTLY = ("games.create_game", "verifications.verify_export", "replays.replay_export", "commands.send_command")
UNLIMITED = ("operations.health", "operations.readiness", "operations.metrics")
CUSTOM_CONTENT_COST = 20
TRUTHY = {"true", "t", "yes", "y", "on", "1"}  # what the dry_run query parameter accepts as true


def _setting(app: Flask, name: str, default: str) -> str:
    value = app.config.get(name)
    if value is None:
        value = os.environ.get(f"PARLEY_{name}") or default
    return str(value)


def client_address() -> str:
    """The address a request is counted against: the peer's (or, behind trusted proxies,
    the one they state), an IPv6 address as its /64 network."""
    address = request.remote_addr or "unknown"
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
    if request.endpoint == "games.create_game":
        body = request.get_json(silent=True)
        if isinstance(body, dict) and body.get("content") is not None:
            return CUSTOM_CONTENT_COST
    return 1


def _not_costly() -> bool:
    if request.endpoint == "commands.send_command":
        return request.args.get("dry_run", "").lower() not in TRUTHY
    return False


def _too_many(error: RateLimitExceeded):
    what = _costly_words() if _is_route_limit(error) else "requests"
    return problem_response(
        429, f"Too many {what} from your address: at most {error.limit.limit}. "
             "Wait as long as Retry-After says, then send it again.", "RATE_LIMITED")


def _is_route_limit(error: RateLimitExceeded) -> bool:
    """Whether the budget spent is the costly one of this endpoint (not the address's whole)."""
    return request.endpoint in COSTLY and not _not_costly() and getattr(error.limit, "scope", None) != "global"


def _costly_words() -> str:
    what = {"games.create_game": "games created", "verifications.verify_export": "verifications",
            "replays.replay_export": "replays"}.get(request.endpoint or "", "requests")
    if request.endpoint == "commands.send_command":
        what = "dry runs"
    return what


def install(app: Flask) -> Limiter | None:
    """Rate-limit the app as its settings say; None when the limits are off."""
    if _setting(app, "RATE_LIMITS", "on").lower() in ("off", "false", "0", "no"):
        return None
    proxies = int(_setting(app, "TRUSTED_PROXIES", "0"))
    if proxies:
        # Flask's documented way to wrap its WSGI app:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=0, x_host=0, x_port=0, x_prefix=0)  # type: ignore[method-assign]
    limiter = Limiter(
        client_address, app=app, key_prefix="parley",
        # One budget for all of an address's requests together (an application limit; a
        # default limit would count each endpoint apart).
        application_limits=[_setting(app, "RATE_LIMIT_DEFAULT", EVERYTHING_DEFAULT)],
        storage_uri=_setting(app, "RATE_LIMIT_STORAGE", "memory://"),
        strategy="moving-window", headers_enabled=True, retry_after="delta-seconds",
        # A shared counter store that fails (Redis away) must not fail the API: the worker
        # counts in memory meanwhile, and Flask-Limiter logs the outage.
        in_memory_fallback_enabled=True, swallow_errors=True)
    costly = _setting(app, "RATE_LIMIT_COSTLY", COSTLY_DEFAULT)
    for endpoint in COSTLY:  # each its own budget (a route's limit counts per endpoint)
        if endpoint in app.view_functions:
            limit = limiter.limit(costly, exempt_when=_not_costly, cost=_cost)
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])  # type: ignore[assignment]
    for endpoint in UNLIMITED:
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = limiter.exempt(app.view_functions[endpoint])  # type: ignore[assignment]
    app.register_error_handler(RateLimitExceeded, _too_many)
    return limiter
