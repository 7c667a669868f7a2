"""The WSGI entry point gunicorn imports in each worker, after the fork.

Creating the application here (not before the fork, never with --preload) gives every worker
its own event-store connections: shared Postgres connections break across processes.
"""
import os

from service import create_app, logs

logs.configure(os.environ.get("LOG_LEVEL", "info"))
app = create_app()
