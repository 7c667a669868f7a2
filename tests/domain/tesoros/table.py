"""Given / when / then for Los Tesoros del Rey Pirata, played at a table (table chance)."""
from __future__ import annotations

import pytest

from domain.chance import TableChance
from domain.ruleset import Rejected
from domain.tesoros import RULESET as R

CARDS = sorted(c["id"] for c in R.default_content["playCards"])
MAPS = ["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"]
# Hands not given are dealt from these, so that the Die cards stay in the deck for tests to draw.
FILLER = ["CP-2", "CP-3", "CP-5", "CS-3", "CS-4", "MS-5", "LS-5", "WTP-1b", "WTP-2b", "SAB-2", "LS-3", "MS-3",
          "WTP-3a", "SAB-3a", "CS-2", "LS-2", "MS-2", "SAB-1", "WTP-4", "MUT-2b"]


class Table:
    def __init__(self, names=("Ana", "Diego", "Juan"), hands=None, maps=MAPS, options=None, **setup):
        n = len(names)
        if hands is None:
            hands = {}
        if isinstance(hands, dict):  # fill the seats not given with cards nobody else holds
            given = {c for h in hands.values() for c in h}
            spare = [c for c in FILLER + CARDS if c not in given]
            full = []
            for i in range(n):
                if i in hands:
                    full.append(list(hands[i]))
                else:
                    full.append(spare[:5])
                    spare = spare[5:]
            hands = full
        self.commands = []
        self.events = R.setup(list(names), options, None, TableChance(),
                              {"hands": [list(h) for h in hands], "maps": list(maps), **setup})
        self.state = R.initial_state()
        for e in self.events:
            self.state = R.evolve(self.state, e)
        self.seat = {name: i for i, name in enumerate(names)}

    def do(self, seat, command):
        seat = self.seat.get(seat, seat)
        new = R.decide(self.state, seat, command, TableChance())
        for e in new:
            self.state = R.evolve(self.state, e)
        self.events.extend(new)
        self.commands.append({"actor": seat, "command": command})
        return new

    def rejects(self, seat, command, code):
        seat = self.seat.get(seat, seat)
        with pytest.raises(Rejected) as info:
            R.decide(self.state, seat, command, TableChance())
        assert info.value.code == code, info.value
        return info.value

    def p(self, seat):
        return self.state.seats[self.seat.get(seat, seat)]

    def at(self, seat, space):
        """Arrange a position: put a Ship somewhere (its turn then began there)."""
        seat = self.seat.get(seat, seat)
        self.state.seats[seat].ship = space
        if seat == self.state.active:
            self.state.turn_start = space
        return self

    def give(self, seat, *cards):
        """Arrange a position: move cards from wherever they are into a hand."""
        seat = self.seat.get(seat, seat)
        s = self.state
        for c in cards:
            for x in s.seats:
                if c in x.hand:
                    x.hand.remove(c)
                if x.equipped == c:
                    x.equipped = None
            if c in s.deck:
                s.deck.remove(c)
            if c in s.discard:
                s.discard.remove(c)
            s.seats[seat].hand = sorted(s.seats[seat].hand + [c])
        return self

    def equip_now(self, seat, card):
        self.give(seat, card)
        x = self.p(seat)
        x.hand.remove(card)
        x.equipped = card
        return self

    def to_phase(self, phase):
        """Skip the active Pirate to a phase of the turn (arranging a position)."""
        self.state.phase = phase
        return self

    def types(self, events):
        return [e["type"] for e in events]

    def legal(self, seat):
        return R.legal_commands(self.state, self.seat.get(seat, seat))
