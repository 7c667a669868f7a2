"""`parley verify` and `parley replay` on export files: no server, no database."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from disputes.cli import main
from domain.registry import all_rulesets
from tests.disputes.games import CORSAIRS, LEAGUE, tampered

PARLEY = Path(sys.executable).parent / "parley"


@pytest.fixture
def corsairs_file(tmp_path, finished_exports) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_exports[(CORSAIRS, "server")]))
    return path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(PARLEY), *args], capture_output=True, text=True, timeout=60)


def test_the_installed_parley_command_verifies_an_export_file(corsairs_file):
    done = run("verify", str(corsairs_file))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "valid"


def test_parley_verify_exits_1_with_the_divergence_for_a_tampered_file(tmp_path, finished_exports, capsys):
    document = tampered(finished_exports[(LEAGUE, "server")])
    entry = document["commands"][3]["events"][0]
    entry["event"]["forged"] = 1
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(document))
    assert main(["verify", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["divergence"]["version"] == entry["version"]


def test_parley_verify_exits_3_on_a_file_that_is_not_an_export(tmp_path, capsys):
    path = tmp_path / "nothing.json"
    path.write_text("[1, 2]")
    assert main(["verify", str(path)]) == 3
    assert "export" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 3


def test_parley_replay_prints_the_state_at_a_version(corsairs_file, finished_exports):
    document = finished_exports[(CORSAIRS, "server")]
    at = document["commands"][10]["events"][0]["version"]
    done = run("replay", str(corsairs_file), "--at", str(at))
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["version"] == at and shown["status"] == "active"
    assert shown["last_command"] == {"version": at, "seat": document["commands"][10]["seat"],
                                     "body": document["commands"][10]["body"]}
    # the same state the rules reach by folding the recorded events
    ruleset = all_rulesets()[CORSAIRS]
    state = ruleset.initial_state()
    for entry in document["setup"] + [e for c in document["commands"] for e in c["events"]]:
        if entry["version"] <= at:
            state = ruleset.evolve(state, entry["event"])
    assert shown["state"] == json.loads(json.dumps(ruleset.view(state, "arbiter")))


def test_parley_replay_with_a_seat_shows_what_that_seat_saw(tmp_path, finished_exports, capsys):
    document = finished_exports[(LEAGUE, "server")]
    path = tmp_path / "league.json"
    path.write_text(json.dumps(document))
    # the moment after one seat chose its league and before the other did
    chosen = next(c for c in document["commands"] if c["body"]["type"] == "choose_league")
    at, viewer = chosen["events"][0]["version"], 1 - chosen["seat"]
    assert main(["replay", str(path), "--at", str(at), "--seat", str(viewer)]) == 0
    seen = json.loads(capsys.readouterr().out)
    other = seen["state"]["seats"][chosen["seat"]]
    assert seen["viewer"] == viewer and other["league_chosen"] is True and other["league"] is None
    assert main(["replay", str(path), "--at", str(at)]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["seats"][chosen["seat"]]["league"] is not None


def test_parley_replay_refuses_a_version_the_export_does_not_have(corsairs_file, capsys):
    assert main(["replay", str(corsairs_file), "--at", "999999"]) == 3
    assert "no version 999999" in capsys.readouterr().err
