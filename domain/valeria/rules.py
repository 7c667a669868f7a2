"""Valeria: Card Kingdoms: decide(), one handler per command.

Every check cites the rulebook (../shared/rules/valeria-card-kingdoms-base.txt, "BR p.N") or,
where it is silent, a ruling in docs/rulings.md (VA-n from the rules notes, VP-n Parley's own).
Handlers work on a Draft, a clone to which each event is applied as emitted. Card powers are
interpreted by effects.py; no card is named here.
"""
from __future__ import annotations

import json

from .. import kit
from ..chance import CHANCE_RULE
from ..ruleset import Rejected
from .effects import RESOURCES, ROLES, has_choice, options
from .state import ValeriaState, evolve

SETUP = "BR p.5 Game Setup"
ROLL = "BR p.7 Roll Phase"
HARVEST = "BR p.7-8 Harvest Phase"
ACTION = "BR p.8 Action Phase"
SLAY = "BR p.9 Slay a Monster"
RECRUIT = "BR p.9 Recruit a Citizen"
GAIN = "BR p.9 Gain a Resource"
BUILD = "BR p.10 Build a Domain"
END = "BR p.8 Ending the Game"
ACTIONS = ("slay", "recruit", "build", "gain_resource")


class Draft(kit.Draft):
    def __init__(self, state: ValeriaState, chance, command: dict):
        super().__init__(state, chance, evolve)
        self.revealed = command.get("revealed")
        self.used = 0

    def reveal(self) -> str:
        """A face-down Domain turned face up: from the server's seed, or as the table says."""
        pool = self.s.domain_pool
        if self.chance.mode != "table":
            return self.chance.pick(pool, 1, None, "revealed")[0]
        given = self.revealed
        if not isinstance(given, list) or self.used >= len(given):
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           "This game is played at a table: send in 'revealed' each Domain turned face up by this command, in order.")
        card = given[self.used]
        if card not in pool:
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE, f"'revealed': {card!r} cannot have been turned face up.")
        self.used += 1
        return card


def decide(state: ValeriaState, seat: int, command: dict, chance) -> list[dict]:
    if state.finished:
        raise Rejected("GAME_OVER", END, "The game is over; no more commands are accepted.")
    kind = command.get("type")
    handler = HANDLERS.get(kind)
    if handler is None:
        raise Rejected("UNKNOWN_COMMAND", ACTION, f"Valeria: Card Kingdoms has no command '{kind}'.")
    if not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise Rejected("NO_SUCH_SEAT", SETUP, f"There is no seat {seat} in this game.")
    if chance.mode != "table":
        for f in ("dice", "revealed"):
            if f in command:
                raise Rejected("CHANCE_FROM_SERVER", CHANCE_RULE, f"This game rolls and draws on the server; do not send '{f}'.")
    if kind not in open_commands(state):
        raise Rejected("WRONG_MOMENT", moment_rule(state), f"You cannot {WORDS[kind]} now: {moment(state)}.")
    if seat not in to_move(state):
        raise Rejected("NOT_YOUR_DECISION", moment_rule(state), f"Not your decision: {moment(state)}.")
    d = Draft(state, chance, command)
    events = kit.run(d, handler, seat, command)
    if chance.mode == "table" and d.revealed is not None and (not isinstance(d.revealed, list) or len(d.revealed) != d.used):
        raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE, f"'revealed' lists more than this command turned face up ({d.used}).")
    return events


WORDS = {"keep_duke": "keep a Duke", "roll_dice": "roll the dice", "change_die": "change a die",
         "announce_roll": "announce the roll", "harvest": "resolve a Citizen", "slay": "slay a Monster",
         "recruit": "recruit a Citizen", "build": "build a Domain", "gain_resource": "gain a Resource",
         "resolve": "resolve a reward"}


def open_commands(s: ValeriaState) -> set[str]:
    if s.phase == "dukes":
        return {"keep_duke"}
    if s.phase == "roll":
        return {"roll_dice"} if s.dice is None else {"change_die", "announce_roll"}
    if s.phase == "harvest":
        return {"harvest"}
    if s.phase == "action":
        return {"resolve"} if s.pending else set(ACTIONS)
    return set()


def first_items(s: ValeriaState) -> list[dict]:
    """[BR p.7] the Thief acts first: take-from-player powers, the active player first, then clockwise."""
    n = len(s.seats)
    return sorted((i for i in s.items if i["first"]), key=lambda i: ((i["seat"] - s.active) % n, i["id"]))


def to_move(s: ValeriaState) -> list[int]:
    if s.finished or not s.seats:
        return []
    if s.phase == "dukes":
        return [i for i, x in enumerate(s.seats) if x.duke is None]
    if s.phase == "harvest":
        firsts = first_items(s)
        if firsts:
            return [firsts[0]["seat"]]
        return sorted({i["seat"] for i in s.items})
    if s.phase in ("roll", "action"):
        return [s.active]
    return []


def moment(s: ValeriaState) -> str:
    if s.phase == "dukes":
        return "each player keeps one of the two Dukes dealt"
    if s.phase == "roll":
        return "the active player rolls" if s.dice is None else "the active player may change dice, then announces the roll"
    if s.phase == "harvest":
        return "the Thief acts first" if first_items(s) else "players resolve their activated Citizens"
    if s.phase == "action":
        return "the active player resolves a reward" if s.pending else f"the active player takes an action ({s.actions_left} left)"
    return "the game is over"


def moment_rule(s: ValeriaState) -> str:
    return {"dukes": SETUP, "roll": ROLL, "harvest": HARVEST, "action": ACTION}.get(s.phase, END)


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
    d.emit("DiceRolled", seat=seat, dice=dice)


def changers(s: ValeriaState, seat: int) -> list[tuple[str, dict]]:
    return [(dom, p["change_die"]) for dom in s.seats[seat].domains for p in s.card(dom).get("ongoing", [])
            if p["when"] == "roll" and "change_die" in p]


def die_changes(s: ValeriaState, seat: int) -> list[dict]:
    """[BR p.7] each Domain that changes a die once per Roll Phase; VA-7: never below 1 or above 6."""
    out = []
    for dom, power in changers(s, seat):
        if dom in s.changers_used:
            continue
        for die in (0, 1):
            targets = [s.dice[die] + b for b in power.get("by", [])] + list(power.get("to", []))
            for to in sorted(set(targets)):
                if 1 <= to <= 6 and to != s.dice[die]:
                    out.append({"type": "change_die", "domain": dom, "die": die, "to": to})
    return out


def change_die(d: Draft, seat: int, cmd: dict) -> None:
    s = d.s
    want = {"type": "change_die", "domain": cmd.get("domain"), "die": cmd.get("die"), "to": cmd.get("to")}
    if cmd.get("domain") not in s.seats[seat].domains or not any(p for dom, p in changers(s, seat) if dom == cmd.get("domain")):
        raise Rejected("NO_SUCH_POWER", ROLL, "Only a Domain you own that changes dice can change a die.")
    if cmd["domain"] in s.changers_used:
        raise Rejected("POWER_USED", ROLL, "Each Domain that changes a die may be used once per Roll Phase.")
    if want not in die_changes(s, seat):
        raise Rejected("CHANGE_NOT_ALLOWED", ROLL, "That Domain cannot change that die to that value (a die shows 1 to 6).",
                       ruling="VA-7")
    d.emit("DieChanged", domain=cmd["domain"], die=cmd["die"], **{"from": s.dice[cmd["die"]]}, to=cmd["to"])


def announce_roll(d: Draft, seat: int, cmd: dict) -> None:
    """[BR p.7] announcing the result ends the Roll Phase; the Harvest begins."""
    s = d.s
    a, b = s.dice
    values = [a, b, a + b]
    items, n = [], 0
    for who, x in enumerate(s.seats):
        if who == s.resting:  # [BR p.16] the Resting player does not harvest
            continue
        side = "on_turn" if who == s.active else "off_turn"  # [BR p.7]
        activated = False
        for c in x.citizens:
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
        if not activated:  # [BR p.8] none activated: take any one Resource (VA-8: a Starter's activation counts)
            items.append(_item(n, who, "no_activation", {"wild": 1}))
            n += 1
    d.emit("HarvestBegan", dice=[a, b], values=values, items=items)
    _settle_harvest(d)


def _item(n: int, seat: int, source: str, effect: dict) -> dict:
    return {"id": n, "seat": seat, "source": source, "effect": effect, "first": "take_from" in json.dumps(effect)}


# ---------------------------------------------------------------- Harvest Phase

def _settle_harvest(d: Draft) -> None:
    """Resolve by itself what needs nobody's decision; stop at the first decision."""
    s = d.s
    while True:
        firsts = first_items(s)
        if firsts:
            item = firsts[0]
            opts = options(s, item["seat"], item["effect"])
            if len(opts) != 1:
                return
            _resolve_item(d, item, opts[0])
            continue
        auto = [i for i in s.items if not has_choice(i["effect"])]
        if auto:
            item = auto[0]
            _resolve_item(d, item, options(s, item["seat"], item["effect"])[0])
            continue
        if s.items:
            return
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
    if firsts and firsts[0] is not item and firsts[0]["id"] != item["id"]:
        raise Rejected("THIEF_FIRST", HARVEST, "A power that takes from another player resolves first.", ruling="VP-2")
    option = _match(s, seat, item["effect"], cmd.get("choice", []), HARVEST)
    _resolve_item(d, item, option)
    _settle_harvest(d)


def _match(s, seat, effect, choice, rule):
    want = json.dumps(choice, sort_keys=True)  # strictly: 0 is not false
    for opt in options(s, seat, effect):
        if json.dumps(opt[0], sort_keys=True) == want:
            return opt
    raise Rejected("CHOICE_NOT_ALLOWED", rule, "That choice is not one this power allows now "
                   f"(send 'choice' as one of: {[o[0] for o in options(s, seat, effect)][:12]}).", ruling="VP-9")


def _apply(d: Draft, seat: int, ops: list, source: str) -> None:
    for op in ops:
        if op[0] == "gain":
            got = {r: n for r, n in op[1].items() if n}
            if got:
                d.emit("Gained", seat=seat, gained=got, source=source)
        elif op[0] == "pay":
            d.emit("Paid", seat=seat, paid=op[1], source=source)
        elif op[0] == "take":
            d.emit("Taken", seat=seat, **{"from": op[1]}, resource=op[2], amount=op[3], source=source)
        elif op[0] == "take_card":  # [BR p.6] a free card; '≤' ignores the '+'
            stack = op[1]
            d.emit("CardGained", seat=seat, stack=stack, card=d.s.top(stack), how="free", source=source)
            _after_taken(d, stack)
        elif op[0] == "banish":
            stack = op[1]
            d.emit("CardBanished", seat=seat, stack=stack, card=d.s.top(stack), source=source)
            _after_taken(d, stack)


def _after_taken(d: Draft, stack: str) -> None:
    """[BR p.10 step 5] reveal the next Domain; [BR p.8] an emptied stack gets an Exhausted card
    (VA-2: none left, the position is exhausted all the same; VA-6: whenever it empties)."""
    s = d.s
    if stack in s.domains and s.domains[stack]["down"] > 0:
        d.emit("DomainRevealed", stack=stack, card=d.reveal())
        return
    if s.top(stack) is None and stack not in s.exhausted:
        d.emit("StackExhausted", stack=stack, card_placed=s.exhausted_pile > 0)


# ---------------------------------------------------------------- Action Phase

def discount(s: ValeriaState, seat: int, action: str) -> int:
    return sum(p["discount"]["amount"] for dom in s.seats[seat].domains for p in s.card(dom).get("ongoing", [])
               if "discount" in p and p["discount"]["action"] == action)


def price(s: ValeriaState, seat: int, action: str, stack: str) -> dict:
    """What the top card costs: the main resource (with Magic allowed to augment it) and any Magic."""
    card = s.card(s.top(stack))
    if action == "slay":   # [BR p.9] Strength (Magic may augment) and the printed Magic besides
        return {"main": "strength", "amount": max(0, card["strength"] - discount(s, seat, "slay")), "magic": card["magic"]}
    if action == "recruit":  # [BR p.9] base cost + 1 per copy of the same name you own
        same = sum(1 for c in s.seats[seat].citizens if s.card(c)["name"] == card["name"])
        return {"main": "gold", "amount": max(0, card["cost"] + same - discount(s, seat, "recruit")), "magic": 0}
    return {"main": "gold", "amount": max(0, card["cost"] - discount(s, seat, "build")), "magic": 0}  # [BR p.10]


def payment(s: ValeriaState, seat: int, action: str, stack: str, augment: int) -> dict | None:
    """The tokens paid when `augment` Magic stands in for the main resource, or None when that
    is not allowed: [BR p.6, p.9] at least one token of the resource itself must be spent."""
    p = price(s, seat, action, stack)
    if not isinstance(augment, int) or isinstance(augment, bool) or augment < 0:
        return None
    if augment > 0 and augment > p["amount"] - 1:
        return None
    paid = {p["main"]: p["amount"] - augment, "magic": p["magic"] + augment}
    me = s.seats[seat]
    if any(getattr(me, r) < n for r, n in paid.items()):
        return None
    return {r: n for r, n in paid.items() if n}


def roles_met(s: ValeriaState, seat: int, domain: str) -> bool:
    """[BR p.10, p.14] the Citizens' Role icons must match the Domain's, as many as shown."""
    have = {r: 0 for r in ROLES}
    for c in s.seats[seat].citizens:
        for r in s.card(c).get("roles", []):
            have[r] += 1
    return all(have[r] >= n for r, n in s.card(domain)["roles"].items())


def _take_action(d: Draft, seat: int, cmd: dict, action: str, rule: str, kind: str) -> None:
    s = d.s
    stack = cmd.get("stack")
    if s.stack_kind(stack) != kind:
        raise Rejected("NO_SUCH_STACK", rule, f"Choose a {kind} stack of the Center Stacks.")
    top = s.top(stack)
    if top is None:
        raise Rejected("STACK_EXHAUSTED", rule, "That stack is exhausted.", ruling="VA-2")
    if action == "build" and not roles_met(s, seat, top):
        raise Rejected("ROLES_NOT_MET", rule, "Your Citizens' Role icons do not match the Domain's.")
    augment = cmd.get("magic", 0)
    paid = payment(s, seat, action, stack, augment)
    if paid is None:
        p = price(s, seat, action, stack)
        raise Rejected("CANNOT_PAY", rule,
                       f"It costs {p['amount']} {p['main']}" + (f" and {p['magic']} magic" if p["magic"] else "")
                       + f"; Magic may stand in for {p['main']} only if at least one {p['main']} token is spent, "
                         "and you must hold what you pay.")
    d.emit("ActionTaken", seat=seat, action=action)
    d.emit("CardGained", seat=seat, stack=stack, card=top, how=action, paid=paid)
    _after_taken(d, stack)
    card = s.card(top)
    if action == "slay":  # [BR p.9 step 4] the reward
        d.emit("RewardAwaited", seat=seat, source=top, effect=card["reward"])
        for dom in s.seats[seat].domains:
            for p in s.card(dom).get("ongoing", []):
                if p["when"] == "slay":
                    d.emit("RewardAwaited", seat=seat, source=dom, effect=p["effect"])
    elif action == "build" and "immediate" in card:  # [BR p.10 step 4]
        d.emit("RewardAwaited", seat=seat, source=top, effect=card["immediate"])
    _settle_action(d)


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
    d.emit("ActionTaken", seat=seat, action="gain_resource")
    d.emit("Gained", seat=seat, gained={r: 1}, source="gain_resource")
    _settle_action(d)


def resolve(d: Draft, seat: int, cmd: dict) -> None:
    p = d.s.pending[0]
    option = _match(d.s, seat, p["effect"], cmd.get("choice", []), SLAY if d.s.card(p["source"])["kind"] == "monster" else BUILD)
    _resolve_pending(d, seat, option)
    _settle_action(d)


def _resolve_pending(d: Draft, seat: int, option) -> None:
    p = d.s.pending[0]
    d.emit("RewardResolved", seat=seat, source=p["source"], choice=option[0])
    _apply(d, seat, option[1], p["source"])


def _settle_action(d: Draft) -> None:
    s = d.s
    while s.pending:
        opts = options(s, s.active, s.pending[0]["effect"])
        if len(opts) != 1:
            return
        _resolve_pending(d, s.active, opts[0])
    if s.actions_left == 0:
        _end_turn(d)


# ---------------------------------------------------------------- End Phase and scoring

def end_conditions(s: ValeriaState) -> list[str]:
    """[BR p.8] checked at the end of the active player's turn."""
    out = []
    if all(not pile for pile in s.monsters.values()):
        out.append("all_monsters_slain")
    if all(st["up"] is None and st["down"] == 0 for st in s.domains.values()):
        out.append("all_domains_built")
    if len(s.exhausted) >= 2 * len(s.seats):
        out.append("exhausted_stacks")
    return out


def _end_turn(d: Draft) -> None:
    s = d.s
    met = end_conditions(s)
    d.emit("TurnEnded", seat=s.active, end_triggered=bool(met), conditions=met)
    nxt = (s.active + 1) % len(s.seats)  # [BR p.8] pass the dice left
    if s.end_triggered and nxt == s.first:  # equal turns: back to the First Player token
        result = score(s)
        d.emit("GameEnded", result=result, seed=d.chance.reveal(), dukes=[x.duke for x in s.seats])
        raise kit.GameOver
    _start_turn(d, nxt, s.turn + 1)


def duke_points(s: ValeriaState, seat: int) -> int:
    from .effects import count
    me = s.seats[seat]
    if me.duke is None or me.duke not in {d["id"] for d in s.content["dukes"]}:
        return 0
    total = 0
    for term in s.card(me.duke)["scoring"]:
        if "per_each_resource" in term:  # VA-4
            n = term["per_each_resource"]
            if s.options.get("duke_rounding") == "pooled":
                total += term["vp"] * ((me.gold + me.strength + me.magic) // n)
            else:
                total += term["vp"] * sum(getattr(me, r) // n for r in RESOURCES)
        else:
            total += term["vp"] * (count(s, seat, term["per"]) // term.get("div", 1))
    return total


def points(s: ValeriaState, seat: int) -> dict:
    """[BR p.8 Scoring] Monsters, Domains, Victory Point tokens and the Duke."""
    me = s.seats[seat]
    parts = {"monsters": sum(s.card(m)["vp"] for m in me.victory), "domains": sum(s.card(d)["vp"] for d in me.domains),
             "tokens": me.vp, "duke": duke_points(s, seat)}
    parts["total"] = sum(parts.values())
    return parts


def cards_in_tableau(s: ValeriaState, seat: int) -> int:
    """VA-5: Starters, Citizens, Domains, slain Monsters and the Duke."""
    me = s.seats[seat]
    return len(me.citizens) + len(me.domains) + len(me.victory) + 1


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


HANDLERS = {"keep_duke": keep_duke, "roll_dice": roll_dice, "change_die": change_die, "announce_roll": announce_roll,
            "harvest": harvest, "slay": slay, "recruit": recruit, "build": build, "gain_resource": gain_resource,
            "resolve": resolve}
