"""Chrono Corsairs: the state of a game and evolve(), which applies one event.

evolve never checks and never draws: every choice and outcome is in the event (rules.py).
Pirates of one colour and kind standing in one place are interchangeable, so the state counts
them: pieces[kind][place] for place in the tile spots, HARBOR, WATER (killed) and MAT (the
ship mat: crew spaces, overflow, an officer lost to the storm).
Decks hold no order nobody knows: `pool` is the shuffled part nobody has seen (a card is chosen
from it when it is drawn: server seed or table), `bottom` the cards put under it, in order.
An Event token's face is chosen the same way when it is first flipped; until then the state
knows only its back.

clone(), dump_state and load_state are kit's (domain/kit/snapshot.py): the copy goes as deep
as each field's type says, so the types must stay true; the content and options are shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import kit

TIMES = ("SUNRISE", "MORNING", "EVENING", "SUNSET")
STAGES = ("OPENING", "EXPANDING", "RIPPLING", "COLLAPSING")
HARBOR, WATER, MAT = "HARBOR", "WATER", "MAT"
KINDS = ("officer", "crew")
OFFICERS, CREW, CREW_IN_HARBOR = 2, 11, 5


@dataclass
class Seat:
    name: str
    color: str = ""
    doubloons: int = 0
    gems: int = 0
    artifacts: list[str] = field(default_factory=list)     # kept sorted: a hand has no order
    cubes: dict[str, int] = field(default_factory=lambda: {"stable": 0, "unstable": 0})   # track positions, 0 = printed "1"
    mat: dict[str, str | None] = field(default_factory=lambda: {t: None for t in TIMES})   # None: the pre-printed plan
    pieces: dict[str, dict[str, int]] = field(default_factory=dict)   # kind -> place -> count
    overflow: int = 0                                        # crew on the mat without a crew space
    drawn: list[str] = field(default_factory=list)           # Phase 2, secret
    drew: bool = False
    selected: dict[str, str] | None = None                   # Phase 2, sealed: {card, slot}


@dataclass
class ChronoState(kit.GameState):
    seats: list[Seat] = field(default_factory=list)
    options: dict = field(default_factory=dict, metadata=kit.SHARED)
    content: dict = field(default_factory=dict, metadata=kit.SHARED)
    content_key: str = ""
    chance_mode: str = ""
    commitment: str | None = None
    round: int = 0
    phase: str = "setup"    # anomaly | draw | select | loop | treasure | priority | outfit | over
    storm: int = 0
    spots: dict[str, str] = field(default_factory=dict)   # spot -> tile id (caves: cave id)
    sides: dict[str, str] = field(default_factory=dict)   # cave spot -> "A" | "B"
    box_cave: str | None = None
    tokens: dict[str, dict[str, str | None]] = field(default_factory=dict)   # spot -> {"back", "id": None until flipped, "name"}
    # stable | unstable | artifact -> {"pool": [...], "bottom": [...]}
    decks: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    anomaly_top: str | None = None
    anomaly_pool: list[str] = field(default_factory=list)
    anomaly_discard: list[str] = field(default_factory=list)
    flag: list[int] = field(default_factory=list)    # seats, highest Flag first
    time: int | None = None                          # index into TIMES during the Loop
    turn_index: int = 0
    turn: dict[str, str | int | bool] | None = None  # {"seat", "plan": pending|performing|done|forgone, "artifact": bool}
    frames: list[dict[str, Any]] = field(default_factory=list)   # the effect being resolved (effects.py)
    jobs: list[dict[str, Any]] = field(default_factory=list)     # what happens next on its own (rules.py)
    triggered: dict[str, list[str]] = field(default_factory=dict)   # resolution unit -> spots whose token resolved in it
    units: int = 0
    modifiers: dict[str, Any] = field(default_factory=dict)   # lasting anomaly effects, for this round
    scheduled: list[dict[str, Any]] = field(default_factory=list)   # {"at", "do", "actor"}
    unstable_revealed: bool = False
    artifact_in_play: str | None = None              # played, not yet under the deck
    priority: dict[str, Any] | None = None           # {"order": choosers, "placed": {position: seat}}
    outfit_index: int = 0
    finished: bool = False
    result: dict[str, Any] | None = None
    seed: str | None = None

    @property
    def plans(self) -> dict:
        return _index(self, "plans")

    @property
    def artifacts(self) -> dict:
        return _index(self, "artifacts")

    @property
    def anomalies(self) -> dict:
        return _index(self, "anomalies")

    @property
    def tiles(self) -> dict:
        return _index(self, "tiles")

    @property
    def caves(self) -> dict:
        return _index(self, "caves")

    @property
    def event_tokens(self) -> dict:
        return _index(self, "eventTokens")



# (content key, part) -> {id: item}, for 6 parts of about as many contents as domain/kit keeps.
# Built from the state's own content, never from the shared store: another request thread
# may have pushed this content out of the store meanwhile.
_INDEXES = kit.LRU(64)


def _index(s: ChronoState, part: str) -> dict:
    return _INDEXES.get_or_build((s.content_key, part),
                                 lambda: {c["id"]: c for c in s.content[part]})


def initial_state() -> ChronoState:
    return ChronoState()


dump_state = kit.dump
load_state = kit.loader(ChronoState)


def evolve(state: ChronoState, event: dict) -> ChronoState:
    return kit.apply(_HANDLERS, state, event)


def _add(seat: Seat, kind: str, place: str, n: int) -> None:
    counts = seat.pieces[kind]
    counts[place] = counts.get(place, 0) + n
    if counts[place] == 0:
        del counts[place]


def _take_card(deck: dict, card: str) -> None:
    if card in deck["pool"]:
        deck["pool"].remove(card)
    else:
        deck["bottom"].remove(card)


def deck_of(s: ChronoState, card: str) -> str:
    return s.plans[card]["deck"]


# -- handlers -------------------------------------------------------------------------

def _set_up(s, e):
    s.options, s.content, s.content_key = e["options"], e["content"], e["content_key"]
    s.chance_mode, s.commitment = e["chance"]["mode"], e["chance"]["commitment"]
    s.seats = []
    for name, color in zip(e["players"], e["colors"], strict=False):
        seat = Seat(name=name, color=color)
        seat.pieces = {"officer": {HARBOR: OFFICERS}, "crew": {HARBOR: CREW_IN_HARBOR, MAT: CREW - CREW_IN_HARBOR}}
        s.seats.append(seat)
    plans = s.content["plans"]
    s.decks = {"stable": {"pool": sorted(p["id"] for p in plans if p["deck"] == "stable"), "bottom": []},
               "unstable": {"pool": sorted(p["id"] for p in plans if p["deck"] == "unstable"), "bottom": []},
               "artifact": {"pool": sorted(a["id"] for a in s.content["artifacts"]), "bottom": []}}


def _board(s, e):
    s.spots, s.sides, s.box_cave = dict(e["tiles"]), dict(e["sides"]), e["box_cave"]
    s.tokens = {spot: {"back": back, "id": None, "name": None} for spot, back in e["token_backs"].items()}
    s.storm, s.flag = e["storm"], list(e["flag"])
    s.anomaly_pool = sorted(a["id"] for a in s.content["anomalies"] if a["id"] != e["anomaly"])
    s.anomaly_top = e["anomaly"]


def _agenda(s, e):
    s.frames, s.jobs, s.triggered, s.units = e["frames"], e["jobs"], e["triggered"], e["units"]


def _round(s, e):
    s.round = e["round"]
    s.phase = "anomaly"
    s.unstable_revealed = False


def _storm(s, e):
    s.storm = e["to"]


def _anomaly_discarded(s, e):
    s.anomaly_discard.append(e["anomaly"])
    s.anomaly_top = e.get("next")
    if e.get("next") in s.anomaly_pool:
        s.anomaly_pool.remove(e["next"])


def _phase(s, e):
    s.phase = e["phase"]
    if e["phase"] == "loop":
        s.time, s.turn_index, s.turn = 0, 0, None
    elif e["phase"] in ("treasure", "priority"):
        s.time, s.turn = None, None
    if e["phase"] == "priority":
        s.priority = {"order": e["order"], "placed": {}}
    if e["phase"] == "outfit":
        s.outfit_index = 0
        s.priority = None


def _plans_drawn(s, e):
    seat = s.seats[e["seat"]]
    for card in e.get("cards", []):
        _take_card(s.decks[deck_of(s, card)], card)
    seat.drawn = list(e.get("cards", []))
    seat.drew = True


def _plans_drawn_redacted_safe(s, e):
    _plans_drawn(s, e)


def _plan_selected(s, e):
    s.seats[e["seat"]].selected = {"card": e["card"], "slot": e["slot"]}


def _plans_revealed(s, e):
    for p in e["plans"]:
        seat = s.seats[p["seat"]]
        if p["replaced"]:
            s.decks[deck_of(s, p["replaced"])]["bottom"].append(p["replaced"])
        seat.mat[p["slot"]] = p["card"]
        seat.drawn.remove(p["card"])
        seat.selected = None
        if s.plans[p["card"]]["deck"] == "unstable":
            s.unstable_revealed = True


def _plans_returned(s, e):
    seat = s.seats[e["seat"]]
    for card in e["cards"]:
        s.decks[deck_of(s, card)]["bottom"].append(card)
    seat.drawn = []
    seat.drew = False


def _turn_began(s, e):
    s.turn = {"seat": e["seat"], "plan": "pending", "artifact": False}


def _time(s, e):
    s.time = e["time"]
    s.turn_index = 0


def _plan_forgone(s, e):
    s.turn["plan"] = "forgone"


def _plan_started(s, e):
    s.turn["plan"] = "performing"


def _plan_performed(s, e):
    s.turn["plan"] = "done"


def _artifact_played(s, e):
    s.seats[e["seat"]].artifacts.remove(e["artifact"])
    s.turn["artifact"] = True
    s.artifact_in_play = e["artifact"]


def _artifact_to_bottom(s, e):
    s.decks["artifact"]["bottom"].append(e["artifact"])
    s.artifact_in_play = None


def _artifact_discarded(s, e):
    s.seats[e["seat"]].artifacts.remove(e["artifact"])
    s.decks["artifact"]["bottom"].append(e["artifact"])


def _artifact_drawn(s, e):
    _take_card(s.decks["artifact"], e["artifact"])
    s.seats[e["seat"]].artifacts = sorted(s.seats[e["seat"]].artifacts + [e["artifact"]])


def _turn_ended(s, e):
    s.turn = None
    s.turn_index += 1


def _moved(s, e):
    seat = s.seats[e["seat"]]
    _add(seat, e["kind"], e["from"], -e["count"])
    _add(seat, e["kind"], e["to"], e["count"])


def _killed(s, e):
    seat = s.seats[e["seat"]]
    _add(seat, e["kind"], e["at"], -e["count"])
    _add(seat, e["kind"], WATER, e["count"])


def _lost(s, e):
    seat = s.seats[e["seat"]]
    _add(seat, e["kind"], e["at"], -e["count"])
    _add(seat, e["kind"], MAT, e["count"])
    seat.overflow += e.get("overflow", 0)


def _doubloons(s, e):
    s.seats[e["seat"]].doubloons += e["amount"]


def _gems(s, e):
    s.seats[e["seat"]].gems += e["amount"]


def _recruited(s, e):
    seat = s.seats[e["seat"]]
    _add(seat, e["kind"], MAT, -1)
    _add(seat, e["kind"], HARBOR, 1)
    if e.get("from") == "overflow":
        seat.overflow -= 1
    seat.doubloons -= e.get("cost", 0)


def _cube(s, e):
    seat = s.seats[e["seat"]]
    seat.cubes[e["track"]] += 1
    seat.doubloons -= e.get("cost", 0)


def _plan_moved(s, e):
    mat = s.seats[e["seat"]].mat
    mat[e["from"]], mat[e["to"]] = mat[e["to"]], mat[e["from"]]
    s.seats[e["seat"]].doubloons -= e.get("cost", 0)


def _modifier(s, e):
    s.modifiers[e["param"]] = e["value"]


def _scheduled(s, e):
    s.scheduled.append({"at": e["at"], "do": e["do"], "actor": e["actor"]})


def _schedule_taken(s, e):
    s.scheduled = [x for x in s.scheduled if x["at"] != e["at"]]


def _flipped(s, e):
    s.tokens[e["spot"]]["id"] = e["token"]
    s.tokens[e["spot"]]["name"] = e["name"]


def _returned(s, e):
    for seat in s.seats:
        for kind in KINDS:
            n = seat.pieces[kind].get(e["from"], 0)
            if n:
                _add(seat, kind, e["from"], -n)
                _add(seat, kind, HARBOR, n)


def _flags_cleared(s, e):
    s.flag = []


def _flag_chosen(s, e):
    s.priority["placed"][str(e["position"])] = e["seat"]
    if len(s.priority["placed"]) == len(s.seats):
        s.flag = [s.priority["placed"][str(i)] for i in range(len(s.seats))]


def _gem_bought(s, e):
    seat = s.seats[e["seat"]]
    seat.gems += 1
    seat.doubloons -= e["cost"]


def _artifact_bought(s, e):
    s.seats[e["seat"]].doubloons -= e["cost"]


def _outfitted(s, e):
    s.outfit_index += 1


def _round_reset(s, e):
    for seat in s.seats:
        seat.doubloons = 0
    s.modifiers = {}


def _game_ended(s, e):
    s.finished = True
    s.phase = "over"
    s.result = {k: e[k] for k in ("reason", "winners", "standings", "tie_breaks")}
    for i, row in enumerate(e["standings"]):
        s.seats[i].gems = row["total"]
    s.seed = e.get("seed")
    s.frames, s.jobs = [], []


_HANDLERS = {
    "GameSetUp": _set_up,
    "BoardSetUp": _board,
    "Agenda": _agenda,
    "RoundBegan": _round,
    "StormAdvanced": _storm,
    "AnomalyDiscarded": _anomaly_discarded,
    "PhaseBegan": _phase,
    "PlansDrawn": _plans_drawn,
    "PlanSelected": _plan_selected,
    "PlansRevealed": _plans_revealed,
    "PlanCardsReturned": _plans_returned,
    "TurnBegan": _turn_began,
    "TimeAdvanced": _time,
    "PlanForgone": _plan_forgone,
    "PlanPerformStarted": _plan_started,
    "PlanPerformed": _plan_performed,
    "ArtifactPlayed": _artifact_played,
    "ArtifactReturnedToBottom": _artifact_to_bottom,
    "ArtifactDiscarded": _artifact_discarded,
    "ArtifactDrawn": _artifact_drawn,
    "TurnEnded": _turn_ended,
    "PiratesMoved": _moved,
    "PiratesKilled": _killed,
    "PiratesLostToStorm": _lost,
    "DoubloonsChanged": _doubloons,
    "TimeGemsChanged": _gems,
    "PirateRecruited": _recruited,
    "CubeAdvanced": _cube,
    "PlanMoved": _plan_moved,
    "ModifierSet": _modifier,
    "EffectScheduled": _scheduled,
    "ScheduledEffectsStarted": _schedule_taken,
    "EventTokenFlipped": _flipped,
    "PiratesReturnedToHarbor": _returned,
    "FlagsCleared": _flags_cleared,
    "FlagChosen": _flag_chosen,
    "TimeGemBought": _gem_bought,
    "ArtifactBought": _artifact_bought,
    "OutfittingDone": _outfitted,
    "RoundReset": _round_reset,
    "GameEnded": _game_ended,
}
