"""For whoever runs Parley: /healthz, /readyz, /metrics, and the request bookkeeping behind them.

Every request gets a request id (the client's `X-Request-ID` when it is a sensible one, else
a new one), echoed in the response, logged as one JSON line with its route, status, duration
and game id, and counted in Prometheus metrics. Under gunicorn the metrics of every worker are
added up (prometheus_client's multiprocess mode: deploy/gunicorn.conf.py sets
PROMETHEUS_MULTIPROC_DIR before any worker starts).

/metrics is open unless METRICS_TOKEN (env PARLEY_METRICS_TOKEN) is set; then it needs
`Authorization: Bearer <that token>`. Rejection counts by code are a faint signal about games
in play, so a deployment reachable by players should set it.
"""
from __future__ import annotations

import hmac
import logging
import os
import re
import time
import uuid
from contextlib import contextmanager

import marshmallow as ma
from flask import Flask, Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest, multiprocess

from domain.ruleset import Rejected
from service.api import Blueprint, application
from service.errors import Problem

blp = Blueprint("operations", __name__, url_prefix="",
                description="For operators: liveness, readiness and Prometheus metrics.")

log = logging.getLogger("parley.requests")

REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
LATENCY_BUCKETS = (.002, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10)

REQUESTS = Counter("parley_http_requests_total", "HTTP requests answered, by route and status",
                   ["method", "route", "status"])
REQUEST_SECONDS = Histogram("parley_http_request_duration_seconds",
                            "Time to answer an HTTP request, by route", ["method", "route"],
                            buckets=LATENCY_BUCKETS)
COMMAND_SECONDS = Histogram("parley_command_duration_seconds",
                            "Time to adjudicate (and store) one command, by ruleset and outcome",
                            ["ruleset", "outcome"], buckets=LATENCY_BUCKETS)
REJECTIONS = Counter("parley_command_rejections_total",
                     "Commands refused by the rules or the service (422), by ruleset and code",
                     ["ruleset", "code"])


class StatusSchema(ma.Schema):
    status = ma.fields.String(required=True)


def route_label(current=None) -> str:
    """The route's rule (/games/<uuid:game_id>/commands), never the raw path: bounded labels.
    `current`: the request, when the caller holds it already (else Flask's)."""
    rule = (current if current is not None else request).url_rule
    return rule.rule if rule is not None else "unmatched"


def install(app: Flask) -> None:
    """The request id, the JSON request log line and the HTTP metrics, for every request."""

    @app.before_request
    def _start():
        context = g._get_current_object()  # werkzeug's proxy, looked up once
        context.request_id = request_id_for(request.environ)
        context.started = time.perf_counter()

    @app.after_request
    def _finish(response: Response) -> Response:
        context = g._get_current_object()  # one lookup, not one per use
        current = request._get_current_object()  # type: ignore[attr-defined]
        started = context.get("started")
        account(current.method, current.path, route_label(current), response.status_code,
                time.perf_counter() - started if started is not None else 0.0)
        request_id = context.get("request_id")
        if request_id:
            response.headers["X-Request-ID"] = request_id
        return response


def request_id_for(environ: dict) -> str:
    """The request's id: the client's X-Request-ID when it is a sensible one, else a new one."""
    given = environ.get("HTTP_X_REQUEST_ID", "")
    return given if REQUEST_ID.match(given) else uuid.uuid4().hex


# The methods counted under their own name; any other (a client may send any token as its
# method, and a 405 is not rate limited) is counted as "other", so the labels stay bounded.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def account(method: str, path: str, route: str, status: int, elapsed: float) -> None:
    """Count an answered request in the metrics, and log its line (when INFO is logged)."""
    label = method if method in METHODS else "other"
    _child(REQUESTS, label, route, str(status)).inc()
    _child(REQUEST_SECONDS, label, route).observe(elapsed)
    if log.isEnabledFor(logging.INFO):
        log.info("%s %s %s", method, path, status, extra={
            "method": method, "path": path, "route": route,
            "status": status, "duration_ms": round(elapsed * 1000, 2)})


# The labelled children of the metrics, by labels: prometheus_client's labels() checks and
# joins its arguments on every call. Routes, methods, statuses, rulesets and codes are bounded
# (route_label), so this is too.
_CHILDREN: dict = {}


def _child(metric, *labels: str):
    key = (id(metric), labels)
    child = _CHILDREN.get(key)
    if child is None:
        child = _CHILDREN.setdefault(key, metric.labels(*labels))
    return child


@contextmanager
def command_metrics(ruleset_id: str):
    """Time a command and count its rejection; the body sets outcome["outcome"] on success."""
    outcome = {"outcome": "accepted"}
    started = time.perf_counter()
    try:
        yield outcome
    except Rejected as error:
        outcome["outcome"] = "rejected"
        _child(REJECTIONS, ruleset_id, error.code).inc()
        raise
    except Problem as error:
        if error.status == 422:
            outcome["outcome"] = "rejected"
            _child(REJECTIONS, ruleset_id, error.code).inc()
        elif error.status in (409, 412):
            outcome["outcome"] = "conflict"
        else:
            outcome["outcome"] = "refused"
        raise
    except Exception:
        outcome["outcome"] = "error"
        raise
    finally:
        _child(COMMAND_SECONDS, ruleset_id, outcome["outcome"]).observe(time.perf_counter() - started)


@blp.route("/healthz")
@blp.doc(operationId="health")
@blp.response(200, StatusSchema)
@blp.problems(limited=False)
def health():
    """Liveness: the process answers. It does not touch the event store."""
    return {"status": "alive"}


@blp.route("/readyz")
@blp.doc(operationId="readiness")
@blp.response(200, StatusSchema)
@blp.problems(503, limited=False)
def readiness():
    """Readiness: the event store answers a read. 503 (with Retry-After) while it does not."""
    try:
        application().events.get(originator_id=uuid.UUID(int=0), limit=1)
    except Exception as error:  # any failure to read means not ready; the reason is logged
        logging.getLogger(__name__).warning("not ready: %s", error)
        raise Problem(503, "The event store does not answer; try again shortly.",
                      "STORE_UNAVAILABLE", headers={"Retry-After": "2"}) from None
    return {"status": "ready"}


@blp.route("/metrics")
@blp.doc(operationId="metrics", responses={"200": {
    "description": "Prometheus text exposition, summed over every worker",
    "content": {"text/plain": {"schema": {"type": "string"}}}}})
@blp.problems(401, 404, limited=False)
def metrics():
    """Prometheus metrics: requests by route and status, command latency, rejections by code.
    Not here (404) when PARLEY_METRICS_PORT serves them on an internal port instead."""
    if os.environ.get("PARLEY_METRICS_PORT"):
        raise Problem(404, "Metrics are served on the operator's internal metrics port, not here.")
    token = current_app.config.get("METRICS_TOKEN")
    if token:
        header = request.headers.get("Authorization", "")
        given = header[7:].strip() if header[:7].lower() == "bearer " else ""
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise Problem(401, "Send the metrics token as 'Authorization: Bearer <token>'.",
                          headers={"WWW-Authenticate": 'Bearer realm="parley-metrics"'})
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return Response(generate_latest(registry), 200, {"Content-Type": CONTENT_TYPE_LATEST})
