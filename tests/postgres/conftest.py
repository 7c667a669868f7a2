"""The API tests again, on PostgreSQL at 127.0.0.1:5432 (database `test`, user `postgres`).

Each test gets its own schema, dropped afterwards. When PostgreSQL is unreachable these tests
skip on a developer's machine but FAIL in CI (CI=true), where they must run.
"""
from __future__ import annotations

import os
import time
import uuid

import psycopg
import pytest

from tests.api.conftest import app, client, corsairs_app, corsairs_client  # noqa: F401
from tests.postgres import live

_STARTED = pytest.StashKey[float]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    item.stash[_STARTED] = time.monotonic()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test's report ends with the last lines of the log of every gunicorn it could
    have talked to: those still running, and those started since the test began (the logs
    themselves are removed when the test process exits: tests/postgres/live.py)."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    began = item.stash.get(_STARTED, 0.0)
    for server in live.SERVERS:
        if server.running or server.started_at >= began:
            report.sections.append((f"gunicorn at {server.base}: the last lines of its log", server.tail()))

CONNINFO = dict(host="127.0.0.1", port=5432, dbname="test", user="postgres", password="")


def postgres_or_fail() -> None:
    try:
        psycopg.connect(**CONNINFO, connect_timeout=3).close()
    except psycopg.OperationalError as error:
        message = f"PostgreSQL at 127.0.0.1:5432 (db test, user postgres) is unreachable: {error}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message + " (CI must run these tests: .ci/run starts PostgreSQL)")
        pytest.skip(message)


@pytest.fixture
def postgres_schema():
    """A fresh, empty schema for one test; dropped (with its tables) afterwards."""
    postgres_or_fail()
    schema = f"parley_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(**CONNINFO, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    yield schema
    with psycopg.connect(**CONNINFO, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


def postgres_env(schema: str) -> dict:
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": CONNINFO["dbname"],
        "POSTGRES_HOST": CONNINFO["host"],
        "POSTGRES_PORT": str(CONNINFO["port"]),
        "POSTGRES_USER": CONNINFO["user"],
        "POSTGRES_PASSWORD": CONNINFO["password"],
        "POSTGRES_SCHEMA": schema,
        "POSTGRES_POOL_SIZE": "4",
        "POSTGRES_CONNECT_TIMEOUT": "3",
    }


@pytest.fixture
def persistence(postgres_schema) -> dict:
    return postgres_env(postgres_schema)


@pytest.fixture
def nodes(postgres_schema):
    """Two gunicorn servers from the Procfile (two gevent workers each) on one database."""
    from tests.postgres.live import Gunicorn

    started = []
    try:
        for _ in range(2):
            started.append(Gunicorn(postgres_env(postgres_schema), workers=2).start())
        yield started
    finally:
        for node in started:
            node.stop()
