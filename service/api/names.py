"""Player names follow a real profile: PRECIS Nickname (RFC 8266), through precis-i18n.

`enforce_names` turns the names a creation request sends into the names the game stores, or
says why one cannot be a name. The rule, in order, for each name (docs/api.md, "Creating a
game"):

1. It must have a visible character: a name made only of format characters (Cf: ZWJ, ZWNJ,
   soft hyphen, tag characters), marks (Mn, Me: combining accents, variation selectors),
   separators (Zs, Zl, Zp: spaces, NBSP), controls (Cc) or fillers that draw nothing although
   Unicode calls them letters or symbols (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
   the Braille blank U+2800, the Khmer inherent vowels U+17B4, U+17B5) is refused. This is
   checked before and after enforcement, because PRECIS lets a lone combining mark through.
2. It is enforced with the RFC 8266 Nickname profile without its case mapping
   (precis-i18n's NicknameCasePreserved): spaces of every kind become U+0020, leading and
   trailing spaces go, inner runs of spaces become one, then NFKC (which includes NFC), then
   the FreeformClass refuses what a nickname may not hold (unassigned code points, default
   ignorables, old Hangul jamo, a ZWJ or ZWNJ outside the scripts that need it, ...). RFC 8266
   says the enforced string is the one to show and compare, so it is what the game stores;
   case is kept because a name is shown, and RFC 8266 case-maps only to compare.
   One addition: emoji sequences (UTS #51) keep their joiners. A U+200D between two symbols
   and a U+FE0F after a symbol are set aside before enforcement and put back after, so
   "Kira 🏴‍☠️" stays a pirate flag; RFC 8266 alone would refuse it.
3. It is 1 to 64 characters once enforced (NFKC can lengthen a name).
4. No two players at the table share a nickname as RFC 8266 compares them (the
   NicknameCaseMapped profile: "Kira", "KIRA" and " kira" are one nickname).
"""
from __future__ import annotations

import unicodedata

from precis_i18n import get_profile

MAX_LENGTH = 64

_ENFORCE = get_profile("NicknameCasePreserved")
_COMPARE = get_profile("NicknameCaseMapped")

INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Mn", "Me", "Zs", "Zl", "Zp"})
# Letters and symbols, by category, that draw nothing.
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")

ZWJ, VS16 = "\u200d", "\ufe0f"
# Stand-ins for emoji joiners while the profile runs: symbols (So) that NFKC and case mapping
# leave alone and that the FreeformClass allows. A name that already holds one is enforced as
# it is: its stand-in stays what it is, and its joiners are refused as RFC 8266 says.
_STAND_INS = {ZWJ: "\u2bd2", VS16: "\u2bd3"}
_EMOJI_MODIFIERS = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))


class BadName(ValueError):
    """Why a name cannot be a player's name, as the end of a sentence ("has no ...")."""


def is_invisible(ch: str) -> bool:
    return ch in FILLERS or unicodedata.category(ch) in INVISIBLE_CATEGORIES


def has_visible_character(name: str) -> bool:
    return any(not is_invisible(ch) for ch in name)


def _is_symbol(ch: str) -> bool:
    return unicodedata.category(ch) == "So"


def _set_joiners_aside(name: str) -> str:
    """The name with each emoji joiner replaced by its stand-in (step 2 of the rule)."""
    if any(s in name for s in _STAND_INS.values()):
        return name
    out = []
    for i, ch in enumerate(name):
        if ch == VS16 and i > 0 and _is_symbol(name[i - 1]):
            out.append(_STAND_INS[VS16])
        elif ch == ZWJ and 0 < i < len(name) - 1 and _is_symbol(name[i + 1]):
            j = i - 1
            while j > 0 and (name[j] == VS16 or name[j] in _EMOJI_MODIFIERS):
                j -= 1
            out.append(_STAND_INS[ZWJ] if _is_symbol(name[j]) else ch)
        else:
            out.append(ch)
    return "".join(out)


def _put_joiners_back(name: str) -> str:
    for joiner, stand_in in _STAND_INS.items():
        name = name.replace(stand_in, joiner)
    return name


def _refusal(error: UnicodeError, name: str) -> str:
    reason = getattr(error, "reason", "")
    what = reason.split("/", 1)[-1].replace("_", " ") if "/" in reason else str(error)
    start = getattr(error, "start", None)
    if what == "empty" or start is None or start >= len(name):
        return f"is not a valid nickname (RFC 8266): {what}"
    ch = name[start]
    label = unicodedata.name(ch, "") or {"Co": "private use", "Cn": "unassigned"}.get(
        unicodedata.category(ch), "unnamed")
    return (f"is not a valid nickname (RFC 8266): U+{ord(ch):04X} {label} "
            f"is not allowed ({what})")


def _enforce(name: str) -> tuple[str, str]:
    """The stored form of one name and the form RFC 8266 compares, or BadName saying why."""
    if not has_visible_character(name):
        raise BadName("has no visible character")
    nfc = unicodedata.normalize("NFC", name)
    prepared = _set_joiners_aside(nfc)
    # Only stand-ins this function put there are turned back into joiners.
    restore = _put_joiners_back if prepared != nfc else (lambda text: text)
    try:
        enforced = restore(_ENFORCE.enforce(prepared))
        compared = restore(_COMPARE.enforce(prepared))
    except UnicodeError as error:
        raise BadName(_refusal(error, restore(unicodedata.normalize("NFKC", prepared)))) from error
    if not has_visible_character(enforced):
        raise BadName("has no visible character")
    if prepared != nfc and {ZWJ, VS16} & set(_set_joiners_aside(enforced)):
        # NFKC turned a symbol beside a joiner into something else ("\u2122" is "TM").
        raise BadName("is not a valid nickname (RFC 8266): a joiner outside an emoji sequence")
    if len(enforced) > MAX_LENGTH:
        raise BadName(f"is {len(enforced)} characters once normalized; at most {MAX_LENGTH}")
    return enforced, compared


def enforce(name: str) -> str:
    """The stored form of one name, or BadName saying why there is none."""
    return _enforce(name)[0]


def searched(name: str) -> str:
    """A name asked for by GET /games?player=, in the form names are stored: enforced as a
    nickname (spaces, width and compatibility forms, composed accents), so that the list's
    case-insensitive match finds "Kira" for " KIRA " or "Ｋｉｒａ" as RFC 8266 compares them. A
    name that cannot be a nickname is looked for as sent: no stored name can match it."""
    try:
        return enforce(name)
    except BadName:
        return name


def enforce_names(names: list[str]) -> tuple[list[str], dict[int, str]]:
    """The stored names and, by index, why each refused one was refused."""
    stored: list[str] = []
    refused: dict[int, str] = {}
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        try:
            value, key = _enforce(name)
        except BadName as why:
            refused[i] = str(why)
            stored.append(name)
            continue
        stored.append(value)
        if key in seen:
            refused[i] = f"is the same nickname as player {seen[key] + 1}'s"
        else:
            seen[key] = i
    return stored, refused
