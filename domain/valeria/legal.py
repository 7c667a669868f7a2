"""Valeria: Card Kingdoms: every command a seat may send now, as complete bodies.

Checked against decide() by random playouts. In table-chance games the commands are listed
without their outcome fields ('dice', 'revealed'); table_inputs() says what may be added.
"""
from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

from ..ruleset import Rejected, TooManyToList
from .effects import RESOURCES, options
from .rules import (
    ACTIONS,
    CS_ACTIONS,
    blocked,
    die_changes,
    end_of_roll,
    first_items,
    open_commands,
    price,
    rescue_cost,
    roles_met,
    sail_price,
    take_ok,
    to_move,
    tome_type,
)
from .solo import targets
from .state import MIXED, SoloState, ValeriaState

# table_inputs fields that are turned up from a hidden pool, which only the host token reports
# (docs/rulings.md TM-1): face-down cards and tokens. The dice are the rolling seat's.
DRAWN_FIELDS = frozenset({"revealed"})
# Solo: the commands that may end the Action Phase, or resolve a Monster activation, and so turn up
# the Domain under one the Dark Lord captures [BR p.17], besides what they turn up themselves.
SOLO_REVEALING = frozenset({"slay", "recruit", "build", "gain_resource", "resolve", "activate_monster"})


# The most commands one listing may hold. Each way to pay (Magic standing in, Tomes flipped) is a
# command of its own, so with custom content whose prices and Tomes run high the ways multiply
# past any use: an outside audit's content (costs of 99, 24 Tomes, thousands of each resource)
# listed 417,044 commands, 33 MB, and 64 MB in 6.5-8.3 s of CPU in table mode. Past this the
# listing is refused (TooManyToList), never cut short; the reference contents' largest seen is
# 1,306, and a review's costs-of-40 content 35,407.
MOST_LISTED = 50_000


def _bounded(out: list) -> None:
    if len(out) > MOST_LISTED:
        raise TooManyToList(MOST_LISTED)


def payments(s: ValeriaState, seat: int, main: str, amount: int, magic: int):
    """Every (magic standing in, tomes flipped) that pays: rules.pay's arithmetic, unrolled."""
    me = s.seats[seat]
    up = Counter(tome_type(t) for t in me.tomes) if me.tomes else Counter()
    have_main, have_magic = getattr(me, main), me.magic
    for m in range(0, max(1, amount)):
        for a in range(0, min(up[main], amount - m) + 1):
            if not 0 <= amount - m - a <= have_main:
                continue
            for b in range(0, min(up["magic"], magic + m) + 1):
                if magic + m - b <= have_magic:
                    yield m, {k: v for k, v in ((main, a), ("magic", b)) if v}


def _once(resolutions: list) -> list:
    """The choices of a power's resolutions, each outcome (its operations, in order) once, in the
    first spelling found (docs/api.md section 4: each move is listed once, in one spelling). The
    others are still accepted. With the reference contents that is the Thief's pick without an
    amount, which takes the most: the same pick with that amount is not listed again (VP-8).
    With custom content, also e.g. a 'may' declined at either of two levels."""
    seen: set[str] = set()
    out = []
    for choice, ops in resolutions:
        key = json.dumps(ops, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(choice)
    return out


def _body(base: dict, m: int, tomes: dict) -> dict:
    out = dict(base)
    if m or "magic" not in out:
        out["magic"] = m
    if tomes:
        out["tomes"] = tomes
    return out


def legal_commands(s: ValeriaState, seat: int) -> list[dict]:
    if seat not in to_move(s):
        return []
    open_now = open_commands(s)
    if "keep_duke" in open_now:
        return [{"type": "keep_duke", "duke": d} for d in s.seats[seat].offer]
    if "roll_dice" in open_now:
        return [{"type": "roll_dice"}]
    if "activate_monster" in open_now:  # [BR p.17] each die whose activation has a choice (VP-22)
        assert isinstance(s, SoloState), "only a solo game has a Monsters Phase"
        return [{"type": "activate_monster", "die": a["die"], **fields} for a in s.attacks for fields, _ in targets(s, a)]
    if "announce_roll" in open_now:
        return [{"type": "announce_roll"}] + die_changes(s, seat)
    if "harvest" in open_now:
        firsts = first_items(s)
        if firsts and firsts[0].get("tier") == 0:
            items = end_of_roll(s)  # VA-18: in any order
        else:
            items = firsts[:1] if firsts else [i for i in s.items if i["seat"] == seat]
        out = []
        for i in items:
            out += [{"type": "harvest", "item": i["id"], "choice": c}
                    for c in _once(options(s, seat, i["effect"], self_card=i["source"]))]
        return out
    if "resolve" in open_now:
        # [BR p.15] of several rewards at once, any may go first (VP-4)
        return [{"type": "resolve", "choice": c, **({"reward": k} if k else {})} for k, p in enumerate(s.pending)
                for c in _once(options(s, seat, p["effect"], take_ok(s), p["source"]))]
    out = []
    monsters = list(s.monsters) + sorted(st for st in s.event_at if st not in s.monsters)
    for action, stacks in (("slay", monsters), ("recruit", s.citizens), ("build", s.domains)):
        if action not in open_now:   # a granted action alone is open (its ways to pay are counted alone)
            continue
        for st in stacks:
            top = s.top(st)
            if top is None or (action != "slay" and st in s.event_at):
                continue
            if (action == "build" and not roles_met(s, seat, top)) or (action == "recruit" and blocked(s, st)):
                continue
            p = price(s, seat, action, st)
            for m, tomes in payments(s, seat, p["main"], p["amount"], p["magic"]):
                out.append(_body({"type": action, "stack": st}, m, tomes))
                _bounded(out)
    out += [{"type": "gain_resource", "resource": r} for r in RESOURCES]
    if s.cs and open_now & set(CS_ACTIONS):
        out += _crimson_seas(s, seat)
        _bounded(out)
    assert set(c["type"] for c in out) <= set(ACTIONS) | set(CS_ACTIONS)
    return [c for c in out if c["type"] in open_now]  # [BR p.15] only the granted one, when there is one


def _crimson_seas(s: ValeriaState, seat: int) -> list[dict]:
    me = s.seats[seat]
    out: list[dict] = [{"type": "gain_map"}] if s.bank_maps > 0 else []
    if me.maps < 1:
        return out
    for island, slots in (("araby", s.araby), ("nae_aerie", s.nae)):
        full = [i for i, x in enumerate(slots) if x is not None]
        for k in range(len(full) + 1):
            for chosen in combinations(full, k):
                cost = sail_price(s, seat, island, list(chosen))
                assert cost is not None, "the chosen slots are distinct, in order and full: a price"
                for m, tomes in payments(s, seat, "gold", cost, 0):
                    out.append(_body({"type": "sail", "island": island, "slots": list(chosen)}, m, tomes))
                    _bounded(out)
    out += [{"type": "sail", "island": "exekratys", "resource": r} for r in RESOURCES]
    out.append({"type": "sail", "island": "amarynth"})  # [CS Sail] 'you may rescue': a visit without (VA-10)
    cost = rescue_cost(s, seat)
    up = Counter(tome_type(t) for t in me.tomes)
    for slot, noble in enumerate(s.amarynth):
        if noble is None:
            continue
        for r in RESOURCES:
            for k in range(0, up[r] + 1):
                tomes = {r: k} if k else {}
                if k <= cost and getattr(me, r) >= cost - k:
                    body = {"type": "sail", "island": "amarynth", "slot": slot, "resource": r}
                    out.append({**body, "tomes": tomes} if tomes else body)
    return out


def _reveals(s: ValeriaState, cmd: dict) -> bool:
    if cmd["type"] == "resolve" and any("take_monster" in json.dumps(p["effect"]) for p in s.pending):
        return True  # [BR p.19] a Monster drawn at random
    if cmd["type"] == "resolve" and any(p.get("then_reveal") for p in s.pending):
        return True  # VP-47: the next Domain, turned up once the reward is taken
    named = [str(cmd.get("stack", ""))] + [str(x) for x in cmd.get("choice", []) or []]
    return any(x.startswith(("domain_", MIXED)) for x in named)


def _may_reveal(s: ValeriaState, cmd: dict) -> bool:
    """Whether the command may turn a face-down card up: a Domain, a mixed stack's Citizen (VP-40), a
    Monster Event on a stack it empties, the Crimson Seas supplies, a Monster drawn at random."""
    if cmd["type"] in ("build", "slay", "sail") or s.reveals_waiting:   # VP-53: the granted action done
        return True
    if cmd["type"] == "recruit":
        return s.events_on or str(cmd["stack"]).startswith(MIXED)
    return cmd["type"] in ("harvest", "resolve") and (_reveals(s, cmd) or s.events_on)


def table_inputs(s: ValeriaState, seat: int) -> dict:
    """What a table-mode client may have to add: the dice rolled, and each card turned face up."""
    if s.chance_mode != "table" or seat not in to_move(s):
        return {}
    out: dict[str, dict] = {}
    kinds = "the face-down Domains" + (", the face-down Citizens of the mixed stacks (by type)" if _mixed(s) else "") \
        + (", the Monster Events" if s.events_on else "") + (", the Goods and Tomes supplies and Noble deck" if s.cs else "")
    legal = legal_commands(s, seat)
    for cmd in legal:
        if s.solo and cmd["type"] in SOLO_REVEALING:
            mixed = _mixed(s)   # VP-49: a mixed stack's next Citizen is turned up as a Domain is
            unseen = getattr(s, "dark_lord_unnamed", False)   # VP-55
            out[cmd["type"]] = {"revealed": {"count": ("each Domain or mixed stack's Citizen" if mixed else "each Domain")
                                             + " turned face up by this command, in order (none when nothing face down "
                                               "is turned up)" + (", then the Dark Lord when it ends the game on the "
                                                                  "fifth exhausted stack" if unseen else ""),
                                             "from": "the face-down Domains"
                                             + (" and the face-down Citizens of the mixed stacks (by type)" if mixed else "")
                                             + ": when the card above is built, recruited, taken free or captured by the "
                                               "Dark Lord's Monsters in the Monsters Phase that follows the last action",
                                             "description": SOLO_REVEALED + (SOLO_MIXED if mixed else "")
                                             + (SOLO_DARK_LORD if unseen else "")}}
        elif cmd["type"] == "roll_dice":
            out["roll_dice"] = {"dice": {"count": 2, "from": "two six-sided dice", "one_of": [1, 2, 3, 4, 5, 6],
                                         "description": ROLLED}}
        elif _may_reveal(s, cmd):
            out[cmd["type"]] = {"revealed": {"count": "each card or token turned face up by this command, in order "
                                                      "(none when nothing face down is turned up)",
                                             "from": kinds + ", or the Victory stack a Monster is drawn from at random",
                                             "description": revealed_description(s)}}
    if any("revealed" in spec for spec in out.values()):
        _by_command(s, seat, legal, out)
    return out


# -- how many cards each command turns up, where the rules know it beforehand --------------------
# A dry run counts the cards and tokens a command turns face up. What a command does after a
# reveal never depends on which card came up, but for a Monster Event, whose on_reveal is carried
# out at once [CS Monster Event Cards] and may turn up more. So a command whose first reveal may
# be a Monster Event is dry-run once for each Event it may be; one that could reveal an Event
# later than its first reveal, or that rolls, has no count known beforehand. What is paid (magic
# standing in, Tomes flipped) turns nothing up, so commands differing only in payment are run
# once. Checked against what the rules turn up in whole table games (tests/api/test_table_companion.py).

class _Unknown(Exception):
    """The dry run met something whose count it cannot answer for."""


class _Probe:
    mode = "probe"
    commitment = None

    def __init__(self, s: ValeriaState, event: str | None):
        self.s, self.event = s, event
        self.events: list[str] | None = None   # the Events the first reveal may be, when it may be one
        self.count = 0
        self.items: list[str] = []   # what each one turned up is, and the host's list of its ids
        self.branched = False   # a reveal so far could have been more than one card

    def pick(self, items, count, supplied, field, where=""):
        items = list(items)
        if field != "revealed" or count != 1 or not items:
            raise _Unknown(field)
        self.items.append(where)
        if not set(items).isdisjoint(self.s.event_pool):   # a Monster Event is turned up
            if self.branched:   # what came up before it could decide whether it turns up
                raise _Unknown("a Monster Event after a reveal that could have been another card")
            self.events = items
            got = self.event if self.event in items else items[0]
        else:
            got = items[0]
        self.branched = self.branched or len(items) > 1
        self.count += 1
        return [got]

    def roll(self, count, faces, supplied, field):
        raise _Unknown(field)

    def reveal(self) -> None:
        return None   # a game the command would end: no seed to show


def _turned_up(s: ValeriaState, seat: int, command: dict, event: str | None = None) -> _Probe | None:
    from .rules import RULES
    probe = _Probe(s, event)
    try:
        RULES.decide(s, seat, command, probe)
    except (_Unknown, Rejected):   # a legal command is never refused; if one were, its count is not told
        return None
    return probe


def turned_up(s: ValeriaState, seat: int, command: dict) -> tuple[int, list[str] | None] | None:
    """How many cards or tokens this command turns face up whatever they are, and what each is
    (the words of its reveal: what it is turned up from, and the host's list of its ids), or None
    if the count varies; the words are None where they vary with a Monster Event turned up."""
    plain = _turned_up(s, seat, command)
    if plain is None:
        return None
    items: list[str] | None = plain.items
    for event in dict.fromkeys(plain.events or []):
        other = _turned_up(s, seat, command, event)
        if other is None or other.count != plain.count:
            return None
        if other.items != plain.items:
            items = None
    return plain.count, items


def turned_up_count(s: ValeriaState, seat: int, command: dict) -> int | None:
    """How many cards or tokens this command turns face up whatever they are, or None if that varies."""
    found = turned_up(s, seat, command)
    return None if found is None else found[0]


PAYMENT = ("magic", "tomes")


def _by_command(s: ValeriaState, seat: int, legal: list[dict], out: dict) -> None:
    """Add `by_command` to every 'revealed' spec when every legal command's count is known
    (docs/api.md section 7: a legal command it does not list turns up none); else the words stay
    alone. Each row says, under `items`, what each item is turned up from and where the host's
    view lists its ids, where that does not vary with a Monster Event turned up. Only the host
    reads these (TM-1)."""
    rows: list[dict] = []
    counted: dict[str, tuple[int, list[str] | None] | None] = {}
    for command in legal:
        if "revealed" not in out.get(command["type"], {}):
            continue
        key = json.dumps({k: v for k, v in command.items() if k not in PAYMENT}, sort_keys=True)
        if key not in counted:
            counted[key] = turned_up(s, seat, command)
        found = counted[key]
        if found is None:
            return
        n, items = found
        if n:
            rows.append({"command": command, "count": n, **({"items": list(items)} if items else {})})
    for kind, spec in out.items():
        if "revealed" in spec:
            spec["revealed"] = {**spec["revealed"], "by_command": [r for r in rows if r["command"]["type"] == kind]}


# What each table input carries (the 'description' of its spec; commands.py words the schema's alike).
ROLLED = "The two dice rolled, each 1 to 6 [BR p.7 Roll Phase]; the rolling seat reports them."
SOLO_REVEALED = ("Each face-down Domain turned face up by this command, in order: a Domain built or taken [BR p.10 "
                 "Build a Domain], or one under a Domain the Dark Lord's Monsters capture in the Monsters Phase that "
                 "follows [BR p.17]. Ids of nameable.domains in the host's view; only the host token reports them (TM-1).")
SOLO_DARK_LORD = (" At a table that placed the Dark Lord unseen (no setup.dark_lord), last, when this command ends "
                  "the game on the fifth exhausted stack: the Dark Lord's Duke, turned face up to be scored [BR p.17]: "
                  "one of nameable.dark_lord (VP-55).")
SOLO_MIXED = (" With the Mixed Citizen Variant, also each face-down Citizen of a mixed stack turned up when the one above "
              "it is recruited or captured [BR p.18, p.17], by its type: one of nameable.<stack> (VP-40, VP-49).")


def revealed_description(s: ValeriaState) -> str:
    """What 'revealed' carries in this game: every kind of face-down card or token a command may turn up."""
    kinds = ["a face-down Domain, when the one above it is built or taken [BR p.10 Build a Domain] "
             "(nameable.domains)"]
    if _mixed(s):
        kinds.append("a mixed stack's face-down Citizen, when the one above it is taken, by its type [BR p.18] "
                     "(nameable.<stack>: VP-40, VP-46)")
    if s.events_on:
        kinds.append("a Monster Event turned up on a Center stack emptied [CS Monster Event Cards] "
                     "(nameable.monster_events)")
    if s.cs:
        kinds.append("each Goods token, Tome token and Noble card drawn to refill Araby, Nae Aerie and Amarynth "
                     "after a Sail [CS Sail] (nameable.goods_supply, nameable.tome_supply, nameable.noble_deck: "
                     "copy ids such as 'fabrics#2')")
    kinds.append("a Monster taken at random from another player's Victory stack [BR p.19] (a copy id of that "
                 "seat's 'victory')")
    return ("Each card or token this command turns face up, in the order turned: " + "; ".join(kinds)
            + ". None when nothing face down is turned up. Ids as the host's view lists them under 'nameable'; "
            "only the host token reports them (TM-1).")


def _mixed(s: ValeriaState) -> bool:
    return any(st.startswith(MIXED) for st in s.citizens)
