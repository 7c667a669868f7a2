"""Given / when / then for Corsairs: a table-chance game set up as a test needs it."""
from __future__ import annotations

import pytest

from domain.chance import TableChance
from domain.corsairs import RULESET as R
from domain.ruleset import Rejected

# Reference content, tracks T1 A, T2 A, T3 A from Start upward. Spaces:
#   START.0 START.1 | 1.0 1.1(merchant T1A-M1: silver) 1.2(cutthroat) 1.3 |
#   2.0 2.1(whirlpool) 2.2(merchant T2A-M1: silver) 2.3 |
#   3.0 3.1L(merchant T3A-M1: silver) 3.1R(whirlpool) 3.2L 3.2R 3.3(sea monster) | SKULL
# Islands: 1.0/1.1 one Silver; 1.2/1.3 one Grog; 2.1/2.2 Silver + Grog; 2.2/2.3 Silver;
#   3.0/3.1R Silver + Grog (right lane only); 3.2/3.3 Grog.
TRACK = [{"tile": "T1", "side": "A"}, {"tile": "T2", "side": "A"}, {"tile": "T3", "side": "A"}]


class Table:
    def __init__(self, names=("Kira", "David", "Will"), captains=("REO", "HOOK", "JAGER"), options=None,
                 track=None, content=None):
        self.events = R.setup(list(names), options, content, TableChance(),
                              {"captains": list(captains), "track": track or TRACK})
        self.state = R.initial_state()
        for e in self.events:
            self.state = R.evolve(self.state, e)
        self.seat = {n: i for i, n in enumerate(names)}

    def player(self, name):
        return self.state.players[self.seat[name]]

    def given(self, name, **fields):
        """Put the table in a position the example starts from."""
        p = self.player(name)
        for k, v in fields.items():
            if k == "silver" and self.state.options["silver_supply"] == "limited":
                self.state.supply -= v - p.silver
            setattr(p, k, v)
        return self

    def turn_of(self, name):
        self.state.active = self.seat[name]
        return self

    def do(self, name, command):
        new = R.decide(self.state, self.seat[name], command, TableChance())
        for e in new:
            self.state = R.evolve(self.state, e)
        self.events.extend(new)
        return new

    def rejects(self, name, command, code):
        with pytest.raises(Rejected) as info:
            R.decide(self.state, self.seat[name], command, TableChance())
        assert info.value.code == code, info.value
        assert info.value.rule and info.value.detail
        return info.value

    def roll(self, name, faces, lock=True, **lock_args):
        self.do(name, {"type": "roll_dice", "faces": faces})
        if lock:
            return self.do(name, {"type": "lock_dice", **lock_args})
        return []

    def types(self, events):
        return [e["type"] for e in events]

    def legal(self, name):
        return R.legal_commands(self.state, self.seat[name])
