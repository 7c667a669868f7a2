"""docs/api.md's "Codes" table lists every problem code outside the rules themselves: each code
the service, the dispute tools and the shared adjudication (domain/adjudication.py,
domain/chance.py, domain/kit) can answer with. A code added without a line there fails here,
and so does a line for a code nothing answers with any more."""
from __future__ import annotations

import ast
import pathlib
import re

from service.errors import CODES

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = [*(ROOT / "service").rglob("*.py"), *(ROOT / "disputes").rglob("*.py"),
           ROOT / "domain" / "adjudication.py", ROOT / "domain" / "chance.py", *(ROOT / "domain" / "kit").glob("*.py")]
CODE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")
# What answers with a problem code as one of its arguments.
ANSWERING = {"Problem", "Rejected", "Refusal", "problem_response", "__init__"}


def codes_in(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in ANSWERING:
            continue
        for arg in [*node.args, *(k.value for k in node.keywords if k.arg == "code")]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and CODE.match(arg.value):
                found.add(arg.value)
    return found


def documented() -> set[str]:
    text = (ROOT / "docs" / "api.md").read_text()
    table = text.split("### Codes", 1)[1].split("\nEvery other `code`", 1)[0]
    return {code for line in table.splitlines() if line.startswith("| `")
            for code in re.findall(r"`([A-Z_]+)`", line.split("|")[1])}


def answered() -> set[str]:
    return set(CODES.values()) | {c for path in SOURCES for c in codes_in(path.read_text())}


def test_every_code_outside_the_rules_is_in_the_table_and_every_line_is_a_code_answered():
    assert answered() - documented() == set(), "codes answered but not in docs/api.md's Codes table"
    assert documented() - answered() == set(), "lines in docs/api.md's Codes table for codes nothing answers with"


def test_the_scan_finds_a_code_however_it_is_passed():
    source = '''
Problem(404, "gone", "GAME_NOT_FOUND")
raise Rejected("NOT_YOUR_TURN", rule, "wait")
problem_response(422, "no", "INVALID_GAME", problems=[])
Problem(400, "bad", code="MALFORMED_REQUEST")
log("NOT_A_CODE_CALL")
'''
    assert codes_in(source) == {"GAME_NOT_FOUND", "NOT_YOUR_TURN", "INVALID_GAME", "MALFORMED_REQUEST"}
