"""How every game's decide() opens, declared once per game (Rules) and run by one skeleton.

decide(state, seat, command, chance) refuses, in this order:

    GAME_OVER           the game is over                          (section `over`)
    UNKNOWN_COMMAND     the game has no such command               (section `unknown`)
    NO_SUCH_SEAT        the seat is not one of the game's          (section `seats`, words `no_seat`;
                        the seats are `seats_of(state)`, state.seats unless the game says)
    CHANCE_FROM_SERVER  a game whose chance is not the table's is sent an outcome field
                        (`table_fields`; a game that names none checks this in its handlers)
    the gate            the game's moments (kit/moments.py): WRONG_MOMENT, NOT_YOUR_DECISION
                        and the refusals a moment words its own way

then runs the command's handler on a Draft (a clone of the state), then `finish` if the game
has one (what happens on its own after every command: Chrono's agenda), all inside the draft,
and last `after` on the draft (a table game's outcomes the command did not use). gate() is the
same opening without the chance check (it needs no chance): the service may admit a command
with it before deciding.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Mapping, Sized
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from ..ruleset import Rejected
from . import Draft, GameOver, Section, spelled
from .moments import Moments

Handler = Callable[[Any, int, dict], None]


@dataclass(frozen=True, repr=False)
class Rules:
    """A game's decide() and gate(): its name (in refusals), its command handlers and
    moments, how a Draft is made, the sections of the opening refusals, where its seats are,
    the outcome fields a table reports and how the server gets them in words ("rolls and
    draws"), the hooks that run after every handler (`finish`, in the draft) and after the
    command (`after`), and `offered`, which refuses a command no moment of this game ever opens
    (another variant's or an expansion's) before the moment is asked."""

    game: str
    handlers: Mapping[str, Handler]
    moments: Moments
    draft: Callable[[Any, Any, dict], Draft]
    over: Section
    unknown: Section
    seats: Section
    no_seat: str = "There is no seat {seat} in this game."
    seats_of: Callable[[Any], Sized] = attrgetter("seats")
    table_fields: Collection[str] = ()
    server_words: str = ""
    finish: Callable[[Any], None] | None = None
    after: Callable[[Any], None] | None = None
    offered: Callable[[Any, str], None] | None = None  # refuses a command this game's variants never offer

    def __repr__(self) -> str:
        return f"Rules({self.game!r})"

    def decide(self, state: Any, seat: int, command: dict, chance: Any) -> list[dict]:
        handler = self._open(state, seat, command)
        if self.table_fields and chance.mode != "table":
            self._no_outcomes(command)
        self.moments.gate(state, seat, command["type"])
        draft = self.draft(state, chance, command)
        events = run(draft, handler, seat, command, self.finish)
        if self.after is not None:
            self.after(draft)
        return events

    def gate(self, state: Any, seat: int, command: dict) -> None:
        """Everything decide() refuses before reading the command's body (but a server
        game's outcome fields): over, no such command, no such seat, not now, not yours."""
        self._open(state, seat, command)
        self.moments.gate(state, seat, command["type"])

    def _open(self, state: Any, seat: int, command: dict) -> Handler:
        if state.finished:
            raise Rejected("GAME_OVER", self.over, "The game is over; no more commands are accepted.")
        kind = command.get("type")
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise Rejected("UNKNOWN_COMMAND", self.unknown, f"{self.game} has no command {spelled(kind)}.")
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats_of(state)):
            raise Rejected("NO_SUCH_SEAT", self.seats, self.no_seat.format(seat=seat))
        if self.offered is not None:
            self.offered(state, command["type"])
        return handler

    def _no_outcomes(self, command: dict) -> None:
        from ..chance import CHANCE_RULE  # chance imports kit

        for name in self.table_fields:
            if name in command:
                raise Rejected("CHANCE_FROM_SERVER", CHANCE_RULE,
                               f"This game {self.server_words} on the server; do not send '{name}'.")


def run(draft: Draft, handler: Handler, seat: int, command: dict,
        finish: Callable[[Any], None] | None = None) -> list[dict]:
    """The handler's events (and finish's): a GameOver raised inside ends them there."""
    with contextlib.suppress(GameOver):
        handler(draft, seat, command)
        if finish is not None:
            finish(draft)
    return draft.events
