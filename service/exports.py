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

from collections.abc import Iterable, Iterator

from disputes.export import FORMAT
from domain.ruleset import ARBITER
from service.game import SPECTATOR, Game


def _complete(game: Game, viewer: int | str) -> tuple[bool, bool]:
    """(finished, complete): whether the game is over, and whether the reader gets every record whole."""
    finished = game.ruleset.status(game.state).finished
    return finished, finished or viewer in ("host", ARBITER)


def export_head(game: Game, viewer: int | str) -> dict:
    """The export's own fields, before its records: viewer a seat number, "host", "spectator" or
    ARBITER; `game` the game at its latest version."""
    finished, complete = _complete(game, viewer)
    seed_shown = game.chance_mode == "server" and (finished or viewer == ARBITER)
    return {
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


def export_parts(game: Game, stored_events: Iterable, viewer: int | str) -> Iterator[tuple[str, dict]]:
    """The export's records in order, as the reader may see them: ("creation", entry), then
    ("setup", entry) for each event setup produced, then ("command", command) for each command
    with its events. One command at a time is held, so an export of any length is written in
    pieces (service/api/exports.py) without holding the whole game."""
    ruleset = game.ruleset
    _, complete = _complete(game, viewer)   # not export_head: that opens the sealed seed
    sees = ARBITER if complete else None if viewer == SPECTATOR else viewer
    command: dict | None = None
    for stored in stored_events:
        entry = {"version": stored.originator_version, "recorded_at": stored.timestamp.isoformat()}
        if isinstance(stored, Game.Created):
            creation = game.creation_content()
            entry.update(creation)
            entry.update({"salt": stored.salt, "hash": stored.hash})
            shown = creation["table_setup"] if complete else ruleset.public_setup(creation["table_setup"]) or None
            if shown != creation["table_setup"]:   # a hand dealt, a Duke: what no seat sees on the table
                entry.update({"table_setup": shown, "salt": None, "redacted": True})
            yield "creation", entry
            continue
        event = ruleset.redact(stored.event, sees)
        redacted = event != stored.event
        entry.update({"event": event, "salt": stored.salt, "hash": stored.hash})
        if stored.command is not None:
            if command is not None:
                yield "command", command
            actor, body = stored.command["seat"], stored.command["body"]
            shown = ruleset.redact_command(body, actor, sees)
            command = {"seat": actor, "body": shown, "version_before": stored.originator_version - 1,
                       "events": []}
            if shown != body:
                command["redacted"] = True
                redacted = True
        if redacted:
            entry.update({"salt": None, "redacted": True})
        if command is None:
            yield "setup", entry
        else:
            command["events"].append(entry)
    if command is not None:
        yield "command", command


def build_export(game: Game, stored_events: Iterable, viewer: int | str) -> dict:
    """The whole export as one document (export_head with export_parts' records in it)."""
    export = export_head(game, viewer)
    for kind, part in export_parts(game, stored_events, viewer):
        if kind == "creation":
            export["creation"] = part
        else:
            export["setup" if kind == "setup" else "commands"].append(part)
    return export
