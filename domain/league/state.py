"""League of Pirates: the state of a game and evolve(), which applies one event.

evolve never checks and never draws: every choice and outcome is in the event (rules.py).

clone(), dump_state and load_state are kit's (domain/kit/snapshot.py): the copy goes as deep
as each field's type says, so the types must stay true; the content and options are shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import kit

CREW_SLOTS = ("captain", "quartermaster", "sailing_master", "surgeon", "mate1", "mate2", "mate3")
ROLE_OF_SLOT = {"captain": "captain", "quartermaster": "quartermaster", "sailing_master": "sailingMaster",
                "surgeon": "surgeon", "mate1": "mate", "mate2": "mate", "mate3": "mate"}
LEAGUES = ("blue", "red", "yellow")


@dataclass
class Seat:
    name: str
    coin_set: str = ""
    points: int = 0
    league: str | None = None
    crew: dict[str, str | None] = field(default_factory=lambda: {s: None for s in CREW_SLOTS})
    brig: list[str | None] = field(default_factory=list)
    bag: list[str] = field(default_factory=list)   # kept sorted: a bag has no order


@dataclass
class Challenge:
    purpose: str = "turn"                          # turn | set_sail
    round: int = 1
    dice: list[list[int]] = field(default_factory=lambda: [[0] * 5, [0] * 5])
    throws: list[int] = field(default_factory=lambda: [0, 0])
    banked: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])   # {"1": die index, "2": ..., "3": ...}
    ended: list[bool] = field(default_factory=lambda: [False, False])


@dataclass
class LeagueState(kit.GameState):
    seats: list[Seat] = field(default_factory=list)
    options: dict = field(default_factory=dict, metadata=kit.SHARED)
    content: dict = field(default_factory=dict, metadata=kit.SHARED)
    content_key: str = ""
    chance_mode: str = ""
    commitment: str | None = None
    phase: str = "leagues"   # leagues | challenge | action | draw | raid_defence | rescue_defence | rescue_placement | over
    turn: int = 0
    challenge: Challenge | None = None
    actor: int | None = None
    pending: dict[str, Any] | None = None
    traitors: list[str] = field(default_factory=list)
    origin: dict[str, int] = field(default_factory=dict)   # coin -> seat whose bag it went into at setup
    # coin in a brig -> {"from": seat, "slot": crew slot}
    captured: dict[str, dict[str, int | str]] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)       # walked the plank
    set_sail_by: int | None = None
    finished: bool = False
    result: dict[str, Any] | None = None
    seed: str | None = None

    @property
    def coins(self) -> dict:
        return coin_index(self.content_key, self.content)


    def where(self, coin: str) -> tuple[str, int | None, str | int | None]:
        """("crew", seat, slot) | ("brig", seat, index) | ("bag", seat, None) | ("drawn", seat, None) | ("removed", ..)"""
        for i, s in enumerate(self.seats):
            for slot, c in s.crew.items():
                if c == coin:
                    return "crew", i, slot
            for j, c in enumerate(s.brig):
                if c == coin:
                    return "brig", i, j
            if coin in s.bag:
                return "bag", i, None
        if self.pending and coin in self.pending.get("drawn", ()):
            return "drawn", self.pending["seat"], None
        if coin in self.removed:
            return "removed", None, None
        return "nowhere", None, None


# Coin indexes by content key, built from the content in hand (never from domain/kit's store,
# which another request thread may have emptied of it meanwhile).
_INDEXES = kit.LRU(16)


def coin_index(key: str, content: dict) -> dict:
    return _INDEXES.get_or_build(key, lambda: {c["id"]: c for c in content["coins"]})


def initial_state() -> LeagueState:
    return LeagueState()


dump_state = kit.dump
load_state = kit.loader(LeagueState)


def evolve(state: LeagueState, event: dict) -> LeagueState:
    return kit.apply(_HANDLERS, state, event)


def _remove_from_bag(seat: Seat, coins) -> None:
    for c in coins:
        seat.bag.remove(c)


def _to_bag(s: LeagueState, seat: int, coins) -> None:
    s.seats[seat].bag = sorted(s.seats[seat].bag + list(coins))


def _game_set_up(s, e):
    s.options = e["options"]
    s.content = e["content"]
    s.content_key = e["content_key"]
    s.chance_mode = e["chance"]["mode"]
    s.commitment = e["chance"].get("commitment")
    brig = e["content"]["brigSlots"]
    s.seats = [Seat(name=n, coin_set=cs, points=e["points"], brig=[None] * brig)
               for n, cs in zip(e["players"], e["coin_sets"], strict=False)]
    s.phase = "leagues"


def _league_chosen(s, e):
    s.seats[e["seat"]].league = e["league"]


def _leagues_revealed(s, e):
    for i, seat in enumerate(s.seats):
        seat.league = e["leagues"][i]
        seat.crew["captain"] = e["captains"][i]
        s.origin[e["captains"][i]] = i
        seat.bag = sorted(e["bags"][i])
        for c in e["bags"][i]:
            s.origin[c] = i


def _challenge_started(s, e):
    s.challenge = Challenge(purpose=e["purpose"], round=e["round"])
    s.phase = "challenge"
    s.actor = None
    s.pending = None


def _dice_thrown(s, e):
    c, i = s.challenge, e["seat"]
    c.dice[i] = list(e["dice"])
    c.throws[i] = e["throw"]
    c.banked[i] = dict(e["banked"])
    if e["throw"] >= 3:
        c.ended[i] = True


def _throwing_stopped(s, e):
    s.challenge.ended[e["seat"]] = True


def _challenge_resolved(s, e):
    if e["winner"] is not None and e["purpose"] == "turn" and e.get("action", True):
        s.phase = "action"
        s.actor = e["winner"]


def _turn_started(s, e):
    s.turn = e["turn"]


def _points_paid(s, e):
    s.seats[e["seat"]].points -= e["amount"]


def _points_gained(s, e):
    s.seats[e["seat"]].points += e["amount"]


def _coins_drawn(s, e):
    _remove_from_bag(s.seats[e["seat"]], e["coins"])
    s.pending = {"kind": "draw", "seat": e["seat"], "action": e["action"], "drawn": list(e["coins"])}
    s.phase = "draw"


def _coins_returned(s, e):
    _to_bag(s, e["seat"], e["coins"])
    s.pending = None


def _coin_placed(s, e):
    """A coin goes into a crew slot; whoever sat there leaves in the same event, to a bag or
    over the plank, so no coin is ever in two places or none."""
    seat = s.seats[e["seat"]]
    coin = e["coin"]
    source = e["source"]
    if source == "draw":
        s.pending["drawn"] = [c for c in s.pending["drawn"] if c != coin]
    elif source == "brig":
        seat.brig = [None if c == coin else c for c in seat.brig]
        s.captured.pop(coin, None)
    elif source == "rescue":
        holder = s.seats[1 - e["seat"]]
        holder.brig = [None if c == coin else c for c in holder.brig]
        s.captured.pop(coin, None)
        s.pending = None
    replaced = e.get("replaced")
    if replaced:
        old = replaced["coin"]
        if old in s.traitors:
            s.traitors.remove(old)
        if replaced["to"] == "plank":
            s.removed.append(old)
        else:
            _to_bag(s, replaced["bag"], [old])
    seat.crew[e["slot"]] = coin


def _coin_turned(s, e):
    s.traitors.append(e["coin"])


def _raid_declared(s, e):
    s.pending = {"kind": e["kind"], "seat": e["seat"], "target": e["target"], "raider": e["raider"],
                 "defender": e["target"] if e["kind"] == "raid" else None}
    s.phase = "raid_defence" if e["kind"] == "raid" else "rescue_defence"


def _defender_chosen(s, e):
    s.pending["defender"] = e["coin"]


def _raid_rolled(s, e):
    s.pending = None
    s.phase = "resolved"


def _coin_captured(s, e):
    victim = s.seats[e["from_seat"]]
    victim.crew[e["from_slot"]] = None
    s.seats[e["seat"]].brig[e["brig_slot"]] = e["coin"]
    if e["traitor_cleared"]:
        s.traitors.remove(e["coin"])
    s.captured[e["coin"]] = {"from": e["from_seat"], "slot": e["from_slot"]}


def _rescue_placement_awaited(s, e):
    s.pending = {"kind": "rescue_placement", "seat": e["seat"], "coin": e["coin"], "slot": e["slot"]}
    s.phase = "rescue_placement"


def _rescued_coin_returned(s, e):
    holder = s.seats[1 - e["seat"]]
    holder.brig = [None if c == e["coin"] else c for c in holder.brig]
    s.captured.pop(e["coin"], None)
    _to_bag(s, e["to_bag"], [e["coin"]])
    if e["traitor_cleared"]:
        s.traitors.remove(e["coin"])
    s.pending = None


def _set_sail_attempted(s, e):
    s.set_sail_by = e["seat"]


def _set_sail_failed(s, e):
    s.set_sail_by = None


def _game_ended(s, e):
    s.finished = True
    s.phase = "over"
    s.result = {k: e[k] for k in ("reason", "winners", "totals", "breakdown", "tie_breaks")}
    s.seed = e.get("seed")
    s.pending = None


_HANDLERS = {
    "GameSetUp": _game_set_up,
    "LeagueChosen": _league_chosen,
    "LeaguesRevealed": _leagues_revealed,
    "ChallengeStarted": _challenge_started,
    "DiceThrown": _dice_thrown,
    "ThrowingStopped": _throwing_stopped,
    "ChallengeResolved": _challenge_resolved,
    "TurnStarted": _turn_started,
    "PointsPaid": _points_paid,
    "PointsGained": _points_gained,
    "CoinsDrawn": _coins_drawn,
    "CoinsReturned": _coins_returned,
    "CoinPlaced": _coin_placed,
    "CoinTurned": _coin_turned,
    "RaidDeclared": _raid_declared,
    "DefenderChosen": _defender_chosen,
    "RaidRolled": _raid_rolled,
    "CoinCaptured": _coin_captured,
    "RescuePlacementAwaited": _rescue_placement_awaited,
    "RescuedCoinReturned": _rescued_coin_returned,
    "SetSailAttempted": _set_sail_attempted,
    "SetSailFailed": _set_sail_failed,
    "GameEnded": _game_ended,
}
