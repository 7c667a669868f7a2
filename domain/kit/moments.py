"""Whose decision it is and what may be done now: each game's moments as data, one gate for all.

A game is always at one moment: a phase, or a decision some seat owes inside one (a Scurvy
choice, a raid's defence, an effect resolving step by step). A game declares its moments
(Moments): which one a state is at (`of`, the one piece of logic), and for each (Moment) the
commands it allows, the rulebook section it is under, its words, and who is to move. gate()
applies them the same way for every game:

    a command the moment does not allow   WRONG_MOMENT "You cannot {command} now: {moment}."
    a seat that is not to move            NOT_YOUR_DECISION "Not your decision: {moment}."

both citing the moment's section; `seat_first` checks the seat before the command. A moment
may word a refusal its own way (Corsairs' NOT_YOUR_TURN, League's THROWS_DONE): a Refusal,
data like the rest, and may refuse one command it does not allow in words of its own
(`refusals`: Tesoros' second die value to move, final once assigned: TA-16). Words are
templates: {command} is the command in words, {moment} the moment's words, and any other name
is one of the game's `fields`, computed from the state (and the seat refused) only when a
refusal or the moment's words name it.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..ruleset import Rejected
from . import Section

ToMove = Callable[[Any], list[int]]
Field = Callable[[Any, Any], object]   # (state, the seat refused or None) -> a value the words name


def nobody(state: Any) -> list[int]:
    """The moment of a game being set up, or over: nobody is to move."""
    return []


@dataclass(frozen=True)
class Refusal:
    """How a moment refuses: a code, and words naming {command}, {moment} or the game's fields;
    the section is the moment's unless one is given."""

    code: str
    detail: str
    section: Section | None = None
    ruling: str | None = None   # the id in docs/rulings.md, where the refusal is a ruling of ours


WRONG_MOMENT = Refusal("WRONG_MOMENT", "You cannot {command} now: {moment}.")
NOT_YOUR_DECISION = Refusal("NOT_YOUR_DECISION", "Not your decision: {moment}.")


@dataclass(frozen=True)
class Moment:
    """One moment of a game: the section it is under, its words, the commands it allows and
    the seats to move; how it refuses a command it does not allow and a seat not to move, and
    which of the two it checks first."""

    section: Section
    words: str
    commands: Collection[str] = frozenset()
    to_move: ToMove = nobody
    wrong_command: Refusal = WRONG_MOMENT
    not_yours: Refusal = NOT_YOUR_DECISION
    seat_first: bool = False
    refusals: Mapping[str, Refusal] = field(default_factory=dict)   # by command, instead of wrong_command

    def __post_init__(self) -> None:
        object.__setattr__(self, "commands", frozenset(self.commands))


@dataclass(frozen=True, repr=False)
class Moments:
    """A game's moments: `of(state)` names the one it is at, `moments` holds each by name,
    `command_words` words each command ("draw Plan cards"), `fields` computes the other
    values words may name."""

    of: Callable[[Any], str]
    moments: Mapping[str, Moment]
    command_words: Mapping[str, str] = field(default_factory=dict)
    fields: Mapping[str, Field] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Moments({', '.join(self.moments)})"

    def now(self, state: Any) -> Moment:
        return self.moments[self.of(state)]

    def to_move(self, state: Any) -> list[int]:
        """The seats whose decision it is: nobody's once the game is over."""
        return [] if state.finished else self.now(state).to_move(state)

    def open(self, state: Any) -> frozenset[str]:
        """The commands the moment allows (from seats that are to move)."""
        return frozenset(self.now(state).commands)

    def section(self, state: Any) -> Section:
        return self.now(state).section

    def words(self, state: Any) -> str:
        """The moment in words ("P1 (seat 0) draws a card (phase 1)")."""
        return self.now(state).words.format_map(_Words(self, state, None, None))

    def gate(self, state: Any, seat: int, kind: str) -> None:
        """Refuse a command the moment does not allow, or a seat that is not to move. The seat
        is one of the game's and the command one it has (kit.Rules checks both first)."""
        moment = self.now(state)
        checks = (_check_seat, _check_command) if moment.seat_first else (_check_command, _check_seat)
        for check in checks:
            refusal = check(self, moment, state, seat, kind)
            if refusal is not None:
                words = _Words(self, state, seat, kind)
                raise Rejected(refusal.code, refusal.section or moment.section, refusal.detail.format_map(words),
                               ruling=refusal.ruling)


def _check_command(moments: Moments, moment: Moment, state: Any, seat: int, kind: str) -> Refusal | None:
    return None if kind in moment.commands else moment.refusals.get(kind, moment.wrong_command)


def _check_seat(moments: Moments, moment: Moment, state: Any, seat: int, kind: str) -> Refusal | None:
    return None if seat in moments.to_move(state) else moment.not_yours


class _Words(dict):
    """The values words may name, each computed when first named."""

    def __init__(self, moments: Moments, state: Any, seat: int | None, kind: str | None):
        super().__init__()
        self.moments, self.state, self.seat, self.kind = moments, state, seat, kind

    def __missing__(self, name: str) -> object:
        if name == "command":
            value: object = self.moments.command_words[str(self.kind)]
        elif name == "moment":
            value = self.moments.now(self.state).words.format_map(self)
        else:
            value = self.moments.fields[name](self.state, self.seat)
        self[name] = value
        return value
