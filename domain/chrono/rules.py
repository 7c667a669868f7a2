"""Chrono Corsairs: decide(), one handler per command, and the round's machinery between them.

Every check cites the section of ../shared/rules/chrono-corsairs.txt it enforces or, where
the rulebook is silent, a ruling in docs/rulings.md (CA-n from the rules notes, CP-n Parley's
own). Handlers work on a Draft (kit.Draft), to which each event is applied as it is emitted.

What happens on its own (the storm, anomalies, the reveal, rewards, returns to the Harbor)
is a queue of jobs in the state; advance() runs jobs and effect programs (effects.py) until
somebody has a decision to make, and records where it stopped in one Agenda event.

decide() and gate() are kit.Rules' (RULES, at the end): the opening refusals, then the
moments (MOMENTS: for each, the commands it allows, its section, its words and who is to
move), then the handler. Sections are kit.Section.
"""
from __future__ import annotations

import json
from typing import cast

from .. import kit
from ..chance import CHANCE_RULE, needed, not_there
from ..kit import Section
from ..ruleset import Rejected
from . import effects as fx
from .state import MAT, STAGES, TIMES, WATER, ChronoState, evolve

SETUP = Section("Components & Setup")
DETAIL = Section("Gameplay in Detail")
P1 = Section("Phase 1: Destabilization and Anomalies")
P2 = Section("Phase 2: Select Plans")
P3 = Section("Phase 3: Run the Loop")
P4 = Section("Phase 4: Find Treasure")
P5 = Section("Phase 5: Set Priority")
P6 = Section("Phase 6: Outfit Ship")
FINAL = Section("Final Scoring")

TABLE_FIELDS = {"plans": "the Plan cards you drew, Stable first, in the order drawn",
                "anomaly": "the Anomaly card turned up on the Anomaly deck",
                "artifacts": "every Artifact card drawn from the Artifact deck, in order",
                "event_tokens": "every face-down Event token flipped, in order"}


class Draft(kit.Draft):
    def __init__(self, state: ChronoState, chance, command: dict):
        super().__init__(state, chance, evolve)
        self.supplied = {f: command.get(f) for f in TABLE_FIELDS}
        self.used = dict.fromkeys(TABLE_FIELDS, 0)
        self.start: tuple | None = _agenda(state)   # None: the agenda is recorded even if unchanged
        self.turned_up: list[tuple[str, str | None, int | None]] | None = None   # probing: (field, deck or back, for seat)
        self.in_game = True   # False while setup plays round 1's start: no view lists a pool yet
        self.missing: str | None = None   # the table field a TABLE_OUTCOME_REQUIRED refusal asked for

    def pick(self, pool: list, field: str, note: str | None = None, for_seat: int | None = None):
        """One item taken blindly from pool: from the server's seed, or as the table says.
        note: the deck a plan comes from, or the back of a token; for_seat: the seat an Artifact
        goes to; both for table_inputs()."""
        if self.turned_up is not None:
            self.turned_up.append((field, note, for_seat))
            return sorted(pool)[0]    # a stand-in: what follows never depends on which (CP-15)
        if self.chance.mode != "table":
            return self.chance.pick(sorted(pool), 1, None, field)[0]
        self.chance.require_host(field)  # TM-1: a seat's token is told to have the host report it, and nothing more
        given = self.supplied[field]
        i = self.used[field]
        where = _where(field, note) if self.in_game else ""
        if not isinstance(given, list) or i >= len(given):
            self.missing = field
            refused = required(field, i + 1, i + 1, where)
            refused.table_item = (field, i + 1, where)  # type: ignore[attr-defined]  # decide() counts the whole list
            raise refused
        if where and given[i] not in pool:
            raise not_there(field, given[i], i + 1, where, reported=given)
        got = self.chance.pick(pool, 1, given[i:i + 1], field)[0]
        self.used[field] += 1
        return got


def required(field: str, count: int, item: int, where: str) -> Rejected:
    """A table's report missing its item `item` of `field`, which must hold `count` items."""
    return Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                    f"This game is played at a table: '{field}' must list {TABLE_FIELDS[field]}; "
                    + needed(count) + (where and f" (item {item}: {where})") + ".")


def _where(field: str, note: str | None) -> str:
    """What a table's item is taken from, and where the host's view lists the ids it may name
    (view.pools), for a refusal."""
    if note and note.endswith(fx.UNDER):
        deck = note[:-len(fx.UNDER)]
        named = "the Artifact deck" if field == "artifacts" else f"the {deck.capitalize()} Plan deck"
        pool = "artifacts" if field == "artifacts" else f"{deck}_plans"
        return f"the cards under {named}, its unseen part drawn: one of nameable.{pool}_under"
    if field == "plans":
        return f"the {str(note).capitalize()} Plan deck: one of nameable.{note}_plans"
    if field == "event_tokens":
        return f"a face-down Event token with the {note} back: one of nameable.event_tokens_{str(note).lower()}"
    return {"anomaly": "the Anomaly deck, below its top: one of nameable.anomalies",
            "artifacts": "the Artifact deck: one of nameable.artifacts"}[field]


def _agenda(s: ChronoState) -> tuple:
    return (s.frames, s.jobs, s.triggered, s.units)


def finish(d: Draft) -> None:
    """Run what happens on its own, then record the agenda if it changed."""
    try:
        advance(d)
    finally:
        s = d.s
        if not s.finished and _agenda(s) != d.start:
            d.emit("Agenda", frames=s.frames, jobs=s.jobs, triggered=s.triggered, units=s.units)


# -- decide: the opening, the moments and the table's outcomes ---------------------------------
# decide() and gate() are kit.Rules' (RULES, below HANDLERS): over, unknown command, no such
# seat, outcomes sent to a server game, the moment (MOMENTS), then the handler and finish().

def _after(d: Draft) -> None:
    if d.chance.mode == "table":
        unused(d)


def unused(d: Draft, where: str = "") -> None:
    """A table reports exactly what the command turned up: no more (CP-2, CP-15)."""
    for field, given in d.supplied.items():
        if given is not None and (not isinstance(given, list) or len(given) != d.used[field]):
            if given and d.chance.mode == "table":
                d.chance.require_host(field)   # TM-1: a seat is refused alike, whatever it drew
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                           f"'{where}{field}' must list exactly what this command turned up: "
                           f"{d.used[field]} ({TABLE_FIELDS[field]}).")


class _Probe:
    """The chance of a dry run: table_inputs() learns what a command would turn up."""
    mode = "table"
    commitment = None

    def reveal(self):
        return None


def turned_up(state: ChronoState, seat: int, command: dict) -> list[tuple[str, str | None, int | None]] | None:
    """What the command would turn up, in order, as (field, deck or back, the seat an Artifact
    goes to); None if refused."""
    d = Draft(state, _Probe(), {})
    d.turned_up = []
    try:
        kit.run(d, HANDLERS[command["type"]], seat, command, finish)
    except Rejected:
        return None
    return d.turned_up


# The section whose effect is resolving, by phase: an Anomaly, a tile's treasure, the Outfit
# Ship purchase; else the Loop.
EFFECT_RULE = {"anomaly": P1, "treasure": P4, "outfit": P6}


def effect_rule(s: ChronoState) -> Section:
    """The section whose effect is resolving: an Anomaly, a tile's treasure, or the Loop."""
    return EFFECT_RULE.get(s.phase, P3)


def moment_of(s: ChronoState) -> str:
    """An effect resolving step by step, under its phase's section; else the phase."""
    if s.frames:
        return f"effect_{s.phase}" if s.phase in EFFECT_RULE else "effect"
    return s.phase


# Who is to move at each moment. A stored version may fall between two events of one
# command's batch, so each phase below may be over with its successor not yet begun: then
# nobody is to move (hence the slices, which are empty there, where an index or next() would fail).

def _resolver(s: ChronoState) -> list[int]:
    return [s.frames[-1]["actor"]]


def _drawer(s: ChronoState) -> list[int]:
    return [x for x in s.flag if not s.seats[x].drew][:1]   # all drawn: the last PlansDrawn, before PhaseBegan(select)


def _selectors(s: ChronoState) -> list[int]:
    return [i for i, x in enumerate(s.seats) if x.selected is None and x.drawn]


def _looper(s: ChronoState) -> list[int]:
    return [cast(int, s.turn["seat"])] if s.turn is not None else []   # a turn's seat is an int


def _flag_chooser(s: ChronoState) -> list[int]:
    if s.priority is None:
        raise TypeError("no Flag positions are being chosen")   # Phase 5 has them
    # all Flags placed: the last FlagChosen, before its PhaseBegan(outfit)
    return s.priority["order"][len(s.priority["placed"]):][:1]


def _outfitter(s: ChronoState) -> list[int]:
    # all done: the last OutfittingDone, then the round's end (RoundReset, ...) until RoundBegan or GameEnded
    return s.flag[s.outfit_index:][:1]


def to_move(s: ChronoState) -> list[int]:
    return MOMENTS.to_move(s)


def _effect(section: Section) -> kit.Moment:
    return kit.Moment(section, "an effect is being resolved, step by step", {"do_step", "skip_step"}, _resolver)


WORDS = {"draw_plans": "draw Plan cards", "select_plan": "select a Plan card", "perform_plan": "perform a plan",
         "forgo_plan": "forgo a plan", "play_artifact": "play an Artifact", "end_turn": "end your turn",
         "do_step": "carry out a step of an effect", "skip_step": "forgo a step of an effect",
         "choose_flag": "choose a Flag position", "purchase": "make a purchase",
         "done_outfitting": "finish outfitting"}
MOMENTS = kit.Moments(of=moment_of, command_words=WORDS, moments={
    "effect": _effect(P3),
    **{f"effect_{phase}": _effect(rule) for phase, rule in EFFECT_RULE.items()},
    "draw": kit.Moment(P2, "players are drawing their Plan cards, in Flag order", {"draw_plans"}, _drawer),
    "select": kit.Moment(P2, "players are secretly selecting a Plan card and its space", {"select_plan"}, _selectors),
    "loop": kit.Moment(P3, "the Loop is running: each player resolves the plan in the current space in Flag order",
                       {"perform_plan", "forgo_plan", "play_artifact", "end_turn"}, _looper),
    "priority": kit.Moment(P5, "players are choosing Flag positions, lowest Time Gems + Doubloons first",
                           {"choose_flag"}, _flag_chooser),
    "outfit": kit.Moment(P6, "players are outfitting their ships, in Flag order", {"purchase", "done_outfitting"},
                         _outfitter),
    "anomaly": kit.Moment(P1, "the Anomaly is resolving"),
    "treasure": kit.Moment(P4, "treasure is being handed out"),
    "setup": kit.Moment(SETUP, "the game is being set up"),
    "over": kit.Moment(FINAL, "the game is over"),
})


# -- Phase 2 ----------------------------------------------------------------------------------

def draw_plans(d: Draft, seat: int, command: dict) -> None:
    """[Phase 2] Draw the number of Stable and Unstable cards your cubes indicate (CA-17: in Flag order)."""
    s = d.s
    x = s.seats[seat]
    drawn = []
    for deck in ("stable", "unstable"):
        pool, bottom = list(s.decks[deck]["pool"]), list(s.decks[deck]["bottom"])
        for _ in range(s.content["shipMat"][deck + "Track"][x.cubes[deck]]):
            if pool:
                card = d.pick(pool, "plans", deck)
                pool.remove(card)
            elif bottom and s.chance_mode == "table":
                # CP-18: at a table the cards under a deck lie in whatever order the players put
                # them there, so the table reports the one it drew, as from the unseen part
                card = d.pick(bottom, "plans", f"{deck}{fx.UNDER}")
                bottom.remove(card)
            elif bottom:
                card = bottom.pop(0)   # CA-18: in the order they went under
            else:
                break   # CA-17: a deck that runs out gives fewer cards
            drawn.append(card)
    d.emit("PlansDrawn", seat=seat, cards=drawn, count=len(drawn))
    if all(y.drew for y in s.seats):
        d.emit("PhaseBegan", phase="select")
        reveal_if_ready(d)


def select_plan(d: Draft, seat: int, command: dict) -> None:
    """[Phase 2] Select ONE drawn card, held face-down, and the space it will go to (CA-16, CA-19)."""
    s = d.s
    x = s.seats[seat]
    card, slot = command.get("card"), command.get("slot")
    if card not in x.drawn:
        raise Rejected("NOT_DRAWN", P2, "Select one of the Plan cards you drew this round.")
    if slot not in TIMES:
        raise Rejected("NO_SUCH_SPACE", P2, "The card goes onto the Sunrise, Morning, Evening or Sunset space.")
    d.emit("PlanSelected", seat=seat, card=card, slot=slot)
    reveal_if_ready(d)


def reveal_if_ready(d: Draft) -> None:
    s = d.s
    if any(y.selected is None and y.drawn for y in s.seats):
        return
    # [Phase 2] all flip at the same time; CA-18: in Flag order, replaced card then the unselected ones
    plans = []
    for i in s.flag:
        y = s.seats[i]
        if y.selected is None:
            continue   # CA-17: nothing was left to draw
        plans.append({"seat": i, "card": y.selected["card"], "slot": y.selected["slot"], "replaced": y.mat[y.selected["slot"]]})
    d.emit("PlansRevealed", plans=plans)
    for i in s.flag:
        d.emit("PlanCardsReturned", seat=i, cards=list(s.seats[i].drawn), count=len(s.seats[i].drawn))
    last = len(s.content["vortex"]["stages"]) - 1
    if s.unstable_revealed and s.modifiers.get("unstableAdvance", 1) and s.storm < last:
        d.emit("StormAdvanced", to=s.storm + 1, reason="unstable plan revealed")   # [Phase 2] once only
    d.emit("PhaseBegan", phase="loop")


# -- Phase 3 ----------------------------------------------------------------------------------

def program_of(s: ChronoState, seat: int, slot: str) -> tuple[dict, str | None]:
    card = s.seats[seat].mat[slot]
    if card is None:
        return s.content["shipMat"]["preprinted"][slot], None
    return s.plans[card]["effect"], card


def perform_plan(d: Draft, seat: int, command: dict) -> None:
    """[Phase 3] Perform the plan in the current space: its card, or the pre-printed plan."""
    s = d.s
    _plan_pending(s)
    slot = TIMES[s.time]
    program, card = program_of(s, seat, slot)
    d.emit("PlanPerformStarted", seat=seat, slot=slot, plan=card)
    s.frames.append(fx.new_frame(s, [program], seat, optional=True))
    s.jobs.insert(0, {"kind": "plan_done", "seat": seat})


def forgo_plan(d: Draft, seat: int, command: dict) -> None:
    """[Phase 3] Ignore the plan and collect 1 Doubloon instead (an anomaly may change it)."""
    s = d.s
    _plan_pending(s)
    d.emit("PlanForgone", seat=seat, slot=TIMES[s.time])
    gain = s.modifiers.get("forgoReward", s.content["forgoReward"])
    if gain:
        d.emit("DoubloonsChanged", seat=seat, amount=gain, why="plan forgone")


def _plan_pending(s: ChronoState) -> None:
    if s.turn is None:
        raise TypeError("no turn is being played")   # the Loop's moment has one for its seat to move
    if s.turn["plan"] != "pending":
        raise Rejected("PLAN_ALREADY_RESOLVED", P3, "You have already performed or forgone the plan in this space.")


def play_artifact(d: Draft, seat: int, command: dict) -> None:
    """[Phase 3] Play exactly one Artifact during your turn, before or after the plan."""
    s = d.s
    if s.options["artifacts_per_turn"] == 0:
        raise Rejected("NO_ARTIFACTS_PLAYED", P3, "This game is played with the house rule artifacts_per_turn: 0: no "
                       "Artifact card is played during a turn.", ruling="CA-21")
    card = command.get("artifact")
    if card not in s.seats[seat].artifacts:
        raise Rejected("NOT_IN_HAND", P3, "Play an Artifact card from your hand.")
    if s.turn["artifact"]:
        raise Rejected("ONE_ARTIFACT_PER_TURN", P3, "You may play exactly one Artifact card during each of your turns.",
                       ruling="CA-21")
    timing = "before" if s.turn["plan"] == "pending" else "after"
    d.emit("ArtifactPlayed", seat=seat, artifact=card, name=s.artifacts[card]["name"], timing=timing)
    s.frames.append(fx.new_frame(s, [s.artifacts[card]["effect"]], seat, optional=True))
    s.jobs.insert(0, {"kind": "artifact_done", "artifact": card})


def end_turn(d: Draft, seat: int, command: dict) -> None:
    s = d.s
    if s.turn["plan"] == "pending":
        raise Rejected("PLAN_PENDING", P3, "First perform the plan in this space or forgo it for a Doubloon.")
    d.emit("TurnEnded", seat=seat, slot=TIMES[s.time])


# -- effects ----------------------------------------------------------------------------------

def do_step(d: Draft, seat: int, command: dict) -> None:
    s = d.s
    params = {k: v for k, v in command.items() if k != "type" and k not in TABLE_FIELDS}
    opts = fx.options(s)
    n = fx.node(s)
    if opts is None or n is None:   # (no node: no options either)
        if params:
            raise Rejected("NOTHING_TO_CHOOSE", effect_rule(s),
                           "This step has nothing to choose: send do_step alone, or skip_step.")
    elif params not in opts:
        shown = ", ".join(json.dumps(o, sort_keys=True) for o in opts[:6]) + (", ..." if len(opts) > 6 else "")
        raise Rejected("NOT_A_WAY", effect_rule(s), f"That is not a legal way to carry out this step: {step_words(n)}. "
                       f"The ways open now (do_step with one of them; legal-commands lists them all): {shown}.")
    fx.do_step(d, params)


def skip_step(d: Draft, seat: int, command: dict) -> None:
    s = d.s
    f, n = fx.current(s)
    if not fx.optional(f, n):
        raise Rejected("MUST_RESOLVE", effect_rule(s), "This effect must be carried out; it is not yours to forgo.",
                       ruling="CA-20")
    if not fx.at_rest(s, f, n):
        raise Rejected("MID_MOVE", effect_rule(s), "The pirate must still reach the kind of space the plan names.", ruling="CP-4")
    fx.skip_step(d)


def describe(n: dict) -> str:
    if "op" in n:
        return n["op"]
    return next(k for k in fx.CONTROL if k in n)


# What a step asks of the player, in a refusal's words (the effect language's names are content's)
STEP_WORDS = {
    "choice": "choose one of the card's options ('option')",
    "bind": "name one of what the card lets you pick ('value')",
    "move": "move one pirate one step ('owner', 'kind', 'from', 'to'), to a space the card allows",
    "moveAll": "move every pirate the card names together, from one space to a space next to it ('from', 'to')",
    "kill": "name the pirate placed out in the water ('owner', 'kind', 'at')",
    "loseToStorm": "name the pirate lost to the storm ('owner', 'kind', 'at')",
    "lose": "name the Artifact card you discard ('artifact')",
    "advanceCube": "name the track whose cube advances ('track')",
    "rearrangePlans": "move a Plan card on your mat to another time ('from', 'to')",
}


def step_words(n: dict) -> str:
    return STEP_WORDS.get(describe(n), f"the step '{describe(n)}'")


# -- Phase 5 ----------------------------------------------------------------------------------

def choose_flag(d: Draft, seat: int, command: dict) -> None:
    """[Phase 5] Move your Flag marker to a free position of your choice."""
    s = d.s
    pos = command.get("position")
    if not isinstance(pos, int) or not 0 <= pos < len(s.seats):
        raise Rejected("NO_SUCH_POSITION", P5, f"There are {len(s.seats)} Flag positions, one per player: choose a free "
                       f"one from 0 (highest) to {len(s.seats) - 1}.")
    if str(pos) in s.priority["placed"]:
        raise Rejected("POSITION_TAKEN", P5, f"Flag position {pos} is taken: choose a free one from 0 (highest) to "
                       f"{len(s.seats) - 1}.")
    d.emit("FlagChosen", seat=seat, position=pos)
    if len(s.priority["placed"]) == len(s.seats):
        d.emit("PhaseBegan", phase="outfit")


# -- Phase 6 ----------------------------------------------------------------------------------

def price(s: ChronoState, item: str, seat: int, command: dict) -> int | None:
    p = s.content["prices"]
    m = s.modifiers
    if item == "move_plan":
        return m.get("priceMovePlan", p["movePlan"])
    if item == "advance_cube":
        return m.get("priceCube", p["cube"])
    if item == "recruit":
        cost = fx.recruit_cost(s, seat, command.get("kind", "crew"))
        return None if cost is None else m.get("priceRecruit", cost)
    if item == "time_gem":
        return m.get("priceGem", p["gem"])
    if item == "artifact":
        return m.get("priceArtifact", p["artifact"])
    return None


# by item: the fields it takes; looked up with the command's item, which may be missing (None)
PURCHASE_FIELDS: dict[str | None, set[str]] = {"move_plan": {"from", "to"}, "advance_cube": {"track"}, "recruit": {"kind"}}


def purchase(d: Draft, seat: int, command: dict) -> None:
    """[Phase 6] The available purchases, as many times as you can afford them."""
    s = d.s
    x = s.seats[seat]
    item = command.get("item")
    extra = set(command) - {"type", "item"} - set(TABLE_FIELDS) - PURCHASE_FIELDS.get(item, set())
    if extra:
        raise Rejected("NOT_FOR_THIS_PURCHASE", P6, f"A {item} purchase takes no {', '.join(sorted(extra))}.")
    if item == "move_plan":
        a, b = command.get("from"), command.get("to")
        if a not in TIMES or b not in TIMES or a == b:
            # [Phase 6] 'move any 1 Plan card on your Ship mat to a different position'
            raise Rejected("NO_SUCH_MOVE", P6, "Move a Plan card on your Ship mat to a different position "
                           f"('from' and 'to' two of {', '.join(TIMES)}).")
        if x.mat[a] is None:
            raise Rejected("NO_SUCH_MOVE", P6, f"There is no Plan card at {a} on your Ship mat to move: only a Plan card "
                           "moves, to an empty position (CA-24) or swapped with the one there.")
    elif item == "advance_cube":
        t = command.get("track")
        if t not in ("stable", "unstable"):
            raise Rejected("NO_SUCH_TRACK", P6, "Advance the Stable or the Unstable Plan cube.")
        if x.cubes[t] >= len(s.content["shipMat"][t + "Track"]) - 1:
            raise Rejected("CUBE_AT_END", P6, "That Plan cube is already on the last space of its track.", ruling="CA-23")
    elif item == "recruit":
        if command.get("kind") not in ("crew", "officer"):
            raise Rejected("NO_SUCH_PIRATE", P6, "Recruit a Crew member (or an Officer lost to the storm).")
        if x.pieces[command.get("kind", "crew")].get(MAT, 0) == 0:
            raise Rejected("NOBODY_TO_RECRUIT", P6, "There is no such meeple left on your Ship mat.", ruling="CA-6")
    elif item == "artifact":
        if not s.decks["artifact"]["pool"] and not s.decks["artifact"]["bottom"]:
            raise Rejected("ARTIFACT_DECK_EMPTY", P6, "The Artifact deck is empty.", ruling="CA-4")
    elif item != "time_gem":
        raise Rejected("NO_SUCH_PURCHASE", P6, "Purchases: move_plan, advance_cube, recruit, time_gem, artifact.")
    cost = price(s, item, seat, command)
    if x.doubloons < cost:
        raise Rejected("CANNOT_AFFORD", P6, f"That costs {cost} Doubloons; you have {x.doubloons}.")
    if item == "move_plan":
        d.emit("PlanMoved", seat=seat, cost=cost, **{"from": command["from"], "to": command["to"]})
    elif item == "advance_cube":
        d.emit("CubeAdvanced", seat=seat, track=command["track"], cost=cost)
    elif item == "recruit":
        d.emit("PirateRecruited", seat=seat, kind=command.get("kind", "crew"), cost=cost,
               **{"from": "overflow" if command.get("kind", "crew") == "crew" and x.overflow else "space"})
    elif item == "time_gem":
        d.emit("TimeGemBought", seat=seat, cost=cost)
    else:
        d.emit("ArtifactBought", seat=seat, cost=cost)
        fx.draw_artifact(d, seat)


def done_outfitting(d: Draft, seat: int, command: dict) -> None:
    s = d.s
    d.emit("OutfittingDone", seat=seat)
    if s.outfit_index < len(s.seats):
        return
    s.jobs += [{"kind": "scheduled", "at": "endOfRound"}, {"kind": "round_end"}]


# -- what happens on its own --------------------------------------------------------------------

def advance(d: Draft) -> None:
    s = d.s
    while not s.finished:
        if s.frames:
            if not fx.run(d):
                return
            s.triggered = {}
            continue
        s.triggered = {}
        if s.jobs:
            job = s.jobs.pop(0)
            JOBS[job["kind"]](d, job)
            continue
        if s.phase == "loop" and _loop(d):
            continue
        return


def _loop(d: Draft) -> bool:
    """[Phase 3] Sunrise, Morning, Evening, Sunset; in each, every player in Flag order."""
    s = d.s
    if s.turn is None:
        if s.turn_index >= len(s.seats):
            if s.time == len(TIMES) - 1:
                s.jobs += [{"kind": "scheduled", "at": "endOfPhase3"}, {"kind": "treasure"}]
                d.emit("LoopEnded")
                return True
            d.emit("TimeAdvanced", time=s.time + 1, name=TIMES[s.time + 1])
            return True
        seat = s.flag[s.turn_index]
        d.emit("TurnBegan", seat=seat, slot=TIMES[s.time])
        return True
    t = s.turn
    if t["plan"] == "pending":
        return False
    if t["plan"] in ("done", "forgone") and not t["artifact"] and s.seats[t["seat"]].artifacts \
            and s.options["artifacts_per_turn"] > 0:
        return False    # may still play an Artifact after the plan, or end the turn
    d.emit("TurnEnded", seat=t["seat"], slot=TIMES[s.time])
    return True


def _job_plan_done(d, job):
    d.emit("PlanPerformed", seat=job["seat"])


def _job_artifact_done(d, job):
    d.emit("ArtifactReturnedToBottom", artifact=job["artifact"])   # [Phase 3] face-down to the bottom


def _job_effect(d, job):
    s = d.s
    s.frames.append(fx.new_frame(s, [job["do"]], job["actor"], optional=job.get("optional", False), here=job.get("here")))


def _job_scheduled(d, job):
    s = d.s
    due = [x for x in s.scheduled if x["at"] == job["at"]]
    if not due:
        return
    # CP-10: effects due together run in Flag order, the highest first ([Gameplay in Detail]: "If you
    # ever need to execute something specifically in turn order ... the player whose flag is highest
    # acting first"); one seat's in the order they were scheduled (the sort is stable)
    due.sort(key=lambda x: s.flag.index(x["actor"]))
    d.emit("ScheduledEffectsStarted", at=job["at"], count=len(due))
    s.jobs[0:0] = [{"kind": "effect", "do": x["do"], "actor": x["actor"]} for x in due]


def _job_new_round(d, job):
    """[Phase 1] advance the storm one space; resolve the top Anomaly's effect for that stage."""
    s = d.s
    d.emit("RoundBegan", round=s.round + 1)
    last = len(s.content["vortex"]["stages"]) - 1
    if s.storm < last:   # CA-30: never past the last space
        d.emit("StormAdvanced", to=s.storm + 1, reason="destabilization")
    stage = s.content["vortex"]["stages"][s.storm]
    top = s.anomaly_top
    if top is None:
        d.emit("AnomalyDeckEmpty")
    else:
        d.emit("AnomalyResolving", anomaly=top, name=s.anomalies[top]["name"], stage=stage)
        s.jobs[0:0] = [{"kind": "effect", "do": s.anomalies[top]["effects"][stage], "actor": s.flag[0]}]
    s.jobs.append({"kind": "anomaly_done"})


def _job_anomaly_done(d, job):
    s = d.s
    if s.anomaly_top is not None:
        nxt = d.pick(s.anomaly_pool, "anomaly") if s.anomaly_pool else None   # the face-up deck's next card
        d.emit("AnomalyDiscarded", anomaly=s.anomaly_top, next=nxt)
    d.emit("PhaseBegan", phase="draw")


def _job_treasure(d, job):
    """[Phase 4] caves first (top left, top right, lower), then exterior, then interior tiles."""
    s = d.s
    d.emit("PhaseBegan", phase="treasure")
    s.jobs[0:0] = ([{"kind": "tile", "spot": sp} for sp in s.content["board"]["resolutionOrder"]]
                   + [{"kind": "water"}, {"kind": "scheduled", "at": "endOfPhase4"}, {"kind": "priority"}])


def rewards_of(s: ChronoState, spot: str) -> tuple[str, dict]:
    if fx.region(s, spot) == "cave":
        face = s.caves[s.spots[spot]]["sides"][s.sides[spot]]
        if "rewardsAllStages" in face:
            return face["places"], {st: face["rewardsAllStages"] for st in STAGES}
        return face["places"], face["rewards"]
    tile = s.tiles[s.spots[spot]]
    return tile["places"], tile["rewards"]


def _job_tile(d, job):
    """[Phase 4] most Pirates wins, ties to the higher Flag; 2nd, 3rd, 4th take the stages below."""
    s = d.s
    spot = job["spot"]
    order = fx.ranking(s, spot)
    places, rewards = rewards_of(s, spot)
    st = fx.stage_index(s)
    ter = fx.terrain(s, spot)
    blocked = ter in s.modifiers.get("rewardsBlockedTerrain", [])
    if ter == "volcano" and st < STAGES.index(s.options["volcano_min_stage"]):
        blocked = True    # [Phase 4] Volcano tiles: no rewards until at least Expanding (CA-28)
    awarded = []
    if not blocked:
        for k, seat in enumerate(order):
            col = st - k
            if col < 0 or k >= s.options["max_reward_places"] or (places == "first" and k > 0):
                break
            awarded.append({"seat": seat, "place": k + 1, "stage": STAGES[col]})
    d.emit("TileEvaluated", spot=spot, ranking=order, awarded=awarded, blocked=blocked)
    s.jobs[0:0] = [{"kind": "effect", "do": rewards[a["stage"]], "actor": a["seat"], "here": spot} for a in awarded] \
        + [{"kind": "clear", "spot": spot}]


def _job_clear(d, job):
    d.emit("PiratesReturnedToHarbor", **{"from": job["spot"]})


def _job_water(d, job):
    d.emit("PiratesReturnedToHarbor", **{"from": WATER})   # [Phase 4] the killed come back too (CA-25)


def _job_priority(d, job):
    """[Phase 5] lowest Time Gems + Doubloons chooses first; ties: previously higher first."""
    s = d.s
    order = sorted(s.flag, key=lambda x: (s.seats[x].gems + s.seats[x].doubloons, s.flag.index(x)))
    d.emit("PhaseBegan", phase="priority", order=order, previous=list(s.flag))
    d.emit("FlagsCleared")


def _job_round_end(d, job):
    """[Phase 6] If the marker is on the last space, Final Scoring; otherwise discard Doubloons, new round."""
    s = d.s
    if s.storm >= len(s.content["vortex"]["stages"]) - 1:
        final_scoring(d)
    d.emit("RoundReset")
    s.jobs.append({"kind": "new_round"})


def final_scoring(d: Draft) -> None:
    """[Final Scoring] 1 Time Gem per 2 Doubloons (CA-9), artifacts by their corner value;
    most Time Gems wins, ties to the higher Flag."""
    s = d.s
    standings = []
    for i, x in enumerate(s.seats):
        conv = x.doubloons // 2 if s.options["final_round_keeps_doubloons"] else 0
        arts = sum(s.artifacts[a]["value"] for a in x.artifacts)
        standings.append({"seat": i, "gems": x.gems, "from_doubloons": conv, "artifacts": list(x.artifacts),
                          "from_artifacts": arts, "total": x.gems + conv + arts, "flag": s.flag.index(i)})
    best = max(r["total"] for r in standings)
    tied = [r["seat"] for r in standings if r["total"] == best]
    winner = min(tied, key=lambda x: s.flag.index(x))
    d.emit("GameEnded", reason="storm collapsed", winners=[winner], standings=standings,
           tie_breaks=["total"] + (["flag"] if len(tied) > 1 else []), seed=d.chance.reveal())
    raise kit.GameOver


JOBS = {"plan_done": _job_plan_done, "artifact_done": _job_artifact_done, "effect": _job_effect,
        "scheduled": _job_scheduled, "new_round": _job_new_round, "anomaly_done": _job_anomaly_done,
        "treasure": _job_treasure, "tile": _job_tile, "clear": _job_clear, "water": _job_water,
        "priority": _job_priority, "round_end": _job_round_end}

HANDLERS = {
    "draw_plans": draw_plans,
    "select_plan": select_plan,
    "perform_plan": perform_plan,
    "forgo_plan": forgo_plan,
    "play_artifact": play_artifact,
    "end_turn": end_turn,
    "do_step": do_step,
    "skip_step": skip_step,
    "choose_flag": choose_flag,
    "purchase": purchase,
    "done_outfitting": done_outfitting,
}

RULES = kit.Rules(game="Chrono Corsairs", handlers=HANDLERS, moments=MOMENTS, draft=Draft,
                  over=FINAL, unknown=DETAIL, seats=SETUP, table_fields=TABLE_FIELDS, server_words="draws",
                  finish=finish, after=_after)


def decide(state: ChronoState, seat: int, command: dict, chance) -> list[dict]:
    """RULES.decide, but a report missing an item names the count of the whole list, as
    table_inputs() gives it (docs/api.md section 7: a Plan from each deck is 2, not 1 at the first)."""
    try:
        return RULES.decide(state, seat, command, chance)
    except Rejected as refused:
        at: tuple[str, int, str] | None = getattr(refused, "table_item", None)
        if at is None:
            raise
        found = turned_up(state, seat, command)
        if found is None:
            raise
        field, item, where = at
        raise required(field, max(item, sum(1 for f, *_ in found if f == field)), item, where) from None
gate = RULES.gate
