"""Corsairs of Valeria: every command a seat may send now, as complete bodies.

Built from the same understanding as rules.py and checked against decide() by random
playouts (tests/playouts). In table-chance games the rolling commands are listed without
their outcome fields; table_inputs() says what to add.
"""
from __future__ import annotations

from itertools import combinations, product

from .board import BACKWARD, FORWARD, SKULL
from .rules import GROG_FACES, SKULL_FACES
from .state import GROUPS, CorsairsState

# table_inputs fields that are drawn from a hidden pool, which only the host token reports
# (docs/rulings.md TM-1): none, Corsairs only rolls dice, which the rolling seat reports.
DRAWN_FIELDS: frozenset[str] = frozenset()


def legal_commands(s: CorsairsState, seat: int) -> list[dict]:
    if s.finished or not s.players:
        return []
    t = s.turn
    if t.pending is not None:
        if seat != t.pending["seat"]:
            return []
        if t.pending["kind"] == "lane":
            return [{"type": "choose_lane", "lane": lane} for lane in ("L", "R")]
        return [{"type": "resolve_received_skulls"}, {"type": "resolve_received_skulls", "ignore_one": True}]
    if seat != s.active:
        return []
    p = s.players[seat]
    out: list[dict] = []
    if t.phase == "roll":
        if t.preset == 0 and p.grog >= 1 and p.captain in ("WILLEM", "LUTHOR"):
            out.append({"type": "preset_die", "face": "CANNON" if p.captain == "WILLEM" else "MAP"})
        out.append({"type": "roll_dice"})
    elif t.phase == "reroll":
        pays = (["grog"] if p.grog >= 1 else []) + (["silver"] if p.captain == "PRINCE" and p.silver >= 1 else [])
        for k in range(1, 6):
            for dice in combinations(range(5), k):
                for pay in pays:
                    out.append({"type": "reroll_dice", "dice": list(dice), "pay_with": pay})
        out.append({"type": "lock_dice"})
        if p.captain == "MISTRESS" and "SKULL_GROG" in t.dice:
            out.append({"type": "lock_dice", "skull_grog_to_grog": True})
        if p.captain == "REO":
            for k in range(1, min(3, t.dice.count("MAP")) + 1):
                out.append({"type": "lock_dice", "maps_to_silver": k})
    elif t.phase == "actions":
        if not t.skulls_resolved:
            out.append({"type": "resolve_skulls"})
            if p.captain == "BONES":
                out.append({"type": "resolve_skulls", "ignore_one": True})
            if s.count(*SKULL_FACES) == 5:
                others = [i for i in range(len(s.players)) if i != seat]
                out.extend({"type": "give_skull_dice", "to": list(to)} for to in product(others, repeat=5))
            return out
        done = t.done
        if "grog" not in done:
            out.append({"type": "acquire_grog"})
            if s.options["five_grog_restart_optional"] and s.count(*GROG_FACES) == 5:
                out.append({"type": "acquire_grog", "restart": True})
        if "silver" not in done:
            out.append({"type": "collect_silver"})
        if "map" not in done:
            n = s.count("MAP")
            out.extend({"type": "move_ship", "steps": steps} for steps in _paths(s, p.position, n))
        if "cannon" not in done:
            out.extend(_cannon_commands(s, seat))
        if (p.captain == "JAXN" and not s.count("MAP") and not t.jaxn_used and not t.dice_given_away
                and p.position != SKULL):
            out.extend({"type": "jaxn_move", **step} for step in _one_step(s, p.position))
        if all(g in done for g in GROUPS):
            out.append({"type": "end_turn"})
            if p.captain == "HASAN" and p.grog >= 1:
                out.append({"type": "end_turn", "hasan_convert": True})
    return out


def _one_step(s: CorsairsState, pos: str) -> list[dict]:
    options = s.board.neighbours(pos, FORWARD)
    if len(options) == 2:
        return [{"lane": s.board.lane_of[o]} for o in options]
    return [{}] if options else []


def _paths(s: CorsairsState, pos: str, n: int) -> list[list[dict]]:
    if pos == SKULL:
        return [[]]
    board = s.board
    directions = (FORWARD, BACKWARD) if n == 5 else (FORWARD,)
    out: list[list[dict]] = []

    def walk(at: str, left: int, steps: list[dict]) -> None:
        if left == 0 or at == SKULL:
            out.append(steps)
            return
        for direction in directions:
            options = board.neighbours(at, direction)
            for o in options:
                step = {"direction": direction}
                if len(options) == 2:
                    step["lane"] = board.lane_of[o]
                walk(o, left - 1, steps + [step])

    walk(pos, n, [])
    return out


def _cannon_commands(s: CorsairsState, seat: int) -> list[dict]:
    t = s.turn
    p = s.players[seat]
    left = s.count("CANNON") - t.cannons_spent
    others = [i for i in range(len(s.players)) if i != seat]
    out: list[dict] = [{"type": "hold_fire"}]
    if p.captain == "HOOK" and t.hook_used < s.options["hook_max_uses"] and left >= 2 and p.position != SKULL:
        out.extend({"type": "hook_move", "target": i} for i in others)
    if t.attacked:
        return out
    jager: list[dict] = [{}]
    if p.captain == "JAGER" and p.position != SKULL:
        jager += [{"jager_step": True, **({"jager_lane": st["lane"]} if "lane" in st else {})}
                  for st in _one_step(s, p.position)]
    if left >= 3:
        for i in others:
            out.extend({"type": "attack_player", "target": i, "mode": "plunder", **j} for j in jager)
    if s.count("CANNON") == 5 and t.cannons_spent == 0:
        for i in others:
            if s.players[i].treasure >= 1:
                out.extend({"type": "attack_player", "target": i, "mode": "steal_treasure", **j} for j in jager)
    if left >= s.options["merchant_min_cannons"]:
        for mid, _ in s.board.merchants.get(p.position, ()):
            out.append({"type": "attack_merchant", "merchant": mid})
    return out


def table_inputs(s: CorsairsState, seat: int) -> dict:
    """What a table-chance client adds to the rolling commands: the faces it rolled."""
    if s.chance_mode != "table" or s.finished or s.turn.pending is not None or seat != s.active:
        return {}
    faces = sorted(set(s.content["dice"]["faces"]))
    if s.turn.phase == "roll":
        return {"roll_dice": {"faces": {"count": 5 - s.turn.preset, "one_of": faces, "description": ROLLED}}}
    if s.turn.phase == "reroll":
        rerolls = [c for c in legal_commands(s, seat) if c["type"] == "reroll_dice"]
        if not rerolls:   # no Grog left to re-roll with: nothing to report until the next roll
            return {}
        return {"reroll_dice": {"faces": {"count": "one for each die in 'dice', in the same order", "one_of": faces,
                                          "description": REROLLED,
                                          "by_command": [{"command": c, "count": len(c["dice"])} for c in rerolls]}}}
    return {}


# What each table input carries (the 'description' of its spec, and of the command schema's field).
ROLLED = ("The face each die rolled shows, one per die rolled (a die set with preset_die is not rolled) "
          "[Roll Dice]; the rolling seat reports them.")
REROLLED = ("The new face of each die re-rolled, in the order of 'dice' [Re-roll Dice]; the rolling seat "
            "reports them.")
