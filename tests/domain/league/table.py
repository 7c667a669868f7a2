"""Given / when / then for League of Pirates, played at a table (table chance)."""
from __future__ import annotations

import copy

import pytest

from domain.chance import TableChance
from domain.league import RULESET as R
from domain.ruleset import Rejected


class Table:
    def __init__(self, leagues=("red", "blue"), options=None, content=None):
        self.events = R.setup(["Anne", "Ben"], options, content, TableChance(), None)
        self.state = R.initial_state()
        for e in self.events:
            self.state = R.evolve(self.state, e)
        if leagues:
            self.do(0, {"type": "choose_league", "league": leagues[0]})
            self.do(1, {"type": "choose_league", "league": leagues[1]})

    def do(self, seat, command):
        new = R.decide(self.state, seat, command, TableChance())
        for e in new:
            self.state = R.evolve(self.state, e)
        self.events.extend(new)
        return new

    def rejects(self, seat, command, code):
        with pytest.raises(Rejected) as info:
            R.decide(self.state, seat, command, TableChance())
        assert info.value.code == code, info.value
        return info.value

    def win_challenge(self, seat):
        """seat throws 1-2-3-6-6 (score 12), the other 2-2-2-2-2 three times."""
        self.do(seat, {"type": "throw_dice", "values": [1, 2, 3, 6, 6]})
        self.do(seat, {"type": "stop_throwing"})
        other = 1 - seat
        for _ in range(3):
            keep = [] if self.state.challenge.throws[other] == 0 else [0]
            self.do(other, {"type": "throw_dice", "keep": keep, "values": [2] * (5 - len(keep))})
        assert self.state.phase == "action" and self.state.actor == seat

    def crew(self, seat):
        return self.state.seats[seat].crew

    def give(self, seat, slot, coin):
        """Put a coin from a bag straight onto a ship (arranging a position)."""
        for x in self.state.seats:
            if coin in x.bag:
                x.bag.remove(coin)
        self.state.seats[seat].crew[slot] = coin
        return self


def content_with(**skills_by_coin):
    content = copy.deepcopy(R.default_content)
    content["id"] = "test-content"
    for c in content["coins"]:
        if c["id"] in skills_by_coin:
            c["skills"].update(skills_by_coin[c["id"]])
    return content
