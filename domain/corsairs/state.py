"""Corsairs of Valeria: the state of a game and evolve(), which applies one event.

evolve never checks and never rolls: every decision and every outcome is already in the
event (see rules.py). It mutates and returns the state it is given; decide() works on a
clone.

clone(), dump_state and load_state are kit's (domain/kit/snapshot.py): the copy goes as deep
as each field's type says, so the types must stay true; the content and options are shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import kit
from .board import Board, board_for

GROUPS = ("grog", "silver", "map", "cannon")
MAX_GROG = 4          # "Acquire Grog": at most 4 Grog on the dial
SILVER_PER_TREASURE = 5
WINNING_TREASURE = 6


@dataclass
class Player:
    name: str
    captain: str = ""
    silver: int = 0
    grog: int = 0
    treasure: int = 0
    position: str = ""


@dataclass
class Turn:
    """What has happened so far in the active player's turn. A 5-Grog restart starts a new
    pass of the same turn: per-pass fields reset, per-turn fields (attacked) do not."""
    number: int = 0
    pass_no: int = 1
    phase: str = "roll"              # roll (A) | reroll (B) | actions (C, then D) | ended
    dice: list[str] = field(default_factory=list)
    preset: int = 0                  # dice set by Willem/Luthor this pass (always the first ones)
    done: list[str] = field(default_factory=list)   # symbol groups executed this pass
    skulls_resolved: bool = False
    cannons_spent: int = 0           # by Captain Hook
    hook_used: int = 0
    jaxn_used: bool = False
    attacked: bool = False           # a player or a merchant, once per turn (CV-A27)
    attacked_player: bool = False    # for Jäger Knot
    dice_given_away: bool = False
    pending: dict[str, Any] | None = None   # a decision owed by some seat before play goes on


@dataclass
class CorsairsState(kit.GameState):
    players: list[Player] = field(default_factory=list)
    options: dict = field(default_factory=dict, metadata=kit.SHARED)
    content: dict = field(default_factory=dict, metadata=kit.SHARED)
    content_key: str = ""
    chance_mode: str = ""
    commitment: str | None = None
    slots: list[dict[str, str]] = field(default_factory=list)   # [{"tile", "side"}] x3, nearest Start first
    unused_tile: str = ""
    supply: int = 0
    skull_silver: int = 0
    skull_reaches: int = 0
    race_reset_pending: bool = False
    end_after_turn: bool = False
    active: int = 0
    turn: Turn = field(default_factory=Turn)
    finished: bool = False
    result: dict[str, Any] | None = None
    seed: str | None = None

    @property
    def board(self) -> Board:
        return board_for(self.content, self.content_key, self.slots)

    def count(self, *faces: str) -> int:
        return sum(1 for f in self.turn.dice if f in faces)


def initial_state() -> CorsairsState:
    return CorsairsState()


dump_state = kit.dump
load_state = kit.loader(CorsairsState)


def _reset_pass(turn: Turn) -> None:
    turn.phase = "roll"
    turn.dice = []
    turn.preset = 0
    turn.done = []
    turn.skulls_resolved = False
    turn.cannons_spent = 0
    turn.hook_used = 0
    turn.jaxn_used = False
    turn.dice_given_away = False
    turn.pending = None


def evolve(state: CorsairsState, event: dict) -> CorsairsState:
    return kit.apply(_HANDLERS, state, event)


def _game_set_up(s: CorsairsState, e: dict) -> None:
    s.options = e["options"]
    s.content = e["content"]
    s.content_key = e["content_key"]
    s.chance_mode = e["chance"]["mode"]
    s.commitment = e["chance"].get("commitment")
    s.players = [Player(name=n) for n in e["players"]]


def _captains_dealt(s, e):
    for p, c in zip(s.players, e["captains"], strict=False):
        p.captain = c


def _race_track_built(s, e):
    s.slots = [dict(x) for x in e["slots"]]
    s.unused_tile = e["unused"]


def _supplies_placed(s, e):
    s.skull_silver = e["skull_island"]
    for p in s.players:
        p.silver = e["silver_each"]
        p.grog = e["grog_each"]
        p.treasure = 0
        p.position = e["start"]
    s.supply = e["supply"]


def _turn_started(s, e):
    s.active = e["seat"]
    s.turn = Turn(number=e["turn"])


def _die_preset(s, e):
    p = s.players[e["seat"]]
    p.grog -= e["grog_paid"]
    s.turn.dice.append(e["face"])
    s.turn.preset += 1


def _dice_rolled(s, e):
    s.turn.dice = list(e["dice"])
    s.turn.phase = "reroll"


def _dice_rerolled(s, e):
    p = s.players[e["seat"]]
    if e["paid_with"] == "grog":
        p.grog -= 1
    else:
        p.silver -= 1
        s.supply += 1
    s.turn.dice = list(e["dice"])


def _dice_locked(s, e):
    s.turn.dice = list(e["dice"])
    s.turn.phase = "actions"
    s.turn.done = [g for g in GROUPS if not _has(e["dice"], g)]
    s.turn.skulls_resolved = not any(f in ("SKULL", "SKULL_GROG") for f in e["dice"])


def _has(dice, group):
    faces = {"grog": ("GROG", "SKULL_GROG"), "silver": ("SILVER",), "map": ("MAP",), "cannon": ("CANNON",)}[group]
    return any(f in faces for f in dice)


def _decision_awaited(s, e):
    s.turn.pending = dict(e["decision"])


def _decision_taken(s, e):
    s.turn.pending = None


def _silver_cursed(s, e):
    p = s.players[e["seat"]]
    p.silver -= e["silver_lost"]
    s.skull_silver += e["silver_lost"]
    if not e["received"]:
        s.turn.skulls_resolved = True


def _skull_dice_given(s, e):
    s.turn.dice_given_away = True
    s.turn.skulls_resolved = True
    s.turn.done = list(GROUPS)


def _silver_gained(s, e):
    s.players[e["seat"]].silver += e["amount"]
    if e["source"] == "skull_island":
        s.skull_silver -= e["amount"]
    elif e["source"] == "plunder":
        s.players[e["from_seat"]].silver -= e["amount"]
    else:
        s.supply -= e["amount"]


def _silver_lost(s, e):
    s.players[e["seat"]].silver -= e["amount"]
    s.supply += e["amount"]


def _treasure_exchanged(s, e):
    p = s.players[e["seat"]]
    p.silver -= SILVER_PER_TREASURE
    s.supply += SILVER_PER_TREASURE
    p.treasure += 1


def _grog_gained(s, e):
    s.players[e["seat"]].grog += e["amount"]


def _grog_lost(s, e):
    s.players[e["seat"]].grog -= e["amount"]


def _dice_executed(s, e):
    if e["symbol"] not in s.turn.done:
        s.turn.done.append(e["symbol"])


def _ship_moved(s, e):
    s.players[e["seat"]].position = e["to"]
    if e["cause"] == "hook":
        s.turn.cannons_spent += 2
        s.turn.hook_used += 1
    elif e["cause"] == "jaxn":
        s.turn.jaxn_used = True


def _skull_island_reached(s, e):
    s.skull_reaches = e["reach"]
    if e["reach"] == 1:
        s.race_reset_pending = True
    else:
        s.end_after_turn = True


def _player_attacked(s, e):
    s.turn.attacked = True
    s.turn.attacked_player = True
    s.turn.done = [g for g in s.turn.done if g != "cannon"] + ["cannon"]


def _merchant_attacked(s, e):
    s.turn.attacked = True
    s.turn.done = [g for g in s.turn.done if g != "cannon"] + ["cannon"]


def _treasure_stolen(s, e):
    s.players[e["target"]].treasure -= 1
    s.players[e["seat"]].treasure += 1


def _turn_restarted(s, e):
    s.turn.pass_no = e["pass"]
    _reset_pass(s.turn)


def _turn_ended(s, e):
    s.turn.phase = "ended"


def _race_reset(s, e):
    s.slots = [dict(x) for x in e["slots"]]
    for p in s.players:
        p.position = e["start"]
    s.skull_silver += e["silver_added"]
    s.supply -= e["silver_added"]
    s.race_reset_pending = False


def _game_ended(s, e):
    s.finished = True
    s.result = {k: e[k] for k in ("reason", "winners", "standings", "tie_breaks")}
    s.seed = e.get("seed")
    s.turn.pending = None


_HANDLERS = {
    "GameSetUp": _game_set_up,
    "CaptainsDealt": _captains_dealt,
    "RaceTrackBuilt": _race_track_built,
    "SuppliesPlaced": _supplies_placed,
    "TurnStarted": _turn_started,
    "DiePreset": _die_preset,
    "DiceRolled": _dice_rolled,
    "DiceRerolled": _dice_rerolled,
    "DiceLocked": _dice_locked,
    "DecisionAwaited": _decision_awaited,
    "SilverCursed": _silver_cursed,
    "SkullDiceGiven": _skull_dice_given,
    "DecisionTaken": _decision_taken,
    "SilverGained": _silver_gained,
    "SilverLost": _silver_lost,
    "TreasureExchanged": _treasure_exchanged,
    "GrogGained": _grog_gained,
    "GrogLost": _grog_lost,
    "DiceExecuted": _dice_executed,
    "ShipMoved": _ship_moved,
    "SkullIslandReached": _skull_island_reached,
    "PlayerAttacked": _player_attacked,
    "MerchantAttacked": _merchant_attacked,
    "TreasureStolen": _treasure_stolen,
    "TurnRestarted": _turn_restarted,
    "TurnEnded": _turn_ended,
    "RaceReset": _race_reset,
    "GameEnded": _game_ended,
}
