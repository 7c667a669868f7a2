"""A table-chance creation whose setup reports several draws that cannot have happened is
refused once, listing every one of them (kit.Dealing), each naming its field."""
from __future__ import annotations

import pytest

from domain import kit
from domain.chance import TableChance
from domain.ruleset import InvalidCreation, Rejected, cause
from domain.valeria import RULESET as VALERIA


def test_valeria_lists_a_wrong_domain_and_wrong_dukes_together():
    with pytest.raises(InvalidCreation) as refused:
        VALERIA.setup(["Ann", "Bo"], None, None, TableChance("host"),
                      {"domains": ["no-such-domain", "x", "y", "z", "w"], "dukes": [["q", "r"], ["s", "t"]],
                       "first_player": 0})
    fields = [cause(p)["field"] for p in refused.value.problems]
    assert fields == ["setup.domains", "setup.dukes"]
    assert "no-such-domain" in refused.value.problems[0]


def test_a_dealing_answers_for_a_refused_report_and_remembers_it():
    dealing = kit.dealing(TableChance("host"))
    assert dealing.mode == "table"
    assert dealing.pick(["a", "b", "c"], 2, ["a", "zz"], "setup.cards") == ["a", "b"]
    assert dealing.shuffle(["a", "b"], ["b"], "setup.order") == ["a", "b"]
    assert dealing.roll(2, ["1", "2"], ["7", "1"], "setup.dice") == ["1", "1"]
    assert dealing.pick(["a", "b"], 1, ["b"], "setup.fine") == ["b"]  # a right report is the table's
    refused = kit.refused_reports(dealing)
    assert [type(r) for r in refused] == [Rejected] * 3
    lines = [kit.report_problem(r) for r in refused]
    assert [cause(line)["field"] for line in lines] == ["setup.cards", "setup.order", "setup.dice"]
    assert lines[0] == "setup.cards: 'zz' cannot have been drawn from there."
    assert lines[2].startswith("setup.dice: must list exactly 2 faces")


def test_server_chance_is_left_as_it_is():
    class Server:
        mode = "server"
    chance = Server()
    assert kit.dealing(chance) is chance and kit.refused_reports(chance) == []
