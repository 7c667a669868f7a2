"""The layers of docs/architecture.md, held: domain/ imports nothing above it and no I/O
library; disputes/ imports domain/ and nothing of the service; the send-command use case
imports no web framework (tests/api/test_send_command.py)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB_AND_STORAGE = {"flask", "flask_smorest", "limits", "marshmallow", "webargs", "werkzeug", "psycopg",
                   "psycopg_pool", "eventsourcing", "gunicorn", "gevent", "requests", "redis", "sqlite3",
                   "socket", "subprocess", "http", "urllib", "prometheus_client", "cryptography"}
FORBIDDEN = {
    "domain": WEB_AND_STORAGE | {"service", "disputes"},
    "disputes": WEB_AND_STORAGE | {"service"},
}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer):
    wrong = {str(p.relative_to(ROOT)): sorted(imports(p) & FORBIDDEN[layer])
             for p in (ROOT / layer).rglob("*.py")}
    assert {p: names for p, names in wrong.items() if names} == {}


def test_the_check_sees_a_forbidden_import(tmp_path):
    planted = tmp_path / "x.py"
    planted.write_text("import os\nfrom flask import request\nfrom . import kit\n")
    assert imports(planted) & FORBIDDEN["domain"] == {"flask"}
