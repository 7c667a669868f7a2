"""How many cards a Valeria command turns face up, told to a table beforehand (`by_command` of
`revealed` in table_inputs, docs/api.md section 7): where every legal command's count is known
whatever comes up, and not otherwise."""
from __future__ import annotations

import copy

from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from tests.domain.valeria.table import of
from tests.domain.valeria.test_monster_events_on_their_own import EventsTable


def _monk_emptied(content=None) -> EventsTable:
    """Seat 0 in its Action Phase, the Monk stack down to its last card: recruiting it empties the
    stack, and a Monster Event turns up there [CS Monster Event Cards]."""
    t = EventsTable(content=content)
    del t.state.citizens["monk"][1:]
    t.to_actions()
    t.purse(0, gold=9)
    return t


def test_a_command_is_told_how_many_it_turns_up_and_a_legal_command_not_listed_turns_up_none():
    t = _monk_emptied()
    legal = R.legal_commands(t.state, 0)
    spec = R.table_inputs(t.state, 0)["recruit"]["revealed"]
    rows = {(r["command"]["stack"], r["count"]) for r in spec["by_command"]}
    assert ("monk", 1) in rows                            # the Monster Event turned up on the emptied stack
    recruit_monk = next(c for c in legal if c["type"] == "recruit" and c["stack"] == "monk")
    events = t.do(0, {**recruit_monk, "revealed": ["giants"]})
    assert len(of(events, "EventRevealed")) == 1
    # a recruit that empties nothing is not listed, and turns up nothing
    t = _monk_emptied()
    other = next(c for c in R.legal_commands(t.state, 0) if c["type"] == "recruit" and c["stack"] != "monk")
    assert other["stack"] not in {r["command"]["stack"] for r in R.table_inputs(t.state, 0)["recruit"]["revealed"]["by_command"]}
    assert t.do(0, other) and not of(t.events[-5:], "EventRevealed")


def test_no_count_is_told_where_the_event_turned_up_decides_how_many_more_come_up():
    """An Event whose on_reveal takes a Center Domain turns up the Domain under it too; the others
    do not. Which Event comes up is hidden until it does, so the recruit's count (1 or 2) is not
    known beforehand, and no count is told for any command (a legal command not listed would mean
    none). A dry run with only the first Event the pool lists would have said 1."""
    content = copy.deepcopy(R.default_content)
    content["id"] = "an-event-that-turns-up-more"
    content["monster_events"] = copy.deepcopy(CS.default_content["crimson_seas"]["monster_events"])
    next(e for e in content["monster_events"] if e["id"] == "leviathan")["on_reveal"] = {"take_card": {"kind": "domain"}}
    t = _monk_emptied(content)
    assert "by_command" not in R.table_inputs(t.state, 0)["recruit"]["revealed"]
    recruit_monk = next(c for c in R.legal_commands(t.state, 0) if c["type"] == "recruit" and c["stack"] == "monk")
    quiet = _monk_emptied(content).do(0, {**recruit_monk, "revealed": ["giants"]})
    loud = _monk_emptied(content)
    events = loud.do(0, {**recruit_monk, "revealed": ["leviathan", loud.state.domain_pool[0]]})
    assert len(of(quiet, "EventRevealed")) == 1 and not of(quiet, "DomainRevealed")
    assert len(of(events, "EventRevealed")) == 1 and len(of(events, "DomainRevealed")) == 1
