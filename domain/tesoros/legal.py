"""Los Tesoros del Rey Pirata: every command a seat may send now, as complete bodies.

Checked against decide() by random playouts. In table-chance games the commands are listed
without their outcome fields ('drawn', 'events', 'stolen', 'maps'); table_inputs() says
what may have to be added.
"""
from __future__ import annotations

from itertools import combinations

from .rules import deck_can_give, equipped_is, to_move
from .state import TesorosState

# table_inputs fields that are drawn from a hidden pool, which only the host token reports
# (docs/rulings.md TM-1): every Tesoros table field.
DRAWN_FIELDS = frozenset({"drawn", "events", "stolen", "maps"})


def _dice(s: TesorosState, seat: int, purpose: str, not_card: str | None = None) -> list[str]:
    me = s.seats[seat]
    out = [c for c in me.hand if c != not_card]
    if me.equipped is not None:
        out.append(me.equipped)
    if deck_can_give(s):
        out.append("deck")
    if (purpose == "move" and equipped_is(s, seat, "compass_sextant")) or (
            purpose == "cannons" and equipped_is(s, seat, "cannons_pistols")):
        out.append("free5")
    return out


def _draws(s: TesorosState, seat: int, peeked: bool = False) -> list[dict]:
    out = [{"type": "draw_card"}]
    if equipped_is(s, seat, "lamps_shovels"):
        if s.discard:
            out.append({"type": "draw_card", "from": "discard"})
        if not peeked:
            out.append({"type": "peek_deck"})
    return out


def legal_commands(s: TesorosState, seat: int) -> list[dict]:
    if seat not in to_move(s):
        return []
    me = s.seats[seat]
    if s.scurvy is not None:
        return [{"type": "keep_cards", "cards": list(pair)} for pair in combinations(me.hand, 2)]
    p = s.pending
    if p is not None:
        kind = p["kind"]
        if kind == "defend":
            return [{"type": "defend", "die": d} for d in _dice(s, seat, "defence")]
        if kind == "protect":
            out = [{"type": "accept_treason"}]
            for card in me.hand:
                if s.cards[card]["kind"] == "protection":
                    out.append({"type": "walk_the_plank", "card": card})
                    out += [{"type": "walk_the_plank", "card": card, "replace": r}
                            for r in _dice(s, seat, "replace", card)]
            return out
        if kind == "take_treasure":
            return [{"type": "take_treasure", "map": m} for m in s.seats[p["from"]].treasures]
        if kind == "take_card":
            return [{"type": "take_card", "card": c} for c in s.seats[p["from"]].hand]
        return _draws(s, seat, p["peeked"])
    if s.phase == "draw":
        return _draws(s, seat)
    if s.phase in ("action1", "action2"):
        return _actions(s, seat)
    if s.phase == "move":
        return [{"type": "assign_move_die", "die": d} for d in _dice(s, seat, "move")]
    if s.phase == "sail":
        reach = s.board.reach(me.ship, s.move_value)
        return [{"type": "move_ship", "to": to} for to, n in reach.items() if n > 0 and to != s.turn_start]
    if s.phase == "discard":
        return [{"type": "discard_card", "card": c} for c in me.hand]
    return []


def _actions(s: TesorosState, seat: int) -> list[dict]:
    me = s.seats[seat]
    out = _draws(s, seat)
    others = [i for i in range(len(s.seats)) if i != seat]
    for t in others:
        if s.board.in_cannon_range(me.ship, s.seats[t].ship):
            out += [{"type": "fire_cannons", "target": t, "die": d} for d in _dice(s, seat, "cannons")]
        if me.ship == s.seats[t].ship:
            out += [{"type": "challenge_duel", "target": t, "die": d} for d in _dice(s, seat, "duel")]
    for card in me.hand:
        kind = s.cards[card]["kind"]
        if kind == "treason":
            for t in others:
                out.append({"type": "play_treason", "card": card, "target": t})
                out += [{"type": "play_treason", "card": card, "target": t, "replace": r}
                        for r in _dice(s, seat, "replace", card)]
        elif kind == "equipment":
            out.append({"type": "equip", "card": card})
    for m in s.open_maps:
        wanted = s.maps[m]
        if me.ship == wanted["island"]:
            cards = me.hand + ([me.equipped] if me.equipped else [])
            out += [{"type": "claim_treasure", "map": m, "card": c} for c in cards
                    if s.cards[c]["subtype"] == wanted["equipment"]]
    return out


def table_inputs(s: TesorosState, seat: int) -> dict:
    """What a table-mode client may have to add: any command that takes a card off the Play
    Deck (the Anchor and its Event included) sends 'drawn' and 'events'."""
    if s.chance_mode != "table" or seat not in to_move(s):
        return {}
    # by field: how many ("count", a number or words) and from where
    deck: dict[str, dict[str, str | int]] = {
        "drawn": {"count": "each card taken off the Play Deck by this command, in order "
                           "(not a card already looked at with Lamps & Shovels)", "from": "the Play Deck",
                  "description": DRAWN},
        "events": {"count": "each Event card revealed under the Anchor, or turned face up", "from": "the Event cards",
                   "description": EVENTS}}
    out = {}
    for cmd in legal_commands(s, seat):
        kind = cmd["type"]
        if kind in ("move_ship", "discard_card", "equip", "take_treasure", "take_card"):
            continue
        need = dict(deck)
        if kind == "defend" and s.combat_kind == "cannons":
            need["stolen"] = {"count": "the cards taken at random if Fire Cannons succeeds (2, or fewer if fewer)",
                              "from": "the defender's hand, less the card it shows for its die",
                              "description": STOLEN}
        if kind == "claim_treasure":
            need = {"maps": {"count": 1, "from": "the bottom of the Map Deck, while it has cards", "description": MAPS}}
        out[kind] = need
    return out


# What each table input carries (the 'description' of its spec, and of the command schema's field).
# Every one is reported by the host token only (TM-1).
DRAWN = ("Each card taken off the Play Deck by this command, in order: a card drawn [Draw a Card], and with "
         "Chaos on the high seas an Event card drawn with them [Variants]; not a card already looked at with "
         "Lamps & Shovels; after the Anchor, from the pile shuffled onto it [Anchor Card]. The next card: an id "
         "of nameable.play_deck in the host's view; a card taken after the Anchor by the same command: of "
         "nameable.play_deck_after_anchor (TP-15, TP-16). Those two lists hold every card the reshuffled pile may "
         "hold; the pile itself is the host view's 'discard' with any card the same command puts on it first (a "
         "card shown for a die, ...): for a command that puts none there, such as a plain draw, one of 'discard'. "
         "Only the host token reports them.")
EVENTS = ("Each Event card revealed from under the Anchor when the Anchor is drawn [Anchor Card], or turned face "
          "up with Scanning the horizon [Variants], in order. Ids of nameable.events_under_anchor in the host's "
          "view; only the host token reports them.")
STOLEN = ("The cards taken at random from the defender's hand if Fire Cannons succeeds: 2, or all it holds if "
          "fewer [Fire Cannons and Challenge to Duel]. Ids of that hand (seats[...].hand in the host's view), but "
          "not a card the same command took from it first (the card the defender shows for its die); only the host "
          "token reports them.")
MAPS = ("The Map card revealed from the bottom of the Map Deck to replace the one claimed [Claim Treasure]. An "
        "id of nameable.map_deck in the host's view; only the host token reports it.")
