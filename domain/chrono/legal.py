"""Chrono Corsairs: every command a seat may send now, as complete bodies.

Checked against decide() by random playouts. In table-chance games the commands that draw or
flip are listed without their outcome fields; table_inputs() says what to add.
"""
from __future__ import annotations

from . import effects as fx
from .rules import TABLE_FIELDS, price, to_move
from .state import MAT, TIMES, ChronoState


def legal_commands(s: ChronoState, seat: int) -> list[dict]:
    if seat not in to_move(s):
        return []
    x = s.seats[seat]
    if s.frames:
        f, n = fx.frame(s), fx.node(s)
        opts = fx.options(s)
        out = [{"type": "do_step"}] if opts is None else [{"type": "do_step", **o} for o in opts]
        if fx.optional(f, n) and fx.at_rest(s, f, n):
            out.append({"type": "skip_step"})
        return out
    if s.phase == "draw":
        return [{"type": "draw_plans"}]
    if s.phase == "select":
        return [{"type": "select_plan", "card": c, "slot": t} for c in x.drawn for t in TIMES]
    if s.phase == "loop":
        out = []
        if s.turn["plan"] == "pending":
            out += [{"type": "perform_plan"}, {"type": "forgo_plan"}]
        else:
            out.append({"type": "end_turn"})
        if not s.turn["artifact"] and s.options["artifacts_per_turn"] > 0:
            out += [{"type": "play_artifact", "artifact": a} for a in dict.fromkeys(x.artifacts)]
        return out
    if s.phase == "priority":
        return [{"type": "choose_flag", "position": p} for p in range(len(s.seats)) if str(p) not in s.priority["placed"]]
    if s.phase == "outfit":
        out = []
        cands = [{"item": "move_plan", "from": a, "to": b} for a in TIMES for b in TIMES if a != b and x.mat[a] is not None]
        cands += [{"item": "advance_cube", "track": t} for t in ("stable", "unstable")
                  if x.cubes[t] < len(s.content["shipMat"][t + "Track"]) - 1]
        cands += [{"item": "recruit", "kind": k} for k in ("crew", "officer") if x.pieces[k].get(MAT, 0)]
        cands.append({"item": "time_gem"})
        if s.decks["artifact"]["pool"] or s.decks["artifact"]["bottom"]:
            cands.append({"item": "artifact"})
        for c in cands:
            cost = price(s, c["item"], seat, c)
            if cost is not None and x.doubloons >= cost:
                out.append({"type": "purchase", **c})
        out.append({"type": "done_outfitting"})
        return out
    return []


def table_inputs(s: ChronoState, seat: int) -> dict:
    """What a table-mode command may have to carry: only what the table turns up, never a count
    of what is hidden. A missing field is asked for by name in the rejection."""
    if s.chance_mode != "table" or seat not in to_move(s):
        return {}
    common = {f: {"when": "if this command turns one up", "what": TABLE_FIELDS[f]}
              for f in ("anomaly", "artifacts", "event_tokens")}
    out = {}
    for c in legal_commands(s, seat):
        out.setdefault(c["type"], dict(common))
    if "draw_plans" in out:
        x = s.seats[seat]
        need = sum(min(s.content["shipMat"][d + "Track"][x.cubes[d]], len(s.decks[d]["pool"])) for d in ("stable", "unstable"))
        out["draw_plans"] = {"plans": {"count": need, "what": TABLE_FIELDS["plans"]}}
    return out
