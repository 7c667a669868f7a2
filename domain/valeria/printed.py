"""What the base rulebook prints about single cards, held against custom content.

Valeria's card data is the content's: the rulebook prints no card list. But its examples and
Card Clarifications [BR p.7-9, p.18-19] print a few cards' numbers and powers, and a content
naming one of those cards must give it what the rulebook prints (docs/api.md: content that
changes a printed number or card is refused naming the field, the printed value and the
section; ruling VA-36). A card is known by its name (case and a leading 'The' aside), as a
table entering its real cards would write it. Each check reads the content's effect language
loosely where the rulebook's words allow more than one spelling (the Thief's two resources in
either order).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _name(card: dict) -> str:
    name = str(card.get("name", "")).strip().lower().replace("\u2019", "'")
    return name.removeprefix("the ")


def _take_from(card: dict) -> dict | None:
    on_turn = card.get("on_turn")
    return on_turn.get("take_from") if isinstance(on_turn, dict) else None


def _thief(card: dict) -> bool:
    taken = _take_from(card)
    return (isinstance(taken, dict) and sorted(taken.get("resources") or []) == ["gold", "magic"]
            and taken.get("max") == 3)


def _reward_citizen_up_to(cost: int) -> Callable[[dict], bool]:
    return lambda card: card.get("reward") == {"take_card": {"kind": "citizen", "max_cost": cost}}


def _bane_spider(card: dict) -> bool:
    choices = (card.get("reward") or {}).get("choose")
    return isinstance(choices, list) and len(choices) == 2 and {"gain": {"gold": 3}} in choices and \
        {"take_card": {"kind": "citizen", "name": "Knight"}} in choices


def _die_power(change: dict) -> Callable[[dict], bool]:
    return lambda card: card.get("ongoing") == [{"when": "roll", "change_die": change}]


# (kind, name, check, what the rulebook prints, section)
PRINTED: list[tuple[str, str, Callable[[dict], bool], str, str]] = [
    ("citizens", "thief", _thief,
     "an on-turn power of 'taking up to 3 Gold or 3 Magic from any one player of your choice. You may not mix "
     "Resources'", "BR p.19"),
    ("citizens", "monk", lambda c: c.get("activation") == [1], "'a Monk (activation number 1)'", "BR p.8"),
    ("citizens", "cleric", lambda c: c.get("activation") == [1],
     "the Cleric in the Activation number '1' stack with the Monk", "BR p.18"),
    ("citizens", "archer", lambda c: c.get("activation") == [4], "'Archers (activation number 4)'", "BR p.7"),
    ("citizens", "peasant", lambda c: c.get("activation") == [5] and c.get("cost") == 2,
     "'a Peasant (activation number 5)' [BR p.8] and 'The cost to recruit a Peasant is 2+'", "BR p.9"),
    ("monsters", "wraith", _reward_citizen_up_to(2),
     "'a reward of a Citizen from the Center Stacks equal to or less than 2 Gold'", "BR p.19"),
    ("monsters", "orc warrior", _reward_citizen_up_to(3),
     "'a reward of a Citizen from the Center Stacks equal to or less than 3 Gold'", "BR p.19"),
    ("monsters", "bane spider", _bane_spider,
     "'a reward of 3 Gold or you may immediately take a Knight from the Center Stacks'", "BR p.18"),
    ("domains", "palace of the dawn", _die_power({"by": [-1]}),
     "a power to 'reduce the value of a die by one'", "BR p.19"),
    ("domains", "foxgrove palisade", _die_power({"to": [6], "pay": {"gold": 2}}),
     "a power to 'change the value of one die to a 6 if you pay 2 Gold'", "BR p.18"),
]


def _takes_from_a_player(effect: Any) -> bool:
    if isinstance(effect, dict):
        return "take_from" in effect or any(_takes_from_a_player(v) for v in effect.values())
    if isinstance(effect, list):
        return any(_takes_from_a_player(v) for v in effect)
    return False


def printed_card_problems(content: dict) -> list[str]:
    """Each card the content names as the rulebook prints it, with other numbers or powers; and a
    Citizen other than the Thief taking from a player ([BR p.7] 'The only Citizen that takes from
    another player is the Thief')."""
    out = []
    for kind, name, holds, printed, section in PRINTED:
        for card in content.get(kind, []):
            if _name(card) == name and not holds(card):
                out.append(f"content.{kind}[{card.get('id')}]: the rulebook prints {printed} [{section}] (VA-36)")
    for card in content.get("citizens", []):
        if _name(card) != "thief" and any(_takes_from_a_player(card.get(side)) for side in ("on_turn", "off_turn")):
            out.append(f"content.citizens[{card.get('id')}]: 'The only Citizen that takes from another player is the "
                       "Thief.' [BR p.7] (VA-36)")
    return out
