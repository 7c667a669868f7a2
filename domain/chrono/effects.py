"""Chrono Corsairs: CCEL, the effect language of every plan, anomaly, tile, cave, event token
and artifact (../shared/rules/notes/tesoros-and-chrono.md B5.3), and its one interpreter.

No card is special-cased: a program is JSON, run step by step on a stack of frames kept in
the state (state.frames). A frame is one list of nodes with its context: the actor (who
resolves it), `here` (the tile of a reward or token), bound variables, the resolution unit
(for "each event token can only happen once each time a plan card resolves", CA-13),
whether its steps are optional (plans and artifacts: [Phase 3] "you may choose to forgo parts
of it"; anomalies, tokens and rewards: no, CA-20) and the pirates whose move triggered a token.

A step that needs the actor to choose (which pirate moves where, which option, which terrain)
stops the interpreter: options(s) lists every legal answer, and the actor sends one as
do_step (or skip_step, where the step may be forgone). A step with nothing to choose runs on
its own, or, when optional, waits for do_step {} or skip_step.
"""
from __future__ import annotations

from ..kit import Section
from .state import HARBOR, KINDS, MAT, STAGES, TIMES, ChronoState

PHASE3 = Section("Phase 3: Run the Loop")
CONTROL = ("seq", "choice", "if", "repeat", "forEachSpace", "forEachPlayer", "bind")


# -- the board --------------------------------------------------------------------------

# Board graphs by content key, the most recent GRAPHS_KEPT: a content may be a 1 MiB body, and
# a worker must not keep every one it was ever sent (docs/performance.md).
_GRAPHS: dict[str, dict] = {}
GRAPHS_KEPT = 16


def neighbors(s: ChronoState) -> dict:
    """Spot -> adjacent spaces: the board's edges, and the Harbor beside its exterior tiles."""
    g = _GRAPHS.get(s.content_key)
    if g is None:
        board = s.content["board"]
        adj: dict[str, set[str]] = {sp["id"]: set() for sp in board["spots"]}
        adj[HARBOR] = set(board["harbor"])
        for a, b in board["edges"]:
            adj[a].add(b)
            adj[b].add(a)
        for x in board["harbor"]:
            adj[x].add(HARBOR)
        g = _GRAPHS[s.content_key] = {k: tuple(sorted(v)) for k, v in adj.items()}
        for oldest in list(_GRAPHS)[:-GRAPHS_KEPT]:
            _GRAPHS.pop(oldest, None)
    return g


def places(s: ChronoState) -> list[str]:
    """Every board space, in resolution order, then the Harbor."""
    return list(s.content["board"]["resolutionOrder"]) + [HARBOR]


def region(s: ChronoState, spot: str) -> str:
    if spot == HARBOR:
        return "harbor"
    return next(sp["region"] for sp in s.content["board"]["spots"] if sp["id"] == spot)


def terrain(s: ChronoState, spot: str) -> str | None:
    if spot == HARBOR:
        return None
    if region(s, spot) == "cave":
        return "cave"
    return s.tiles[s.spots[spot]]["terrain"]


def stage_index(s: ChronoState) -> int:
    return STAGES.index(s.content["vortex"]["stages"][s.storm])


def count(s: ChronoState, seat: int, kind: str, place: str) -> int:
    if kind == "pirate":
        return sum(s.seats[seat].pieces[k].get(place, 0) for k in KINDS)
    return s.seats[seat].pieces[kind].get(place, 0)


def ranking(s: ChronoState, place: str) -> list[int]:
    """Seats with pirates there, most first; [Gameplay in Detail] the higher Flag wins ties."""
    present = [seat for seat in s.flag if count(s, seat, "pirate", place) > 0]
    return sorted(present, key=lambda seat: (-count(s, seat, "pirate", place), s.flag.index(seat)))


# -- selectors and conditions ------------------------------------------------------------

def _var(f: dict, name: str):
    return f["vars"].get(name[1:])


def spaces(s: ChronoState, f: dict, sel) -> list[str]:
    every = places(s)
    if isinstance(sel, str):
        if sel == "here":
            return [f["here"]] if f.get("here") else []
        if sel == "harbor":
            return [HARBOR]
        if sel == "board":
            return every
        if sel == "tiles":
            return every[:-1]
        if sel.startswith("$"):
            v = _var(f, sel)
            return [v] if v in every else []
        return []
    if "terrain" in sel:
        wanted = {(_var(f, t) if t.startswith("$") else t) for t in sel["terrain"]}
        return [p for p in every[:-1] if terrain(s, p) in wanted]
    if "region" in sel:
        return [p for p in every if region(s, p) == sel["region"]]
    if "adjacentTo" in sel:
        around = set()
        for p in spaces(s, f, sel["adjacentTo"]):
            around.update(neighbors(s)[p])
        return [p for p in every if p in around]
    if "containing" in sel:
        who = sel["containing"]
        need = who.get("n", 1) if isinstance(who.get("n", 1), int) else 1
        return [p for p in every if sum(x[3] for x in pirates(s, f, {**who, "at": {"id": p}})) >= need]
    if "id" in sel:
        return [sel["id"]] if sel["id"] in every else []
    if "and" in sel:
        out = every
        for part in sel["and"]:
            keep = set(spaces(s, f, part))
            out = [p for p in out if p in keep]
        return out
    if "or" in sel:
        keep = set()
        for part in sel["or"]:
            keep.update(spaces(s, f, part))
        return [p for p in every if p in keep]
    if "not" in sel:
        drop = set(spaces(s, f, sel["not"]))
        return [p for p in every if p not in drop]
    return []


def owners(s: ChronoState, f: dict, owner: str) -> list[int]:
    actor = f["actor"]
    if owner == "self":
        return [actor]
    if owner == "enemy":
        return [x for x in range(len(s.seats)) if x != actor]
    return list(range(len(s.seats)))


def pirates(s: ChronoState, f: dict, who: dict) -> list[tuple[int, str, str, int]]:
    """(seat, kind, place, how many) for the pirates a selector names; never the water or a
    mat (CR-49). With `entering`, only the pirates whose move triggered this token."""
    kinds = KINDS if who.get("kind", "pirate") == "pirate" else (who["kind"],)
    at = spaces(s, f, who.get("at", "board"))
    out = []
    for seat in owners(s, f, who.get("owner", "self")):
        for kind in kinds:
            for p in at:
                n = count(s, seat, kind, p)
                if who.get("entering"):
                    n = min(n, (f.get("entering") or {}).get(str(seat), {}).get(kind, 0)) if p == f.get("here") else 0
                if n:
                    out.append((seat, kind, p, n))
    return out


def holds(s: ChronoState, f: dict, cond: dict) -> bool:
    if "and" in cond:
        return all(holds(s, f, c) for c in cond["and"])
    if "or" in cond:
        return any(holds(s, f, c) for c in cond["or"])
    if "not" in cond:
        return not holds(s, f, cond["not"])
    if "majority" in cond:
        m = cond["majority"]
        seat = f["actor"] if m.get("player", "actor") == "actor" else _var(f, m["player"])
        where = spaces(s, f, m["space"])
        if not where:
            return False
        order = ranking(s, where[0])
        if not order or order[0] != seat:
            return False
        if not s.options["flag_breaks_condition_ties"] and len(order) > 1:   # CA-12
            return count(s, order[0], "pirate", where[0]) > count(s, order[1], "pirate", where[0])
        return True
    if "count" in cond:
        c = cond["count"]
        n = sum(x[3] for x in pirates(s, f, c["of"]))
        return {">=": n >= c["value"], "==": n == c["value"], "<=": n <= c["value"]}[c["op"]]
    if "stageAtLeast" in cond:
        return stage_index(s) >= STAGES.index(cond["stageAtLeast"])
    if "timeIs" in cond:
        return s.time is not None and TIMES[s.time] == cond["timeIs"]
    if "has" in cond:
        (what, n), = cond["has"].items()
        seat = s.seats[f["actor"]]
        have = {"doubloons": seat.doubloons, "timeGems": seat.gems, "artifacts": len(seat.artifacts)}[what]
        return have >= n
    return False


# -- the current decision ----------------------------------------------------------------

def frame(s: ChronoState) -> dict | None:
    return s.frames[-1] if s.frames else None


def node(s: ChronoState) -> dict | None:
    f = frame(s)
    return f["ops"][f["i"]] if f and f["i"] < len(f["ops"]) else None


def current(s: ChronoState) -> tuple[dict, dict]:
    """The frame being resolved and its node, while s.frames holds any: run() leaves a frame on
    top only with a node still to resolve (it pops a finished one), a flipped token's included."""
    f, n = frame(s), node(s)
    if f is None or n is None:
        raise TypeError("no step of an effect is being resolved")
    return f, n


def optional(f: dict, n: dict) -> bool:
    """Plans and artifacts may be forgone in part (CA-20); a node may say otherwise. A token
    just flipped at a table is resolved, never forgone (CP-15)."""
    if f.get("await"):
        return False
    return n.get("optional", f["optional"])


def _reachable(s: ChronoState, f: dict, start: str, to, steps: int, adjacency: str) -> bool:
    """Can a piece at start still end where `to` allows within `steps` more moves (CA-38)?"""
    goal = set(spaces(s, f, to))
    frontier = {start}
    for _ in range(steps):
        nxt = set()
        for p in frontier:
            nxt.update(_destinations(s, p, adjacency))
        if nxt & goal:
            return True
        frontier = nxt
    return False


def _destinations(s: ChronoState, p: str, adjacency: str) -> list[str]:
    if adjacency == "any":
        return [x for x in places(s) if x != p]
    return list(neighbors(s)[p])


def at_rest(s: ChronoState, f: dict, n: dict) -> bool:
    """A move may stop here: no piece is half-way to a destination it must reach."""
    prog = f.get("progress") or {}
    return not prog.get("at") or "to" not in n or prog["at"] in spaces(s, f, n["to"])


def options(s: ChronoState) -> list[dict] | None:
    """Every legal do_step body (without "type") for the current node; None: nothing to choose."""
    f, n = frame(s), node(s)
    if f is None or n is None or f.get("await"):   # (no frame has no node either)
        return None
    if "choice" in n:
        return [{"option": i} for i in range(len(n["choice"]["options"]))]
    if "bind" in n:
        b = n["bind"]
        among = b["among"] if isinstance(b["among"], list) else spaces(s, f, b["among"])
        return [{"value": v} for v in among]
    op = n.get("op")
    prog = f.get("progress") or {}
    if op == "move":
        return _move_options(s, f, n, prog)
    if op == "moveAll":
        return _move_all_options(s, f, n)
    if op in ("kill", "loseToStorm") and n["who"].get("n", 1) != "all":
        return [{"owner": seat, "kind": kind, "at": p} for seat, kind, p, _ in pirates(s, f, n["who"])]
    if op == "lose" and n.get("artifacts"):
        return [{"artifact": a} for a in s.seats[f["actor"]].artifacts]
    if op == "advanceCube" and n.get("track", "stable") == "choice":
        seat = s.seats[f["actor"]]
        return [{"track": t} for t in ("stable", "unstable")
                if seat.cubes[t] < len(s.content["shipMat"][t + "Track"]) - 1]
    if op == "rearrangePlans":
        mat = s.seats[f["actor"]].mat
        return [{"from": a, "to": b} for a in TIMES for b in TIMES if a != b and mat[a] is not None]
    return None


def _move_options(s, f, n, prog) -> list[dict]:
    kinds = KINDS if n.get("piece", "officer") == "pirate" else (n.get("piece", "officer"),)
    steps = n.get("steps", 1)
    adjacency = n.get("adjacency", "adjacent")
    out = []
    if prog.get("at"):
        starts = [(prog["owner"], prog["kind"], prog["at"])]
        left = steps - prog["taken"]
    else:
        allowed = set(spaces(s, f, n["from"])) if "from" in n else None
        starts = [(seat, kind, p) for seat, kind, p, _ in
                  pirates(s, f, {"owner": n.get("owner", "self"), "kind": n.get("piece", "officer"), "at": "board"})
                  if kind in kinds and (allowed is None or p in allowed)]
        left = steps
    moved = prog.get("moved") or {}
    for seat, kind, p in starts:
        if count(s, seat, kind, p) == 0:
            continue
        if not prog.get("at") and count(s, seat, kind, p) <= moved.get(str(seat), {}).get(kind, {}).get(p, 0):
            continue    # CP-12: every piece there already moved in this step ("1 step each")
        # [Phase 3] "When moving one of your Officers, you may also move any number of your other
        # Pirates ... in the same space": your own Officers only, whatever the step names, unless
        # the card says otherwise (carry: false)
        carry = kind == "officer" and seat == f["actor"] and n.get("carry", True)
        for dest in _destinations(s, p, adjacency):
            if "to" in n:
                ok = dest in spaces(s, f, n["to"]) or _reachable(s, f, dest, n["to"], left - 1, adjacency)
                if not ok:
                    continue
            base = {"owner": seat, "kind": kind, "from": p, "to": dest}
            if carry:
                for o in range(count(s, seat, "officer", p)):
                    for c in range(count(s, seat, "crew", p) + 1):
                        out.append({**base, "carry": {"officer": o, "crew": c}})
            else:
                out.append(base)
    return out


def _move_all_options(s, f, n) -> list[dict]:
    """A source is a space the selector's `at` names (Broadside: one holding your Officer) with
    pirates it names there; every one of them goes to one destination."""
    who = n["who"]
    out = []
    for src in _move_all_sources(s, f, who):
        g = {**f, "vars": {**f["vars"], "source": src}}
        dests = spaces(s, g, n["to"])
        if n.get("adjacency", "adjacent") == "adjacent":
            near = set(neighbors(s)[src])
            dests = [d for d in dests if d in near]
        out += [{"from": src, "to": d} for d in dests if d != src]
    return out


def _move_all_sources(s: ChronoState, f: dict, who: dict) -> list[str]:
    """The spaces moveAll may empty: those the selector's `at` names that hold a pirate it names."""
    return [src for src in spaces(s, f, who.get("at", "board")) if pirates(s, f, {**who, "at": {"id": src}})]


def actor(s: ChronoState) -> int | None:
    f = frame(s)
    return f["actor"] if f else None


# -- running programs --------------------------------------------------------------------

def new_frame(s: ChronoState, ops: list, actor: int, *, optional: bool, here: str | None = None,
              vars: dict | None = None, entering: dict | None = None, unit: int | None = None) -> dict:
    if unit is None:
        s.units += 1
        unit = s.units
    return {"ops": list(ops), "i": 0, "actor": actor, "here": here, "vars": dict(vars or {}),
            "unit": unit, "optional": optional, "entering": entering, "progress": None}


def _child(f: dict, ops: list, **changes) -> dict:
    return {**f, "ops": list(ops), "i": 0, "progress": None, "vars": dict(f["vars"]), **changes}


def run(d) -> bool:
    """Run until a decision is needed (False) or every frame is finished (True)."""
    s = d.s
    while s.frames:
        f = s.frames[-1]
        if f.get("await"):
            return False                         # CP-15: a token just flipped at a table
        if f["i"] >= len(f["ops"]):
            s.frames.pop()
            continue
        n = f["ops"][f["i"]]
        if "seq" in n:
            f["i"] += 1
            s.frames.append(_child(f, n["seq"]))
            continue
        if "if" in n:
            f["i"] += 1
            branch = n["then"] if holds(s, f, n["if"]) else n.get("else")
            if branch is not None:
                s.frames.append(_child(f, [branch]))
            continue
        if "repeat" in n:
            f["i"] += 1
            s.frames.append(_child(f, [n["repeat"]["do"]] * n["repeat"]["n"]))
            continue
        if "forEachSpace" in n:
            f["i"] += 1
            fe = n["forEachSpace"]
            chosen = []
            for p in spaces(s, f, fe["spaces"]):
                g = {**f, "vars": {**f["vars"], "space": p}}
                if "where" not in fe or holds(s, g, fe["where"]):
                    chosen.append(p)
            for p in reversed(chosen):
                s.frames.append(_child(f, [fe["do"]], vars={**f["vars"], "space": p}))
            continue
        if "forEachPlayer" in n:
            f["i"] += 1
            fp = n["forEachPlayer"]
            who = [x for x in s.flag if fp["players"] == "all" or x != f["actor"]]
            for seat in reversed(who):    # CA-34: in Flag order
                s.frames.append(_child(f, [fp["do"]], actor=seat))
            continue
        opts = options(s)
        if opts is None:
            if optional(f, n) and not f.get("progress"):
                return False                     # perform it (do_step {}) or forgo it (skip_step)
            f["i"] += 1
            f["progress"] = None
            _apply(d, f, n, {})
            continue
        if not opts:
            if not (f.get("progress") or {}).get("count") and not (f.get("progress") or {}).get("at"):
                d.emit("StepImpossible", seat=f["actor"], step=n.get("op") or next(k for k in CONTROL if k in n))
            f["i"] += 1
            f["progress"] = None
            continue
        return False
    return True


def do_step(d, params: dict) -> None:
    """The actor's answer to the current node (already checked against options())."""
    s = d.s
    f = s.frames[-1]
    if f.get("await"):
        f["await"] = False
        d.emit("EventTokenResolving", seat=f["actor"], spot=f["here"])
        return
    n = f["ops"][f["i"]]
    if "choice" in n:
        f["i"] += 1
        d.emit("OptionChosen", seat=f["actor"], option=params["option"])
        s.frames.append(_child(f, [n["choice"]["options"][params["option"]]]))
        return
    if "bind" in n:
        f["i"] += 1
        d.emit("Named", seat=f["actor"], what=n["bind"]["choose"], value=params["value"])
        s.frames.append(_child(f, [n["in"]], vars={**f["vars"], n["bind"]["var"]: params["value"]}))
        return
    if options(s) is None:
        f["i"] += 1
        f["progress"] = None
        _apply(d, f, n, {})
        return
    _apply(d, f, n, params)


def skip_step(d) -> None:
    """The rest of the current step forgone; or, halfway through a move of several pieces, the
    moving piece stopped where it stands, the others still to move (CP-4: [Phase 3] 'you may
    choose to forgo parts of it'; 'you may have different movements performed by different
    pieces'). A second skip_step forgoes those."""
    s = d.s
    f = s.frames[-1]
    n = f["ops"][f["i"]]
    prog = f.get("progress") or {}
    if n.get("op") == "move" and prog.get("at") and prog.get("count", 0) + 1 < n.get("n", 1):
        d.emit("MoveStopped", seat=f["actor"], owner=prog["owner"], kind=prog["kind"], at=prog["at"])
        f["progress"] = {"count": prog.get("count", 0) + 1, "moved": prog.get("moved") or {}}
        return
    d.emit("StepForgone", seat=f["actor"], step=n.get("op") or next(k for k in CONTROL if k in n))
    f["i"] += 1
    f["progress"] = None


def _done_one(f: dict, n: dict, total: int) -> None:
    prog = f.get("progress") or {}
    done = prog.get("count", 0) + 1
    if done >= total:
        f["i"] += 1
        f["progress"] = None
    else:
        f["progress"] = {"count": done}


def _apply(d, f: dict, n: dict, p: dict) -> None:
    """Perform the node's op with the actor's answer p ({} when there was nothing to choose)."""
    handler = _OPS.get(n["op"])
    if handler is not None:
        handler(d, f, n, p)


def _move_all(d, f: dict, n: dict, p: dict) -> None:
    """moveAll (CCEL B5.3): atomic, every pirate the selector names in the chosen source space goes
    to the chosen destination; entering it may trigger its Event token [Phase 3]."""
    moved: dict[str, dict[str, int]] = {}   # seat -> kind -> how many
    for seat, kind, place, k in pirates(d.s, f, {**n["who"], "at": {"id": p["from"]}}):
        d.emit("PiratesMoved", seat=seat, kind=kind, count=k, **{"from": place, "to": p["to"]})
        moved.setdefault(str(seat), {}).setdefault(kind, 0)
        moved[str(seat)][kind] += k
    f["i"] += 1
    f["progress"] = None
    entered(d, f, p["to"], moved)


def _kill(d, f: dict, n: dict, p: dict) -> None:
    """kill and loseToStorm: [Phase 3] placed out in the water, or lost to the storm (_remove); with
    n "all" every pirate named at once (CR-28), otherwise one chosen pirate at a time."""
    op = n["op"]
    if n["who"].get("n", 1) == "all":
        for seat, kind, place, k in pirates(d.s, f, n["who"]):
            _remove(d, op, seat, kind, place, k)
        return
    _remove(d, op, p["owner"], p["kind"], p["at"], 1)
    if f.get("entering") and n["who"].get("entering"):
        ent = f["entering"].get(str(p["owner"]), {})
        ent[p["kind"]] = ent.get(p["kind"], 0) - 1
    _done_one(f, n, n["who"].get("n", 1))


def _gain(d, f: dict, n: dict, p: dict) -> None:
    """gain: Doubloons, Time Gems, and Artifacts drawn as long as there are any (CA-4)."""
    me = f["actor"]
    if n.get("doubloons"):
        d.emit("DoubloonsChanged", seat=me, amount=n["doubloons"], why="effect")
    if n.get("timeGems"):
        d.emit("TimeGemsChanged", seat=me, amount=n["timeGems"], why="effect")
    for _ in range(n.get("artifacts", 0)):
        draw_artifact(d, me)


def _lose(d, f: dict, n: dict, p: dict) -> None:
    """lose: Doubloons and Time Gems as far as the actor has them (once, at the first step); then
    Artifacts, each chosen by its owner (the glossary's "Discard an Artifact")."""
    me = f["actor"]
    seat = d.s.seats[me]
    first = not (f.get("progress") or {}).get("count")
    if first and n.get("doubloons") and seat.doubloons:
        d.emit("DoubloonsChanged", seat=me, amount=-min(n["doubloons"], seat.doubloons), why="effect")
    if first and n.get("timeGems") and seat.gems:
        d.emit("TimeGemsChanged", seat=me, amount=-min(n["timeGems"], seat.gems), why="effect")
    if p.get("artifact"):
        d.emit("ArtifactDiscarded", seat=me, artifact=p["artifact"])
        _done_one(f, n, n["artifacts"])


def _recruit(d, f: dict, n: dict, p: dict) -> None:
    """recruit: Crew from the mat for free, as long as any are left there."""
    for _ in range(n.get("n", 1)):
        if not recruit_one(d, f["actor"], "crew", 0):
            break


def _advance_cube(d, f: dict, n: dict, p: dict) -> None:
    """advanceCube: up the stable or unstable track (the actor's choice with track "choice"),
    never past its last space."""
    s, me = d.s, f["actor"]
    track = p.get("track", n.get("track", "stable"))
    for _ in range(n.get("n", 1)):
        if s.seats[me].cubes[track] >= len(s.content["shipMat"][track + "Track"]) - 1:
            break   # at the last space: no further advance can happen
        d.emit("CubeAdvanced", seat=me, track=track, cost=0)
    if "track" in p:
        f["i"] += 1
        f["progress"] = None


def _rearrange_plans(d, f: dict, n: dict, p: dict) -> None:
    """rearrangePlans: n free "move a plan card" operations, as bought in [Phase 6]."""
    d.emit("PlanMoved", seat=f["actor"], cost=0, **{"from": p["from"], "to": p["to"]})
    _done_one(f, n, n.get("n", 1))


def _storm(d, f: dict, n: dict, p: dict) -> None:
    """storm: the Storm marker only moves forward (CP-3), and no further than the last space."""
    s = d.s
    last = len(s.content["vortex"]["stages"]) - 1
    to = min(last, s.storm + max(0, n["delta"]))
    if to != s.storm:
        d.emit("StormAdvanced", to=to, reason="effect")


def _modify(d, f: dict, n: dict, p: dict) -> None:
    """modify: a lasting rule change (state.modifiers)."""
    d.emit("ModifierSet", param=n["param"], value=n["value"])


def _schedule(d, f: dict, n: dict, p: dict) -> None:
    """schedule: the effect runs at the end of Phase 3, of Phase 4 or of the round; the actor is kept."""
    d.emit("EffectScheduled", at=n["at"], do=n["do"], actor=f["actor"])


def _no_effect(d, f: dict, n: dict, p: dict) -> None:
    """noEffect: the "Event No Effect" glyph; recorded, and nothing changes."""
    d.emit("NoEffect", seat=f["actor"])


def _remove(d, op: str, seat: int, kind: str, place: str, k: int) -> None:
    if op == "kill":   # [Phase 3] placed out in the water
        d.emit("PiratesKilled", seat=seat, kind=kind, at=place, count=k)
        return
    # [Phase 3] lost to the storm: back to the most recently emptied crew space, else the mat anyway
    s = d.s
    x = s.seats[seat]
    overflow = 0
    if kind == "crew":
        spaces_free = len(s.content["shipMat"]["crewSpaces"]) - (x.pieces["crew"].get(MAT, 0) - x.overflow)
        overflow = max(0, k - spaces_free)
    d.emit("PiratesLostToStorm", seat=seat, kind=kind, at=place, count=k, overflow=overflow)


def recruit_cost(s: ChronoState, seat: int, kind: str) -> int | None:
    """What the next recruit of that kind costs, None if none is on the mat (CA-5, CA-6)."""
    x = s.seats[seat]
    if x.pieces[kind].get(MAT, 0) == 0:
        return None
    if kind == "officer":
        return s.content["shipMat"]["overflowRecruitCost"]
    if x.overflow:
        return s.content["shipMat"]["overflowRecruitCost"]
    spaces_ = s.content["shipMat"]["crewSpaces"]
    filled = x.pieces["crew"][MAT] - x.overflow
    return spaces_[len(spaces_) - filled]     # CA-5: the leftmost occupied space


def recruit_one(d, seat: int, kind: str, cost: int) -> bool:
    x = d.s.seats[seat]
    if x.pieces[kind].get(MAT, 0) == 0:
        return False
    d.emit("PirateRecruited", seat=seat, kind=kind, cost=cost,
           **{"from": "overflow" if kind == "crew" and x.overflow else "space"})
    return True


# A table's item drawn from the cards under a deck, once its unseen part is drawn (CP-18): its
# note (Draft.pick) is the deck's with this after it; the host's view lists its ids under
# '<pool>_under'.
UNDER = "/under"


def draw_artifact(d, seat: int) -> None:
    deck = d.s.decks["artifact"]
    if deck["pool"]:
        card = d.pick(deck["pool"], "artifacts", None, seat)
    elif deck["bottom"] and d.s.chance_mode == "table":
        card = d.pick(deck["bottom"], "artifacts", f"artifact{UNDER}", seat)   # CP-18: the table says which it drew
    elif deck["bottom"]:
        card = deck["bottom"][0]   # CA-18: in the order they went under
    else:
        d.emit("ArtifactDeckEmpty", seat=seat)   # CA-4: nothing to draw
        return
    d.emit("ArtifactDrawn", seat=seat, artifact=card)


def _move(d, f: dict, n: dict, p: dict) -> None:
    steps = n.get("steps", 1)
    prog = f.get("progress") or {}
    taken = prog.get("taken", 0) if prog.get("at") else 0
    moved = {str(p["owner"]): {p["kind"]: 1}}
    d.emit("PiratesMoved", seat=p["owner"], kind=p["kind"], count=1, **{"from": p["from"], "to": p["to"]})
    carry = p.get("carry") or {}
    for kind in KINDS:
        if carry.get(kind):   # CR-25: pirates in the officer's space go with him, chosen each step
            d.emit("PiratesMoved", seat=p["owner"], kind=kind, count=carry[kind], carried=True,
                   **{"from": p["from"], "to": p["to"]})
            moved[str(p["owner"])][kind] = moved[str(p["owner"])].get(kind, 0) + carry[kind]
    taken += 1
    done = prog.get("count", 0)
    landed = dict(prog.get("moved") or {})
    landed[str(p["owner"])] = _landed(landed.get(str(p["owner"])), p, moved[str(p["owner"])],
                                      continuing=bool(prog.get("at")))
    if taken >= steps:
        done += 1
        if done >= n.get("n", 1):
            f["i"] += 1
            f["progress"] = None
        else:
            f["progress"] = {"count": done, "moved": landed}
    else:
        f["progress"] = {"count": done, "at": p["to"], "owner": p["owner"], "kind": p["kind"], "taken": taken,
                         "moved": landed}
    entered(d, f, p["to"], moved)


def _landed(before: dict | None, p: dict, went: dict, *, continuing: bool) -> dict:
    """CP-12: where one player's pieces moved so far by this step stand, by kind, so that "move 2 Crew
    1 space" takes two crew, not one crew twice. The mover is a piece that had not moved yet
    (or, continuing a multi-space move, the one on its way); pieces carried along are taken
    to be ones that had already moved, as far as there are any (the choice most open later)."""
    out = {k: dict(v) for k, v in (before or {}).items()}
    for kind, k in went.items():
        here = out.setdefault(kind, {})
        moved_there = here.get(p["from"], 0)
        leaving_moved = 0
        riders = k
        if kind == p["kind"]:
            riders -= 1
            if continuing:
                leaving_moved, moved_there = 1, moved_there - 1
        leaving_moved += min(moved_there, riders)
        here[p["from"]] = here.get(p["from"], 0) - leaving_moved
        here[p["to"]] = here.get(p["to"], 0) + k
        out[kind] = {x: v for x, v in here.items() if v > 0}
    return out


def entered(d, f: dict, place: str, moved: dict) -> None:
    """[Phase 3] pirates moved into a space with an Event token whose back matches the time of
    day: it resolves, at most once per resolution unit (CR-26, CR-27, CA-13)."""
    s = d.s
    token = s.tokens.get(place)
    if token is None or s.phase != "loop" or s.time is None or token["back"] != TIMES[s.time]:
        return   # CA-15: only the Loop has a time of day
    if s.modifiers.get("eventsActive") is False:
        return
    unit = str(f["unit"])
    if place in s.triggered.get(unit, []):
        return
    s.triggered.setdefault(unit, []).append(place)
    flipped = token["id"] is None
    if flipped:
        shown = {t["id"] for t in s.tokens.values() if t["id"]}
        pool = sorted(t["id"] for t in s.content["eventTokens"] if t["back"] == token["back"] and t["id"] not in shown)
        tid = d.pick(pool, "event_tokens", token["back"])
        d.emit("EventTokenFlipped", spot=place, token=tid, name=s.event_tokens[tid]["name"])
    tid = s.tokens[place]["id"]
    d.emit("EventTokenTriggered", spot=place, token=tid, name=s.event_tokens[tid]["name"], seat=f["actor"])
    s.frames.append(new_frame(s, [s.event_tokens[tid]["effect"]], f["actor"], optional=False, here=place,
                              entering={k: dict(v) for k, v in moved.items()}))
    if flipped and d.chance.mode == "table":
        # CP-15: at a table, what a token turns out to be decides what else the command turns
        # up; so the command ends with the flip, and its resolver goes on with do_step
        s.frames[-1]["await"] = True


# The op of a node -> what performing it does (_apply); an op not listed does nothing.
_OPS = {"move": _move, "moveAll": _move_all, "kill": _kill, "loseToStorm": _kill, "gain": _gain, "lose": _lose,
        "recruit": _recruit, "advanceCube": _advance_cube, "rearrangePlans": _rearrange_plans, "storm": _storm,
        "modify": _modify, "schedule": _schedule, "noEffect": _no_effect}
