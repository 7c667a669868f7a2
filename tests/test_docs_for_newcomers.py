"""What a newcomer reads matches what they meet (issue 17: the docs)."""
from __future__ import annotations

import re
from pathlib import Path

from domain.registry import all_rulesets
from service.application import DEFAULT_ENV

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_lists_the_rulesets_as_get_rulesets_serves_them():
    rows = re.findall(r"^\| `([a-z-]+)` \| [^|]+ \| (\d+)(?:-(\d+))? \|$", (ROOT / "README.md").read_text(), re.M)
    served = list(all_rulesets().values())
    assert [r[0] for r in rows] == [r.id for r in served]
    for (_, low, high), ruleset in zip(rows, served, strict=True):
        assert (int(low), int(high or low)) == (ruleset.min_players, ruleset.max_players), ruleset.id


def test_the_examples_need_nothing_beyond_curl_jq_and_the_project():
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text()
        assert "uuidgen" not in text, doc
        # the offline tools live in the project's virtualenv, which is not on PATH
        assert not re.search(r"^parley (verify|replay)", text, re.M), doc


def test_postgres_password_is_optional_as_documented():
    assert DEFAULT_ENV["POSTGRES_PASSWORD"] == ""
    assert "POSTGRES_PASSWORD` | optional" in (ROOT / "README.md").read_text()


def test_the_creation_example_shows_the_served_ruleset_version():
    """docs/api.md section 2's answer names the version of the ruleset it creates, as served:
    it said 1.0.0 after Corsairs became 1.1.0 (a newcomer's review)."""
    text = (ROOT / "docs" / "api.md").read_text()
    shown = re.findall(r'"ruleset": "([a-z-]+)",\n  "ruleset_version": "([^"]+)"', text)
    assert shown, "the creation example's answer is no longer where this test looks"
    served = all_rulesets()
    for ruleset, version in shown:
        assert served[ruleset].version == version, (ruleset, version)


def test_the_tutorials_shell_variables_do_not_take_the_servers_settings():
    """The tutorial's variables are set in the shell that may start the server: HOST and PORT
    choose its address (README), so a token kept in $HOST would be exported to it."""
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert not re.search(r"^\s*(export\s+)?(HOST|PORT)=\$\(", doc.read_text(), re.M), doc
