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


DOMAINS = ["granary", "barracks", "chapel", "keep", "foxgrove"]
DUKES = [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"], ["duke_eda", "duke_fenn"]]
TOPS = ["cleric", "merchant", "mercenary", "archer", "peasant", "knight", "thief", "champion", "rogue", "miner"]


@pytest.mark.parametrize("players, options, setup, fields", [
    (3, None, {"domains": DOMAINS[:4] + ["nope"], "dukes": DUKES[:2] + [["duke_eda", "duke_zz"]], "first_player": 3},
     ["setup.first_player", "setup.domains", "setup.dukes"]),
    (1, {"variant": "solo"}, {"domains": ["nope"] + DOMAINS[1:], "dukes": DUKES[:1], "first_player": 0,
                              "dark_lord": "duke_ash"}, ["setup.dark_lord", "setup.domains"]),
    (2, None, {"domains": ["nope"] + DOMAINS[1:], "dukes": DUKES[:2], "first_player": 0, "dark_lord": "duke_eda",
               "citizens": TOPS}, ["setup.citizens", "setup.dark_lord", "setup.domains"]),
    (2, {"variant": "mixed_citizens"}, {"domains": DOMAINS, "dukes": DUKES[:2], "first_player": 1,
                                        "citizens": TOPS[:2] + ["monk"] + TOPS[3:5] + ["monk"] + TOPS[6:]},
     ["setup.citizens.2", "setup.citizens.5"]),
], ids=["first-player-domain-duke", "solo-dark-lord-dealt", "parts-of-other-variants", "mixed-stacks-by-place"])
def test_valeria_lists_what_the_deal_can_go_on_past_with_every_wrong_card(players, options, setup, fields):
    """docs/api.md: a 422 lists everything wrong. The first player, a Dark Lord among the Dukes dealt
    and parts of a variant not played do not stop the deal, so the wrong cards it meets are listed
    with them; each Citizen of a mixed stack is named by its place in the list."""
    with pytest.raises(InvalidCreation) as refused:
        VALERIA.setup(["Ann", "Bo", "Cy"][:players], options, None, TableChance("host"), setup)
    assert [cause(p)["field"] for p in refused.value.problems] == fields, refused.value.problems


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
    assert lines[2] == "setup.dice: item 1: \"7\" is not a face of the die; each is one of 1, 2."


def test_server_chance_is_left_as_it_is():
    class Server:
        mode = "server"
    chance = Server()
    assert kit.dealing(chance) is chance and kit.refused_reports(chance) == []
