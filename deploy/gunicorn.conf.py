"""gunicorn settings for Parley (the Procfile passes --bind from $HOST/$PORT).

Workers import service.wsgi after forking, so each creates its own Application and its own
database connections; preloading would share them across processes and break Postgres.

Every line gunicorn and the app print is JSON (service/logs.py); the app logs one line per
request itself, so gunicorn's own access log is off. Prometheus metrics are summed across
workers through files in PROMETHEUS_MULTIPROC_DIR, emptied when the server starts.
"""
import os
import shutil
import tempfile

# Two workers (one per core of the 2-core machine), each running gevent (service/serving.py):
# a connection costs a greenlet while it idles, dribbles its request or waits on the database,
# so slow and idle clients cannot hold the workers, and live updates' long-lived connections
# cost little. service.serving.Worker is gunicorn's gevent worker with deadlines for reading
# a request (PARLEY_HEADER_SECONDS, PARLEY_BODY_SECONDS); CPU-heavy requests run in native
# threads (serving.offload). Up to GUNICORN_CONNECTIONS open connections per worker.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "service.serving.Worker"
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "2000"))
preload_app = False
# How long an idle kept-alive connection stays open. gunicorn's default, 2 s, closes
# connections that clients still hold in their pools, and a request sent on one just as it
# closes fails with "connection closed without response" (seen in the suite on a busy
# machine): a client cannot tell whether a POST sent that way was received. 75 s outlasts
# the idle timeouts of common client pools and load balancers (60 s), which then close first.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
accesslog = None
# gunicorn's logger, but an access line is built only if `gunicorn.access` would print it
# (service/serving.py Logger): below, it prints warnings only, and the app logs each request.
logger_class = "service.serving.Logger"
loglevel = os.environ.get("LOG_LEVEL", "info")
# Do not trust X-Forwarded-* from anywhere by default; a platform's router sets its own.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# gunicorn 27's control socket defaults to one path per user: two servers (a dev server and
# the test suite's) would fight over it, and nothing here uses it.
control_socket_disable = True

logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "service.logs.JsonFormatter"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json",
                            "stream": "ext://sys.stderr"}},
    "root": {"level": loglevel.upper(), "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": loglevel.upper(), "handlers": ["stderr"], "propagate": False},
        "gunicorn.access": {"level": "WARNING", "handlers": ["stderr"], "propagate": False},
    },
}

# Metrics: one directory per server (not shared with another gunicorn on the machine).
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="parley-metrics-")


# Metrics on an internal port of their own (PARLEY_METRICS_PORT, on PARLEY_METRICS_ADDR,
# default 127.0.0.1), served by the master from every worker's files; /metrics on the service
# port then answers 404. Without it, /metrics is on the service port (PARLEY_METRICS_TOKEN to
# ask for a token).
METRICS_PORT = os.environ.get("PARLEY_METRICS_PORT")


def when_ready(server):
    if METRICS_PORT:
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        address = os.environ.get("PARLEY_METRICS_ADDR", "127.0.0.1")
        start_http_server(int(METRICS_PORT), addr=address, registry=registry)
        server.log.info("metrics on http://%s:%s/metrics", address, METRICS_PORT)


def on_starting(server):
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory, exist_ok=True)
    _prepare_the_store()


def _prepare_the_store():
    """The store's tables, and on a database from before the stored game list the list filled
    from every stored event (service/listing.py; 10-25 s for 100,000 games here,
    docs/performance.md), before the master opens its port and boots workers: meanwhile the
    port refuses connections (a load balancer sees the node down) instead of queueing requests
    behind workers that are still booting, and no worker boot lasts that long (gunicorn's
    documented `timeout` kills a silent worker; 27.0.1 happens not to count a boot, since it
    compares the wall-clock time of the heartbeat file with a monotonic clock until the first
    beat). In a process of its own: importing the service here, before the workers' gevent
    monkey-patching, would leave them with unpatched locks. Workers then find the tables."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", "from service.application import prepare_store; prepare_store()"],
                   check=True)


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)

def _problem_error(sock, status_int, reason, mesg):
    """gunicorn's own refusals (request line over 4094 bytes: 414, a header too large: 431, a
    malformed request: 400) as RFC 9457 problems, like every other error of Parley's."""
    from gunicorn import util

    from service.errors import problem_bytes

    util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


def _install_problem_errors():
    from gunicorn import util

    util.write_error = _problem_error


_install_problem_errors()


# An answer given before its request's body came whole says "Connection: close" (the worker's
# Response, service/serving.py): what is left of the body would be read as the next request.


# A kept-alive connection is answered with "Connection: close" after this many requests (as
# nginx's keepalive_requests; 0: never), and the client opens a new one. The workers share one
# listening socket and the one that accepts first takes a connection: measured here, 12
# connections opened in a row on an idle server all went to one worker in 2 runs of 5, which
# then served them on one core (its GIL) at about 740 commands/s against 1,000-1,200 when
# split. Under load a new connection goes mostly to a worker with time to spare, so
# recycling connections spreads them again within seconds (docs/performance.md). A socket
# per worker (gunicorn's reuse_port) spreads them at once, but resets the connections queued
# on a worker's socket when that worker stops, restarts or dies: not used.
KEEPALIVE_REQUESTS = int(os.environ.get("GUNICORN_KEEPALIVE_REQUESTS", "200"))


def pre_request(worker, req):
    if 0 < KEEPALIVE_REQUESTS <= req.req_number:
        req.must_close = True



def worker_exit(server, worker):
    """Close the worker's event store (its database connections) while the worker can still
    wait: left to the garbage collector, the pool is closed while gevent's hub is being torn
    down, and each worker prints a "greenlet is being finalized" traceback as it stops."""
    app = getattr(worker, "wsgi", None)
    parley = getattr(app, "extensions", {}).get("parley") if app is not None else None
    if parley is not None:
        parley.close()


def _full_collection_every() -> int:
    """PARLEY_GC_FULL_EVERY, read when gunicorn reads this file: a bad value stops the start
    with its reason, instead of failing every worker's boot."""
    value = os.environ.get("PARLEY_GC_FULL_EVERY") or "100"   # set but empty: the default
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise SystemExit(f"PARLEY_GC_FULL_EVERY={value!r}: a whole number of at least 1 "
                         "(middle-generation collections between full ones; Python's own is 10)")
    return int(value)


GC_FULL_EVERY = _full_collection_every()


def post_worker_init(worker):
    """The app is loaded: the modules, schemas, rulesets and content it built live as long as
    the worker. gc.freeze() takes them out of the cyclic collector's generations, so a full
    collection walks only what requests and kept games made since. Kept games make new
    long-lived objects with every command, so full collections (over the whole game cache:
    130-190 ms each in the streams benchmark) ran every few seconds; one after 100 collections
    of the middle generation instead of Python's 10 (PARLEY_GC_FULL_EVERY) took the workers'
    share of CPU in the collector from 10-11% to about 4% (docs/performance.md, "The garbage
    collector's share"). Most garbage here is freed by reference counting; cycles wait longer."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, GC_FULL_EVERY)
