"""What every game's creation-problem tests share (tests/domain/<game>/test_creation_problems.py):
the shipped content with one change, the problems a refused creation lists, the events of an
accepted one, and the shape of a problem line that cites its section (domain/ruleset.py,
InvalidCreation: "field: words [Section]", and a ruling's id where one applies)."""
from __future__ import annotations

import copy
import re

import pytest

from domain.chance import ServerChance
from domain.ruleset import InvalidCreation

SEED = "ab" * 32


def cited(field_chars: str = "") -> re.Pattern:
    """A problem line citing its section; `field_chars`: what else a game's field names hold."""
    return re.compile(r"^[a-z][\w.\[\]" + re.escape(field_chars) + r"-]*: .+ \[[A-Z][^\[\]]*\]( \([A-Z]+-[A-Z]?\d+\))?$")


class Creation:
    """Creating games of one ruleset: `players` by default, names or a count (P0, P1...)."""

    def __init__(self, ruleset, players):
        self.ruleset, self.players = ruleset, players

    def names(self, players=None) -> list[str]:
        players = self.players if players is None else players
        return [f"P{i}" for i in range(players)] if isinstance(players, int) else list(players)

    def content(self, change=lambda c: None) -> dict:
        c = copy.deepcopy(self.ruleset.default_content)
        c["id"] = "our-table"
        change(c)
        return c

    def problems(self, players=None, options=None, custom=None, chance=None, table_setup=None) -> list[str]:
        with pytest.raises(InvalidCreation) as refused:
            self.ruleset.setup(self.names(players), options, custom, chance or ServerChance(SEED, 0), table_setup)
        return refused.value.problems

    def created(self, players=None, options=None, custom=None, chance=None, table_setup=None) -> list[dict]:
        return self.ruleset.setup(self.names(players), options, custom, chance or ServerChance(SEED, 0), table_setup)
