"""Chrono Corsairs: what each seat may see.

Hidden: the Plan cards a player drew (others see how many) and the card and space they
selected until all are revealed together; the cards they put back unselected; Artifact hands
(others see a count; an Artifact discarded by an effect stays unnamed); the faces of face-down
Event tokens and the tokens in the box (the state does not know them: a face is drawn when
first flipped); the order of every deck (the state holds none). Everything on the board, the
mats, Doubloons, Time Gems, cubes, Flags, the storm and the Anomaly deck's top card are public.
"""
from __future__ import annotations

from .. import kit
from ..ruleset import ARBITER
from . import effects as fx
from .rules import to_move
from .state import TIMES, ChronoState


def _sees(viewer, seat: int) -> bool:
    return viewer in (ARBITER, seat)


def view(s: ChronoState, viewer) -> dict:
    if not s.seats:
        return {}
    seats = []
    for i, x in enumerate(s.seats):
        seat = {"seat": i, "name": x.name, "color": x.color, "doubloons": x.doubloons, "time_gems": x.gems,
                "cubes": dict(x.cubes), "mat": dict(x.mat), "pieces": {k: dict(v) for k, v in x.pieces.items()},
                "overflow": x.overflow, "artifact_count": len(x.artifacts), "drawn_count": len(x.drawn),
                "drew": x.drew, "selected": x.selected is not None}
        if _sees(viewer, i) or s.finished:
            # [Final Scoring] "Reveal all Artifact cards that are still in your hand"
            seat["artifacts"] = list(x.artifacts)
        if _sees(viewer, i):
            seat["drawn"] = list(x.drawn)
            seat["selection"] = dict(x.selected) if x.selected else None
        seats.append(seat)
    board = {}
    # Between GameSetUp and BoardSetUp (version 2 of every game) no tile or token is laid yet.
    laid = s.content["board"]["resolutionOrder"] if s.tokens else ()
    for spot in laid:
        tok = s.tokens[spot]
        board[spot] = {"tile": s.spots[spot], "region": fx.region(s, spot), "terrain": fx.terrain(s, spot),
                       "side": s.sides.get(spot),
                       "token": {"back": tok["back"], "face_up": tok["id"] is not None, "token": tok["id"], "name": tok["name"]}}
    decision = None
    if s.frames:
        f, n = fx.current(s)
        decision = {"seat": f["actor"], "step": n, "here": f["here"], "progress": f["progress"],
                    "optional": fx.optional(f, n), "vars": f["vars"],
                    "token_flipped": bool(f.get("await"))}
    out = {
        "round": s.round,
        "phase": s.phase,
        "to_move": to_move(s),
        "storm": {"space": s.storm, "stage": s.content["vortex"]["stages"][s.storm],
                  "last": len(s.content["vortex"]["stages"]) - 1},
        "time": TIMES[s.time] if s.time is not None else None,
        "turn": s.turn,
        "flag": list(s.flag),
        "priority": s.priority,
        "seats": seats,
        "board": board,
        "box_cave": s.box_cave,
        "anomaly_top": s.anomaly_top,
        "anomaly_discard": list(s.anomaly_discard),
        "deck_counts": {k: len(v["pool"]) + len(v["bottom"]) for k, v in s.decks.items()},
        "decision": decision,
        "modifiers": s.modifiers,
        "scheduled": s.scheduled,
        "result": s.result,
        "options": s.options,
        "content": {"id": s.content.get("id"), "printed": s.content.get("printed"), "notice": s.content.get("notice")},
    }
    if viewer == ARBITER:
        out.update(pools(s))
    return out


def pools(s: ChronoState) -> dict:
    """The host's listing of the face-down pools (TM-2). The Stable and Unstable Plan decks and
    the Artifact deck hold their unseen part and the cards put under them: both are counted;
    the unseen part is `nameable` as '<pool>', the cards under it as '<pool>_under', drawn from
    once the unseen part is (CP-18: at a table in whatever order the table drew them; with the
    server's chance in the order they went under, CA-18). The Anomaly deck is face up
    ([Components & Setup] 'a face-UP deck'): the cards below its top, in no order, are named
    in 'anomaly'. Event tokens by back: every token of that back not yet turned face up, face
    down on the board or in the box (CP-1: the state holds no face for a face-down token, so
    the two are one pool), named in 'event_tokens'."""
    if not s.decks:
        return kit.pool_listing({}, {})
    decks = {"stable_plans": s.decks["stable"], "unstable_plans": s.decks["unstable"],
             "artifacts": s.decks["artifact"]}
    shown = {t["id"] for t in s.tokens.values() if t["id"]}
    tokens: dict[str, list[str]] = {}
    for t in s.content["eventTokens"]:
        if t["id"] not in shown:
            tokens.setdefault(f"event_tokens_{t['back'].lower()}", []).append(t["id"])
    held = {name: list(d["pool"]) + list(d["bottom"]) for name, d in decks.items()}
    drawn = {name: list(d["pool"]) for name, d in decks.items()}
    if s.chance_mode == "table":   # CP-18: drawn from once the unseen part is, in the table's order
        drawn.update({f"{name}_under": list(d["bottom"]) for name, d in decks.items()})
    return kit.pool_listing({**held, "anomalies": list(s.anomaly_pool), **tokens},
                            {**drawn, "anomalies": list(s.anomaly_pool), **tokens})


def redact(event: dict, viewer) -> dict:
    t = event["type"]
    if t in ("PlansDrawn", "PlanCardsReturned") and not _sees(viewer, event["seat"]):
        return {k: v for k, v in event.items() if k != "cards"}
    if t == "PlanSelected" and not _sees(viewer, event["seat"]):
        return {"type": t, "seat": event["seat"]}
    if t in ("ArtifactDrawn", "ArtifactDiscarded") and not _sees(viewer, event["seat"]):
        return {k: v for k, v in event.items() if k != "artifact"}
    return event


def redact_command(command: dict, actor: int, viewer) -> dict:
    """TM-3: what a table drew face down (`plans`, `artifacts`) is the host's report, shown to
    no seat, not even the actor's: one seat's command can draw for another (a Phase 4 reward
    deals Artifacts to every seat that earned one). Each seat reads its own draws in the
    events. The actor's own choices are hidden from the other seats only (CP-2)."""
    if viewer == ARBITER:
        return command
    hidden = {"plans", "artifacts"}
    if not _sees(viewer, actor):
        if command.get("type") == "select_plan":
            return {"type": "select_plan"}
        if command.get("type") == "do_step" and "artifact" in command:
            hidden.add("artifact")
    return {k: v for k, v in command.items() if k not in hidden}
