"""scripts/python: the interpreter scripts/serve and scripts/test make .venv with. A machine
with only a python3 of 3.11 or newer must do (pyproject.toml's requires-python), and one
with none must be told what is missing, not fail on a missing command."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fake_python(directory: Path, name: str, version: tuple[int, int]) -> Path:
    """An executable `name` that answers `-c` as a Python of `version` would for the script's check."""
    path = directory / name
    path.write_text(f"#!/bin/sh\n# the version check: exit 1 when older than 3.11\n"
                    f"[ {version[0] * 100 + version[1]} -ge 311 ]\n")
    path.chmod(0o755)
    return path


def run(path_dirs: list[Path]) -> subprocess.CompletedProcess:
    # Only the fakes on PATH: the script needs nothing but bash's builtins, and /usr/bin may
    # hold a real python3.11.
    env = {**os.environ, "PATH": os.pathsep.join(map(str, path_dirs))}
    bash = shutil.which("bash")
    assert bash is not None
    return subprocess.run([bash, str(ROOT / "scripts" / "python")], env=env, capture_output=True, text=True,
                          check=False)


def test_python3_11_is_taken_first(tmp_path):
    chosen = fake_python(tmp_path, "python3.11", (3, 11))
    fake_python(tmp_path, "python3", (3, 12))
    answer = run([tmp_path])
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip() == str(chosen)


def test_a_newer_python3_does_when_there_is_no_python3_11(tmp_path):
    chosen = fake_python(tmp_path, "python3", (3, 12))
    answer = run([tmp_path])
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip() == str(chosen)


def test_an_older_python3_is_refused_with_what_is_needed(tmp_path):
    fake_python(tmp_path, "python3", (3, 10))
    fake_python(tmp_path, "python3.11", (3, 10))  # a name is not a version
    answer = run([tmp_path])
    assert answer.returncode == 1
    assert answer.stdout == ""
    assert "Python 3.11 or newer" in answer.stderr
