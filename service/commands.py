"""Sending one command to a game: the use case behind POST /games/{id}/commands, without Flask.

send(app, request, game, caught_up) answers one of the outcomes below; the HTTP view
(service/api/commands.py) only parses the request and maps each outcome to its answer. In order:

1. the seat acted for: the host token names it (SeatRequired; NO_SUCH_SEAT), a seat's token
   may name only its own (NotYourSeat), a spectator's token acts for none (SpectatorsOnlyRead);
2. an Idempotency-Key: a malformed one (BadIdempotencyKey, a dry run's too); unless on a dry run,
   one already accepted with this body answers its first result (Replayed), with another body
   KeyReused;
3. If-Match (PreconditionFailed);
4. admission (domain/adjudication.py): the command type and its schema (Refused, DoesNotMatchSchema);
5. the body's expected_version (VersionConflict);
6. adjudication and storing (Parley.execute): the game not finished and the rules' decide
   (Refused); an insert that meets another command's (Overtaken, or PreconditionFailed under
   If-Match, or Replayed when it was this key's own retry); else Accepted or DryRunAnswer.

A command is decided on the game this process keeps when no other process wrote to it
lately, without asking the store for newer events (GameCache.peek: caught_up False); its
insert at the next version proves that game was current. Whatever else such a game leads to
is decided again on the caught-up game, so every answer is the one the game's true state
gives. Nothing is stored before such an answer, so deciding again never applies a command twice.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain import adjudication
from domain.ruleset import Rejected
from service.application import Parley
from service.game import SPECTATOR, Game, IdempotencyKeyReused

# An Idempotency-Key: visible ASCII but the comma. A key sent twice reaches the app joined by a
# comma (RFC 9110 5.3, as gunicorn joins repeated fields): refused, never read as one key.
KEY_CHARACTERS = r"[\x21-\x2b\x2d-\x7e]"
KEY_PATTERN = re.compile(f"^{KEY_CHARACTERS}{{1,255}}$")


@dataclass(frozen=True)
class IfMatch:
    """An If-Match header: `*`, or the strong entity tags it lists (a version is "<version>")."""

    star: bool
    tags: frozenset[str]

    def holds(self, version: int) -> bool:
        return self.star or str(version) in self.tags


@dataclass(frozen=True)
class CommandRequest:
    game_id: UUID
    caller: int | str            # the token's seat, "host" or "spectator" (refused)
    body: dict                   # as sent: the command with "seat" and "expected_version"
    dry_run: bool = False
    if_match: IfMatch | None = None
    idempotency_key: str | None = None  # the header as sent
    request_hash: str | None = None     # SHA-256 of the body's canonical JSON, with a key


# Outcomes ----------------------------------------------------------------------------------

class Outcome:
    """What sending a command came to."""


@dataclass
class Accepted(Outcome):
    game: Game             # at its new version
    events: list           # the events just stored


@dataclass
class DryRunAnswer(Outcome):
    game: Game             # as imagined, with the command's events applied
    events: list           # the events it would produce (not stored)
    version: int           # the stored version it was decided on


@dataclass
class Replayed(Outcome):
    game: Game             # at the version the first request with this key reached
    events: list           # the events that request stored


@dataclass
class Refused(Outcome):
    rejection: Rejected    # the rules, or the checks every game shares (domain/adjudication.py)


@dataclass
class DoesNotMatchSchema(Outcome):
    rejection: adjudication.InvalidCommand  # its problems list every one


@dataclass
class SeatRequired(Outcome):
    pass


@dataclass
class NotYourSeat(Outcome):
    pass


@dataclass
class SpectatorsOnlyRead(Outcome):
    pass


@dataclass
class BadIdempotencyKey(Outcome):
    pass


@dataclass
class KeyReused(Outcome):
    pass


@dataclass
class VersionConflict(Outcome):
    expected: int
    actual: int


@dataclass
class Overtaken(Outcome):
    """Another command was stored first, after the game was read."""


@dataclass
class PreconditionFailed(Outcome):
    version: int           # the game's version, not the one in If-Match


class _Answer(Exception):
    """An outcome reached before the command is stored: ends the attempt."""

    def __init__(self, outcome: Outcome):
        super().__init__(type(outcome).__name__)
        self.outcome = outcome


# The use case ------------------------------------------------------------------------------

def game_to_decide_on(app: Parley, game_id: UUID, dry_run: bool) -> tuple[Game, bool]:
    """(game, caught_up). A dry run stores nothing, so nothing would prove a kept game current:
    it always catches up."""
    if dry_run:
        return app.get_game(game_id), True
    return app.game_for_command(game_id)


# How many times more a command asked without a precondition is decided again on the new state
# when another command was stored first (the seats of a simultaneous phase acting at once).
REDECIDE = 3


def send(app: Parley, request: CommandRequest, game: Game, caught_up: bool) -> Outcome:
    """Decide and store one command on `game` (from game_to_decide_on).

    A command whose game was kept (not caught_up) and that is not accepted is decided again on
    the game read from the store. One sent without expected_version or If-Match ("decided on
    the game as it is", docs/api.md) and overtaken by another command stored first is decided
    again on the new state, up to REDECIDE times, before it is answered 409."""
    outcome = _attempt(app, request, game, caught_up)
    if not caught_up and not isinstance(outcome, Accepted):
        outcome = _attempt(app, request, app.get_game(request.game_id), True)
    for _ in range(REDECIDE):
        if not (isinstance(outcome, Overtaken) and _unconditional(request)):
            break
        outcome = _attempt(app, request, app.get_game(request.game_id), True)
    return outcome


def _unconditional(request: CommandRequest) -> bool:
    """Sent without a version to hold to: no expected_version, and no If-Match but '*'."""
    return request.body.get("expected_version") is None and (request.if_match is None or request.if_match.star)


def _attempt(app: Parley, request: CommandRequest, game: Game, caught_up: bool) -> Outcome:
    command = dict(request.body)
    asked_seat = command.pop("seat", None)
    expected = command.pop("expected_version", None)
    try:
        seat = _seat(request.caller, asked_seat, len(game.seats))
        key = _idempotency(request)   # a malformed key is refused even on a dry run, which then ignores it
        if request.dry_run:
            key = None
        earlier = _earlier(game, key)
        if earlier is not None:
            return _replayed(app, request.game_id, earlier)
        if request.if_match is not None and not request.if_match.holds(game.version):
            return PreconditionFailed(game.version)
        _admit(game.ruleset, command)
        if expected is not None and expected != game.version:
            return VersionConflict(expected, game.version)
        return _decide_and_store(app, request, game, seat, command, key, caught_up)
    except _Answer as answer:
        return answer.outcome


def _seat(caller: int | str, asked_seat: int | None, seats: int) -> int:
    if caller == SPECTATOR:
        raise _Answer(SpectatorsOnlyRead())
    if caller == "host":
        if asked_seat is None:
            raise _Answer(SeatRequired())
        try:
            adjudication.check_seat(asked_seat, seats)
        except Rejected as error:
            raise _Answer(Refused(error)) from None
        return asked_seat
    if not isinstance(caller, int) or (asked_seat is not None and asked_seat != caller):
        raise _Answer(NotYourSeat())
    return caller


def _idempotency(request: CommandRequest) -> tuple[str, str] | None:
    """(hash of game, caller and key; hash of the request) for an Idempotency-Key, or None."""
    key = request.idempotency_key
    if key is None:
        return None
    if not KEY_PATTERN.match(key):
        raise _Answer(BadIdempotencyKey())
    scope = hashlib.sha256(f"{request.game_id}\n{request.caller}\n{key}".encode()).hexdigest()
    return scope, request.request_hash or ""


def _earlier(game: Game, key: tuple[str, str] | None) -> dict | None:
    if key is None:
        return None
    try:
        return game.earlier_result(*key)
    except IdempotencyKeyReused:
        raise _Answer(KeyReused()) from None


def _replayed(app: Parley, game_id: UUID, earlier: dict) -> Replayed:
    """The answer the first request with this key got, rebuilt from the store."""
    game = app.get_game(game_id, version=earlier["last"])
    stored = app.stored_events(game_id, after=earlier["first"] - 1,
                               limit=earlier["last"] - earlier["first"] + 1)
    return Replayed(game, stored)


def _admit(ruleset, command: dict) -> None:
    try:
        adjudication.admit(ruleset, command)
    except adjudication.InvalidCommand as error:
        raise _Answer(DoesNotMatchSchema(error)) from None
    except Rejected as error:
        raise _Answer(Refused(error)) from None


def _decide_and_store(app: Parley, request: CommandRequest, game: Game, seat: int, command: dict,
                      key: tuple[str, str] | None, caught_up: bool) -> Outcome:
    try:
        game, before = app.execute(request.game_id, seat, command, game=game, dry_run=request.dry_run,
                                   idempotency=key, reporter="host" if request.caller == "host" else "seat")
    except Rejected as error:
        return Refused(error)
    except IntegrityError:
        if not caught_up:
            # Another command (or this one's key, from another process) was stored since the
            # kept game's version: decided again on the caught-up game (send).
            return Overtaken()
        return _overtaken(app, request, key)
    if request.dry_run:
        return DryRunAnswer(game, list(game.collect_events()), before)
    return Accepted(game, game.stored_now)


def _overtaken(app: Parley, request: CommandRequest, key: tuple[str, str] | None) -> Outcome:
    """Another command was stored at the version this one was decided on."""
    try:
        # The same key may have been in flight twice: if the other request stored it, this
        # one answers its result.
        earlier = _earlier(app.get_game(request.game_id), key)
    except _Answer as answer:
        return answer.outcome
    if earlier is not None:
        return _replayed(app, request.game_id, earlier)
    if request.body.get("expected_version") is None and request.if_match is not None and not request.if_match.star:
        # If-Match held when it was checked, but another command was stored before this one:
        # the precondition failed all the same.
        return PreconditionFailed(app.get_game(request.game_id).version)
    return Overtaken()
