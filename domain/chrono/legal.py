"""Chrono Corsairs: every command a seat may send now, as complete bodies.

Checked against decide() by random playouts. In table-chance games the commands that draw or
flip are listed without their outcome fields; table_inputs() says exactly what to add.
"""
from __future__ import annotations

from . import effects as fx
from .rules import TABLE_FIELDS, price, to_move, turned_up
from .state import MAT, TIMES, ChronoState

# table_inputs fields that are drawn or turned up from a hidden pool: only the host token
# reports them (docs/rulings.md TM-1). Every Chrono table field is one.
DRAWN_FIELDS = frozenset(TABLE_FIELDS)


def legal_commands(s: ChronoState, seat: int) -> list[dict]:
    if seat not in to_move(s):
        return []
    x = s.seats[seat]
    if s.frames:
        f, n = fx.current(s)
        opts = fx.options(s)
        out: list[dict] = [{"type": "do_step"}] if opts is None else [{"type": "do_step", **o} for o in opts]
        if fx.optional(f, n) and fx.at_rest(s, f, n):
            out.append({"type": "skip_step"})
        return out
    if s.phase == "draw":
        return [{"type": "draw_plans"}]
    if s.phase == "select":
        return [{"type": "select_plan", "card": c, "slot": t} for c in x.drawn for t in TIMES]
    if s.phase == "loop":
        if s.turn is None:
            raise TypeError("no turn is being played")   # to_move() is nobody without one
        out = []
        if s.turn["plan"] == "pending":
            out += [{"type": "perform_plan"}, {"type": "forgo_plan"}]
        else:
            out.append({"type": "end_turn"})
        if not s.turn["artifact"] and s.options["artifacts_per_turn"] > 0:
            out += [{"type": "play_artifact", "artifact": a} for a in dict.fromkeys(x.artifacts)]
        return out
    if s.phase == "priority":
        if s.priority is None:
            raise TypeError("no Flag positions are being chosen")   # to_move() read them
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
    """Exactly what each table-mode command must carry (CP-2, CP-15): by command type, each
    field with the number of outcomes to list; for plans how many come from each deck, for
    Event tokens the back of each one flipped. Found by dry-running every legal command, so
    decide() requires precisely this. When the commands of one type differ, the field's count
    is "depends on the command" and `by_command` lists each command that needs some (the
    others need none). Only public counts and backs appear, never what is hidden."""
    if s.chance_mode != "table" or seat not in to_move(s):
        return {}
    specs: dict[str, list[tuple[dict, dict]]] = {}
    for c in legal_commands(s, seat):
        found = turned_up(s, seat, c)
        specs.setdefault(c["type"], []).append((c, _spec(found or [])))
    out = {}
    for kind, rows in specs.items():
        fields = {}
        for field in TABLE_FIELDS:
            each = [(c, spec.get(field)) for c, spec in rows]
            first = each[0][1]
            if all(x == first for _, x in each):
                if first:
                    fields[field] = first
            else:
                fields[field] = {"count": "depends on the command", "what": TABLE_FIELDS[field],
                                 "description": DESCRIPTIONS[field],
                                 "by_command": [{"command": c, **x} for c, x in each if x]}
        if fields:
            out[kind] = fields
    return out


def _spec(found: list[tuple[str, str | None, int | None]]) -> dict:
    out = {}
    for field in TABLE_FIELDS:
        notes = [note for f, note, _ in found if f == field]
        if not notes:
            continue
        spec = {"count": len(notes), "what": TABLE_FIELDS[field], "description": DESCRIPTIONS[field]}
        if field == "plans":   # by deck, the cards from under it (CP-18) counted with it
            decks = [str(note).removesuffix(fx.UNDER) for note in notes]
            spec.update(stable=decks.count("stable"), unstable=decks.count("unstable"))
        if field == "event_tokens":
            spec["backs"] = notes
        if field == "artifacts":   # one command may hand Artifacts to several seats (Phase 4's places)
            spec["for_seats"] = [to for f, _, to in found if f == field]
        out[field] = spec
    return out


# What each table input carries (the 'description' of its spec, and of the command schema's field).
# Every one is reported by the host token only (TM-1).
DESCRIPTIONS = {
    "plans": "The Plan cards drawn, the Stable ones first, each deck in the order drawn [Phase 2: Select Plans]: "
             "from a deck's unseen part, ids of nameable.stable_plans and nameable.unstable_plans in the host's view; "
             "once that is drawn, from the cards put under the deck, in whatever order the table drew them, ids of "
             "nameable.stable_plans_under and nameable.unstable_plans_under (CP-18). Only the host token reports "
             "them.",
    "anomaly": "The Anomaly card turned up on the face-up Anomaly deck when the one on top is discarded [Phase 1: "
               "Destabilization and Anomalies]. An id of nameable.anomalies in the host's view; only the host token "
               "reports it.",
    "artifacts": "Every Artifact card drawn, in order, each to the seat 'for_seats' gives at its place: bought "
                 "[Phase 6: Outfit Ship] or gained by an effect. Ids "
                 "of nameable.artifacts in the host's view; once the deck's unseen part is drawn, of the cards put "
                 "under it, nameable.artifacts_under (CP-18). Only the host token reports them.",
    "event_tokens": "Every face-down Event token flipped, in order, each one of the back given in 'backs' [Phase 3: "
                    "Run the Loop]. Ids of nameable.event_tokens_<back in lower case> (event_tokens_evening for "
                    "EVENING) in the host's view (every token of that back not yet face up, CP-18); only the host "
                    "token reports them.",
}
