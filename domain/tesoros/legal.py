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
        return [{"type": "move_ship", "to": to} for to in s.board.moves(me.ship, s.move_value) if to != s.turn_start]
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
    Deck sends 'drawn', and 'events' while an Event waits under the Anchor (or face up)."""
    if s.chance_mode != "table" or seat not in to_move(s):
        return {}
    # by field: how many ("count", a number or words) and from where
    deck: dict[str, dict[str, str | int]] = {
        "drawn": {"count": "each card taken off the Play Deck by this command, in order "
                           "(not a card already looked at with Lamps & Shovels); for peek_deck, the one card "
                           "looked at, which stays on top", "from": "the Play Deck",
                  "description": DRAWN},
        "events": {"count": "each Event card revealed under the Anchor, or turned face up", "from": "the Event cards",
                   "description": EVENTS}}
    if not s.events_left:   # none under the Anchor (any more, or ever: Chaos, a pact of 0): nothing to name
        del deck["events"]
    out = {}
    legal = legal_commands(s, seat)
    for cmd in legal:
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
    _by_command(s, seat, legal, out)
    return out


# -- how many each command takes, where the rules know it beforehand -----------------------------
# A dry run counts what a command takes off the Play Deck and from a hand. The only hidden outcome
# a command's course can depend on before its last pick is the first card off the Play Deck: what
# follows reads that card's die value (a die taken from the deck) or, for an Event card shuffled in
# with Chaos on the high seas, which Event it is (each does its own thing), never which card of a
# value it is. So the dry run is made once for each Event and each die value the deck may turn
# up; a count the same in every one is known. A command that
# turns up anything more before its end (the Anchor's Event, a second card off the deck) has no
# count known beforehand. Checked against what the rules take in whole table games
# (tests/api/test_table_companion.py).

class _Unknown(Exception):
    """The command would turn up more than the dry run can answer for."""


class _Probe:
    """A dry run's chance: `first` is the first card off the Play Deck; a hand's cards taken at
    random come last in a command (Fire Cannons' steal), so any of them stands for all."""
    mode = "probe"
    commitment = None

    def __init__(self, first: str | None):
        self.first = first
        self.pool: list | None = None
        self.taken: dict[str, int] = {}

    def pick(self, items, count, supplied, field, where=""):
        if field == "drawn" and "drawn" not in self.taken:
            self.pool = list(items)
            got = [self.first if self.first in items else items[0]]
        elif field == "stolen" and "stolen" not in self.taken:
            got = list(items[:count])
        else:
            raise _Unknown(field)
        self.taken[field] = len(got)
        return got

    def reveal(self) -> None:
        return None   # a game the command would end: no seed to show


def _takes(s: TesorosState, seat: int, command: dict, first: str | None) -> _Probe | None:
    from .rules import RULES
    probe = _Probe(first)
    try:
        RULES.decide(s, seat, command, probe)
    except _Unknown:
        return None
    return probe


def _kind(s: TesorosState, card: str) -> tuple:
    """What of a card a command's course may read: an Event is itself (each does its own
    thing), any other card its die value."""
    return ("event", card) if card in s.events else ("die", (s.cards.get(card) or {}).get("die"))


FIELDS_COUNTED = ("drawn", "stolen")


def _counts(s: TesorosState, seat: int, command: dict) -> dict[str, int | None]:
    """{field: how many this command takes whatever the deck turns up, or None if that varies}."""
    plain = _takes(s, seat, command, None)
    if plain is None:
        return dict.fromkeys(FIELDS_COUNTED)
    kinds: dict[tuple, str] = {}
    for card in plain.pool or []:
        kinds.setdefault(_kind(s, card), card)
    found: list[_Probe | None] = [plain, *(_takes(s, seat, command, card) for card in kinds.values())]
    return {f: None if any(p is None or p.taken.get(f, 0) != plain.taken.get(f, 0) for p in found)
            else plain.taken.get(f, 0) for f in FIELDS_COUNTED}


def _by_command(s: TesorosState, seat: int, legal: list[dict], out: dict) -> None:
    """Add `by_command` to the 'drawn' and 'stolen' specs where every legal command's count is
    known (docs/api.md section 7: a legal command it does not list takes none); elsewhere the
    words stay alone. Only the host reads these (TM-1): what it knows of the deck decides it."""
    rows: dict[str, list[dict] | None] = {f: [] for f in FIELDS_COUNTED}
    for command in legal:
        spec = out.get(command["type"], {})
        wanted = [f for f in FIELDS_COUNTED if f in spec and rows[f] is not None]
        if not wanted:
            continue
        counts = _counts(s, seat, command)
        for field in wanted:
            listed = rows[field]
            if counts[field] is None:
                rows[field] = None
            elif counts[field] and listed is not None:
                listed.append({"command": command, "count": counts[field]})
    for kind, spec in out.items():
        for field, known in rows.items():
            if field in spec and known is not None:
                spec[field] = {**spec[field], "by_command": [r for r in known if r["command"]["type"] == kind]}


# What each table input carries (the 'description' of its spec, and of the command schema's field).
# Every one is reported by the host token only (TM-1).
DRAWN = ("Each card taken off the Play Deck by this command, in order: a card drawn [Draw a Card], and with "
         "Chaos on the high seas an Event card drawn with them [Variants]; not a card already looked at with "
         "Lamps & Shovels; after the Anchor, from the pile shuffled onto it [Anchor Card]. For peek_deck (Lamps "
         "& Shovels), the one card looked at: it stays on top of the Play Deck, and the command that later takes "
         "it does not report it again (TP-15). The next card: an id "
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
