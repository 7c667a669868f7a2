"""Given / when / then for Valeria: Card Kingdoms, played at a table (table chance)."""
from __future__ import annotations

import pytest

from domain.chance import TableChance
from domain.ruleset import Rejected
from domain.valeria import RULESET as R

UP = ["granary", "barracks", "chapel", "palace_of_the_dawn", "foxgrove"]
DUKES = [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"], ["duke_eld", "duke_fenn"],
         ["duke_gale", "duke_hale"], ["duke_iris", "duke_jory"]]


class Table:
    def __init__(self, players=2, options=None, content=None, dukes=None, up=None, first=0, keep=True):
        setup = {"domains": up or UP, "dukes": dukes or DUKES[:players], "first_player": first}
        self.commands = []
        self.events = R.setup(["Anne", "Ben", "Cleo", "Dev", "Eli"][:players], options, content, TableChance(), setup)
        self.state = R.initial_state()
        for e in self.events:
            self.state = R.evolve(self.state, e)
        if keep:
            for seat in range(players):
                self.do(seat, {"type": "keep_duke", "duke": self.state.seats[seat].offer[0]})

    def do(self, seat, command):
        self.commands.append({"actor": seat, "command": command})
        new = R.decide(self.state, seat, command, TableChance())
        assert new
        for e in new:
            self.state = R.evolve(self.state, e)
        self.events.extend(new)
        return new

    def rejects(self, seat, command, code):
        with pytest.raises(Rejected) as info:
            R.decide(self.state, seat, command, TableChance())
        assert info.value.code == code, info.value
        return info.value

    # arranging a position (the given part of a test)
    def seat(self, seat):
        return self.state.seats[seat]

    def purse(self, seat, gold=0, strength=0, magic=0, vp=0):
        x = self.seat(seat)
        x.gold, x.strength, x.magic, x.vp = gold, strength, magic, vp
        return self

    def _take(self, card_type: str) -> str:
        s = self.state
        for pile in list(s.citizens.values()) + list(s.monsters.values()):
            for c in reversed(pile):
                if c.split("#")[0] == card_type:
                    pile.remove(c)
                    return c
        for c in s.box:
            if c.split("#")[0] == card_type:
                s.box.remove(c)
                return c
        if card_type in s.domain_pool:
            s.domain_pool.remove(card_type)
            return card_type
        for st in s.domains.values():
            if st["up"] == card_type:
                st["up"] = None
                return card_type
        raise AssertionError(f"no {card_type} left to arrange")

    def give(self, seat, card_type: str, times: int = 1):
        for _ in range(times):
            c = self._take(card_type)
            kind = self.state.card(c)["kind"]
            x = self.seat(seat)
            (x.citizens if kind == "citizen" else x.domains if kind == "domain" else x.victory).append(c)
        return self

    def on_top(self, card_type: str, stack: str):
        """Put a Monster or Citizen on top of a Center stack."""
        c = self._take(card_type)
        (self.state.monsters.get(stack) if stack in self.state.monsters else self.state.citizens[stack]).append(c)
        return c

    def roll(self, a, b, seat=None):
        seat = self.state.active if seat is None else seat
        self.do(seat, {"type": "roll_dice", "dice": [a, b]})
        return self.do(seat, {"type": "announce_roll"})

    def harvest_all(self):
        """Each seat to move takes its first listed choice until the Action Phase."""
        while self.state.phase == "harvest":
            seat = R.status(self.state).to_move[0]
            self.do(seat, R.legal_commands(self.state, seat)[0])

    def to_actions(self, a=1, b=2):
        self.roll(a, b)
        self.harvest_all()
        assert self.state.phase == "action"


def of(events, type_):
    return [e for e in events if e["type"] == type_]
