"""The WSGI entry point gunicorn imports in each worker, after the fork.

Creating the application here (not before the fork, never with --preload) gives every worker
its own event-store connections: shared Postgres connections break across processes.
"""
from service import create_app

app = create_app()
