"""Valeria: Card Kingdoms: every command a seat may send now, as complete bodies.

Checked against decide() by random playouts. In table-chance games the commands are listed
without their outcome fields ('dice', 'revealed'); table_inputs() says what may be added.
"""
from __future__ import annotations

from .effects import RESOURCES, options
from .rules import ACTIONS, die_changes, first_items, open_commands, price, roles_met, to_move
from .state import ValeriaState


def legal_commands(s: ValeriaState, seat: int) -> list[dict]:
    if seat not in to_move(s):
        return []
    open_now = open_commands(s)
    if "keep_duke" in open_now:
        return [{"type": "keep_duke", "duke": d} for d in s.seats[seat].offer]
    if "roll_dice" in open_now:
        return [{"type": "roll_dice"}]
    if "announce_roll" in open_now:
        return [{"type": "announce_roll"}] + die_changes(s, seat)
    if "harvest" in open_now:
        firsts = first_items(s)
        items = firsts[:1] if firsts else [i for i in s.items if i["seat"] == seat]
        return [{"type": "harvest", "item": i["id"], "choice": c}
                for i in items for c, _ in options(s, seat, i["effect"])]
    if "resolve" in open_now:
        return [{"type": "resolve", "choice": c} for c, _ in options(s, seat, s.pending[0]["effect"])]
    out = []
    for action, stacks in (("slay", s.monsters), ("recruit", s.citizens), ("build", s.domains)):
        for st in stacks:
            if s.top(st) is None or (action == "build" and not roles_met(s, seat, s.top(st))):
                continue
            p = price(s, seat, action, st)
            me = s.seats[seat]
            main = getattr(me, p["main"])
            for m in range(0, max(1, p["amount"])):  # the same arithmetic as rules.payment
                if main >= p["amount"] - m and me.magic >= p["magic"] + m:
                    out.append({"type": action, "stack": st, "magic": m})
    out += [{"type": "gain_resource", "resource": r} for r in RESOURCES]
    assert set(c["type"] for c in out) <= set(ACTIONS)
    return out


def _reveals(s: ValeriaState, cmd: dict) -> bool:
    return "domain" in str(cmd.get("stack", "")) or any("domain_" in str(x) for x in cmd.get("choice", []) or [])


def table_inputs(s: ValeriaState, seat: int) -> dict:
    """What a table-mode client may have to add: the dice rolled, and each Domain turned face up."""
    if s.chance_mode != "table" or seat not in to_move(s):
        return {}
    out = {}
    for cmd in legal_commands(s, seat):
        if cmd["type"] == "roll_dice":
            out["roll_dice"] = {"dice": {"count": 2, "from": "two six-sided dice"}}
        elif cmd["type"] == "build" or (cmd["type"] in ("harvest", "resolve") and _reveals(s, cmd)):
            out[cmd["type"]] = {"revealed": {"count": "each Domain turned face up by this command, in order "
                                                      "(none when the stack has no face-down Domain left)",
                                             "from": "the face-down Domains"}}
    return out
