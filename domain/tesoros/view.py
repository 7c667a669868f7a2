"""Los Tesoros del Rey Pirata: what each seat may see.

Each hand is its owner's alone; the others see its size. The order of the Play Deck is
nobody's (the state holds none); a card looked at with Lamps & Shovels is seen by who looked.
A card drawn from the deck, the cards stolen by Fire Cannons and the card taken by Mutiny
are seen by the two Pirates concerned; Mutiny shows the target's hand to the attacker only;
Rumors shows every hand to all. Everything shown and discarded (die values, Treason,
Protection, claims, hand-limit and Scurvy discards) is public (TA-37), as are the equipped
cards, the Treasures, the revealed Maps and the Ships. With the pact of the waves, which Event
cards are in play (and which were left out) is nobody's but the arbiter's, only how many
(TP-17); each is public once turned up.
"""
from __future__ import annotations

from .. import kit
from ..ruleset import ARBITER
from .rules import deck_draws, moment, to_move, under_anchor, vp
from .state import TesorosState


def _sees(viewer, *seats) -> bool:
    return viewer == ARBITER or viewer in seats


def view(s: TesorosState, viewer) -> dict:
    if not s.seats:
        return {}
    seats = []
    for i, x in enumerate(s.seats):
        seat = {"seat": i, "name": x.name, "color": x.color, "ship": x.ship, "hand_count": len(x.hand),
                "equipped": x.equipped, "treasures": list(x.treasures), "victory_points": vp(s, i)}
        if _sees(viewer, i):
            seat["hand"] = list(x.hand)
        seats.append(seat)
    pending = None
    if s.pending is not None:
        p = s.pending
        pending = {k: v for k, v in p.items()}
        if p["kind"] == "take_card" and _sees(viewer, p["seat"], p["from"]):
            pending["hand"] = list(s.seats[p["from"]].hand)   # [Mutiny] the attacker looks at it
    scurvy = None
    if s.scurvy is not None:
        scurvy = {"event": s.scurvy["event"], "waiting": list(s.scurvy["waiting"]),
                  "answered": sorted(int(k) for k in s.scurvy["kept"])}
        mine = [k for k in s.scurvy["kept"] if _sees(viewer, int(k))]
        if mine:
            scurvy["kept"] = {k: s.scurvy["kept"][k] for k in mine}
    top = None
    if s.deck_top is not None and (viewer == ARBITER or viewer in s.top_known_to):
        top = s.deck_top
    out = {
        "seats": seats,
        "phase": s.phase,
        "turn": s.turn,
        "active": s.active,
        "to_move": to_move(s),
        "awaiting": moment(s),
        "turn_start": s.turn_start,
        "move_value": s.move_value,
        "combat": s.combat,
        "pending": pending,
        "scurvy": scurvy,
        "deck_count": len(s.deck) + (1 if s.deck_top is not None else 0),
        "deck_top_known_to": list(s.top_known_to),
        "deck_top": top,
        "discard": list(s.discard),
        "events_under_anchor": len(s.events_left),
        "face_up_event": s.face_up_event,
        "event_discard": list(s.event_discard),
        "events_out_of_game_count": len(s.events_out),   # TP-17: which ones is the arbiter's
        "map_deck_count": len(s.map_deck),
        "open_maps": [{**s.maps[m], "token": s.maps[m]["island"]} for m in s.open_maps],
        "sudden_death": s.sudden_death,
        "options": s.options,
        "content": {"id": s.content.get("id"), "printed": s.content.get("printed"), "notice": s.content.get("notice")},
    }
    if viewer == ARBITER:   # TP-22: taken blind at a table, which are out is nobody's, the host's included
        out["events_out_of_game"] = None if s.events_unnamed else list(s.events_out)
        out.update(pools(s))
    return out


def pools(s: TesorosState) -> dict:
    """The host's listing of the face-down pools (TM-2): the Play Deck (with Chaos on the high
    seas its Event cards too), the Event cards under the Anchor and the Map Deck. A card looked
    at with Lamps & Shovels is still in the Play Deck, but 'drawn' never names it: it is
    taken without a report (TP-15), so it is not among the deck's `nameable` ids. 'stolen'
    names cards of the defender's hand, which this view's `seats` shows the host."""
    deck = list(deck_draws(s)) + ([s.deck_top] if s.deck_top is not None else [])   # TP-22: one pool
    anchor = under_anchor(s)   # TP-22: taken blind, those there and those out are one pool
    nameable = {"play_deck": next_draws(s), "events_under_anchor": list(anchor), "map_deck": list(s.map_deck)}
    if (after := draws_after_the_anchor(s)) is not None:
        nameable["play_deck_after_anchor"] = after
    return kit.pool_listing({"play_deck": deck, "events_under_anchor": list(anchor), "map_deck": list(s.map_deck)},
                            nameable)


# TP-16: a command takes at most two cards that end a draw off the Play Deck: a die value from its
# top, then the draw it leads to (a Walk the Plank that wins, or a Sabotage);
# tests/domain/tesoros/test_nameable_draws.py counts them in random games.
MOST_CARDS_A_COMMAND_TAKES = 2


def _reshuffled(s: TesorosState) -> list:
    """Every card the pile the Anchor shuffles onto it may hold by then (TP-16): the discard
    pile's, and each card a hand or an equipped slot may lose to it first in the same command
    (a die value, a Walk the Plank, a Sabotage, Scurvy)."""
    return list(s.discard) + [c for x in s.seats for c in [*x.hand, x.equipped] if c is not None]


def next_draws(s: TesorosState) -> list:
    """What the next card 'drawn' names may be (TP-15, TP-16): a card of the Play Deck not yet
    seen; with none left (and none looked at), the Anchor comes first and the card comes off the
    pile it shuffles onto it."""
    if s.deck or s.deck_top is not None:
        return list(deck_draws(s))
    return _reshuffled(s)


def draws_after_the_anchor(s: TesorosState) -> list | None:
    """What a card 'drawn' names after the Anchor may be, when the next command can take the
    Play Deck's last cards and go on past the Anchor (TP-16), else None. With Chaos on the high
    seas an Event card drawn does not end a draw, so only the others count."""
    ending = sum(1 for card in s.deck if card not in s.events) + (s.deck_top is not None)  # TP-15: taken unreported
    if 0 < ending < MOST_CARDS_A_COMMAND_TAKES or (ending == 0 and s.deck):
        return _reshuffled(s)
    return None


PRIVATE = {
    # event type: (seats who see the hidden fields, hidden fields)
    "CardDrawn": (lambda e: (e["seat"],), ("card",)),
    "DeckPeeked": (lambda e: (e["seat"],), ("card",)),
    "CardsStolen": (lambda e: (e["seat"], e["from"]), ("cards",)),
    "HandShown": (lambda e: (e["seat"], e["target"]), ("cards",)),
    "CardTaken": (lambda e: (e["seat"], e["from"]), ("card",)),
    "ScurvyKept": (lambda e: (e["seat"],), ("cards",)),
}


def redact(event: dict, viewer) -> dict:
    t = event["type"]
    if t == "CardsDealt" and viewer != ARBITER:
        return {"type": t, "hands": [h if viewer == i else len(h) for i, h in enumerate(event["hands"])],
                "deck": len(event["deck"])}
    if t == "CardDrawn" and event["from"] == "discard":
        return event
    if t in PRIVATE:
        who, hidden = PRIVATE[t]
        if not _sees(viewer, *who(event)):
            return {k: v for k, v in event.items() if k not in hidden}
    if t == "EventsPlacedUnderAnchor" and viewer != ARBITER and event["out_of_game"] and not event.get("unnamed"):
        # TP-17: with the pact of the waves, which Events are in play is nobody's: only how many
        return {**event, "events": len(event["events"]), "out_of_game": len(event["out_of_game"])}
    if t == "EventsShuffledIntoDeck" and viewer != ARBITER and not event.get("unnamed"):   # face down (TP-17)
        return {**event, "events": len(event["events"])}
    if t == "ScurvyBegan" and viewer != ARBITER:
        return {k: v for k, v in event.items() if k != "then"}
    return event


def redact_command(command: dict, actor: int, viewer) -> dict:
    """What a seat may not see of a command. TM-3: the cards the table drew or stole for it
    (`drawn`, `stolen`) are the host's report, shown to no seat, not even the actor's: one
    seat's command can draw for another (a Treason accepted draws for the Pirate who played
    it). Each seat reads what it drew or stole in the events. Others may not see the card
    taken by Mutiny, nor the cards kept through Scurvy."""
    if viewer == ARBITER:
        return command
    hidden = {"drawn", "stolen"}
    if not _sees(viewer, actor):
        if command.get("type") == "keep_cards":
            hidden.add("cards")
        if command.get("type") == "take_card":
            hidden.add("card")
    return {k: v for k, v in command.items() if k not in hidden}
