"""Given / when / then for Chrono Corsairs, played at a table (table chance)."""
from __future__ import annotations

import copy

import pytest

from domain.chance import TableChance
from domain.chrono import RULESET as R
from domain.chrono import effects as fx
from domain.chrono import rules
from domain.ruleset import Rejected

# the reference board: I1..I3 interior, E1..E6 exterior, caves CTL CTR CLO; the Harbor touches E3 E4 E5
LAYOUT = {"interior": ["N1", "N2", "N3"], "exterior": ["X1", "X2", "X3", "X4", "X5", "X6"],
          "caves": ["CV1", "CV2", "CV3"], "sides": ["A", "A", "A"],
          # resolution order CTL CTR CLO E1..E6 I1..I3
          "token_backs": ["SUNRISE", "MORNING", "EVENING", "SUNRISE", "MORNING", "EVENING", "SUNSET",
                          "SUNRISE", "MORNING", "EVENING", "SUNSET", "SUNRISE"],
          "flag": [0, 1], "anomaly": ["AN3", "AN6"]}


class Table:
    def __init__(self, players=2, options=None, content=None, **layout):
        setup = copy.deepcopy(LAYOUT)
        setup["flag"] = list(range(players))
        setup.update(layout)
        self.events = R.setup([f"P{i}" for i in range(players)], options, content, TableChance(), setup)
        self.commands = []
        self.state = R.initial_state()
        for e in self.events:
            self.state = R.evolve(self.state, e)

    def do(self, seat, command):
        new = R.decide(self.state, seat, command, TableChance())
        self.commands.append({"actor": seat, "command": command})
        for e in new:
            self.state = R.evolve(self.state, e)
        self.events.extend(new)
        return new

    def rejects(self, seat, command, code):
        with pytest.raises(Rejected) as info:
            R.decide(self.state, seat, command, TableChance())
        assert info.value.code == code, info.value
        return info.value

    def seat(self, i):
        return self.state.seats[i]

    def pieces(self, i, kind="crew"):
        return self.state.seats[i].pieces[kind]

    def place(self, i, kind, frm, to, n=1):
        """Arrange a position: move pieces without any rule."""
        counts = self.state.seats[i].pieces[kind]
        counts[frm] -= n
        if not counts[frm]:
            del counts[frm]
        counts[to] = counts.get(to, 0) + n
        return self

    def plan_round(self, picks, drawn=None):
        """Phase 2: every seat draws (the cards given) and selects (card, slot)."""
        drawn = drawn or {i: [c for c, _ in [picks[i]]] + [] for i in picks}
        for i in list(self.state.flag):
            self.do(i, {"type": "draw_plans", "plans": drawn[i]})
        for i, (card, slot) in picks.items():
            self.do(i, {"type": "select_plan", "card": card, "slot": slot})

    def effect(self, program, actor=0, optional=False, here=None, told=None):
        """Arrange an effect to resolve now, as if a card had just called it; told: what the
        table reports it turned up (e.g. {"artifacts": [...]})."""
        s = self.state
        s.frames.append(fx.new_frame(s, [program], actor, optional=optional, here=here))
        d = rules.Draft(s, TableChance(), told or {})
        d.start = None
        rules.finish(d)
        for e in d.events:
            self.state = R.evolve(self.state, e)
        self.events.extend(d.events)
        return d.events


def types(events):
    return [e["type"] for e in events]


def forgo_all(t, until="priority"):
    """Phase 3 with every plan forgone (a Doubloon each), until the phase named."""
    while t.state.phase == "loop" and not t.state.frames:
        seat = t.state.turn["seat"]
        cmd = {"type": "forgo_plan"} if t.state.turn["plan"] == "pending" else {"type": "end_turn"}
        t.do(seat, cmd)
    assert t.state.phase == until, t.state.phase


def first_round(t, picks=None):
    picks = picks or {0: "S01", 1: "S02"}
    for i in list(t.state.flag):
        t.do(i, {"type": "draw_plans", "plans": [picks[i], f"U{i + 1:02d}"]})
    for i in list(t.state.flag):
        t.do(i, {"type": "select_plan", "card": picks[i], "slot": "SUNSET"})
