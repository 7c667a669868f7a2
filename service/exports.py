"""A game's export: one self-contained JSON document anyone can re-adjudicate (docs/disputes.md).

Who gets what:
- the arbiter (the operator's token) gets everything, the server seed included;
- after the end everyone with a token of the game gets everything, the seed included;
- while the game runs the host gets every record but not the seed, a seat gets each
  record as the rules let that seat see it, and a spectator (its token, or anyone on a public
  game) each record as every seat may see it (the rules' viewer None). A record the seat may not see in full keeps its
  hash but loses its salt (marked "redacted"), so the seat can check every link it can see
  and cannot test guesses against the hidden ones.
"""
from __future__ import annotations

from typing import Any

from disputes.export import FORMAT
from domain.ruleset import ARBITER
from service.game import SPECTATOR, Game


def build_export(game: Game, stored_events: list, viewer: int | str) -> dict:
    """viewer: a seat number, "host", "spectator" or ARBITER. `game` is the game at its
    latest version."""
    ruleset = game.ruleset
    finished = ruleset.status(game.state).finished
    complete = finished or viewer in ("host", ARBITER)
    seed_shown = game.chance_mode == "server" and (finished or viewer == ARBITER)
    sees = ARBITER if complete else None if viewer == SPECTATOR else viewer
    export: dict[str, Any] = {
        "format": FORMAT,
        "game_id": str(game.id),
        "exported_for": viewer,
        "complete": complete,
        "status": "finished" if finished else "active",
        "version": game.version,
        "head_hash": game.head_hash,
        "creation": None,
        "setup": [],
        "commands": [],
        "seed": (game.revealed_seed() if finished else game.server_seed()) if seed_shown else None,
    }
    for stored in stored_events:
        entry = {"version": stored.originator_version, "recorded_at": stored.timestamp.isoformat()}
        if isinstance(stored, Game.Created):
            creation = game.creation_content()
            entry.update(creation)
            entry.update({"salt": stored.salt, "hash": stored.hash})
            shown = creation["table_setup"] if complete else ruleset.public_setup(creation["table_setup"]) or None
            if shown != creation["table_setup"]:   # a hand dealt, a Duke: what no seat sees on the table
                entry.update({"table_setup": shown, "salt": None, "redacted": True})
            export["creation"] = entry
            continue
        event = ruleset.redact(stored.event, sees)
        redacted = event != stored.event
        entry.update({"event": event, "salt": stored.salt, "hash": stored.hash})
        if stored.command is None:
            target = export["commands"][-1]["events"] if export["commands"] else export["setup"]
        else:
            actor, body = stored.command["seat"], stored.command["body"]
            shown = ruleset.redact_command(body, actor, sees)
            command = {"seat": actor, "body": shown, "version_before": stored.originator_version - 1,
                       "events": []}
            if shown != body:
                command["redacted"] = True
                redacted = True
            export["commands"].append(command)
            target = command["events"]
        if redacted:
            entry.update({"salt": None, "redacted": True})
        target.append(entry)
    return export
