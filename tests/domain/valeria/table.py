"""Given / when / then for Valeria: Card Kingdoms, played at a table (table chance)."""
from __future__ import annotations

import pytest

from domain.chance import TableChance
from domain.ruleset import Rejected
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R

UP = ["granary", "barracks", "chapel", "palace_of_the_dawn", "foxgrove"]
DUKES = [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"], ["duke_eld", "duke_fenn"],
         ["duke_gale", "duke_hale"], ["duke_iris", "duke_jory"]]


class Table:
    ruleset = R

    def __init__(self, players=2, options=None, content=None, dukes=None, up=None, first=0, keep=True, **islands):
        setup = {"domains": up or UP, "dukes": dukes or DUKES[:players], "first_player": first, **islands}
        self.commands = []
        R = self.ruleset
        self.events = R.setup(["Anne", "Ben", "Cleo", "Dev", "Eli"][:players], options, content, TableChance(), setup)
        self.state = R.initial_state()
        for e in self.events:
            self.state = R.evolve(self.state, e)
        if keep:
            for seat in range(players):
                self.do(seat, {"type": "keep_duke", "duke": self.state.seats[seat].offer[0]})

    def do(self, seat, command):
        self.commands.append({"actor": seat, "command": command})
        new = self.ruleset.decide(self.state, seat, command, TableChance())
        assert new
        for e in new:
            self.state = R.evolve(self.state, e)
        self.events.extend(new)
        return new

    def rejects(self, seat, command, code):
        with pytest.raises(Rejected) as info:
            self.ruleset.decide(self.state, seat, command, TableChance())
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
        for st, pile in s.citizens.items():   # the Mixed Citizen Variant: a Citizen not in sight (VP-40)
            pool = [c for c in s.citizen_pool(st) if c.split("#")[0] == card_type] if st.startswith("mixed_") else []
            if pool:
                if len(s.citizen_pool(st)) == pile.count("face_down"):
                    pile.remove("face_down")   # it was one of those face down
                return sorted(pool, key=lambda c: int(c.split("#")[1]))[0]
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
            seat = self.ruleset.status(self.state).to_move[0]
            self.do(seat, self.ruleset.legal_commands(self.state, seat)[0])

    def to_actions(self, a=1, b=2):
        self.roll(a, b)
        self.harvest_all()
        assert self.state.phase == "action"


def of(events, type_):
    return [e for e in events if e["type"] == type_]


class SeasTable(Table):
    """A Crimson Seas table: the Island Board as the table laid it out."""
    ruleset = CS

    def __init__(self, players=2, araby=("fabrics#1", "jewels#1", "artifacts#1"),
                 nae_aerie=("tome_gold#1", "tome_strength#1", "tome_magic#1"), amarynth=("augur", "doom", "saint"), **kw):
        super().__init__(players, araby=list(araby), nae_aerie=list(nae_aerie), amarynth=list(amarynth), **kw)

    def _take(self, card_type: str) -> str:
        s = self.state
        for pool in (s.goods_supply, s.tome_supply, s.noble_deck):
            for c in pool:
                if c == card_type or c.split("#")[0] == card_type:
                    pool.remove(c)
                    return c
        return super()._take(card_type)

    def give(self, seat, card_type: str, times: int = 1):
        if card_type.startswith("tome_") or card_type in self.state.content["crimson_seas"]["goods"]["types"]:
            for _ in range(times):
                c = self._take(card_type)
                (self.seat(seat).tomes if c.startswith("tome_") else self.seat(seat).goods).append(c)
            return self
        if any(n["id"] == card_type for n in self.state.content["crimson_seas"]["nobles"]):
            self.seat(seat).nobles.append(self._take(card_type))
            return self
        return super().give(seat, card_type, times)

    def event_at(self, event: str, stack: str):
        """A Monster Event face up on an emptied Center position."""
        s = self.state
        s.event_pool.remove(event)
        s.events_on_top -= 1
        pile = s.monsters.get(stack) or s.citizens.get(stack)
        if pile:
            s.box.extend(pile)
            pile.clear()
        s.event_at[stack] = event
        s.exhausted.append(stack)
        return self
