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


# -- the refusal of a short report tells the whole count ------------------------------------------

def _short_reports(ruleset, options: dict | None, players: int, game_no: int, most: int = 400) -> list:
    """For each host command of a random table game (table_inputs told for it, TM-1), the count
    by_command tells, the report the command met at the server's chance, and the refusals of
    that report cut short, item by item."""
    from domain.chance import TableChance
    from domain.ruleset import Rejected
    from tests.domain.test_table_reports_hidden import play_at_table
    from tests.playouts.test_valeria_playouts import duke_of_valeria

    found = []

    def cut_short(s, seat, command, body):
        spec = ruleset.table_inputs(s, seat).get(command["type"], {}).get("revealed", {})
        told = next((row["count"] for row in spec.get("by_command", [])
                     if {k: v for k, v in row["command"].items() if k not in ("magic", "tomes")}
                     == {k: v for k, v in command.items() if k not in ("magic", "tomes")}), None)
        full = body.get("revealed", [])
        refusals = []
        for cut in range(len(full)):
            try:
                ruleset.decide(s, seat, {**body, "revealed": full[:cut]}, TableChance("host"))
            except Rejected as refused:
                refusals.append(refused)
            else:
                refusals.append(None)
        found.append((told, full, refusals))

    for _ in play_at_table(ruleset, players, game_no, duke_of_valeria, most, options, cut_short):
        pass
    return found


def test_a_short_report_is_told_every_card_the_command_turns_up():
    """docs/api.md section 7: where table_inputs tells a command's count (`by_command`), its
    refusal for a report cut short asks for that count, not for the items met so far. The Solo
    Variant's Monsters Phase captures a Domain in a column whose Citizen stacks are empty and the
    Domain under it turns up [BR p.17]: two captures in one column turn up two (the audit of
    2026-12-03 was asked for 1, then 2)."""
    from domain.chance import needed
    from domain.registry import all_rulesets

    games = [("valeria-card-kingdoms", {"variant": "solo"}, 1), ("valeria-card-kingdoms", {"variant": ["solo", "mixed_citizens"]}, 1),
             ("valeria-card-kingdoms", None, 3), ("crimson-seas", None, 3)]
    told_many = checked = 0
    for rid, options, players in games:
        ruleset = all_rulesets()[rid]
        for game_no in range(6):
            for told, full, refusals in _short_reports(ruleset, options, players, 700 + game_no):
                if told is None or not full:
                    continue
                assert told == len(full), (told, full)
                for cut, refused in enumerate(refusals):
                    assert refused is not None and refused.code == "TABLE_OUTCOME_REQUIRED", (cut, refused)
                    assert needed(told) in refused.detail and f"(item {cut + 1}:" in refused.detail, refused.detail
                    checked += 1
                told_many += told > 1
    assert checked > 50 and told_many > 0, (checked, told_many)
