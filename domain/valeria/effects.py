"""Valeria: Card Kingdoms: the effect language, and the one engine that interprets it.

A card's power is a small JSON tree (content/schema.json, $defs/effect):
    gain {resource: expr}      take from the Bank (gold, strength, magic, vp)     [BR p.6]
    wild expr                  that many of ONE resource of your choice           [FF p.2 Wild]
    all [e...]                 '+': each in order                                  [BR p.6]
    choose [e...]              '|': exactly one                                    [BR p.6]
    may e                      optional
    exchange {pay, gain}       pay to the Bank to gain; optional                   [BR p.8 Monk]
    take_from {resources, max} up to max of one resource from one opponent        [BR p.7 Thief]
    take_card {kind, max_cost} a Center card free, a Citizen's '+' ignored         [BR p.6, p.12]
    banish kind                remove the top card of a Center stack from the game [FF p.2 Banish]
and expr is an int or plus + times * floor(count / div) of a counter of the owner's tableau.

options() lists every way an effect can be resolved as (choice, ops): `choice` is the list of
picks a player sends, in the order the tree asks them (an index for choose, a resource for
wild, true/false for may and exchange, {seat, resource} for take_from, a stack for take_card
and banish); `ops` are what then happens, turned into events by rules.py. Nothing here is
special to a card.
"""
from __future__ import annotations

RESOURCES = ("gold", "strength", "magic")
ROLES = ("worker", "soldier", "holy", "shadow")
CHOICE_NODES = ("wild", "choose", "may", "exchange", "take_from", "take_card", "banish")


def count(s, seat: int, counter: dict) -> int:
    """[BR p.14] a power naming a role counts Citizen cards with that icon; names, card types and
    areas count cards in the tableau and Victory stack."""
    (kind, spec), = counter.items()
    me = s.seats[seat]
    if kind == "citizens":
        n = 0
        for c in me.citizens:
            card = s.card(c)
            if "role" in spec and spec["role"] not in card.get("roles", []):
                continue
            if "name" in spec and card["name"] != spec["name"]:
                continue
            if "role" in spec and card["kind"] == "starter":
                continue  # [BR p.14] Starters have no Role icons
            n += 1
        return n
    if kind == "monsters":
        return sum(1 for m in me.victory if all(s.card(m).get(k) == v for k, v in spec.items()))
    if kind == "domains":
        return len(me.domains)
    if kind == "role_icons":
        # [BR p.15] a Duke scoring role icons counts those on Citizens and on Domains
        cit = sum(s.card(c).get("roles", []).count(spec) for c in me.citizens)
        return cit + sum(s.card(d)["roles"].get(spec, 0) for d in me.domains)
    if kind == "resource":
        return getattr(me, spec)
    raise ValueError(kind)


def amount(s, seat: int, expr) -> int:
    if isinstance(expr, int):
        return expr
    return expr.get("plus", 0) + expr.get("times", 1) * (count(s, seat, expr["count"]) // expr.get("div", 1))


def has_choice(effect: dict) -> bool:
    (kind, arg), = effect.items()
    if kind in CHOICE_NODES:
        return True
    if kind == "all":
        return any(has_choice(e) for e in arg)
    return False


def options(s, seat: int, effect: dict, take_ok=None) -> list[tuple[list, list]]:
    """Every resolution of effect for seat now: [(choice, ops)]. take_ok(stack) may forbid a
    Center stack to take_card (none in the base game)."""
    purse = {r: getattr(s.seats[seat], r) for r in RESOURCES}
    return [(picks, ops) for picks, ops, _ in _walk(s, seat, effect, purse, take_ok)]


def _walk(s, seat, effect, purse, take_ok):
    (kind, arg), = effect.items()
    if kind == "gain":
        got = {r: amount(s, seat, e) for r, e in arg.items()}
        yield [], [("gain", got)], _plus(purse, got)
    elif kind == "wild":
        n = amount(s, seat, arg)
        for r in RESOURCES:
            yield [r], [("gain", {r: n})], _plus(purse, {r: n})
    elif kind == "all":
        partial = [([], [], purse)]
        for sub in arg:
            partial = [(p + p2, o + o2, pu2) for p, o, pu in partial for p2, o2, pu2 in _walk(s, seat, sub, pu, take_ok)]
        yield from partial
    elif kind == "choose":
        for i, sub in enumerate(arg):
            for p, o, pu in _walk(s, seat, sub, purse, take_ok):
                yield [i] + p, o, pu
    elif kind == "may":
        yield [False], [], purse
        for p, o, pu in _walk(s, seat, arg, purse, take_ok):
            yield [True] + p, o, pu
    elif kind == "exchange":
        yield [False], [], purse
        pay = arg["pay"]
        if all(purse[r] >= n for r, n in pay.items()):
            after = _plus(purse, {r: -n for r, n in pay.items()})
            for p, o, pu in _walk(s, seat, arg["gain"], after, take_ok):
                yield [True] + p, [("pay", dict(pay))] + o, pu
    elif kind == "take_from":
        for victim in range(len(s.seats)):
            if victim == seat:
                continue
            for r in arg["resources"]:
                n = min(arg["max"], getattr(s.seats[victim], r))
                yield [{"seat": victim, "resource": r}], [("take", victim, r, n)], _plus(purse, {r: n})
    elif kind == "take_card":
        stacks = s.takeable(arg["kind"], arg.get("max_cost"))
        if take_ok is not None:
            stacks = [st for st in stacks if take_ok(st)]
        if not stacks:
            yield [], [], purse  # nothing to take: the reward is lost
        for st in stacks:
            yield [st], [("take_card", st)], purse
    elif kind == "banish":
        stacks = s.takeable(arg, None)
        if not stacks:
            yield [], [], purse
        for st in stacks:
            yield [st], [("banish", st)], purse
    else:  # pragma: no cover - the schema admits nothing else
        raise ValueError(kind)


def _plus(purse: dict, got: dict) -> dict:
    out = dict(purse)
    for r, n in got.items():
        if r in out:
            out[r] += n
    return out
