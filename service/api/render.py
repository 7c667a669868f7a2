"""What a caller may see of a game and of its stored events: always a seat's view.

A seat sees what ruleset.view/redact allow that seat; the host token sees as the arbiter.
The server seed is never shown before the game is finished.
"""
from __future__ import annotations

from domain import kit
from domain.kit import check_custom_content
from service.api import viewer_for
from service.game import Game


def game_view(game: Game, caller: int | str, reveal_seed: bool = True) -> dict:
    """reveal_seed=False for a game that only seems finished (a dry run's): the seed stays hidden."""
    ruleset = game.ruleset
    status = ruleset.status(game.state)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset_id,
        "ruleset_version": game.ruleset_version,
        "version": game.version,
        "status": "finished" if status.finished else "active",
        "phase": status.phase,
        "to_move": list(status.to_move),
        "seats": [{"seat": i, "name": name} for i, name in enumerate(game.seats)],
        "you": caller,
        "public": game.public,
        "state": ruleset.view(game.state, viewer_for(caller)),
        "result": kit.named(status.result, game.seats) if status.finished else None,
        "chance": {
            "mode": game.chance_mode,
            "commitment": game.commitment,
            "seed": game.revealed_seed() if status.finished and reveal_seed else None,
        },
    }


def event_entry(game: Game, stored, caller: int | str) -> dict:
    """One stored event as the caller may see it, with its version number."""
    viewer = viewer_for(caller)
    entry = {"version": stored.originator_version, "recorded_at": stored.timestamp.isoformat(),
             "hash": getattr(stored, "hash", None)}
    if isinstance(stored, Game.Created):
        created = {
            "type": "GameCreated",
            "ruleset": stored.ruleset_id,
            "ruleset_version": stored.ruleset_version,
            "seats": [{"seat": i, "name": n} for i, n in enumerate(stored.seats)],
            "chance": {"mode": stored.chance_mode, "commitment": stored.commitment},
            "options": stored.options,
            "content": stored.content,
        }
        shown = stored.table_setup if caller == "host" else game.ruleset.public_setup(stored.table_setup)
        if shown:   # a seat, a spectator: what is face up on the table (TM-4); none at all: left out
            created["table_setup"] = shown
        entry["event"] = created
        return entry
    ruleset = game.ruleset
    entry["event"] = ruleset.redact(stored.event, viewer)
    if stored.command is not None:
        actor = stored.command["seat"]
        entry["command"] = {"seat": actor,
                            "body": ruleset.redact_command(stored.command["body"], actor, viewer)}
    return entry


def check_creation(ruleset, content) -> None:
    """Check custom content against the ruleset's schema before setup() runs (the caller runs
    this in a native thread: it can hold the CPU, service/serving.py offload). Nothing is
    refused here: the kit remembers what it found, and setup() lists it with every other
    problem of the creation in one refusal."""
    if content is not None:
        check_custom_content(ruleset.content_schema, content)
