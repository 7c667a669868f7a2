"""Where outcomes come from. Chance is decided once, in decide(), and stored in events.

Two sources:

server  Outcomes derive from a secret 32-byte seed. Its SHA-256 commitment is published
        when the game is created and the seed itself when the game ends, so anyone can
        re-derive every outcome: draw number i (0, 1, ...) of the command decided at log
        position p (the game's version before that command; setup uses p = 0) is
            int.from_bytes(sha256(seed || b":%d:%d" % (p, i))[:8], "big") % n
        for a choice among n possibilities. A shuffle of k items is a Fisher-Yates shuffle
        drawing j = draw(i+1) for i from k-1 down to 1 and swapping items i and j.
table   The client reports what was rolled or drawn at a physical table, in the command
        itself; the rules validate that the outcome is possible and everything else.
        A card drawn or an order shuffled is checked against the pool it came from, and that
        pool may hold what a seat must not see (another seat's hand, the deck). So the service
        says who reports: TableChance(reporter="seat") refuses every draw and shuffle outcome,
        the same way whatever the pool holds and before looking at it; only the host token
        (the table's device) reports those. Dice may be reported by anyone. The default
        reporter, "table", accepts all (domain tests, verification of an export).
"""
from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from typing import Any

from .kit import Section, spelled
from .ruleset import Rejected

CHANCE_RULE = Section("Parley: chance")
TABLE_RULE = Section("Parley: table mode")


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


class ServerChance:
    mode = "server"

    def __init__(self, seed_hex: str, position: int):
        self._seed_hex = seed_hex
        self._seed = bytes.fromhex(seed_hex)
        self._position = position
        self._draws = 0

    @property
    def commitment(self) -> str:
        return commitment(self._seed_hex)

    def reveal(self) -> str:
        """The seed, for the event that ends the game."""
        return self._seed_hex

    def draw(self, n: int) -> int:
        """A number in range(n)."""
        digest = hashlib.sha256(self._seed + b":%d:%d" % (self._position, self._draws)).digest()
        self._draws += 1
        return int.from_bytes(digest[:8], "big") % n

    def roll(self, count: int, faces: Sequence[str], supplied: Any, field: str) -> list[str]:
        if supplied is not None:
            raise Rejected("CHANCE_FROM_SERVER", CHANCE_RULE,
                           f"This game rolls on the server; do not send '{field}'.")
        return [faces[self.draw(len(faces))] for _ in range(count)]

    def pick(self, items: Sequence[Any], count: int, supplied: Any, field: str, where: str = "") -> list[Any]:
        """count distinct items drawn blindly, one after another (draw(len) each time)."""
        if supplied is not None:
            raise Rejected("CHANCE_FROM_SERVER", CHANCE_RULE,
                           f"This game draws on the server; do not send '{field}'.")
        pool = list(items)
        return [pool.pop(self.draw(len(pool))) for _ in range(min(count, len(pool)))]

    def shuffle(self, items: Sequence[Any], supplied: Any, field: str) -> list[Any]:
        if supplied is not None:
            raise Rejected("CHANCE_FROM_SERVER", CHANCE_RULE,
                           f"This game shuffles on the server; do not send '{field}'.")
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.draw(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def needed(count: int) -> str:
    """How many items a table's report must hold, in words: "1 is needed", "3 are needed"."""
    return "1 is needed" if count == 1 else f"{count} are needed"


def not_there(field: str, item: Any, position: int, where: str, taken: str = "drawn from",
              reported: Sequence[Any] = ()) -> Rejected:
    """The refusal of an item a table reported that the pool it came from cannot have held:
    the field, the item, its place in the field's list, and what it was taken from; of an item
    the same list named before (reported: the whole list), that it did, since the host's list
    the refusal points to may well hold it. Raised only after TableChance.require_host (TM-1)."""
    return Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                    f"'{field}': {spelled(item)} cannot have been {taken} there{_again(item, position, reported)} "
                    f"(item {position}: {where}).")


def _again(item: Any, position: int, reported: Sequence[Any]) -> str:
    """The words ' again, after item k' when the list named `item` before `position` (k: the last time)."""
    earlier = [k + 1 for k, x in enumerate(list(reported)[:position - 1]) if x == item]
    return f" again, after item {earlier[-1]}" if earlier else ""


class TableChance:
    mode = "table"
    commitment = None

    def __init__(self, reporter: str = "table"):
        if reporter not in ("table", "host", "seat"):
            raise ValueError(f"reporter must be table, host or seat, not {reporter!r}")
        self.reporter = reporter

    def reveal(self) -> None:
        return None

    def require_host(self, field: str) -> None:
        """Refuse a seat's report of a draw (docs/rulings.md TM-1): call it before the pool is
        looked at, so the answer cannot depend on what the pool holds."""
        if self.reporter == "seat":
            raise Rejected("TABLE_OUTCOME_FROM_HOST", TABLE_RULE,
                           f"At a table, what is drawn or shuffled ('{field}') is reported by the "
                           "host token (the table's device), not by a seat's token.", ruling="TM-1")

    def roll(self, count: int, faces: Sequence[str], supplied: Any, field: str) -> list[str]:
        dice = f"{count} face{'' if count == 1 else 's'}"
        if supplied is None:
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           f"This game is played at a table: send the {dice} rolled in '{field}'.")
        allowed = list(dict.fromkeys(faces))
        one_of = ", ".join(map(str, sorted(allowed)))
        if isinstance(supplied, list) and len(supplied) < count:
            # A face missing, as a draw missing an item is said (Parley: chance): how many are needed.
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           f"'{field}' must list the face of every die rolled: {needed(count)}, and "
                           f"{len(supplied)} {'was' if len(supplied) == 1 else 'were'} sent; each is one of {one_of}.")
        if not isinstance(supplied, list) or len(supplied) != count:
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                           f"'{field}' must list exactly {dice}, one for each die rolled, each one of {one_of}.")
        for k, f in enumerate(supplied):
            if not (type(f) is type(allowed[0]) and f in allowed):   # 2.0 is not the face 2 (nor True the face 1)
                shown = json.dumps(f) if isinstance(f, (int, float, str, bool)) or f is None else "that value"
                raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                               f"'{field}' item {k + 1}: {shown[:40]} is not a face of the die; each is one of {one_of}.")
        return list(supplied)

    def pick(self, items: Sequence[Any], count: int, supplied: Any, field: str, where: str = "") -> list[Any]:
        """The items the table drew; the message never lists what the pool holds. where: what they
        are drawn from, and where the host's view lists the ids (for the host's refusals only)."""
        self.require_host(field)
        count = min(count, len(items))
        if supplied is None:
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           f"This game is played at a table: send in '{field}' what was drawn; {needed(count)}"
                           + (f" ({where})" if where else "") + ".")
        pool = list(items)
        if isinstance(supplied, list) and len(supplied) < count:
            # An item missing, as the rulesets that draw in steps say it: which one, and from where.
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           f"'{field}' must list every one drawn; {needed(count)}"
                           f" (item {len(supplied) + 1}" + (f": {where}" if where else "") + ").")
        if not isinstance(supplied, list) or len(supplied) != count:
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                           f"'{field}' must list exactly what was drawn: {count} item{'' if count == 1 else 's'}"
                           + (f" ({where})" if where else "") + ".")
        for k, x in enumerate(supplied):
            if x not in pool:
                if where:
                    raise not_there(field, x, k + 1, where, reported=supplied)
                raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                               f"'{field}': {spelled(x)} cannot have been drawn from there{_again(x, k + 1, supplied)}.")
            pool.remove(x)
        return list(supplied)

    def shuffle(self, items: Sequence[Any], supplied: Any, field: str) -> list[Any]:
        self.require_host(field)
        if supplied is None:
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           f"This game is played at a table: send the order drawn in '{field}'.")
        if not isinstance(supplied, list) or sorted(map(repr, supplied)) != sorted(map(repr, items)):
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                           f"'{field}' must be an ordering of exactly these items: {json.dumps(list(items), default=str)}.")
        return list(supplied)
