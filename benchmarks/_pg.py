"""A throwaway PostgreSQL schema for a benchmark run (127.0.0.1:5432, db test, trust auth)."""
from __future__ import annotations

import contextlib
import os

import psycopg

DSN = os.environ.get("BENCH_POSTGRES_DSN", "host=127.0.0.1 port=5432 dbname=test user=postgres")


@contextlib.contextmanager
def fresh_schema(name: str):
    schema = f"bench_{name}_{os.getpid()}"
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield schema, {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "test",
                       "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": "5432", "POSTGRES_USER": "postgres",
                       "POSTGRES_PASSWORD": "", "POSTGRES_SCHEMA": schema}
    finally:
        with psycopg.connect(DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
