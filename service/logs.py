"""JSON logs: one object per line, carrying the request id and the game id of the request.

`JsonFormatter` is used by the app's own loggers and by gunicorn's (deploy/gunicorn.conf.py
names it in its logconfig_dict), so everything a worker or the master prints is JSON.
Any `extra={...}` given to a log call becomes a member of the line.
"""
from __future__ import annotations

import json
import logging
import time

import orjson

# Attributes every LogRecord has; whatever else a record carries came from `extra=`.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def request_context() -> dict:
    """The request id and game id of the request being served, if any: from Flask's request
    context, or from the app context alone where a route serves without one (g.game_id:
    service/api/commands.py LeanRoute)."""
    try:
        from flask import g, has_app_context, has_request_context, request
    except ImportError:  # gunicorn's master formats its own lines without Flask
        return {}
    if not has_app_context():
        return {}
    context = {}
    request_id = g.get("request_id")
    if request_id:
        context["request_id"] = request_id
    game_id = (request.view_args or {}).get("game_id") if has_request_context() else g.get("game_id")
    if game_id is not None:
        context["game_id"] = str(game_id)
    return context


# A datetime and a dataclass are handed to `default` (str), as json.dumps handed them, rather
# than written in orjson's own forms. (Unlike json.dumps, orjson writes an Enum as its value and
# NaN as null; no Parley log line carries either.)
_ORJSON = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: compact, UTF-8 (nothing escaped but what JSON must), written
    by orjson (a request's line costs a worker about a third of what json.dumps took), or by
    json.dumps where orjson refuses a value (an integer past 64 bits, a lone surrogate)."""

    _second: tuple[int, str] = (-1, "")  # the last whole second formatted, and its text

    def format(self, record: logging.LogRecord) -> str:
        second, cached = int(record.created), self._second
        if second != cached[0]:
            cached = self._second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
        line = {
            "ts": f"{cached[1]}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,
            "msg": record.getMessage(),
        }
        line.update(request_context())
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        try:
            return orjson.dumps(line, default=str, option=_ORJSON).decode()
        except (TypeError, orjson.JSONEncodeError):
            return json.dumps(line, default=str, ensure_ascii=False, separators=(",", ":"))


def configure(level: str = "INFO") -> None:
    """Send the root logger's records to stderr as JSON (once per process)."""
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
