"""Los Tesoros del Rey Pirata: the state of a game and evolve(), which applies one event.

evolve never checks and never draws: every choice and outcome is in the event (rules.py).
The Play Deck is kept as the set of its face-down cards (sorted): its order is nobody's, so
the state holds none; a card is chosen when it is taken (server seed or table, in decide).
A card someone peeked at with Lamps & Shovels stays on top, known, in `deck_top`.

clone(), dump_state and load_state are kit's (domain/kit/snapshot.py): the copy goes as deep
as each field's type says, so the types must stay true; the content and options are shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import kit
from .board import board_for


@dataclass
class Seat:
    name: str
    color: str = ""
    hand: list[str] = field(default_factory=list)   # kept sorted: a hand has no order
    equipped: str | None = None
    treasures: list[str] = field(default_factory=list)   # Map ids, Treasure side up, in the order won
    ship: str = ""


@dataclass
class TesorosState(kit.GameState):
    seats: list[Seat] = field(default_factory=list)
    options: dict = field(default_factory=dict, metadata=kit.SHARED)
    content: dict = field(default_factory=dict, metadata=kit.SHARED)
    content_key: str = ""
    chance_mode: str = ""
    commitment: str | None = None
    deck: list[str] = field(default_factory=list)     # face-down cards above the Anchor (Chaos: and events)
    deck_top: str | None = None                       # a peeked card left on top
    top_known_to: list[int] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)       # last = top; face up (TA-37)
    events_left: list[str] = field(default_factory=list)   # face down under the Anchor (Scanning: the pile)
    face_up_event: str | None = None                  # Scanning the horizon
    resolving: str | None = None                      # the Event card being carried out
    event_discard: list[str] = field(default_factory=list)
    events_out: list[str] = field(default_factory=list)    # not used (Pact of the Waves)
    events_in_play: int = 0
    events_unnamed: bool = False   # TP-22: a table took them blind; left and out are one pool until turned up
    map_deck: list[str] = field(default_factory=list)
    open_maps: list[str] = field(default_factory=list)
    active: int = 0
    turn: int = 0
    phase: str = "setup"      # draw | action1 | move | sail | action2 | discard | over
    turn_start: str = ""
    move_value: int | None = None
    combat: dict[str, Any] | None = None    # the attack or Treason being resolved
    pending: dict[str, Any] | None = None   # a decision inside the phase: defend, protect, take_treasure, take_card, draw
    scurvy: dict[str, Any] | None = None    # Scurvy's simultaneous choice, and what it interrupted
    sudden_death: dict[str, Any] | None = None
    finished: bool = False
    result: dict[str, Any] | None = None
    seed: str | None = None

    @property
    def cards(self) -> dict:
        return _index(self, "playCards")

    @property
    def maps(self) -> dict:
        return _index(self, "maps")

    @property
    def events(self) -> dict:
        return _index(self, "events")

    @property
    def combat_kind(self) -> str | None:
        return (self.combat or {}).get("kind")

    @property
    def board(self):
        return board_for(self.content_key, self.content)



# (content key, part) -> {id: item}, built from the state's own content (another request
# thread may have pushed it out of domain/kit's store meanwhile).
_INDEXES = kit.LRU(64)


def _index(s: TesorosState, part: str) -> dict:
    return _INDEXES.get_or_build((s.content_key, part),
                                 lambda: {c["id"]: c for c in s.content[part]})


def initial_state() -> TesorosState:
    return TesorosState()


dump_state = kit.dump
load_state = kit.loader(TesorosState)


def evolve(state: TesorosState, event: dict) -> TesorosState:
    return kit.apply(_HANDLERS, state, event)


# -- where cards go -----------------------------------------------------------------

def _take(s: TesorosState, seat: int | None, card: str, source: str) -> None:
    """Remove a card from where the event says it was."""
    if source == "hand":
        _holder(s, seat).hand.remove(card)
    elif source == "equipped":
        _holder(s, seat).equipped = None
    elif source == "deck":
        if s.deck_top == card:
            s.deck_top, s.top_known_to = None, []
        else:
            if card not in s.deck and s.events_unnamed:   # TP-22, with Chaos: an Event from the Play Deck
                s.deck = _blind_swap(s, card, s.deck, [c for c in s.deck if c in s.events][-1])
            s.deck.remove(card)
    elif source == "discard":
        s.discard.remove(card)


def _blind_swap(s: TesorosState, ev: str, pile: list[str], stand_in: str) -> list[str]:
    """TP-22: where the table took the Events blind, the lists hold stand-ins for a count, so an
    Event turned up (from under the Anchor, or with Chaos from the Play Deck) may be one they had
    out of the game: it trades places with a stand-in of the pile it came from. The pile after
    the trade, still holding `ev` (the caller takes it)."""
    s.events_out.remove(ev)
    s.events_out = sorted(s.events_out + [stand_in])
    return sorted([c for c in pile if c != stand_in] + [ev])


def _holder(s: TesorosState, seat: int | None) -> Seat:
    """The seat a card is taken from; only the deck and the discard pile are taken from without one."""
    if seat is None:
        raise TypeError("a card taken from a hand or an equipped slot needs its seat")
    return s.seats[seat]


def _to_hand(s: TesorosState, seat: int, cards) -> None:
    s.seats[seat].hand = sorted(s.seats[seat].hand + list(cards))


def _game_set_up(s, e):
    s.options = e["options"]
    s.content = e["content"]
    s.content_key = e["content_key"]
    s.chance_mode = e["chance"]["mode"]
    s.commitment = e["chance"].get("commitment")
    rose = board_for(e["content_key"], e["content"]).rose
    s.seats = [Seat(name=n, color=c, ship=rose) for n, c in zip(e["players"], e["colors"], strict=False)]


def _events_placed(s, e):
    if e.get("unnamed"):
        # TP-22: nobody knows which Events the table took, so the lists only hold their counts
        # (the face-up one, with Scanning, among those in play); _take_event swaps in whichever
        # the table turns up.
        face_up = e.get("face_up")
        others = [x for x in sorted(s.events) if x != face_up]
        left = ([face_up] if face_up else []) + others[:e["count"] - (1 if face_up else 0)]
        s.events_left, s.events_out = sorted(left), [x for x in others if x not in left]
        s.events_unnamed = True
    else:
        s.events_left = list(e["events"])
        s.events_out = list(e["out_of_game"])
    s.events_in_play = e["count"]
    if e.get("face_up"):
        s.events_left.remove(e["face_up"])
        s.face_up_event = e["face_up"]


def _cards_dealt(s, e):
    for seat, hand in zip(s.seats, e["hands"], strict=False):
        seat.hand = sorted(hand)
    s.deck = sorted(e["deck"])


def _events_shuffled_into_deck(s, e):
    # TP-22: taken blind, the event gives only their count; the lists' stand-ins go in
    s.deck = sorted(s.deck + (list(s.events_left) if e.get("unnamed") else list(e["events"])))
    s.events_left = []


def _maps_revealed(s, e):
    s.open_maps = list(e["maps"])
    s.map_deck = sorted(m for m in s.maps if m not in e["maps"])


def _draw_off(s, e):
    for x in e["cards"]:
        _take(s, None, x["card"], "deck")
        s.discard.append(x["card"])


def _turn_started(s, e):
    s.active = e["seat"]
    s.turn = e["turn"]
    s.phase = "draw"
    s.turn_start = s.seats[e["seat"]].ship
    s.move_value = None
    s.combat = None
    s.pending = None


def _phase_began(s, e):
    s.phase = e["phase"]
    s.combat = None
    s.pending = None


def _card_drawn(s, e):
    _take(s, None, e["card"], e["from"])
    _to_hand(s, e["seat"], [e["card"]])
    s.pending = None


def _draw_failed(s, e):
    s.pending = None


def _draw_awaited(s, e):
    s.pending = {"kind": "draw", "seat": e["seat"], "reason": e["reason"], "peeked": False}


def _deck_peeked(s, e):
    card = e["card"]
    if card is not None and s.deck_top != card:
        s.deck.remove(card)
        s.deck_top = card
    if card is not None and e["seat"] not in s.top_known_to:
        s.top_known_to = s.top_known_to + [e["seat"]]
    s.pending = {"kind": "draw", "seat": e["seat"], "reason": e["reason"], "peeked": True}


def _die_assigned(s, e):
    if e["source"] in ("hand", "equipped", "deck"):
        _take(s, e["seat"], e["card"], e["source"])
        s.discard.append(e["card"])
    purpose = e["purpose"]
    if purpose == "move":
        s.move_value = e["value"]
        s.phase = "sail"
    elif s.combat is not None:
        s.combat[{"attack": "attack", "defence": "defence", "treason": "value",
                  "protection": "protection"}[purpose]] = e["value"]


def _attack_declared(s, e):
    s.combat = {"kind": e["attack"], "attacker": e["seat"], "target": e["target"], "attack": None, "defence": None}


def _defence_awaited(s, e):
    s.pending = {"kind": "defend", "seat": e["seat"]}


def _attack_resolved(s, e):
    s.pending = None


def _cards_stolen(s, e):
    for c in e["cards"]:
        s.seats[e["from"]].hand.remove(c)
    _to_hand(s, e["seat"], e["cards"])


def _treasure_choice_awaited(s, e):
    s.pending = {"kind": "take_treasure", "seat": e["seat"], "from": e["from"]}


def _treasure_taken(s, e):
    s.seats[e["from"]].treasures.remove(e["map"])
    s.seats[e["seat"]].treasures.append(e["map"])
    s.pending = None


def _treason_played(s, e):
    _take(s, e["seat"], e["card"], "hand")
    s.discard.append(e["card"])
    s.combat = {"kind": e["treason"], "attacker": e["seat"], "target": e["target"], "card": e["card"],
                "value": e["printed"], "protection": None}


def _protection_awaited(s, e):
    s.pending = {"kind": "protect", "seat": e["seat"]}


def _protection_played(s, e):
    _take(s, e["seat"], e["card"], "hand")
    s.discard.append(e["card"])
    s.combat["protection"] = e["printed"]
    s.pending = None


def _treason_resolved(s, e):
    s.pending = None


def _hand_shown(s, e):
    s.pending = {"kind": "take_card", "seat": e["seat"], "from": e["target"]}


def _card_taken(s, e):
    s.seats[e["from"]].hand.remove(e["card"])
    _to_hand(s, e["seat"], [e["card"]])
    s.pending = None


def _equipment_discarded(s, e):
    s.seats[e["seat"]].equipped = None
    s.discard.append(e["card"])


def _equipped(s, e):
    seat = s.seats[e["seat"]]
    seat.hand.remove(e["card"])
    if e["returned"]:
        seat.hand = sorted(seat.hand + [e["returned"]])
    seat.equipped = e["card"]


def _treasure_claimed(s, e):
    _take(s, e["seat"], e["card"], e["source"])
    s.discard.append(e["card"])
    s.open_maps.remove(e["map"])
    s.seats[e["seat"]].treasures.append(e["map"])


def _map_revealed(s, e):
    s.map_deck.remove(e["map"])
    s.open_maps.append(e["map"])


def _ship_moved(s, e):
    s.seats[e["seat"]].ship = e["to"]


def _event_revealed(s, e):
    ev = e["event"]
    if e["from"] == "deck":
        _take(s, None, ev, "deck")
    elif s.face_up_event == ev:
        s.face_up_event = None
    else:
        _take_event(s, ev)
    s.resolving = ev


def _take_event(s, ev: str) -> None:
    """An Event turned up from under the Anchor (TP-22: perhaps one the lists had out, _blind_swap)."""
    if ev not in s.events_left and s.events_unnamed:
        s.events_left = _blind_swap(s, ev, s.events_left, s.events_left[-1])
    s.events_left.remove(ev)


def _ships_returned(s, e):
    for seat in s.seats:
        seat.ship = e["to"]


def _hands_passed(s, e):
    """[Event Cards: Storm] each hand to the Pirate on the right: seat i's to seat i-1 (TA-26)."""
    hands = [seat.hand for seat in s.seats]
    n = len(hands)
    for i in range(n):
        s.seats[(i - 1) % n].hand = hands[i]


def _scurvy_began(s, e):
    s.scurvy = {"event": e["event"], "waiting": list(e["waiting"]), "kept": {}, "then": e["then"],
                "anchor": e["anchor"]}


def _scurvy_kept(s, e):
    s.scurvy["kept"][str(e["seat"])] = list(e["cards"])


def _cards_discarded(s, e):
    for c in e["cards"]:
        s.seats[e["seat"]].hand.remove(c)
        s.discard.append(c)


def _event_resolved(s, e):
    s.event_discard.append(e["event"])
    s.resolving = None
    s.scurvy = None


def _event_turned_face_up(s, e):
    _take_event(s, e["event"])
    s.face_up_event = e["event"]


def _discard_reshuffled(s, e):
    s.deck = sorted(s.deck + s.discard)
    s.discard = []


def _sudden_death_began(s, e):
    s.sudden_death = {"reason": e["reason"], "turn": s.turn}


def _game_ended(s, e):
    s.finished = True
    s.phase = "over"
    s.result = {k: e[k] for k in ("reason", "winners", "totals", "breakdown", "tie_breaks")}
    s.seed = e.get("seed")
    s.pending = None
    s.scurvy = None


_HANDLERS = {
    "GameSetUp": _game_set_up,
    "EventsPlacedUnderAnchor": _events_placed,
    "CardsDealt": _cards_dealt,
    "EventsShuffledIntoDeck": _events_shuffled_into_deck,
    "MapsRevealed": _maps_revealed,
    "DrawOffRevealed": _draw_off,
    "TurnStarted": _turn_started,
    "PhaseBegan": _phase_began,
    "CardDrawn": _card_drawn,
    "DrawFailed": _draw_failed,
    "DrawAwaited": _draw_awaited,
    "DeckPeeked": _deck_peeked,
    "DieAssigned": _die_assigned,
    "AttackDeclared": _attack_declared,
    "DefenceAwaited": _defence_awaited,
    "AttackResolved": _attack_resolved,
    "CardsStolen": _cards_stolen,
    "TreasureChoiceAwaited": _treasure_choice_awaited,
    "TreasureTaken": _treasure_taken,
    "TreasonPlayed": _treason_played,
    "ProtectionAwaited": _protection_awaited,
    "ProtectionPlayed": _protection_played,
    "TreasonResolved": _treason_resolved,
    "HandShown": _hand_shown,
    "CardTaken": _card_taken,
    "EquipmentDiscarded": _equipment_discarded,
    "Equipped": _equipped,
    "TreasureClaimed": _treasure_claimed,
    "MapRevealed": _map_revealed,
    "ShipMoved": _ship_moved,
    "EventRevealed": _event_revealed,
    "ShipsReturned": _ships_returned,
    "HandsPassed": _hands_passed,
    "ScurvyBegan": _scurvy_began,
    "ScurvyKept": _scurvy_kept,
    "CardsDiscarded": _cards_discarded,
    "EventResolved": _event_resolved,
    "EventTurnedFaceUp": _event_turned_face_up,
    "DiscardReshuffled": _discard_reshuffled,
    "SuddenDeathBegan": _sudden_death_began,
    "GameEnded": _game_ended,
}
