"""What the rulebooks print, held against a creation: where each field is (SECTIONS), and the
single cards the base rulebook prints, held against custom content.

Valeria's card data is the content's: the rulebook prints no card list. But some examples and
Card Clarifications [BR p.7-14, p.18-19] print a few cards' numbers and powers, and a content
naming one of the cards listed in PRINTED must give it what the rulebook prints (docs/api.md:
content that changes a printed number or card is refused naming the field, the printed value
and the section; ruling VA-36). A card is known by its name (case, spacing and a leading 'The'
aside), as a table entering its real cards would write it; under another name (a translation)
it is the table's own. A printed power is compared in one spelling (_plain), so that the usual
ways of writing it in the effect language are the printed power, and one that does more or
other is not.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def _name(card: dict) -> str:
    words = str(card.get("name", "")).replace("\u2019", "'").lower().split()
    return " ".join(words[1:] if words[:1] == ["the"] else words)


RESOURCES = {"gold", "strength", "magic", "vp"}


def _plain(effect: Any) -> Any:
    """An effect in one spelling, for comparing with the printed one: 'may' taken off (the rulebook's
    'allows you to' and 'up to' leave the player free), an 'all' or a 'choose' of one step as that
    step, a choice's options in any order, resources listed in any order and resources of 0 left
    out, a card named in any case."""
    if isinstance(effect, list):
        return [_plain(x) for x in effect]
    if not isinstance(effect, dict):
        return effect
    if set(effect) == {"may"}:
        return _plain(effect["may"])
    if set(effect) <= {"all", "choose"} and len(effect) == 1:
        (key, steps), = effect.items()
        if isinstance(steps, list) and len(steps) == 1:
            return _plain(steps[0])
        if key == "choose" and isinstance(steps, list):
            return {"choose": sorted((_plain(x) for x in steps), key=lambda x: json.dumps(x, sort_keys=True))}
    out = {}
    for key, value in effect.items():
        if set(effect) <= RESOURCES and value == 0:
            continue
        if key == "resources" and isinstance(value, list):
            value = sorted(map(str, value))
        elif key == "name" and isinstance(value, str):
            value = value.lower()
        out[key] = _plain(value)
    return out


def _is(field: str, *printed: Any) -> Callable[[dict], bool]:
    """The card's field is one of the printed effects, however spelled."""
    spellings = [_plain(p) for p in printed]
    return lambda card: _plain(card.get(field)) in spellings


def _both(*checks: Callable[[dict], bool]) -> Callable[[dict], bool]:
    return lambda card: all(check(card) for check in checks)


def _has(field: str, value: Any) -> Callable[[dict], bool]:
    return lambda card: card.get(field) == value


def _role(role: str) -> Callable[[dict], bool]:
    return lambda card: role in (card.get("roles") or [])


TAKE = {"take_from": {"resources": ["gold", "magic"], "max": 3}}
GOLD_OR_MAGIC = {"choose": [{"take_from": {"resources": ["gold"], "max": 3}},
                            {"take_from": {"resources": ["magic"], "max": 3}}]}


def _no_take_off_turn(card: dict) -> bool:
    return "take_from" not in json.dumps(card.get("off_turn"))


def _die_power(change: dict) -> Callable[[dict], bool]:
    return _is("ongoing", [{"when": "roll", "change_die": change}])


# Where each field of a creation is in the rulebooks: (section, ruling) by field prefix. A
# creation problem that cites no section yet gets its field's (kit.printed.cite; docs/api.md:
# 'field: what is wrong [section]'). A content rule cites its own section where it is checked;
# a content field's form (its schema) cites the pages that show that kind of card or token.
# Crimson Seas' setup adds its islands: CS_SECTIONS.
SECTIONS: dict[str, tuple[str, str]] = {
    "options.citizen_types": ("BR p.4", ""),
    "options.monster_areas": ("BR p.4", ""),
    "options.first_player": ("BR p.5", ""),
    "options.duke_rounding": ("BR p.8", "VA-B4"),
    "options.expansions": ("CS Monster Event Cards", "VP-43"),
    "options.monster_events_preselected": ("CS Monster Event Cards, Setup", "VP-48"),
    "options.solo_vp_tokens": ("BR p.17", "VP-26"),
    "options.variant": ("BR p.16-18", ""),
    "content.expansions": ("BR p.3", ""),
    "content.starters": ("BR p.4", ""),
    "content.starting_resources": ("BR p.5", ""),
    "content.monsters": ("BR p.11-12", ""),
    "content.citizens": ("BR p.13-14", ""),
    "content.domains": ("BR p.14-15", ""),
    "content.dukes": ("BR p.15", ""),
    "content.monster_events": ("CS Monster Event Cards", "VP-43"),
    "content.crimson_seas": ("CS Components", ""),
    "content.crimson_seas.coxswain": ("CS Harvest Phase", ""),
    "content.crimson_seas.maps": ("CS Game Setup", ""),
    "content.crimson_seas.exekratys_start": ("CS Game Setup", ""),
    "content.crimson_seas.goods": ("CS Goods Tokens", ""),
    "content.crimson_seas.tomes": ("CS Tome Tokens", ""),
    "content.crimson_seas.rescue": ("CS Sail", ""),
    "content.crimson_seas.nobles": ("CS Noble Cards", ""),
    "content.crimson_seas.monster_events": ("CS Monster Event Cards", ""),
    "setup": ("BR p.4-5", ""),
    "setup.domains": ("BR p.4", ""),
    "setup.dukes": ("BR p.5", ""),
    "setup.first_player": ("BR p.5", ""),
    "setup.citizens": ("BR p.18", ""),
    "setup.dark_lord": ("BR p.16", "VP-19"),
    "setup.araby": ("CS Game Setup", ""),
    "setup.nae_aerie": ("CS Game Setup", ""),
    "setup.amarynth": ("CS Game Setup", ""),
}
CS_SECTIONS = {**SECTIONS, "setup": ("BR p.4-5; CS Game Setup", ""), "content.expansions": ("CS Components", "")}


def sections(cs: bool) -> dict[str, tuple[str, str]]:
    """The creation fields' sections of the valeria-card-kingdoms ruleset, or of crimson-seas."""
    return CS_SECTIONS if cs else SECTIONS


# (kind, name, check, what the rulebook prints, section)
PRINTED: list[tuple[str, str, Callable[[dict], bool], str, str]] = [
    ("citizens", "thief", _both(_has("activation", [7]), _is("on_turn", TAKE, GOLD_OR_MAGIC), _no_take_off_turn),
     "'a 2 and 5 (which is also a 7) ... activate your Thief' [BR p.7] and an on-turn power of 'taking up to 3 "
     "Gold or 3 Magic from any one player of your choice. You may not mix Resources'", "BR p.19"),
    ("citizens", "monk", _both(_has("activation", [1]), _is("off_turn", {"exchange": {
        "pay": {"gold": 1}, "gain": {"gain": {"magic": 2}}}})),
     "'a Monk (activation number 1)' and 'the Monk's power to return that 1 Gold to the Bank to gain 2 Magic'",
     "BR p.8"),
    ("citizens", "cleric", _has("activation", [1]), "the Cleric in the Activation number '1' stack with the Monk",
     "BR p.18"),
    ("citizens", "archer", _both(_has("activation", [4]), _role("soldier")),
     "'Archers (activation number 4)' [BR p.7], each with 'a Soldier Role icon'", "BR p.10"),
    ("citizens", "peasant", _both(_has("activation", [5]), _has("cost", 2), _role("worker"),
                                  _is("off_turn", {"gain": {"gold": 1}})),
     "'a Peasant (activation number 5)', its 'power to gain 1 Gold' [BR p.8], 'The cost to recruit a Peasant "
     "is 2+' [BR p.9] and 'a Worker Role icon'", "BR p.10"),
    ("citizens", "miner", lambda c: 12 in (c.get("activation") or []),
     "'the sum of your dice roll is 12. The left-side harvest payout for the Miner'", "BR p.14"),
    ("monsters", "treant", _both(_has("strength", 3), _is("reward", {"gain": {"gold": 1, "magic": 1}})),
     "'It has a Strength of 3' and 'You then take 1 Gold and 1 Magic as a reward'", "BR p.9"),
    ("monsters", "gelatinous cube", _both(_has("strength", 4), _has("magic", 1)),
     "'it has a 1 Magic and 4 Strength as its attributes'", "BR p.12"),
    ("monsters", "wraith", _is("reward", {"take_card": {"kind": "citizen", "max_cost": 2}}),
     "'a reward of a Citizen from the Center Stacks equal to or less than 2 Gold'", "BR p.19"),
    ("monsters", "orc warrior", _is("reward", {"take_card": {"kind": "citizen", "max_cost": 3}}),
     "'a reward of a Citizen from the Center Stacks equal to or less than 3 Gold'", "BR p.19"),
    ("monsters", "bane spider", _is("reward", {"choose": [{"gain": {"gold": 3}},
                                                           {"take_card": {"kind": "citizen", "name": "Knight"}}]}),
     "'a reward of 3 Gold or you may immediately take a Knight from the Center Stacks'", "BR p.18"),
    ("domains", "palace of the dawn",
     _both(_has("cost", 11), lambda c: {k: n for k, n in (c.get("roles") or {}).items() if n} == {"worker": 1, "soldier": 2},
           _die_power({"by": [-1]})),
     "'1 Worker and 2 Soldier Citizen Role icons', 'You pay 11 Gold' [BR p.10] and a power to 'reduce the value "
     "of a die by one'", "BR p.19"),
    ("domains", "foxgrove palisade", _die_power({"to": [6], "pay": {"gold": 2}}),
     "a power to 'change the value of one die to a 6 if you pay 2 Gold'", "BR p.18"),
]


def printed_card_problems(content: dict) -> list[str]:
    """Each card the content names as the rulebook prints it, with other numbers or powers."""
    out = []
    for kind, name, holds, printed, section in PRINTED:
        for k, card in enumerate(content.get(kind, [])):
            if _name(card) == name and not holds(card):
                out.append(f"content.{kind}[{k}]: {card.get('name')}: the rulebook prints {printed} [{section}] (VA-36)")
    return out
