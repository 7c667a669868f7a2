"""POST /games/{id}/commands: one command for one seat, adjudicated by the game's rules."""
from __future__ import annotations

import hashlib
import json
import re
from uuid import UUID

import marshmallow as ma
from eventsourcing.persistence import IntegrityError
from flask import request

from domain import adjudication
from domain.adjudication import SERVICE_RULE
from domain.ruleset import Rejected
from service.api import Blueprint, application, authenticate, operations
from service.api.games import BEARER_AUTH, ETAG_HEADER, GameViewSchema
from service.api.render import event_entry, game_view
from service.application import Game, IdempotencyKeyReused, VersionMismatch
from service.errors import Problem

blp = Blueprint("commands", __name__, url_prefix="/games",
                description="Send a seat's command; the rules answer with events or a rejection.")


class CommandSchema(ma.Schema):
    """Any command of the game's ruleset (GET /rulesets/{id} has each one's schema)."""

    class Meta:
        unknown = ma.INCLUDE

    type = ma.fields.String(required=True, metadata={"description": "The command type, e.g. roll_dice"})
    seat = ma.fields.Integer(strict=True, metadata={
        "description": "The seat acted for: required with the host token, optional (your own) otherwise"})
    expected_version = ma.fields.Integer(strict=True, metadata={
        "description": "Refuse (409) unless the game is still at this version"})


class StoredCommandSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    body = ma.fields.Dict(required=True)


class EventEntrySchema(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={"description": "The stored event's number (1 = creation)"})
    recorded_at = ma.fields.String(required=True)
    hash = ma.fields.String(allow_none=True, metadata={
        "description": "The record's link in the game's hash chain (docs/disputes.md)"})
    event = ma.fields.Dict(required=True, metadata={"description": "The event as you may see it; its 'type' names it"})
    command = ma.fields.Nested(StoredCommandSchema, metadata={
        "description": "On the first event of a command's batch: the command that produced it"})


class CommandResultSchema(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={
        "description": "The game's version after the command (a dry run: the version it would reach)"})
    events = ma.fields.List(ma.fields.Nested(EventEntrySchema), required=True)
    game = ma.fields.Nested(GameViewSchema, required=True)
    dry_run = ma.fields.Boolean(metadata={"description": "True when nothing was stored"})


class DryRunQuerySchema(ma.Schema):
    dry_run = ma.fields.Boolean(load_default=False, metadata={
        "description": "Answer what the command would produce (or why it is refused) and store "
                       "nothing. It is decided on the game as your seat may imagine it: what the "
                       "rules hide from you (other hands, sealed choices, face-down decks) is "
                       "re-dealt at random, and server chance draws from a throwaway seed, so "
                       "hidden outcomes shown are examples, not the real ones (docs/api.md)."})


IF_MATCH = {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
            "description": 'Refuse (412) unless the game is still at this version: "<version>"'}


class _Stale(Exception):
    """A command decided on a kept game that was not caught up met something other than its
    own storing: it is decided again on the game brought up to date."""


def _if_match_version(current: int, caught_up: bool) -> int | None:
    """The version an If-Match header insists on (412 when it is not the current one)."""
    if "If-Match" not in request.headers:
        return None
    if request.if_match.star_tag:
        return None
    if not request.if_match.contains(str(current)):
        if not caught_up:
            raise _Stale
        raise Problem(412, f"The game is at version {current}, not the one in If-Match.",
                      "VERSION_MISMATCH", headers={"ETag": f'"{current}"'}, version=current)
    return current


IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": r"^[\x21-\x7e]+$"},
    "description": "Retry safely: a command accepted with this key is not applied again; "
                   "the same key with the same body answers the first result (header "
                   "Idempotent-Replayed: true), with another body 422 IDEMPOTENCY_KEY_REUSED. "
                   "Keys are per game and per token; only accepted commands are remembered."}
KEY_PATTERN = re.compile(r"^[\x21-\x7e]{1,255}$")


def _idempotency(game_id: UUID, caller) -> tuple[str, str] | None:
    """(hash of game, caller and key; hash of the request) for an Idempotency-Key, or None."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not KEY_PATTERN.match(key):
        raise Problem(400, "An Idempotency-Key is 1 to 255 visible ASCII characters.",
                      "INVALID_IDEMPOTENCY_KEY")
    scope = hashlib.sha256(f"{game_id}\n{caller}\n{key}".encode()).hexdigest()
    body = json.dumps(request.get_json(silent=True), sort_keys=True, separators=(",", ":"))
    return scope, hashlib.sha256(body.encode()).hexdigest()


def _earlier(game: Game, idempotency: tuple[str, str] | None) -> dict | None:
    if idempotency is None:
        return None
    try:
        return game.earlier_result(*idempotency)
    except IdempotencyKeyReused:
        raise Problem(422, "This Idempotency-Key was already used for another command in this "
                      "game; send a new key for a new command.", "IDEMPOTENCY_KEY_REUSED",
                      section=SERVICE_RULE) from None


def _replay(game_id: UUID, earlier: dict, caller):
    """The answer the first request with this key got, rebuilt from the store."""
    game = application().get_game(game_id, version=earlier["last"])
    stored = application().stored_events(game_id, after=earlier["first"] - 1,
                                         limit=earlier["last"] - earlier["first"] + 1)
    return ({"version": game.version,
             "events": [event_entry(game, e, caller) for e in stored],
             "game": game_view(game, caller)},
            200, {"ETag": f'"{game.version}"', "Idempotent-Replayed": "true"})


@blp.route("/<uuid:game_id>/commands", methods=["POST"])
@blp.doc(operationId="sendCommand", security=BEARER_AUTH, parameters=[IF_MATCH, IDEMPOTENCY_KEY])
@blp.arguments(CommandSchema)
@blp.arguments(DryRunQuerySchema, location="query")
@blp.response(200, CommandResultSchema, headers=ETAG_HEADER)
@blp.problems(400, 401, 403, 404, 409, 412, 413, 415, 422, 503)
def send_command(body: dict, query: dict, game_id: UUID):
    """Send one command; answers the events it produced and your new view.

    With ?dry_run=true nothing is stored: the answer is what the command would produce, or
    the 422 it would meet, decided on what your seat may know: hidden parts are re-dealt at
    random (an Idempotency-Key is ignored: there is nothing to repeat).
    With an Idempotency-Key, a command already accepted with that key and body is answered
    with its first result and not applied again."""
    dry_run = query["dry_run"]
    caught_up = True
    if dry_run:
        # Nothing is stored, so nothing would prove a kept game current: catch up first.
        game, caller = authenticate(game_id)
    else:
        def load(game_id: UUID) -> Game:
            nonlocal caught_up
            game, caught_up = application().game_for_command(game_id)
            return game
        game, caller = authenticate(game_id, load)
    with operations.command_metrics(game.ruleset_id) as outcome:
        try:
            return _send(body, dry_run, game_id, game, caller, outcome, caught_up)
        except _Stale:
            game = application().get_game(game_id)
            return _send(body, dry_run, game_id, game, caller, outcome, True)


def _send(body: dict, dry_run: bool, game_id: UUID, game: Game, caller, outcome: dict,
          caught_up: bool):
    """Adjudicate and store one command. With caught_up False (a kept game not brought up to
    date: GameCache.peek), only a stored command is answered; a refusal that depends on the
    game's state raises _Stale, to be decided again on the caught-up game. Nothing is stored
    before such a refusal, so deciding again cannot apply a command twice."""
    command = dict(body)
    asked_seat = command.pop("seat", None)
    expected = command.pop("expected_version", None)
    if caller == "host":
        if asked_seat is None:
            raise Problem(422, "The host token acts for a seat: add \"seat\" to the command.",
                          "SEAT_REQUIRED", section=SERVICE_RULE)
        adjudication.check_seat(asked_seat, len(game.seats))
        seat = asked_seat
    else:
        if asked_seat is not None and asked_seat != caller:
            raise Problem(403, "Your token acts for your own seat only.", "NOT_YOUR_SEAT")
        seat = caller
    idempotency = None if dry_run else _idempotency(game_id, caller)
    earlier = _earlier(game, idempotency)
    if earlier is not None:
        outcome["outcome"] = "replayed"
        return _replay(game_id, earlier, caller)
    if_match = _if_match_version(game.version, caught_up)
    try:
        adjudication.admit(game.ruleset, command)
    except adjudication.InvalidCommand as error:
        raise Problem(422, error.detail, error.code, section=error.rule, problems=error.problems) from None
    try:
        game, before = application().execute(
            game_id, seat, command, expected_version=expected if expected is not None else if_match,
            game=game, dry_run=dry_run, idempotency=idempotency,
            reporter="host" if caller == "host" else "seat")
    except Rejected:
        if not caught_up:
            raise _Stale from None
        raise
    except VersionMismatch as error:
        if not caught_up:
            raise _Stale from None
        if expected is None:
            raise Problem(412, f"The game is at version {error.actual}, not {error.expected}.",
                          "VERSION_MISMATCH", headers={"ETag": f'"{error.actual}"'},
                          version=error.actual) from None
        raise Problem(409, f"The game is at version {error.actual}, not {error.expected}.",
                      "VERSION_CONFLICT", version=error.actual) from None
    except IntegrityError:
        if not caught_up:
            # Another command (or this one's key, from another worker) was stored since the
            # kept game's version.
            raise _Stale from None
        # The same key may have been in flight twice: if the other request stored it, this
        # one answers its result.
        earlier = _earlier(application().get_game(game_id), idempotency)
        if earlier is not None:
            outcome["outcome"] = "replayed"
            return _replay(game_id, earlier, caller)
        if expected is None and if_match is not None:
            # If-Match held when it was checked, but another command was stored before this
            # one: the precondition failed all the same.
            current = application().get_game(game_id).version
            raise Problem(412, f"The game is at version {current}, not the one in If-Match.",
                          "VERSION_MISMATCH", headers={"ETag": f'"{current}"'},
                          version=current) from None
        raise Problem(409, "Another command was stored first; read the game and try again.",
                      "VERSION_CONFLICT") from None
    if dry_run:
        outcome["outcome"] = "dry_run"
        pending = game.collect_events()
        return ({"version": game.version,
                 "events": [event_entry(game, e, caller) for e in pending],
                 "game": game_view(game, caller, reveal_seed=False), "dry_run": True},
                200, {"ETag": f'"{before}"'})
    new_events = game.stored_now
    return ({"version": game.version,
             "events": [event_entry(game, e, caller) for e in new_events],
             "game": game_view(game, caller)},
            200, {"ETag": f'"{game.version}"'})
