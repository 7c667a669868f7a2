"""The code stays readable (issue 14): no function in domain/, service/ or disputes/ is over 60 lines, counted from its
`def` to its last line (decorators and docstring included), so that each one can be checked
against the section of the rulebook it cites. An interpreter is a table of small handlers; a
set-up or a content check is split by concern."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"
LAYERS = ("domain", "service", "disputes")
MOST = 60


def _functions():
    for path in sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path.relative_to(ROOT), node


def test_no_function_in_the_rules_the_service_or_the_disputes_tools_is_over_60_lines():
    long = [f"{path}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for path, node in _functions() if node.end_lineno - node.lineno + 1 > MOST]
    assert not long, f"functions over {MOST} lines: {long}"


def test_the_walk_finds_the_interpreters():
    names = {(str(path), node.name) for path, node in _functions()}
    assert ("domain/valeria/effects.py", "_walk") in names and ("domain/chrono/effects.py", "_apply") in names
