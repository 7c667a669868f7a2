"""Corsairs of Valeria: what a seat sees. The rulebook hides nothing (captains are public,
CV-A4; future rolls are not state), so every viewer sees the same document, but for the
host's (ARBITER) listing of the face-down pools, which Corsairs has none of (TM-2: dice only)."""
from __future__ import annotations

from .. import kit
from ..ruleset import ARBITER
from .board import SKULL
from .rules import CAPTAIN_NAMES
from .state import GROUPS, CorsairsState


def view(s: CorsairsState, viewer) -> dict:
    if not s.players:
        return {}
    board = s.board
    t = s.turn
    # The Captain's name as the game's content gives it (custom content may add Captains), else
    # as the rulebook prints it.
    named = {c["id"]: c.get("name") for c in s.content.get("captains", []) if isinstance(c, dict)}
    out = {
        "players": [{"seat": i, "name": p.name, "captain": p.captain,
                     "captain_name": named.get(p.captain) or CAPTAIN_NAMES.get(p.captain),
                     "silver": p.silver, "grog": p.grog, "treasure": p.treasure, "position": p.position}
                    for i, p in enumerate(s.players)],
        "skull_island_silver": s.skull_silver,
        "supply_silver": s.supply if s.options.get("silver_supply") == "limited" else None,
        "skull_island_reaches": s.skull_reaches,
        "race_reset_after_turn": s.race_reset_pending,
        "game_ends_after_turn": s.end_after_turn,
        "track": {"slots": s.slots, "unused": s.unused_tile,
                  "rows": [list(r) for r in board.rows],
                  "hazards": dict(board.hazard),
                  "merchants": {sp: [{"id": m, "reward_per_cannon": [{"resource": r, "amount": a} for r, a in rw]}
                                     for m, rw in ms] for sp, ms in board.merchants.items()},
                  "skull_island": SKULL},
        "turn": {"number": t.number, "seat": s.active, "pass": t.pass_no,
                 "phase": {"roll": "A", "reroll": "B", "actions": "C"}.get(t.phase, "D"),
                 "dice": list(t.dice), "preset_dice": t.preset,
                 "dice_actions_left": [g for g in GROUPS if g not in t.done] if t.phase == "actions" else [],
                 "skulls_executed": t.skulls_resolved,
                 "cannons_spent": t.cannons_spent, "attacked_this_turn": t.attacked,
                 "dice_given_away": t.dice_given_away, "waiting_for": t.pending},
        "options": s.options,
        "content": {"id": s.content.get("id"), "printed": s.content.get("printed"), "notice": s.content.get("notice")},
    }
    if viewer == ARBITER:
        out.update(pools(s))
    return out


def pools(s: CorsairsState) -> dict:
    """The host's listing of the face-down pools (TM-2): none, every outcome is a die."""
    return kit.pool_listing({}, {})


def redact(event: dict, viewer) -> dict:
    return event


def redact_command(command: dict, actor: int, viewer) -> dict:
    return command
