"""service/store.py: the PostgreSQL recorders retry once after a broken connection, never after
the pool gave up waiting, and then answer at once for a moment (the outage itself is
tests/postgres/test_faults.py)."""
from __future__ import annotations

import functools

import pytest
from eventsourcing.persistence import OperationalError
from psycopg_pool import PoolTimeout

from service import store


def library_method(outcomes: list):
    """A stand-in for a library recorder method: raises or returns its outcomes in turn."""
    calls = []

    def method():
        calls.append(1)
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    @functools.wraps(method)
    def decorated():  # the library's own retry decorator would be here
        return method()

    return store._fail_fast(decorated), calls


def pool_timeout() -> OperationalError:
    error = OperationalError("couldn't get a connection after 3.00 sec")
    error.__cause__ = PoolTimeout("couldn't get a connection after 3.00 sec")
    return error


@pytest.fixture(autouse=True)
def closed_breaker(monkeypatch):
    monkeypatch.setattr(store, "BREAKER", store.Breaker())
    monkeypatch.setattr(store, "WAIT", 0)


def test_broken_connections_are_retried():
    # After a restart of the database every pooled connection is stale and fails when used.
    stale = [OperationalError("server closed the connection") for _ in range(5)]
    call, calls = library_method(stale + ["rows"])
    assert call() == "rows" and len(calls) == 6


def test_broken_connections_beyond_the_attempts_are_the_callers_error():
    broken = [OperationalError(str(i)) for i in range(store.ATTEMPTS)]
    call, calls = library_method(broken + ["never"])
    with pytest.raises(OperationalError, match=str(store.ATTEMPTS - 1)):
        call()
    assert len(calls) == store.ATTEMPTS


def test_a_pool_timeout_after_a_broken_connection_stops_the_retries():
    call, calls = library_method([OperationalError("server closed the connection"),
                                  pool_timeout(), "never"])
    with pytest.raises(OperationalError, match="couldn't get a connection"):
        call()
    assert len(calls) == 2


def test_a_pool_timeout_is_not_retried_and_opens_the_breaker(monkeypatch):
    call, calls = library_method([pool_timeout(), "rows", "rows"])
    with pytest.raises(OperationalError):
        call()
    assert len(calls) == 1
    with pytest.raises(OperationalError, match="moments ago"):
        call()  # answered at once: the database is not asked
    assert len(calls) == 1
    monkeypatch.setattr(store.BREAKER, "open_until", 0.0)  # the moment has passed
    assert call() == "rows" and len(calls) == 2


def test_parley_on_postgres_uses_the_fail_fast_recorders():
    from service.application import Parley

    parley = Parley.__new__(Parley)  # construct_env only, no store opened
    env = parley.construct_env("parley", {"PERSISTENCE_MODULE": "eventsourcing.postgres"})
    assert env["PERSISTENCE_MODULE"] == store.TOPIC
    factory = store.FailFastPostgresFactory
    for recorder in (factory.aggregate_recorder_class, factory.application_recorder_class):
        for name in ("insert_events", "select_events"):
            assert getattr(recorder, name).__code__.co_filename == store.__file__


def test_a_statement_the_server_refused_is_not_retried():
    import psycopg

    class LockNotAvailable(psycopg.OperationalError):
        sqlstate = "55P03"

    error = OperationalError("canceling statement due to lock timeout")
    error.__cause__ = LockNotAvailable("canceling statement due to lock timeout")
    call, calls = library_method([error, "never"])
    with pytest.raises(OperationalError, match="lock timeout"):
        call()
    assert len(calls) == 1
