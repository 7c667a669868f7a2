"""gunicorn settings for Parley (the Procfile passes --bind from $HOST/$PORT).

Workers import service.wsgi after forking, so each creates its own Application and its own
database connections; preloading would share them across processes and break Postgres.
"""
import os

# Two workers of four threads each (gunicorn's gthread worker). Measured on the 2-core machine
# (docs/performance.md): threads keep connections alive, where the sync worker accepts and
# closes a connection per request and then idles until the client has closed its end; about
# 1 ms of worker CPU per command went on that. One worker per core; the threads overlap one
# request's database waits with another's Python.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
preload_app = False
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# Do not trust X-Forwarded-* from anywhere by default; a platform's router sets its own.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn 27's control socket defaults to one path per user: two servers (a dev server and
# the test suite's) would fight over it, and nothing here uses it.
control_socket_disable = True
