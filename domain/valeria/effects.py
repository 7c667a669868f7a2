"""Valeria: Card Kingdoms: the effect language, and the one engine that interprets it.

A card's power is a small JSON tree (content/schema.json, $defs/effect):
    gain {resource: expr}      take from the Bank (gold, strength, magic, vp)     [BR p.6]
    wild expr                  that many of ONE resource of your choice           [FF p.2 Wild]
    all [e...]                 '+': each in order                                  [BR p.6]
    choose [e...]              '|': exactly one                                    [BR p.6]
    may e                      optional
    exchange {pay, gain}       pay to the Bank to gain; optional                   [BR p.8 Monk]
    take_from {resources, max} up to max of one resource from one opponent        [BR p.7 Thief]
    take_card {kind, max_cost, name} a Center card free, a Citizen's '+' ignored   [BR p.6, p.12, p.18]
    banish kind                remove the top card of a Center stack from the game [FF p.2 Banish]
    return_card kind           one of yours back on top of its Center stack       [BR p.19]
    take_monster "random"      a random Monster of a chosen opponent's, no reward  [BR p.19]
  In the solo variant "take from a single player" takes from the Bank, and "take a Monster" the
  top card of the leftmost Monster stack [BR p.16-17] (VP-24).
Crimson Seas adds ([CS] = ../shared/rules/crimson-seas.txt); without its island board (the
Monster Events on their own) what needs the board or its Maps finds nothing (VP-44):
    gain {map: expr}           Maps from the Bank, as many as are left            [CS Gain a Map], VA-35
    take_island kind           a face-up Goods, Tome or Noble, free; then refresh  [CS Icons]
    add_tokens {resource, cap} a token from the Bank onto this card               [CS Leviathan]
    place_on_self resource     the active player places one of theirs on it       [CS Ghost Ship]
    flip citizen               an opponent's face-up Citizen goes face down       [CS Skeleton Army]
    offer_exekratys n          (the rule, not a card) a token of choice into Exekratys [CS Roll Phase]
and in both:
    action kind                an additional action, not one of the two           [BR p.15]
and expr is an int or plus + times * floor(count / div) of a counter of the owner's tableau.
A Domain's ongoing powers (schema $defs/ongoing) are read by rules.py: change_die in the Roll
Phase, an effect after each slay or in its owner's Harvest, exekratys_immune, and discount
{action, amount | ignore_plus}, which every price computation applies (rules.price, sail_price,
rescue_cost).

options() lists every way an effect can be resolved as (choice, ops): `choice` is the list of
picks a player sends, in the order the tree asks them (an index for choose, a resource for
wild, true/false for may and exchange, {seat, resource[, amount]} for take_from, a stack for take_card
and banish); `ops` are what then happens, turned into events by rules.py. Nothing here is
special to a card.
"""
from __future__ import annotations

RESOURCES = ("gold", "strength", "magic")
ROLES = ("worker", "soldier", "holy", "shadow")
CHOICE_NODES = ("wild", "choose", "may", "exchange", "take_from", "take_card", "banish", "take_island", "flip",
                "offer_exekratys", "return_card", "take_monster")
ISLANDS = {"goods": "araby", "tome": "nae_aerie", "noble": "amarynth"}


def count(s, seat: int, counter: dict, self_card: str | None = None, all_up: bool = False) -> int:
    """[BR p.14] a power naming a role counts Citizen cards with that icon; names, card types and
    areas count cards in the tableau and Victory stack. A Starter counts as a Citizen, by its name
    too (VA-B1, VP-52), but never for a role: it has no Role icon."""
    (kind, spec), = counter.items()
    me = s.seats[seat]
    if kind == "citizens":
        n = 0
        for c in me.citizens:
            if c in me.flipped and not all_up:  # [CS Skeleton Army] face down: inactive until scored
                continue
            card = s.card(c)
            if "role" in spec and spec["role"] not in card.get("roles", []):
                continue
            if "name" in spec and card["name"] != spec["name"]:
                continue
            if "role" in spec and card["kind"] == "starter":
                continue  # [BR p.14] Starters have no Role icons; otherwise they count as Citizens (VP-52)
            n += 1
        return n
    if kind == "monsters":
        return sum(1 for m in me.victory if all(s.card(m).get(k) == v for k, v in spec.items()))
    if kind == "domains":
        return len(me.domains)
    if kind == "role_icons":
        # [BR p.15] a Duke scoring role icons counts those on Citizens and on Domains
        # [CS Scoring NOTE] and on Nobles; Skeleton Army's face-down Citizens are turned up to score
        cit = sum(s.card(c).get("roles", []).count(spec) for c in me.citizens if all_up or c not in me.flipped)
        nob = sum(s.card(n).get("roles", []).count(spec) for n in me.nobles)
        return cit + nob + sum(s.card(d)["roles"].get(spec, 0) for d in me.domains)
    if kind == "goods":
        return len(me.goods)
    if kind == "nobles":
        return len(me.nobles)
    if kind == "tokens_on_self":
        return s.event_tokens.get(self_card, {}).get(spec, 0)
    if kind == "resource":
        return getattr(me, spec)
    raise ValueError(kind)


def amount(s, seat: int, expr, self_card: str | None = None) -> int:
    if isinstance(expr, int):
        return expr
    return expr.get("plus", 0) + expr.get("times", 1) * (count(s, seat, expr["count"], self_card) // expr.get("div", 1))


def has_choice(effect: dict) -> bool:
    (kind, arg), = effect.items()
    if kind in CHOICE_NODES:
        return True
    if kind == "all":
        return any(has_choice(e) for e in arg)
    return False


def options(s, seat: int, effect: dict, take_ok=None, self_card: str | None = None) -> list[tuple[list, list]]:
    """Every resolution of effect for seat now: [(choice, ops)]. take_ok(stack) may forbid a
    Center stack to take_card (the Pirate Blockade); self_card is the card whose power it is.
    An exchange is paid in Resource tokens only, never a Tome (VA-22)."""
    purse = {r: getattr(s.seats[seat], r) for r in RESOURCES}
    walked = _walk(s, seat, effect, purse, (take_ok, self_card))
    return [(picks, [op for op in ops if op[0] != "lost"]) for picks, ops, _end in walked]


def _walk(s, seat, effect, purse, ctx):
    """Every resolution of one node, as (picks, ops, purse after): the node's kind picks its
    handler in _NODES; ctx is (take_ok, self_card) as options() was given them."""
    (kind, arg), = effect.items()
    handler = _NODES.get(kind)
    if handler is None:  # pragma: no cover - the schema admits nothing else
        raise ValueError(kind)
    yield from handler(s, seat, arg, purse, ctx)


def _gain(s, seat, arg, purse, ctx):
    """gain {resource: expr}: from the Bank [BR p.6]; Maps as many as are left (VA-35) [CS Gain a Map]."""
    got = {r: amount(s, seat, e, ctx[1]) for r, e in arg.items()}
    if "map" in got:
        got["map"] = min(got["map"], s.bank_maps)  # VA-35: the Maps are finite
        if not s.cs and arg["map"]:  # VP-44: no Maps without Crimson Seas; the branch is no choice
            yield [], [("gain", got), ("lost",)], _plus(purse, got)
            return
    yield [], [("gain", got)], _plus(purse, got)


def _wild(s, seat, arg, purse, ctx):
    """wild expr: that many of one resource of the player's choice [FF p.2 Wild]."""
    n = amount(s, seat, arg)
    for r in RESOURCES:
        yield [r], [("gain", {r: n})], _plus(purse, {r: n})


def _all(s, seat, arg, purse, ctx):
    """all [e...]: '+', each in order [BR p.6]."""
    partial = [([], [], purse)]
    for sub in arg:
        partial = [(p + p2, o + o2, pu2) for p, o, pu in partial for p2, o2, pu2 in _walk(s, seat, sub, pu, ctx)]
    yield from partial


def _choose(s, seat, arg, purse, ctx):
    """choose [e...]: '|', exactly one [BR p.6]."""
    # [BR p.18 Bane Spider] a branch whose take finds nothing is not a choice while another acts
    every = [([i] + p, o, pu) for i, sub in enumerate(arg) for p, o, pu in _walk(s, seat, sub, purse, ctx)]
    acting = [x for x in every if ("lost",) not in x[1]]
    yield from (acting or every)


def _may(s, seat, arg, purse, ctx):
    """may e: optional."""
    yield [False], [], purse
    for p, o, pu in _walk(s, seat, arg, purse, ctx):
        if ("lost",) not in o:  # a 'may' whose take would find nothing is declined (VP-6)
            yield [True] + p, o, pu


def _exchange(s, seat, arg, purse, ctx):
    """exchange {pay, gain}: pay to the Bank to gain, optional [BR p.8 Monk]; in Resource tokens:
    "You may not use your Tome to take a Resource from the Bank" [CS Tome Tokens] (VA-22)."""
    yield [False], [], purse
    pay = arg["pay"]
    if all(purse[r] >= n for r, n in pay.items()):
        after = _plus(purse, {r: -n for r, n in pay.items()})
        for p, o, pu in _walk(s, seat, arg["gain"], after, ctx):
            yield [True] + p, [("pay", dict(pay))] + o, pu


def _take_from(s, seat, arg, purse, ctx):
    """take_from {resources, max}: up to max of one resource from one opponent [BR p.7 Thief]. The
    pick {seat, resource} takes the most it can; with 'amount' it takes that many, any number
    from 0 up to that most: "You may take less than 3 from a player if you wish" [BR p.19] (VP-8)
    (from an opponent who holds none of it, the pick alone).
    Solo, 'take from the Bank instead' [BR p.16-17]: the most it allows, the pick naming the
    resource (VP-24)."""
    if s.solo:
        for r in arg["resources"]:
            yield [r], [("gain", {r: arg["max"]})], _plus(purse, {r: arg["max"]})
        return
    for victim in range(len(s.seats)):
        if victim == seat:
            continue
        for r in arg["resources"]:
            n = min(arg["max"], getattr(s.seats[victim], r))
            yield [{"seat": victim, "resource": r}], [("take", victim, r, n)], _plus(purse, {r: n})
            if n:  # [BR p.19] "less than 3 ... if you wish" (VP-8); from one who holds none, nothing to choose
                for k in range(n + 1):
                    yield [{"seat": victim, "resource": r, "amount": k}], [("take", victim, r, k)], _plus(purse, {r: k})


def _take_card(s, seat, arg, purse, ctx):
    """take_card {kind, max_cost, name}: a Center card free, a Citizen's '+' ignored [BR p.6, p.12, p.18]."""
    take_ok = ctx[0]
    stacks = s.takeable(arg["kind"], arg.get("max_cost"), arg.get("name"))
    if take_ok is not None:
        stacks = [st for st in stacks if take_ok(st)]
    if not stacks:
        yield [], [("lost",)], purse  # nothing to take: the reward is lost (VP-6)
    for st in stacks:
        yield [st], [("take_card", st)], purse


def _banish(s, seat, arg, purse, ctx):
    """banish kind: the top card of a Center stack out of the game [FF p.2 Banish]."""
    stacks = s.takeable(arg, None)
    if not stacks:
        yield [], [], purse
    for st in stacks:
        yield [st], [("banish", st)], purse


def _take_island(s, seat, arg, purse, ctx):
    """take_island kind: a face-up Goods, Tome or Noble, free; then refresh [CS Icons]."""
    island = ISLANDS[arg]
    slots = [i for i, x in enumerate(getattr(s, "nae" if island == "nae_aerie" else island)) if x is not None]
    if not slots:
        yield [], [("lost",)], purse
    for i in slots:
        yield [i], [("take_island", island, i)], purse


def _add_tokens(s, seat, arg, purse, ctx):
    """add_tokens {resource, cap}: a token from the Bank onto this card [CS Leviathan]."""
    self_card = ctx[1]
    have = s.event_tokens.get(self_card, {}).get(arg["resource"], 0)
    n = 1 if have < arg["cap"] else 0  # [CS Leviathan] at most cap tokens
    yield [], [("add_tokens", self_card, arg["resource"], n)] if n else [], purse


def _place_on_self(s, seat, arg, purse, ctx):
    """place_on_self resource: the active player places one of theirs on this card [CS Ghost Ship]."""
    if purse[arg] >= 1:  # VA-19: with none, the obligation lapses
        yield [], [("place", ctx[1], arg)], _plus(purse, {arg: -1})
    else:
        yield [], [], purse


def _flip(s, seat, arg, purse, ctx):
    """flip citizen: an opponent's face-up Citizen goes face down [CS Skeleton Army]."""
    targets = [{"seat": i, "card": c} for i, x in enumerate(s.seats) if i != seat
               for c in x.citizens if s.card(c)["kind"] == "citizen" and c not in x.flipped]
    if not targets:
        yield [], [], purse
    for tg in targets:
        yield [tg], [("flip", tg["seat"], tg["card"])], purse


def _return_card(s, seat, arg, purse, ctx):
    """return_card kind: one of the player's back on top of its stack in the Center [BR p.19 Nest of
    the Weaver Woman, Watcher on the Water]."""
    me = s.seats[seat]
    owned = me.citizens if arg == "citizen" else me.victory
    targets = [(c, s.home(c)) for c in owned if s.card(c)["kind"] == arg and s.home(c) is not None]
    if not targets:
        yield [], [("lost",)], purse
    for c, stack in targets:
        yield [c], [("return", c, stack)], purse


def _take_monster(s, seat, arg, purse, ctx):
    """take_monster "random": a random Monster of a chosen opponent's, no reward [BR p.19 Purloiner's
    Perch]: the opponent is chosen here; which Monster is drawn, when it is resolved. Solo: 'take the
    top card on the leftmost Monster stack' [BR p.16], the leftmost holding one (VP-24)."""
    if s.solo:
        left = next((st for st in s.monsters if s.top(st) is not None), None)
        yield [], [("take_card", left)] if left is not None else [("lost",)], purse
        return
    victims = [i for i, x in enumerate(s.seats) if i != seat and x.victory]
    if not victims:
        yield [], [("lost",)], purse
    for i in victims:
        yield [i], [("take_monster", i)], purse


def _action(s, seat, arg, purse, ctx):
    """action kind: a reward may grant an additional action, not one of the two [BR p.15]; outside
    the Action Phase there is none to take (VP-6)."""
    if arg in ("sail", "gain_map") and not s.cs:  # VP-44: no such action without Crimson Seas
        yield [], [("lost",)], purse
        return
    yield [], ([("grant", arg)] if s.phase == "action" else []), purse


def _offer_exekratys(s, seat, arg, purse, ctx):
    """offer_exekratys n: (the rule, not a card) a token of choice into Exekratys [CS Roll Phase]."""
    have = [r for r in RESOURCES if purse[r] > 0]
    if not s.cs:  # VP-44: no Exekratys without the island board
        yield [], [("lost",)], purse
        return
    if not have:  # VA-8: place what you can; none is fine
        yield [], [], purse
    for r in have:
        yield [r], [("offer", r)], _plus(purse, {r: -1})


# The kind of an effect node -> the handler listing its resolutions (_walk).
_NODES = {"gain": _gain, "wild": _wild, "all": _all, "choose": _choose, "may": _may, "exchange": _exchange,
          "take_from": _take_from, "take_card": _take_card, "banish": _banish, "take_island": _take_island,
          "add_tokens": _add_tokens, "place_on_self": _place_on_self, "flip": _flip, "return_card": _return_card,
          "take_monster": _take_monster, "action": _action, "offer_exekratys": _offer_exekratys}


# The most ways custom content's one power may offer to resolve it. Every way is listed (legal
# commands) and a choice is matched against them (rules._match), so the count is the work of
# every roll and refusal: powers nested 'all' within 'all' multiply (6 Thieves in one 'all' at 5
# players: 8^6 ways before VP-8, up to 40^6 after). The reference content's largest is far below it.
MOST_WAYS = 5000


def most_ways(effect: dict, players: int, center_stacks: int, cards: int) -> int:
    """An upper bound on len(options(...)) for this effect in a game of `players`, whatever the
    state: `center_stacks`, the Center's stacks a card may be taken from or banished from;
    `cards`, the Citizen and Monster copies a player or an opponent may hold (flip, return_card)."""
    (kind, arg), = effect.items()
    opponents = max(players - 1, 1)

    def ways(e: dict) -> int:
        return most_ways(e, players, center_stacks, cards)

    if kind == "all":
        total = 1
        for sub in arg:
            total *= ways(sub)
            if total > MOST_WAYS:   # no need to multiply on: already too many
                return total
        return total
    if kind == "choose":
        return sum(ways(sub) for sub in arg)
    if kind == "may":
        return 1 + ways(arg)
    if kind == "exchange":
        return 1 + ways(arg["gain"])
    if kind == "take_from":   # each opponent and resource: the most, or an amount from 0 to it (VP-8)
        return opponents * len(arg["resources"]) * (1 + arg["max"] + 1)
    if kind in ("wild", "take_island", "offer_exekratys"):
        return 3
    if kind in ("take_card", "banish"):
        return max(center_stacks, 1)
    if kind == "flip":
        return opponents * max(cards, 1)
    if kind == "return_card":
        return max(cards, 1)
    if kind == "take_monster":
        return opponents
    return 1   # gain, add_tokens, place_on_self, action: no choice


# What one pick of a 'resolve' command's choice is, for each kind of node that asks for one: the
# view shows them beside each pending reward (asks()), so a client can say what it is offering.
PICK_WORDS = {
    "wild": "a resource: gold, strength or magic",
    "may": "true to use the power, false not to",
    "exchange": "true to make the exchange, false not to",
    "take_from": "{seat, resource}: the opponent taken from and the resource, the most the power allows; with "
                 "'amount', that many instead, from 0 up to that most (solo: the resource, from the Bank)",
    "take_card": "the Center stack whose top card is taken",
    "banish": "the Center stack whose top card is banished",
    "take_island": "the slot of the island taken from (0 first)",
    "flip": "{seat, card}: the opponent's Citizen turned face down",
    "return_card": "the card of yours returned to its stack",
    "take_monster": "the seat number of the opponent a random Monster is taken from (solo: no pick)",
    "offer_exekratys": "the resource offered to Exekratys",
}


def asks(effect: dict) -> list[str]:
    """What each pick of the choice resolving this effect is, in the order asked (a node that
    finds nothing to pick is skipped when resolved: legal commands list the exact choices)."""
    (kind, arg), = effect.items()
    if kind == "all":
        return [words for e in arg for words in asks(e)]
    if kind == "choose":
        return ["the index of the option chosen (0 first), then that option's own picks"]
    if kind in ("may", "exchange"):
        return [PICK_WORDS[kind]] + (asks(arg) if kind == "may" else [])
    return [PICK_WORDS[kind]] if kind in PICK_WORDS else []


def _plus(purse: dict, got: dict) -> dict:
    out = dict(purse)
    for r, n in got.items():
        if r in out:
            out[r] += n
    return out
