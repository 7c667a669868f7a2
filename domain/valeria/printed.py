"""What the base rulebook prints about single cards, held against custom content.

Valeria's card data is the content's: the rulebook prints no card list. But its examples and
Card Clarifications [BR p.7-10, p.18-19] print a few cards' numbers and powers, and a content
naming one of those cards must give it what the rulebook prints (docs/api.md: content that
changes a printed number or card is refused naming the field, the printed value and the
section; ruling VA-36). A card is known by its name (case, spacing and a leading 'The' aside),
as a table entering its real cards would write it; under another name (a translation) it is
the table's own. A power is checked only for what the rulebook's words fix, wherever the
effect language puts it: the Thief's take may be optional ('may') or split into a choice of
Gold or Magic, and is still the printed power.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def _name(card: dict) -> str:
    words = str(card.get("name", "")).replace("\u2019", "'").lower().split()
    return " ".join(words[1:] if words[:1] == ["the"] else words)


def _under(effect: Any, key: str) -> Iterator[Any]:
    """Every value the effect holds under `key`, however deep."""
    if isinstance(effect, dict):
        for k, v in effect.items():
            if k == key:
                yield v
            yield from _under(v, key)
    elif isinstance(effect, list):
        for v in effect:
            yield from _under(v, key)


def _holds(effect: Any, part: dict) -> bool:
    """Whether `part` is one of the effect's steps, however deep."""
    if effect == part:
        return True
    items = effect.values() if isinstance(effect, dict) else effect if isinstance(effect, list) else ()
    return any(_holds(v, part) for v in items)


def _thief(card: dict) -> bool:
    """'taking up to 3 Gold or 3 Magic ... You may not mix Resources' [BR p.19]."""
    takes = [t for t in _under(card.get("on_turn"), "take_from") if isinstance(t, dict)]
    named = {r for t in takes for r in (t.get("resources") or [])}
    return bool(takes) and named == {"gold", "magic"} and all(t.get("max") == 3 for t in takes)


def _citizen_up_to(cost: int) -> Callable[[dict], bool]:
    def holds(card: dict) -> bool:
        takes = [t for t in _under(card.get("reward"), "take_card") if isinstance(t, dict)]
        return bool(takes) and all(t.get("kind") == "citizen" and t.get("max_cost") == cost for t in takes)
    return holds


def _bane_spider(card: dict) -> bool:
    knights = [t for t in _under(card.get("reward"), "take_card") if isinstance(t, dict) and t.get("name") == "Knight"]
    return _holds(card.get("reward"), {"gain": {"gold": 3}}) and bool(knights)


def _die_power(change: dict) -> Callable[[dict], bool]:
    def holds(card: dict) -> bool:
        changes = list(_under(card.get("ongoing"), "change_die"))
        return bool(changes) and all(c == change for c in changes)
    return holds


def _monk(card: dict) -> bool:
    """'a Monk (activation number 1)'; 'use the Monk's power to return that 1 Gold to the Bank to
    gain 2 Magic' [BR p.8], as a player who is not active."""
    trades = [x for x in _under(card.get("off_turn"), "exchange") if isinstance(x, dict)]
    return card.get("activation") == [1] and any(
        x.get("pay") == {"gold": 1} and _holds(x.get("gain"), {"magic": 2}) for x in trades)


def _peasant(card: dict) -> bool:
    """'a Peasant (activation number 5)', 'the Peasant's power to gain 1 Gold' [BR p.8] as a player
    who is not active, 'The cost to recruit a Peasant is 2+' [BR p.9], 'a Peasant (which has a
    Worker Role icon)' [BR p.10]."""
    return (card.get("activation") == [5] and card.get("cost") == 2 and "worker" in (card.get("roles") or [])
            and _holds(card.get("off_turn"), {"gain": {"gold": 1}}))


# (kind, name, check, what the rulebook prints, section)
PRINTED: list[tuple[str, str, Callable[[dict], bool], str, str]] = [
    ("citizens", "thief", _thief,
     "an on-turn power of 'taking up to 3 Gold or 3 Magic from any one player of your choice. You may not mix "
     "Resources'", "BR p.19"),
    ("citizens", "monk", _monk,
     "'a Monk (activation number 1)' and 'the Monk's power to return that 1 Gold to the Bank to gain 2 Magic'",
     "BR p.8"),
    ("citizens", "cleric", lambda c: c.get("activation") == [1],
     "the Cleric in the Activation number '1' stack with the Monk", "BR p.18"),
    ("citizens", "archer", lambda c: c.get("activation") == [4] and "soldier" in (c.get("roles") or []),
     "'Archers (activation number 4)' [BR p.7], each with 'a Soldier Role icon'", "BR p.10"),
    ("citizens", "peasant", _peasant,
     "'a Peasant (activation number 5)', its 'power to gain 1 Gold' [BR p.8], 'The cost to recruit a Peasant "
     "is 2+' [BR p.9] and 'a Worker Role icon'", "BR p.10"),
    ("monsters", "wraith", _citizen_up_to(2),
     "'a reward of a Citizen from the Center Stacks equal to or less than 2 Gold'", "BR p.19"),
    ("monsters", "orc warrior", _citizen_up_to(3),
     "'a reward of a Citizen from the Center Stacks equal to or less than 3 Gold'", "BR p.19"),
    ("monsters", "bane spider", _bane_spider,
     "'a reward of 3 Gold or you may immediately take a Knight from the Center Stacks'", "BR p.18"),
    ("domains", "palace of the dawn",
     lambda c: c.get("cost") == 11 and c.get("roles") == {"worker": 1, "soldier": 2}
     and _die_power({"by": [-1]})(c),
     "'1 Worker and 2 Soldier Citizen Role icons', 'You pay 11 Gold' [BR p.10] and a power to 'reduce the value "
     "of a die by one'", "BR p.19"),
    ("domains", "foxgrove palisade", _die_power({"to": [6], "pay": {"gold": 2}}),
     "a power to 'change the value of one die to a 6 if you pay 2 Gold'", "BR p.18"),
]


def _takes_from_a_player(card: dict) -> bool:
    return any(True for side in ("on_turn", "off_turn") for _ in _under(card.get(side), "take_from"))


def printed_card_problems(content: dict) -> list[str]:
    """Each card the content names as the rulebook prints it, with other numbers or powers; and
    more than one Citizen type taking from players ([BR p.7] 'The only Citizen that takes from
    another player is the Thief', whatever the table calls it)."""
    out = []
    for kind, name, holds, printed, section in PRINTED:
        for k, card in enumerate(content.get(kind, [])):
            if _name(card) == name and not holds(card):
                out.append(f"content.{kind}[{k}]: {card.get('name')}: the rulebook prints {printed} [{section}] (VA-36)")
    takers = [(k, c) for k, c in enumerate(content.get("citizens", [])) if _takes_from_a_player(c)]
    if len(takers) > 1:
        listed = ", ".join(f"{c.get('name')} (content.citizens[{k}])" for k, c in takers)
        out.append(f"content.citizens: 'The only Citizen that takes from another player is the Thief.' [BR p.7], but "
                   f"{listed} do (VA-36)")
    return out
