"""scripts/schemathesis-live, short: schemathesis's CLI against gunicorn on PostgreSQL.

The run must exit 0, and its report must show that it did the work: every operation tested,
every phase passed (stateful included, with scenarios run and links followed), and a count of
generated test cases all of which passed.
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.postgres.conftest import postgres_or_fail

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def run_live(*args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    """The script, its gunicorn log in a temporary directory (printed if the run fails)."""
    with tempfile.TemporaryDirectory(prefix="parley-schemathesis-") as tmp:
        log = Path(tmp) / "gunicorn.log"
        env = {**os.environ, "NO_COLOR": "1", "PARLEY_SCHEMATHESIS_LOG": str(log)}
        done = subprocess.run([str(ROOT / "scripts" / "schemathesis-live"), *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode and log.exists():
            done.stdout += "\n--- gunicorn's log (last 3000 characters) ---\n" + log.read_text()[-3000:]
        return done


def summary(output: str) -> dict:
    """The figures of schemathesis's closing summary (its wording in 4.32)."""
    def number(pattern: str) -> int:
        found = re.search(pattern, output)
        assert found, f"no {pattern!r} in schemathesis's output:\n{output[-3000:]}"
        return int(found.group(1))

    cases = re.search(r"Test cases:\s*\n\s*(\d+) generated, ([^\n]*)", output)
    assert cases, output[-3000:]
    passed = re.match(r"(\d+) passed", cases.group(2))
    closing = output.split("Test Phases:")[-1]
    return {
        "selected": number(r"Selected:\s+(\d+)/\d+"),
        "total": number(r"Selected:\s+\d+/(\d+)"),
        "tested": number(r"Tested:\s+(\d+)"),
        "generated": int(cases.group(1)),
        "passed": int(passed.group(1)) if passed else 0,
        "scenarios": number(r"Scenarios:\s+(\d+)"),
        "links": number(r"API Links:\s+(\d+) covered"),
        "phases": {name: mark for mark, name in re.findall(
            r"^\s+(\S+)\s+(Examples|Coverage|Fuzzing|Stateful)\s*$", closing, re.M)},
    }


def test_schemathesis_cli_against_gunicorn_and_postgres_passes_every_check_in_every_phase():
    postgres_or_fail()
    # A fixed seed: the same cases on every machine (scripts/schemathesis-live alone draws anew).
    run = run_live("--max-examples", "8", "--max-time", "30", "--", "--seed", "20261130")
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-6000:]
    figures = summary(output)
    assert figures["selected"] == figures["total"] == figures["tested"] >= 12, figures
    assert figures["phases"] == {"Examples": "✅", "Coverage": "✅", "Fuzzing": "✅", "Stateful": "✅"}, figures
    assert figures["generated"] >= 500 and figures["passed"] == figures["generated"], figures
    assert figures["scenarios"] >= 3 and figures["links"] >= 5, figures
    assert "failures" not in output.split("SUMMARY")[-1].lower().replace("0 failures", ""), output[-3000:]


def test_the_summary_parser_reads_a_failing_run_as_failing():
    """The parser is what makes the test above able to fail: a report with a failure in it
    (schemathesis 4.32's wording) does not pass for a clean one."""
    failing = """
 ✅  Examples (in 1.21s)
 ✅  Coverage (in 4.29s)
 ❌  Fuzzing (in 1.40s)
 ❌  Stateful (in 1.23s)

     Scenarios:    15
     API Links:    7 covered / 20 selected / 20 total (9 inferred)
=================================== SUMMARY ====================================
API Operations:
  Selected: 12/12
  Tested: 12
Test Phases:
  ✅ Examples
  ✅ Coverage
  ❌ Fuzzing
  ❌ Stateful
Failures:
  ❌ ST401 API accepts invalid authentication: 3
Test cases:
  1287 generated, 4 found 4 unique failures
"""
    figures = summary(failing)
    assert figures["phases"]["Stateful"] == "❌" and figures["passed"] != figures["generated"]
