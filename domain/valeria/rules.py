"""Valeria: Card Kingdoms: decide(), one handler per command.

Every check cites the rulebook (../shared/rules/valeria-card-kingdoms-base.txt, "BR p.N"; with
the expansion ../shared/rules/crimson-seas.txt, "CS <heading>") or, where they are silent, a
ruling in docs/rulings.md (VA-Bn and VA-n from the rules notes, VP-n Parley's own).
Handlers work on a Draft, a clone to which each event is applied as emitted. Card powers are
interpreted by effects.py; no card is named here.

decide() and gate() are kit.Rules' (RULES, at the end): the opening refusals, then the
moments (MOMENTS: for each, the commands it allows, its section, its words and who is to
move), then the handler. Sections are kit.Section.
"""
from __future__ import annotations

import json
from typing import TypeGuard

from .. import kit
from ..chance import CHANCE_RULE, needed, not_there
from ..kit import Section
from ..ruleset import Rejected, TooManyToList
from . import solo
from .effects import RESOURCES, ROLES, amount, has_choice, options
from .state import FACE_DOWN, ValeriaState, evolve, lowest_copies

SETUP = Section("Game Setup", book="BR", page="5")
ROLL = Section("Roll Phase", book="BR", page="7")
DIE_FACES = Section("Card Clarifications: Palace of the Dawn", book="BR", page="19")
HARVEST = Section("Harvest Phase", book="BR", page="7-8")
ACTION = Section("Action Phase", book="BR", page="8")
SLAY = Section("Slay a Monster", book="BR", page="9")
RECRUIT = Section("Recruit a Citizen", book="BR", page="9")
GAIN = Section("Gain a Resource", book="BR", page="9")
BUILD = Section("Build a Domain", book="BR", page="10")
END = Section("Ending the Game", book="BR", page="8")
SAIL = Section("Sail", book="CS")
GAIN_MAP = Section("Gain a Map", book="CS")
CS_ROLL = Section("Roll Phase", book="CS")
CS_TOMES = Section("Tome Tokens", book="CS")
BLOCKADE = Section("Monster Event Card Clarifications: Pirate Blockade", book="CS")
ACTIONS = ("slay", "recruit", "build", "gain_resource")
CS_ACTIONS = ("sail", "gain_map")
ISLANDS = ("araby", "nae_aerie", "exekratys", "amarynth")


class ShortReport(Rejected):
    """A table's 'revealed' ran out at item `item`, turned up from `where`, with `more` certainly
    after it. decide() counts the rest of the command's reveals where that count does not depend
    on what turns up, so that the refusal asks for all of them at once (docs/api.md, section 7)."""

    def __init__(self, item: int, more: int, where: str):
        self.item, self.more, self.where = item, more, where
        super().__init__("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                         "This game is played at a table: send in 'revealed' each card or token turned face up by "
                         f"this command, in order; {needed(item + more)} (item {item}: {where}).")


class Draft(kit.Draft):
    def __init__(self, state: ValeriaState, chance, command: dict):
        super().__init__(state, chance, evolve)
        self.revealed = command.get("revealed")
        self.used = 0
        self.dice_sent = "dice" in command   # a table's roll: only roll_dice rolls (VP-50)
        self.rolled = False

    def reveal(self, pool: list | None = None, where: str = "a face-down Domain: one of nameable.domains",
               more: int = 0) -> str:
        """A face-down card or token turned face up (a Domain, a Monster Event, a Goods or Tome
        from its supply, a Noble): from the server's seed, or as the table says. where: what it
        is turned up from, and where the host's view lists the ids it may be, for a refusal;
        more: how many are certainly turned up right after it (an island's other empty slots),
        so that a refusal's count covers them too."""
        pool = self.s.domain_pool if pool is None else pool
        if self.chance.mode != "table":
            return self.chance.pick(pool, 1, None, "revealed", where)[0]   # where: for the listing's probe
        self.chance.require_host("revealed")  # TM-1: a seat's token is told to have the host report it, and nothing more
        given = self.revealed
        item = self.used + 1
        if not isinstance(given, list) or self.used >= len(given):
            raise ShortReport(item, more, where)
        card = given[self.used]
        if card not in pool:
            raise not_there("revealed", card, item, where, taken="turned face up", reported=given)
        self.used += 1
        return card


# -- decide: the opening, the moments and the table's outcomes ---------------------------------
# decide() and gate() are kit.Rules' (RULES, below HANDLERS): over, unknown command, no such
# seat, outcomes sent to a server game, the moment (MOMENTS), then the handler.

def _after(d: Draft) -> None:
    """A table reports what the command turned face up: no more."""
    if d.chance.mode == "table" and d.revealed is not None and (not isinstance(d.revealed, list) or len(d.revealed) != d.used):
        if d.revealed:
            d.chance.require_host("revealed")   # TM-1: a seat is refused alike, whatever it turned up
        raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                       f"'revealed' lists more than this command turned face up ({d.used}).")
    if d.chance.mode == "table" and d.dice_sent and not d.rolled:
        raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                       "'dice' is sent only with roll_dice, the command that rolls them; this command rolls "
                       "nothing. Dice changed by a Domain are changed with change_die.", ruling="VP-50")


WORDS = {"keep_duke": "keep a Duke", "roll_dice": "roll the dice", "change_die": "change a die",
         "announce_roll": "announce the roll", "harvest": "resolve a Citizen", "slay": "slay a Monster",
         "recruit": "recruit a Citizen", "build": "build a Domain", "gain_resource": "gain a Resource",
         "resolve": "resolve a reward", "sail": "sail", "gain_map": "gain a Map",
         "activate_monster": "activate a Monster stack"}


def tier(item: dict) -> int:
    """0: the end of the Roll Phase [CS Roll Phase, Monster Event Cards]; 1: take-from-player
    powers [BR p.7 the Thief first]; 2: every other power."""
    return item.get("tier", 1 if item["first"] else 2)


def first_items(s: ValeriaState) -> list[dict]:
    """What must resolve before the rest, in order; the active player first, then clockwise."""
    n = len(s.seats)
    return sorted((i for i in s.items if tier(i) < 2), key=lambda i: (tier(i), (i["seat"] - s.active) % n, i["id"]))


def end_of_roll(s: ValeriaState) -> list[dict]:
    """The end-of-Roll-Phase steps still to resolve: any of them may go next (VA-18)."""
    return [i for i in s.items if tier(i) == 0]


def in_order(steps: list[dict]) -> bool:
    """Whether the order of these steps cannot matter, so they resolve as listed: it matters only
    between two steps taking the active player's tokens (the Exekratys offerings and a Ghost Ship)."""
    spending = {i["source"] for i in steps if any(k in json.dumps(i["effect"]) for k in ("offer_exekratys", "place_on_self"))}
    return len(spending) <= 1


def moment_of(s: ValeriaState) -> str:
    """The phase; in the Roll Phase, before or after the roll; in the Harvest, whether the Thief
    acts first; in the Action Phase, a reward to resolve, the additional action a reward granted
    (at once [BR p.15]), or one of the two actions (with Crimson Seas', or without)."""
    if s.phase == "dukes":
        return "dukes"
    if s.phase == "roll":
        return "roll" if s.dice is None else "change"
    if s.phase == "harvest":
        firsts = first_items(s)
        return ("end_of_roll" if tier(firsts[0]) == 0 else "thief") if firsts else "harvest"
    if s.phase == "action":
        if s.pending:
            return "reward"
        if s.granted:
            return "granted_" + s.granted[0]
        return "cs_actions" if s.cs else "actions"
    if s.phase in ("monsters", "second_harvest"):  # [BR p.17] the solo variant's phases
        return s.phase
    return "over"


def _duke_keepers(s: ValeriaState) -> list[int]:
    return [i for i, x in enumerate(s.seats) if x.duke is None]


def _thief(s: ValeriaState) -> list[int]:
    return [first_items(s)[0]["seat"]]


def _harvesters(s: ValeriaState) -> list[int]:
    return sorted({i["seat"] for i in s.items})


def _active(s: ValeriaState) -> list[int]:
    return [s.active]


def to_move(s: ValeriaState) -> list[int]:
    return MOMENTS.to_move(s)


def open_commands(s: ValeriaState) -> frozenset[str]:
    return MOMENTS.open(s)


def moment(s: ValeriaState) -> str:
    return MOMENTS.words(s)


MOMENTS = kit.Moments(of=moment_of, command_words=WORDS, moments={
    "dukes": kit.Moment(SETUP, "each player keeps one of the two Dukes dealt", {"keep_duke"}, _duke_keepers),
    "roll": kit.Moment(ROLL, "the active player rolls", {"roll_dice"}, _active),
    "change": kit.Moment(ROLL, "the active player may change dice, then announces the roll",
                         {"change_die", "announce_roll"}, _active),
    # [CS Roll Phase] the Exekratys offerings for each 6, and the Monster Events' end-of-roll powers
    # [CS Monster Event Cards], come before any Citizen (VA-18)
    "end_of_roll": kit.Moment(CS_ROLL, "the active player first resolves the end of the Roll Phase (an offering "
                              "on Exekratys for each 6 rolled, a Monster Event's power)", {"harvest"}, _thief),
    "thief": kit.Moment(HARVEST, "the Thief acts first", {"harvest"}, _thief),
    "harvest": kit.Moment(HARVEST, "players resolve their activated Citizens", {"harvest"}, _harvesters),
    "reward": kit.Moment(ACTION, "the active player resolves a reward", {"resolve"}, _active),
    **{f"granted_{action}": kit.Moment(ACTION, f"the active player takes the additional action a reward granted ({words})",
                                       {action}, _active) for action, words in WORDS.items()},
    "actions": kit.Moment(ACTION, "the active player takes an action ({left} left)", ACTIONS, _active),
    "cs_actions": kit.Moment(ACTION, "the active player takes an action ({left} left)", ACTIONS + CS_ACTIONS, _active),
    "monsters": kit.Moment(solo.MONSTERS, "you choose how the Monsters the dice activated attack", {"activate_monster"},
                           _active),
    "second_harvest": kit.Moment(solo.SECOND_HARVEST, "you resolve the right side of your activated Citizens",
                                 {"harvest"}, _active),
    "over": kit.Moment(END, "the game is over"),
}, fields={"left": lambda s, seat: s.actions_left})


# ---------------------------------------------------------------- setup: the Dukes

def keep_duke(d: Draft, seat: int, cmd: dict) -> None:
    me = d.s.seats[seat]
    duke = cmd.get("duke")
    if duke not in me.offer:  # [BR p.5] keep 1 of the 2 dealt
        raise Rejected("NOT_YOUR_DUKE", SETUP, "Keep one of the two Dukes dealt to you.")
    returned = next(x for x in me.offer if x != duke)
    d.emit("DukeKept", seat=seat, duke=duke, returned=returned)
    if all(x.duke is not None for x in d.s.seats):
        _start_turn(d, d.s.first, 1)


def _start_turn(d: Draft, seat: int, turn: int) -> None:
    n = len(d.s.seats)
    # [BR p.16] at 5 players the Rest token sits to the right of the active player
    d.emit("TurnStarted", seat=seat, turn=turn, resting=(seat - 1) % n if n == 5 else None)


# ---------------------------------------------------------------- Roll Phase

def roll_dice(d: Draft, seat: int, cmd: dict) -> None:
    dice = d.chance.roll(2, [1, 2, 3, 4, 5, 6], cmd.get("dice"), "dice")  # [BR p.7] roll the 2 dice
    d.rolled = True
    d.emit("DiceRolled", seat=seat, dice=dice)
    _on_doubles(d)


def _on_doubles(d: Draft) -> None:
    """[BR p.18-19 Gargan's Embrace] a power 'on doubles' triggers for its owner, whoever rolls,
    each time the dice become doubles: when rolled, and when changed to (another) pair."""
    s = d.s
    if s.dice[0] != s.dice[1]:
        return
    for who, x in enumerate(s.seats):
        for dom in x.domains:
            for p in s.card(dom).get("ongoing", []):
                if p["when"] == "doubles":
                    _apply(d, who, options(s, who, p["effect"], self_card=dom)[0][1], dom)


def changers(s: ValeriaState, seat: int) -> list[tuple[str, dict]]:
    return [(dom, p["change_die"]) for dom in s.seats[seat].domains for p in s.card(dom).get("ongoing", [])
            if p["when"] == "roll" and "change_die" in p]


def die_cost(s: ValeriaState, seat: int, power: dict) -> dict:
    """[BR p.18-19] what a die change costs (Foxgrove Palisade: 2 Gold; the Desert Orchid: 1 Gold
    per Holy Citizen, so 0 without one), in tokens only (VP-13)."""
    return {r: n for r, e in power.get("pay", {}).items() if (n := amount(s, seat, e))}


def die_payments(s: ValeriaState, seat: int, cost: dict) -> list[dict]:
    """Each {type: n} of face-up Tomes that, with tokens, pays a die change's cost ({} = tokens
    only) [CS Tome Tokens] 'At any time during the game' (VP-13)."""
    me = s.seats[seat]
    out: list[dict[str, int]] = [{}]
    for r, n in sorted(cost.items()):
        up = sum(1 for x in me.tomes if tome_type(x) == r) if s.cs else 0
        out = [{**t, **({r: k} if k else {})} for t in out for k in range(0, min(up, n) + 1) if getattr(me, r) >= n - k]
    return out


def die_changes(s: ValeriaState, seat: int) -> list[dict]:
    """[BR p.7] each Domain that changes a die once per Roll Phase; VA-B7: never below 1 or above 6."""
    out = []
    for dom, power in changers(s, seat):
        if dom in s.changers_used:
            continue
        for tomes in die_payments(s, seat, die_cost(s, seat, power)):
            assert s.dice is not None, "dice are changed after the roll (the moment 'change')"
            for die in (0, 1):
                targets = [s.dice[die] + b for b in power.get("by", [])] + list(power.get("to", []))
                for to in sorted(set(targets)):
                    if 1 <= to <= 6 and to != s.dice[die]:
                        out.append({"type": "change_die", "domain": dom, "die": die, "to": to,
                                    **({"tomes": tomes} if tomes else {})})
    return out


def change_die(d: Draft, seat: int, cmd: dict) -> None:
    s = d.s
    want = {"type": "change_die", "domain": cmd.get("domain"), "die": cmd.get("die"), "to": cmd.get("to"),
            **({"tomes": cmd["tomes"]} if cmd.get("tomes") else {})}
    if cmd.get("domain") not in s.seats[seat].domains or not any(p for dom, p in changers(s, seat) if dom == cmd.get("domain")):
        raise Rejected("NO_SUCH_POWER", ROLL, "Only a Domain you own that changes dice can change a die.")
    if cmd["domain"] in s.changers_used:
        raise Rejected("POWER_USED", ROLL, "Each Domain that changes a die may be used once per Roll Phase.")
    if not 1 <= cmd["to"] <= 6:
        # [BR p.19] "You may not roll down the die to zero"; a die has no face above 6 (VA-B7).
        raise Rejected("DIE_OUT_OF_RANGE", DIE_FACES,
                       "A die may not be changed to zero or below." if cmd["to"] < 1 else
                       "A die shows 1 to 6: it may not be changed above 6.", ruling="VA-B7")
    if want not in die_changes(s, seat):
        raise Rejected("CHANGE_NOT_ALLOWED", ROLL, "That Domain cannot change that die to that value (a die shows 1 to 6), "
                       "or you do not hold the tokens it costs.", ruling="VA-B7")
    cost = die_cost(s, seat, dict(changers(s, seat))[cmd["domain"]])
    tomes = want.get("tomes", {})
    if cost:
        flipped = face_up_tomes(s, seat, tomes)
        paid = {r: n - tomes.get(r, 0) for r, n in cost.items() if n - tomes.get(r, 0)}
        d.emit("Paid", seat=seat, paid={**paid, **({"tomes": flipped} if flipped else {})}, source=cmd["domain"])
    d.emit("DieChanged", domain=cmd["domain"], die=cmd["die"], **{"from": s.dice[cmd["die"]]}, to=cmd["to"])
    _on_doubles(d)


def announce_roll(d: Draft, seat: int, cmd: dict) -> None:
    """[BR p.7] announcing the result ends the Roll Phase; the Harvest begins."""
    s = d.s
    a, b = s.dice
    values = [a, b, a + b]
    items, n = [], 0
    if s.cs:
        # [CS Roll Phase] one token into Exekratys per 6 among the dice and the sum (VA-9)
        immune = any(p.get("exekratys_immune") for dom in s.seats[s.active].domains for p in s.card(dom).get("ongoing", []))
        for _ in range(0 if immune else values.count(6)):
            items.append(_item(n, s.active, "exekratys", {"offer_exekratys": 1}, tier=0))
            n += 1
    # [CS Monster Event Cards] instructions at the end of the Roll Phase: once by number, or as written
    for _stack, ev in sorted(s.event_at.items()):
        card = s.card(ev)
        if card.get("on_roll") and (not card["activation"] or any(v in card["activation"] for v in values)):
            items.append(_item(n, s.active, ev, card["on_roll"], tier=0))
            n += 1
    d.emit("HarvestBegan", dice=[a, b], values=values, items=items)
    _settle_harvest(d)


def _activate(d: Draft) -> None:
    """[BR p.7] each die and the sum activate Citizens (after the end of the Roll Phase [CS])."""
    s = d.s
    a, b = s.dice
    values = [a, b, a + b]
    items, n = [], s.next_item
    for who, x in enumerate(s.seats):
        if who == s.resting:  # [BR p.16] the Resting player does not harvest
            continue
        side = "on_turn" if who == s.active else "off_turn"  # [BR p.7]
        activated = False
        for c in x.citizens:
            if c in x.flipped:  # [CS Skeleton Army] face down: inactive
                continue
            card = s.card(c)
            times = sum(1 for v in values if v in card["activation"])  # [BR p.7] each die and the sum; doubles twice
            for _ in range(times):
                activated = True
                items.append(_item(n, who, c, card[side]))
                n += 1
        if who == s.active:
            for dom in x.domains:
                for p in s.card(dom).get("ongoing", []):
                    if p["when"] == "harvest":
                        items.append(_item(n, who, dom, p["effect"]))
                        n += 1
        if s.cs:
            # [CS Harvest Phase] the Coxswain replaces the rule below: none activated, or doubles; once (VA-6)
            if not activated or a == b:
                cox = next(c for c in x.citizens if s.card(c)["id"] == s.content["crimson_seas"]["coxswain"]["id"])
                items.append(_item(n, who, cox, s.card(cox)[side]))
                n += 1
        elif not activated:  # [BR p.8] none activated: take any one Resource (VA-6: a Starter's activation counts)
            items.append(_item(n, who, "no_activation", {"wild": 1}))
            n += 1
    d.emit("CitizensActivated", items=items)


def _item(n: int, seat: int, source: str, effect: dict, tier: int | None = None) -> dict:
    item = {"id": n, "seat": seat, "source": source, "effect": effect, "first": "take_from" in json.dumps(effect)}
    if tier is not None:
        item["tier"] = tier
    return item


# ---------------------------------------------------------------- Harvest Phase

def _settle_harvest(d: Draft) -> None:
    """Resolve by itself what needs nobody's decision; stop at the first decision."""
    s = d.s
    while True:
        firsts = first_items(s)
        if firsts and tier(firsts[0]) == 0 and not in_order(end_of_roll(s)):
            return  # [BR p.15] the active player orders the end-of-Roll-Phase steps (VA-18)
        if firsts and (tier(firsts[0]) == 0 or s.activated):
            item = firsts[0]
            opts = options(s, item["seat"], item["effect"], self_card=item["source"])
            if len(opts) != 1:
                return
            _resolve_item(d, item, opts[0])
            continue
        auto = [i for i in s.items if not has_choice(i["effect"])]
        if auto:
            item = auto[0]
            _resolve_item(d, item, options(s, item["seat"], item["effect"], self_card=item["source"])[0])
            continue
        if s.items:
            return
        if not s.activated:
            _activate(d)
            continue
        if s.phase == "second_harvest":
            solo.end_phase(d)  # [BR p.17] the solo End Phase
            return
        if s.solo:
            solo.check_end(d)  # [BR p.17] 'The game ends immediately' (VP-25)
        d.emit("ActionPhaseBegan", actions=2)  # [BR p.8] the active player takes 2 actions
        return


def _resolve_item(d: Draft, item: dict, option) -> None:
    choice, ops = option
    d.emit("ActivationResolved", seat=item["seat"], item=item["id"], source=item["source"], choice=choice)
    _apply(d, item["seat"], ops, item["source"])


def harvest(d: Draft, seat: int, cmd: dict) -> None:
    s = d.s
    item = next((i for i in s.items if i["id"] == cmd.get("item") and i["seat"] == seat), None)
    if item is None:
        raise Rejected("NO_SUCH_ACTIVATION", HARVEST, "You have no such activated power to resolve.")
    firsts = first_items(s)
    if firsts and tier(firsts[0]) == 0:
        if tier(item) != 0:
            raise Rejected("THIEF_FIRST", CS_ROLL, "The end of the Roll Phase (Exekratys, Monster Events) resolves before "
                           "the Harvest.", ruling="VA-18")
    elif firsts and firsts[0] is not item and firsts[0]["id"] != item["id"]:
        raise Rejected("THIEF_FIRST", HARVEST, "A power that takes from another player resolves first.", ruling="VP-2")
    if "tomes" in cmd and not s.cs:
        raise Rejected("NO_TOMES", HARVEST, "There are no Tomes without Crimson Seas.", ruling="VA-22")
    if cmd.get("tomes"):   # {} flips nothing
        raise Rejected("TOME_FROM_BANK", CS_TOMES, "You may not use your Tome to take a Resource from the Bank: an "
                       "exchange's gain comes from the Bank, so pay its price in Resource tokens.", ruling="VA-22")
    rule = CS_ROLL if tier(item) == 0 else solo.SECOND_HARVEST if s.phase == "second_harvest" else HARVEST
    option = _match(s, seat, item["effect"], cmd.get("choice", []), rule, self_card=item["source"])
    _resolve_item(d, item, option)
    _settle_harvest(d)


def _match(s, seat, effect, choice, rule, self_card=None, take_ok=None):
    want = json.dumps(choice, sort_keys=True)  # strictly: 0 is not false
    for opt in options(s, seat, effect, take_ok, self_card):
        if json.dumps(opt[0], sort_keys=True) == want:
            return opt
    if take_ok is not None and any(json.dumps(o[0], sort_keys=True) == want
                                   for o in options(s, seat, effect, None, self_card)):
        raise Rejected("BLOCKADE", BLOCKADE, "The Pirate Blockade is face up: no Citizen whose number was rolled may "
                       "be gained this Action Phase, not even by a reward. Choose another.", ruling="VA-32")
    allowed = [o[0] for o in options(s, seat, effect, take_ok, self_card)][:12]
    raise Rejected("CHOICE_NOT_ALLOWED", rule, "That choice is not one this power allows now"
                   + _too_dear(s, effect, choice) + f" (send 'choice' as one of: {json.dumps(allowed)}).", ruling="VP-9")


def _too_dear(s, effect, choice) -> str:
    """Why a Center stack named for a free card of at most N Gold is refused, when its face-up card
    costs more: ': the Thief on top of that stack costs 3 Gold, more than the 2 Gold or less this power allows'."""
    limits = [node["take_card"]["max_cost"] for node in _nodes(effect, "take_card")
              if isinstance(node["take_card"], dict) and node["take_card"].get("max_cost") is not None]
    named = [c for c in (choice if isinstance(choice, list) else []) if isinstance(c, str)]
    for stack in named:
        top = s.top(stack) if s.stack_kind(stack) in ("citizen", "domain") else None
        card = s.card(top) if top is not None else None
        if card is not None and limits and card.get("cost", 0) > max(limits):
            return (f": the {card.get('name', top)} on top of that stack costs {card['cost']} Gold, more than the "
                    f"{max(limits)} Gold or less this power allows")
    return ""


def _nodes(effect, key: str) -> list[dict]:
    """Every step of the effect that is a `key` node, however deep."""
    if isinstance(effect, dict):
        found = [effect] if key in effect else []
        return found + [n for v in effect.values() for n in _nodes(v, key)]
    if isinstance(effect, list):
        return [n for v in effect for n in _nodes(v, key)]
    return []


def _apply(d: Draft, seat: int, ops: list, source: str, in_action: bool = False) -> None:
    """Carry out a power's resolution. in_action: a reward of an action (VP-53: a stack it empties
    is turned up once the action is finished, not at once as outside an action, VA-B6)."""
    for op in ops:
        if op[0] == "gain":
            got = {r: n for r, n in op[1].items() if n}
            if got:
                d.emit("Gained", seat=seat, gained=got, source=source)
        elif op[0] == "pay":
            paid = {r: n for r, n in op[1].items() if n}
            d.emit("Paid", seat=seat, paid=paid, source=source)
        elif op[0] == "take":
            d.emit("Taken", seat=seat, **{"from": op[1]}, resource=op[2], amount=op[3], source=source)
        elif op[0] == "take_card":  # [BR p.6] a free card; '≤' ignores the '+'
            stack = op[1]
            d.emit("CardGained", seat=seat, stack=stack, card=d.s.top(stack), how="free", source=source)
            _turn_up(d, stack, hold=True) if in_action else _after_taken(d, stack)   # VA-B6
        elif op[0] == "banish":
            stack = op[1]
            d.emit("CardBanished", seat=seat, stack=stack, card=d.s.top(stack), source=source)
            _turn_up(d, stack, hold=True) if in_action else _after_taken(d, stack)   # VA-B6
        elif op[0] == "offer":
            d.emit("Offered", seat=seat, resource=op[1])
        elif op[0] == "add_tokens":
            d.emit("TokensAdded", seat=None, card=op[1], resource=op[2], amount=op[3])
        elif op[0] == "place":
            d.emit("TokensAdded", seat=seat, card=op[1], resource=op[2], amount=1)
        elif op[0] == "flip":
            d.emit("CitizenFlipped", seat=seat, target=op[1], card=op[2], source=source)
        elif op[0] == "return":  # [BR p.19] back on top of its stack, which is no longer exhausted (VP-17)
            d.emit("CardReturned", seat=seat, card=op[1], stack=op[2], source=source)
        elif op[0] == "take_monster":  # [BR p.19] drawn at random (server seed, or named by the table); no reward
            card = d.reveal(sorted(d.s.seats[op[1]].victory),
                            f"a Monster drawn at random from seat {op[1]}'s Victory stack: one of seats[{op[1]}].victory")
            d.emit("MonsterTaken", seat=seat, **{"from": op[1]}, card=card, source=source)
        elif op[0] == "grant":
            d.emit("ActionGranted", seat=seat, action=op[1], source=source)
        elif op[0] == "take_island":
            d.emit("IslandBought", seat=seat, island=op[1], slots=[op[2]], items=[_slots(d.s, op[1])[op[2]]], source=source)
            _refresh(d, op[1])


def _after_taken(d: Draft, stack: str) -> None:
    """[BR p.10 step 5] reveal the next Domain; [BR p.8] an emptied stack gets an Exhausted card
    (VA-B2: none left, the position is exhausted all the same; VA-B6: whenever it empties)."""
    s = d.s
    if stack in s.domains and s.domains[stack]["down"] > 0:
        d.emit("DomainRevealed", stack=stack, card=d.reveal(where=f"the Domain turned face up on {stack}: one of "
                                                                   "nameable.domains"))
        return
    if stack in s.citizens and s.top(stack) == FACE_DOWN:
        # [BR p.18] a face-down Citizen is revealed once the Citizen above it is taken (VP-40)
        d.emit("CitizenRevealed", stack=stack, card=_reveal_citizen(d, stack))
        return
    if s.top(stack) is not None:
        return
    if s.events_on_top > 0:
        # [CS Action Phase] the top card of the Exhausted stack is a Monster Event: face up, it may be slain
        ev = d.reveal(face_down_events(s, d.chance.mode == "server"),
                      f"the Monster Event turned face up on {stack}: one of nameable.monster_events")
        d.emit("EventRevealed", stack=stack, card=ev)
        on_reveal = s.card(ev).get("on_reveal")
        if on_reveal:  # VA-19: the active player carries it out
            _apply(d, s.active, options(s, s.active, on_reveal, self_card=ev)[0][1], ev)
    elif stack not in s.exhausted:
        d.emit("StackExhausted", stack=stack, card_placed=s.exhausted_pile > 0)


def face_down_events(s: ValeriaState, weighted: bool = False) -> list[str]:
    """The Monster Events the next one turned up may be. The state holds no split between those set
    out and those boxed (VP-1): any of the pool, each as likely. But an Event preselected
    [CS Monster Event Cards, Setup] is certainly set out (VP-48): while it is face down, it is the
    next one with chance 1 in `events_on_top`, and the rest of that chance falls evenly on the
    others. weighted: each Event repeated in proportion to that chance, for one even draw (the
    server's); else each Event that may come up, once (what a table may name)."""
    chosen = [e for e in s.options.get("monster_events_preselected") or [] if e in s.event_pool]
    if not chosen:
        return list(s.event_pool)
    others = [e for e in s.event_pool if e not in chosen]
    unknown = s.events_on_top - len(chosen)   # face down, not preselected: which is not known
    if unknown <= 0 or not others:
        return chosen
    if not weighted:
        return sorted(chosen + others)
    # P(a preselected one) = 1/on_top; P(another) = unknown/(on_top * len(others))
    return sorted(chosen * len(others) + others * unknown)


def _reveal_citizen(d: Draft, stack: str) -> str:
    """The face-down Citizen turned up: one of those not in sight (VP-40), by the server's seed, or
    named by the table in 'revealed' by type (its lowest copy not in sight) or a copy's id."""
    pool = d.s.citizen_pool(stack)
    where = f"the Citizen turned face up on {stack}, by its type: one of nameable.{stack}"
    if d.chance.mode != "table":
        return d.reveal(pool, where)
    lowest = lowest_copies(pool)
    got = d.reveal(sorted(set(lowest) | set(pool)), where)
    return lowest.get(got, got)


def _slots(s: ValeriaState, island: str) -> list:
    return s.araby if island == "araby" else s.nae if island == "nae_aerie" else s.amarynth


REFILLS = {"araby": "a Goods token refilling Araby, by its copy id such as 'fabrics#2': one of nameable.goods_supply",
           "nae_aerie": "a Tome token refilling Nae Aerie, by its copy id such as 'tome_gold#1': one of "
                        "nameable.tome_supply",
           "amarynth": "a Noble card refilling Amarynth: one of nameable.noble_deck"}


def _refresh(d: Draft, island: str) -> None:
    """[CS Sail step 4] Araby and Nae Aerie slide down toward the cheaper slots and fill the top
    from the supply; Amarynth draws a Noble into each empty slot. A slot left empty ends the game (VA-17).
    VA-2: a supply too short to fill every empty slot fills the cheapest of them, next to the
    tokens moved down, so the slots left empty are the dearest (top) ones."""
    s = d.s
    slots = _slots(s, island)
    supply = s.goods_supply if island == "araby" else s.tome_supply if island == "nae_aerie" else s.noble_deck
    if island != "amarynth":
        kept = [x for x in slots if x is not None]
        new = [None] * (len(slots) - len(kept)) + kept
    else:
        new = list(slots)
    pool, drawn = list(supply), []
    where = REFILLS[island]
    empty = [i for i, x in enumerate(new) if x is None]
    if len(empty) > len(pool):   # as many as the supply fills: the cheapest (bottom) ones, top first (VA-2)
        empty = empty[len(empty) - len(pool):] if island != "amarynth" else empty[:len(pool)]
    for k, i in enumerate(empty):
        got = d.reveal(pool, where, more=len(empty) - k - 1)
        pool.remove(got)
        new[i] = got
        drawn.append(got)
    d.emit("IslandRefreshed", island=island, slots=new, drawn=drawn, failed=None in new)


# ---------------------------------------------------------------- Action Phase

def _discounts(s: ValeriaState, seat: int, action: str) -> list[dict]:
    """The discount powers of the Domains a seat owns for one kind of purchase (content/schema.json
    $defs/ongoing.discount): the card overrides the rulebook's price [BR p.10, p.15]."""
    return [p["discount"] for dom in s.seats[seat].domains for p in s.card(dom).get("ongoing", [])
            if "discount" in p and p["discount"]["action"] == action]


def discount(s: ValeriaState, seat: int, action: str) -> int:
    """How much lower each price of that kind is (summed over the seat's Domains; VP-7: never below 0)."""
    return sum(x.get("amount", 0) for x in _discounts(s, seat, action))


def ignores_plus(s: ValeriaState, seat: int, action: str) -> bool:
    """A power that waives the '+' surcharge: a Citizen's copies [BR p.9], a '+' Monster's copies
    [CS Monster Cards], the Nobles already rescued [CS Sail - Amarynth]."""
    return any(x.get("ignore_plus") for x in _discounts(s, seat, action))


def price(s: ValeriaState, seat: int, action: str, stack: str) -> dict:
    """What the top card costs: the main resource (with Magic allowed to augment it) and any Magic."""
    top = s.top(stack)
    assert top is not None, "a price is asked of a stack that is not exhausted"
    card = s.card(top)
    if action == "slay":   # [BR p.9] Strength (Magic may augment) and the printed Magic besides
        strength, magic = card["strength"], card["magic"]
        if card.get("plus") and not ignores_plus(s, seat, "slay"):  # [CS Monster Cards] +1 per copy slain (VA-24)
            same = sum(1 for m in s.seats[seat].victory if s.card(m)["name"] == card["name"])
            strength += same if "strength" in card["plus"] else 0
            magic += same if "magic" in card["plus"] else 0
        tokens = s.event_tokens.get(top, {})  # [CS Action Phase] tokens on it raise the cost
        strength += tokens.get("strength", 0)
        magic += tokens.get("magic", 0)
        return {"main": "strength", "amount": max(0, strength - discount(s, seat, "slay")), "magic": magic}
    if action == "recruit":  # [BR p.9] base cost + 1 per copy of the same name you own (VP-42: mixed stacks too)
        same = sum(1 for c in s.seats[seat].citizens if s.card(c)["name"] == card["name"])
        same = 0 if ignores_plus(s, seat, "recruit") else same
        return {"main": "gold", "amount": max(0, card["cost"] + same - discount(s, seat, "recruit")), "magic": 0}
    return {"main": "gold", "amount": max(0, card["cost"] - discount(s, seat, "build")), "magic": 0}  # [BR p.10]


def payment(s: ValeriaState, seat: int, action: str, stack: str, augment: int, tomes=None) -> dict | None:
    p = price(s, seat, action, stack)
    return pay(s, seat, p["main"], p["amount"], p["magic"], augment, tomes)


def _count(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def pay(s: ValeriaState, seat: int, main: str, amount: int, magic: int, augment, tomes=None) -> dict | None:
    """The tokens paid when `augment` Magic stands in for the main resource, or None when that
    is not allowed: [BR p.6, p.9] at least one token of the resource itself must be spent.
    [CS Tome Tokens] `tomes` {type: how many} face-up Tomes flipped, each paying 1 of its type;
    a Tome of the main resource counts as one of its tokens (VA-11)."""
    if not _count(augment) or augment < 0 or (augment > 0 and augment > amount - 1):
        return None
    tomes = {} if tomes is None else tomes
    me = s.seats[seat]
    if not isinstance(tomes, dict) or not set(tomes) <= {main, "magic"}:
        return None
    up = {r: sorted(t for t in me.tomes if tome_type(t) == r) for r in (main, "magic")}
    if any(not _count(k) or k < 1 or k > len(up[r]) for r, k in tomes.items()):
        return None
    paid = {main: amount - augment - tomes.get(main, 0), "magic": magic + augment - tomes.get("magic", 0)}
    if any(n < 0 or getattr(me, r) < n for r, n in paid.items()):
        return None
    out = {r: n for r, n in paid.items() if n}
    flipped = [t for r in sorted(tomes) for t in up[r][:tomes[r]]]
    if flipped:
        out["tomes"] = flipped
    return out


def face_up_tomes(s: ValeriaState, seat: int, tomes: dict) -> list[str]:
    """The face-up Tomes flipped to pay {type: how many}: the first of each type, by id."""
    return [t for r in sorted(tomes) for t in sorted(x for x in s.seats[seat].tomes if tome_type(x) == r)[:tomes[r]]]


def tome_type(tome: str) -> str:
    return tome.split("#")[0].removeprefix("tome_")


def blocked(s: ValeriaState, stack: str) -> bool:
    """[CS Pirate Blockade] during the Action Phase no Citizen whose number was rolled may be gained."""
    if not any(s.card(ev).get("blockade") for ev in s.event_at.values()) or s.dice is None or stack not in s.citizens:
        return False
    top = s.top(stack)
    values = {s.dice[0], s.dice[1], sum(s.dice)}
    return top is not None and bool(values & set(s.card(top)["activation"]))


def roles_met(s: ValeriaState, seat: int, domain: str) -> bool:
    """[BR p.10, p.14] the Citizens' Role icons must match the Domain's, as many as shown."""
    return not roles_missing(s, seat, domain)


def roles_missing(s: ValeriaState, seat: int, domain: str) -> dict[str, int]:
    """The Role icons the seat lacks for the Domain, by role: how many more each needs."""
    have = {r: 0 for r in ROLES}
    me = s.seats[seat]
    for c in [c for c in me.citizens if c not in me.flipped] + me.nobles:  # [CS Build a Domain] Nobles too
        for r in s.card(c).get("roles", []):
            have[r] += 1
    return {r: n - have.get(r, 0) for r, n in s.card(domain)["roles"].items() if have.get(r, 0) < n}


def _icons(roles: dict[str, int]) -> str:
    """'1 Worker and 2 Soldier' icons, as the rulebook counts them [BR p.10]."""
    parts = [f"{n} {r.capitalize()}" for r, n in roles.items() if n]
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "no"


def _take_action(d: Draft, seat: int, cmd: dict, action: str, rule: Section, kind: str) -> None:
    s = d.s
    stack = cmd.get("stack")
    if stack is None or s.stack_kind(stack) != kind:   # no stack is of no kind
        raise Rejected("NO_SUCH_STACK", rule, f"Choose a {kind} stack of the Center Stacks.")
    top = s.top(stack)
    if top is None and (stack in s.reveals_waiting or any(p.get("then_reveal") == stack for p in s.pending)):
        raise Rejected("NOT_YET_TURNED_UP", rule, "Nothing is face up on that stack yet: its next card is turned up "
                       "once the action that emptied it is finished, its rewards and the actions they grant included.",
                       ruling="VP-53")
    if top is None:
        raise Rejected("STACK_EXHAUSTED", rule, "That stack is exhausted: no card is left on it to take.")
    if action == "build" and not roles_met(s, seat, top):
        shown = s.card(top)["roles"]
        raise Rejected("ROLES_NOT_MET", rule, f"Your Citizens' Role icons do not match the Domain's: it shows "
                       f"{_icons(shown)} Citizen Role icons, and you are short of {_icons(roles_missing(s, seat, top))}.")
    if action == "recruit" and blocked(s, stack):
        raise Rejected("BLOCKADE", BLOCKADE, "The Pirate Blockade: no Citizen whose number was rolled may be gained.",
                       ruling="VA-32")
    augment = cmd.get("magic", 0)
    if "tomes" in cmd and not s.cs:
        raise Rejected("NO_TOMES", rule, "There are no Tomes without Crimson Seas.")
    paid = payment(s, seat, action, stack, augment, cmd.get("tomes"))
    if paid is None:
        p = price(s, seat, action, stack)
        main = p["main"]
        raise Rejected("CANNOT_PAY", rule,
                       f"It costs {p['amount']} {main}" + (f" and {p['magic']} magic" if p["magic"] else "")
                       + f"; Magic may stand in for {main} only if at least one {main} token"
                       + (f" or {main.capitalize()} Tome" if s.cs else "") + " is spent, and you must hold what you pay"
                       + (" (each Tome named once, face up; 'magic' counts every Magic paid, a Magic Tome's "
                          "included)." if s.cs else "."), ruling="VA-11" if s.cs else None)
    _took(d, seat, action)
    d.emit("CardGained", seat=seat, stack=stack, card=top, how=action, paid=paid)
    card = s.card(top)
    rewarded = action == "slay" or (action == "build" and "immediate" in card)
    # VP-47: [BR p.10] takes the Rewards (step 4) before the next Domain is revealed (step 5); where
    # the reward can reach a Domain on the Center stacks, the reveal waits for it. VP-53: [CS Action
    # Phase] "the player first finishes the Action": a Monster Event to be turned up on the stack the
    # action emptied waits for every reward of the action (the Ghost Ship's Gold, the Blockade).
    waits = not card.get("event") and (
        (action == "build" and "immediate" in card and acts_on_domains(card["immediate"]))
        or (rewarded and _event_turns_up(s, stack)))
    then = {"then_reveal": stack} if waits else {}
    if card.get("event"):  # [CS Action Phase] an Exhausted card from the bottom takes its place (VA-27)
        if s.exhausted_pile > 0:
            d.emit("ExhaustedCardPlaced", stack=stack, bottom=True)
    elif not waits:
        _turn_up(d, stack)
    if action == "slay":  # [BR p.9 step 4] the reward
        d.emit("RewardAwaited", seat=seat, source=top, effect=card["reward"], **then)
        for dom in s.seats[seat].domains:
            for p in s.card(dom).get("ongoing", []):
                if p["when"] == "slay":
                    d.emit("RewardAwaited", seat=seat, source=dom, effect=p["effect"], **then)
    elif action == "build" and "immediate" in card:  # [BR p.10 step 4]
        d.emit("RewardAwaited", seat=seat, source=top, effect=card["immediate"], **then)
    _settle_action(d)


def _event_turns_up(s: ValeriaState, stack: str) -> bool:
    """Whether _after_taken would turn a Monster Event up on this stack now: nothing is left on
    it, face up or down, and the Exhausted stack's top card is a Monster Event."""
    if stack in s.domains and s.domains[stack]["down"]:   # a count: another Domain is turned up
        return False
    return s.top(stack) is None and s.events_on_top > 0


def _took(d: Draft, seat: int, action: str) -> None:
    """One of the two actions [BR p.8], or the additional one a reward granted [BR p.15]."""
    if d.s.granted:
        d.emit("ActionTaken", seat=seat, action=action, granted=True)
    else:
        d.emit("ActionTaken", seat=seat, action=action)


def slay(d: Draft, seat: int, cmd: dict) -> None:
    _take_action(d, seat, cmd, "slay", SLAY, "monster")


def recruit(d: Draft, seat: int, cmd: dict) -> None:
    _take_action(d, seat, cmd, "recruit", RECRUIT, "citizen")


def build(d: Draft, seat: int, cmd: dict) -> None:
    _take_action(d, seat, cmd, "build", BUILD, "domain")


def gain_resource(d: Draft, seat: int, cmd: dict) -> None:
    r = cmd.get("resource")
    if r not in RESOURCES:  # [BR p.9] one Gold, Strength or Magic
        raise Rejected("NOT_A_RESOURCE", GAIN, "Take one Gold, Strength or Magic.")
    _took(d, seat, "gain_resource")
    d.emit("Gained", seat=seat, gained={r: 1}, source="gain_resource")
    _settle_action(d)


def gain_map(d: Draft, seat: int, cmd: dict) -> None:
    if d.s.bank_maps < 1:  # VA-35: the Maps are finite
        raise Rejected("NO_MAP_LEFT", GAIN_MAP, "The Bank has no Map left.", ruling="VA-35")
    _took(d, seat, "gain_map")
    d.emit("Gained", seat=seat, gained={"map": 1}, source="gain_map")
    _settle_action(d)


def sail_price(s: ValeriaState, seat: int, island: str, slots) -> int | None:
    prices = s.content["crimson_seas"]["goods" if island == "araby" else "tomes"]["prices"]
    if not isinstance(slots, list) or len(set(map(str, slots))) != len(slots) or slots != sorted(slots, key=str):
        return None
    if not all(_count(i) and 0 <= i < 3 and _slots(s, island)[i] is not None for i in slots):
        return None
    off = discount(s, seat, "goods" if island == "araby" else "tome")  # VA-11: each token apart, never below 0
    return sum(max(0, prices[i] - off) for i in slots)


def rescue_cost(s: ValeriaState, seat: int) -> int:
    r = s.content["crimson_seas"]["rescue"]  # [CS Sail - Amarynth] 9 + 1 per Noble already rescued
    plus = 0 if ignores_plus(s, seat, "noble") else r["per_noble"] * len(s.seats[seat].nobles)
    return max(0, r["base"] + plus - discount(s, seat, "noble"))


FIELDS = {"araby": {"slots", "magic", "tomes"}, "nae_aerie": {"slots", "magic", "tomes"}, "exekratys": {"resource"},
          "amarynth": {"slot", "resource", "tomes"}}


def sail(d: Draft, seat: int, cmd: dict) -> None:
    """[CS Sail] pay 1 Map, carry out the island's action, refresh the island."""
    s = d.s
    island = cmd.get("island")
    if island not in ISLANDS:
        raise Rejected("NO_SUCH_ISLAND", SAIL, "Sail to Araby, Nae Aerie, Exekratys or Amarynth.")
    extra = set(cmd) - {"type", "island", "dice", "revealed"} - FIELDS[island]
    if extra:
        raise Rejected("NOT_FOR_THIS_ISLAND", SAIL, f"Sailing to {island} takes no {', '.join(sorted(extra))}.")
    if s.seats[seat].maps < 1:
        raise Rejected("NO_MAP", SAIL, "Sailing costs 1 Map.")
    if island in ("araby", "nae_aerie"):
        slots = cmd.get("slots", [])
        cost = sail_price(s, seat, island, slots)
        paid = None if cost is None else pay(s, seat, "gold", cost, 0, cmd.get("magic", 0), cmd.get("tomes"))
        if paid is None:
            raise Rejected("CANNOT_BUY", SAIL, "Name face-up slots (0 top to 2 bottom) each once, and pay their Gold: Magic "
                           "may stand in for Gold if at least one Gold token or Gold Tome is spent (VA-11).", ruling="VA-11")
        _took(d, seat, "sail")
        d.emit("Paid", seat=seat, paid={"map": 1}, source="sail")
        d.emit("IslandBought", seat=seat, island=island, slots=sorted(slots),
               items=[_slots(s, island)[i] for i in sorted(slots)], paid=paid)
        _refresh(d, island)
    elif island == "exekratys":
        r = cmd.get("resource")
        if r not in RESOURCES:
            raise Rejected("NOT_A_RESOURCE", SAIL, "Take every token of one Resource type from Exekratys.")
        _took(d, seat, "sail")
        d.emit("Paid", seat=seat, paid={"map": 1}, source="sail")
        d.emit("ExekratysTaken", seat=seat, resource=r, amount=s.exekratys[r])  # [CS Sail - Exekratys]
    elif not {"slot", "resource", "tomes"} & set(cmd):  # [CS Sail - Amarynth] 'you may rescue 1 Noble' (VA-10)
        _took(d, seat, "sail")
        d.emit("Paid", seat=seat, paid={"map": 1}, source="sail")
    else:
        slot, r = cmd.get("slot"), cmd.get("resource")
        if not _count(slot) or not 0 <= slot < 3 or s.amarynth[slot] is None or r not in RESOURCES:
            raise Rejected("NO_SUCH_NOBLE", SAIL, "Rescue one face-up Noble (slot 0 to 2), paying in one Resource type.")
        tomes = cmd.get("tomes")
        paid = None
        if tomes is None or (isinstance(tomes, dict) and set(tomes) <= {r}):
            # VA-15: all of one type, no Magic standing in; Tomes of that type may pay part
            paid = pay(s, seat, r, rescue_cost(s, seat), 0, 0, tomes) if r != "magic" else \
                pay(s, seat, "gold", 0, rescue_cost(s, seat), 0, tomes)
        if paid is None:
            raise Rejected("CANNOT_RESCUE", SAIL, f"Rescuing costs {rescue_cost(s, seat)} of one Resource type "
                           "(9 + 1 per Noble you have, less your discounts), Tomes of that type included.", ruling="VA-15")
        _took(d, seat, "sail")
        d.emit("Paid", seat=seat, paid={"map": 1}, source="sail")
        d.emit("IslandBought", seat=seat, island=island, slots=[slot], items=[s.amarynth[slot]], paid=paid)
        _refresh(d, island)
    _settle_action(d)


def take_ok(s: ValeriaState):
    return lambda stack: not blocked(s, stack)


def resolve(d: Draft, seat: int, cmd: dict) -> None:
    """[BR p.9 step 4, p.10 step 4] a reward; [BR p.15] of several at once, the one the player picks."""
    k = cmd.get("reward", 0)
    if not _count(k) or not 0 <= k < len(d.s.pending):
        raise Rejected("NO_SUCH_REWARD", ACTION, f"Name one of the {len(d.s.pending)} rewards waiting (0 first).", ruling="VP-4")
    p = d.s.pending[k]
    option = _match(d.s, seat, p["effect"], cmd.get("choice", []), SLAY if d.s.card(p["source"])["kind"] == "monster" else BUILD,
                    self_card=p["source"], take_ok=take_ok(d.s))
    _resolve_pending(d, seat, option, k)
    _settle_action(d)


def _resolve_pending(d: Draft, seat: int, option, k: int = 0) -> None:
    p = d.s.pending[k]
    d.emit("RewardResolved", seat=seat, source=p["source"], choice=option[0], **({"reward": k} if k else {}))
    _apply(d, seat, option[1], p["source"], in_action=True)
    # VP-47: [BR p.10 step 5] the next Domain, once the reward is taken; VP-53: a Monster Event, once
    # the last reward of the action that emptied its stack is taken (the player orders them, VP-4),
    # and any action those rewards granted: [BR p.15] "Fulfilling the additional action is still a
    # part of the ... action" (_settle_action turns it up then)
    if p.get("then_reveal") and not any(q.get("then_reveal") == p["then_reveal"] for q in d.s.pending):
        _turn_up(d, p["then_reveal"])


def _turn_up(d: Draft, stack: str, hold: bool = False) -> None:
    """What follows on a stack an action took from, now (_after_taken); or, while the action is not
    finished (hold: a reward of it is being taken; an action its rewards granted is still to come,
    [BR p.15]) or a stack it emptied earlier still waits, once it is, in the order the stacks were
    emptied (VP-53)."""
    s = d.s
    if (hold or s.granted or s.reveals_waiting) and _turns_up_something(s, stack):
        d.emit("RevealPostponed", stack=stack)
    else:
        _after_taken(d, stack)


def _turns_up_something(s: ValeriaState, stack: str) -> bool:
    """Whether _after_taken would do anything on this stack now that may wait (VP-53): a Domain
    under the one taken, a Monster Event or an Exhausted card on an emptied position. A mixed
    stack's face-down Citizen is turned up at once, always (VP-40): nothing may be taken from a
    stack whose top is face down."""
    if stack in s.domains and s.domains[stack]["down"]:
        return True
    return s.top(stack) is None and (s.events_on_top > 0 or stack not in s.exhausted)


def acts_on_domains(effect) -> bool:
    """Whether a reward can reach a Domain on the Center stacks: banish one, take one free, or
    grant a build or a slay (the additional action is part of the one that granted it [BR p.15]:
    a build takes a Domain, and a slain Monster's reward may)."""
    if isinstance(effect, dict):
        if effect.get("banish") == "domain" or effect.get("action") in ("build", "slay"):
            return True
        if isinstance(effect.get("take_card"), dict) and effect["take_card"].get("kind") == "domain":
            return True
        return any(acts_on_domains(v) for v in effect.values())
    if isinstance(effect, list):
        return any(acts_on_domains(v) for v in effect)
    return False


def _may_take(s: ValeriaState, action: str) -> bool:
    """Whether the active player has a way to take this granted action now (VP-6)."""
    from .legal import legal_commands
    try:
        return any(c["type"] == action for c in legal_commands(s, s.active))
    except TooManyToList:   # more ways to take it than a listing holds: there is one
        return True


def _settle_action(d: Draft) -> None:
    s = d.s
    # a lone reward with one way to resolve it resolves by itself; of several, the player orders them (VP-4)
    while len(s.pending) == 1:
        opts = options(s, s.active, s.pending[0]["effect"], take_ok(s), s.pending[0]["source"])
        if len(opts) != 1:
            return
        _resolve_pending(d, s.active, opts[0])
    if s.pending:
        return
    while s.granted and not _may_take(s, s.granted[0]):
        d.emit("GrantLapsed", seat=s.active, action=s.granted[0])  # VP-6: an action nobody can take does nothing
    while s.reveals_waiting and not s.granted:  # VP-53: the granted actions done, the action is finished
        stack = s.reveals_waiting[0]
        d.emit("RevealDue", stack=stack)
        _after_taken(d, stack)
    if s.solo and not s.granted:
        solo.check_end(d)  # [BR p.17] 'The game ends immediately', the action finished [BR p.8, p.15] (VP-25)
    if s.actions_left == 0 and not s.granted:
        if s.solo:
            solo.monsters_phase(d)  # [BR p.17] the Monsters Phase follows the Action Phase
        else:
            _end_turn(d)


# ---------------------------------------------------------------- End Phase and scoring

def end_conditions(s: ValeriaState) -> list[str]:
    """[BR p.8] checked at the end of the active player's turn."""
    out = []
    if all(not pile for pile in s.monsters.values()):
        out.append("all_monsters_slain")
    if all(st["up"] is None and st["down"] == 0 for st in s.domains.values()):
        out.append("all_domains_built")
    if len(s.exhausted) >= 2 * len(s.seats):  # [CS End Phase] a Monster Event's position counts
        out.append("exhausted_stacks")
    if s.island_failed:  # [CS Ending the Game] Goods, Tomes or Nobles could not fill all 3
        out.append("island_empty")
    return out


def _end_turn(d: Draft) -> None:
    s = d.s
    met = end_conditions(s)
    d.emit("TurnEnded", seat=s.active, end_triggered=bool(met), conditions=met)
    if s.seats[s.active].tomes_down:  # [CS Tome Tokens] the last step of your turn
        d.emit("TomesRestored", seat=s.active)
    nxt = (s.active + 1) % len(s.seats)  # [BR p.8] pass the dice left
    if s.end_triggered and nxt == s.first:  # equal turns: back to the First Player token
        result = score(s)
        d.emit("GameEnded", result=result, seed=d.chance.reveal(), dukes=[x.duke for x in s.seats])
        raise kit.GameOver
    _start_turn(d, nxt, s.turn + 1)


def duke_points(s: ValeriaState, seat: int) -> int:
    me = s.seats[seat]
    if me.duke is None or me.duke not in {d["id"] for d in s.content["dukes"]}:
        return 0
    return terms_points(s, seat, s.card(me.duke)["scoring"])


def terms_points(s: ValeriaState, seat: int, terms: list) -> int:
    from .effects import count
    me = s.seats[seat]
    total = 0
    for term in terms:
        if "per_each_resource" in term:  # VA-B4
            n = term["per_each_resource"]
            if s.options.get("duke_rounding") == "pooled":
                total += term["vp"] * ((me.gold + me.strength + me.magic) // n)
            else:
                total += term["vp"] * sum(getattr(me, r) // n for r in RESOURCES)
        else:
            total += term["vp"] * (count(s, seat, term["per"], all_up=True) // term.get("div", 1))
    return total


def points(s: ValeriaState, seat: int) -> dict:
    """[BR p.8 Scoring] Monsters, Domains, Victory Point tokens and the Duke."""
    me = s.seats[seat]
    parts = {"monsters": sum(s.card(m)["vp"] for m in me.victory), "domains": sum(s.card(d)["vp"] for d in me.domains),
             "tokens": me.vp, "duke": duke_points(s, seat)}
    if s.cs:  # [CS Scoring] Goods by type, Nobles; VA-13: 1 VP per Tome
        x = s.content["crimson_seas"]
        table = x["goods"]["set_vp"]
        kinds = [g.split("#")[0] for g in me.goods]
        parts["goods"] = sum(table[min(kinds.count(k), len(table) - 1)] for k in set(kinds))
        parts["nobles"] = sum(terms_points(s, seat, s.card(n)["scoring"]) for n in me.nobles)
        parts["tomes"] = x["tomes"]["vp_each"] * (len(me.tomes) + len(me.tomes_down))
    parts["total"] = sum(parts.values())
    return parts


def cards_in_tableau(s: ValeriaState, seat: int) -> int:
    """VA-B5: Starters, Citizens, Domains, slain Monsters and the Duke."""
    me = s.seats[seat]
    return len(me.citizens) + len(me.domains) + len(me.victory) + len(me.nobles) + 1  # VA-14: tokens are not cards


def score(s: ValeriaState) -> dict:
    parts = [points(s, i) for i in range(len(s.seats))]
    totals = [p["total"] for p in parts]
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    cards = [cards_in_tableau(s, i) for i in range(len(s.seats))]
    tie_breaks = []
    if len(leaders) > 1:  # [BR p.8] the tied player with the fewest cards in their tableau wins
        fewest = min(cards[i] for i in leaders)
        tie_breaks.append({"rule": "BR p.8 fewest cards in the tableau", "cards": {str(i): cards[i] for i in leaders}})
        leaders = [i for i in leaders if cards[i] == fewest]
    standings = sorted(range(len(s.seats)), key=lambda i: (-totals[i], cards[i], i))
    return {"winners": leaders, "reason": "end_conditions", "totals": totals, "points": parts, "cards": cards,
            "standings": standings, "tie_breaks": tie_breaks}


def _offered(s: ValeriaState, kind: str) -> None:
    """A command of the expansion or of the Solo Variant, sent to a game that does not play it, is
    refused as such: no moment of this game will ever open it (not "not now")."""
    if kind in CS_ACTIONS and not s.cs:
        raise Rejected("NOT_IN_THIS_GAME", SAIL if kind == "sail" else GAIN_MAP,
                       f"This game is played without Crimson Seas: no one may {WORDS[kind]} in it.")
    if kind == "activate_monster" and not s.solo:
        raise Rejected("NOT_IN_THIS_GAME", solo.MONSTERS,
                       "Monster stacks are activated only in the Solo Variant's Monsters Phase, and this game is not "
                       "a Solo game.")


HANDLERS = {"keep_duke": keep_duke, "roll_dice": roll_dice, "change_die": change_die, "announce_roll": announce_roll,
            "harvest": harvest, "slay": slay, "recruit": recruit, "build": build, "gain_resource": gain_resource,
            "resolve": resolve, "sail": sail, "gain_map": gain_map, "activate_monster": solo.activate_monster}

RULES = kit.Rules(game="Valeria: Card Kingdoms", handlers=HANDLERS, moments=MOMENTS, draft=Draft,
                  over=END, unknown=ACTION, seats=SETUP, table_fields=("dice", "revealed"), server_words="rolls and draws",
                  after=_after, offered=_offered)


def decide(state: ValeriaState, seat: int, command: dict, chance) -> list[dict]:
    """RULES.decide; a table's report short of what the command turns up is told the whole count
    (legal.turned_up_count, as table_inputs' by_command tells it), not only the items met so far."""
    try:
        return RULES.decide(state, seat, command, chance)
    except ShortReport as short:
        from .legal import turned_up_count  # legal imports this module
        total = turned_up_count(state, seat, {k: v for k, v in command.items() if k not in ("revealed", "dice")})
        if total is not None and total > short.item + short.more:
            raise ShortReport(short.item, total - short.item, short.where) from None
        raise


gate = RULES.gate
