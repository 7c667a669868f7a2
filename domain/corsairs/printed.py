"""What the Corsairs of Valeria rulebook prints, which content may not change, and how a
creation problem cites the rulebook.

Content supplies only what the rulebook does not print (the tracks, Start Island's spaces, the
11th captain's text); every number, count or name the rulebook does print is checked against
the print here, so content that changes one is refused at creation naming the field, the
printed value and the section (docs/rulings.md CV-P16).

The helpers at the top (`at`, `shadowing`, `cite`) are the same in the corsairs, league,
tesoros and chrono packages: they belong in domain/kit, which these packages may not change.
"""
from __future__ import annotations

import json
import re

ABSENT = object()


def at(x, path: tuple):
    """The value at path inside x (keys and list indexes), or ABSENT."""
    for p in path:
        found = (isinstance(x, dict) and isinstance(p, str) and p in x) or \
            (isinstance(x, list) and isinstance(p, int) and 0 <= p < len(x))
        if not found:
            return ABSENT
        x = x[p]
    return x


def shown(v) -> str:
    """A value as a refusal shows it: JSON, never long."""
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def text(x) -> str | None:
    """x when it is a string, else None: what a name or id of unchecked content is looked up by."""
    return x if isinstance(x, str) else None


def differs(got, printed) -> bool:
    """True when got is not the printed value (true and 1 are not the same number)."""
    return type(got) is not type(printed) or got != printed


def shadowing(schema_problems: list[str], printed: list[str]) -> list[str]:
    """The schema's problems but those about a field a printed-value problem already names (the
    printed one says more: the value and the section)."""
    fields = {p.split(": ", 1)[0] for p in printed}
    return [p for p in schema_problems if p.split(": ", 1)[0] not in fields]


def _under(field: str, key: str) -> bool:
    """Whether field is key or inside it; a '*' in key stands for any one part ('content.cards.*.die')."""
    pattern = re.escape(key).replace(r"\*", r"[^.\[]+")
    return re.match(pattern + r"($|[.\[])", field) is not None


_CITED = re.compile(r"\[(?!True|False|None)[A-Z][^\[\]]*\]( \([A-Z]+-[A-Z]?\d+\))?$")
_RULING = re.compile(r" \([A-Z]+-[A-Z]?\d+\)$")


def cite(problems: list[str], sections: dict[str, tuple[str, str]]) -> list[str]:
    """Each problem 'field: text' ending with its rulebook citation '[Section]' (and a ruling
    '(ID)' when it has one): a problem that does not cite one yet gets the section of its field's
    longest prefix in sections ({field prefix: (section, ruling or "")})."""
    out = []
    for p in problems:
        field = p.split(": ", 1)[0]
        keys = [k for k in sections if _under(field, k)]
        if _CITED.search(p) or not keys:
            out.append(p)
            continue
        section, ruling = sections[max(keys, key=len)]
        found = _RULING.search(p)
        if found:
            out.append(f"{p[:found.start()]} [{section}]{found.group(0)}")
        else:
            out.append(f"{p} [{section}]" + (f" ({ruling})" if ruling else ""))
    return out


# -- what Corsairs of Valeria prints ---------------------------------------------------------

RULING = "CV-P16"   # docs/rulings.md: printed numbers are not content

# (content path, printed value, what the rulebook prints, section)
PRINTED_VALUES = [
    (("silverTotal",), 35, "35 Silver Coins", "Components"),
    (("dice", "count"), 5, "5 Dice", "Components"),
    (("tracks",), 4, "4 Tracks", "Components"),
    (("captains",), 11, "11 Captain Cards", "Components"),
]
COUNTED = {("tracks",), ("captains",)}   # paths whose printed value is how many items the list holds

# [Symbol Key] the six faces a die shows (how often each comes up is content: CV-A2).
PRINTED_FACES = ("SKULL", "SKULL_GROG", "GROG", "SILVER", "MAP", "CANNON")

# [Captain Cards] the ten captains whose text is printed, by Parley's id.
PRINTED_CAPTAINS = {
    "WILLEM": "Willem the Artificer", "LUTHOR": "Luthor the Sea Artist", "MISTRESS": "Mistress of the Skull",
    "PRINCE": "Captain Prince of Bella Ire", "REO": "Reo the Cartographer", "HOOK": "Captain Hook",
    "JAGER": "Jäger Knot the Half-Orc", "BONES": "Mister Bones", "JAXN": "Captain Lucky Jax'n",
    "HASAN": "Hasan the Merchant",
}


def printed_problems(content) -> list[str]:
    """What content changes of the print, each problem with its ruling (RULING unless it has one)."""
    return [p if _RULING.search(p) else f"{p} ({RULING})" for p in _printed(content)]


def _printed(content) -> list[str]:
    """Every place where content differs from what the rulebook prints, as 'content.<field>:
    the rulebook prints X, not Y [Section]'. Reads content defensively: a part that is missing or
    of the wrong type is the schema's to report."""
    out = []
    for path, value, words, section in PRINTED_VALUES:
        got = at(content, path)
        if path in COUNTED:
            got = len(got) if isinstance(got, list) else ABSENT
        if got is not ABSENT and differs(got, value):
            field = ".".join(("content",) + path)
            out.append(f"{field}: the rulebook prints {words}, not {shown(got)} [{section}]")
    faces = at(content, ("dice", "faces"))
    if isinstance(faces, list):
        missing = [f for f in PRINTED_FACES if f not in faces]
        if missing:
            out.append(f"content.dice.faces: the rulebook prints dice with the faces {', '.join(PRINTED_FACES)}; "
                       f"missing: {', '.join(missing)} [Symbol Key] (CV-A2)")
    captains = at(content, ("captains",))
    for i, c in enumerate(captains if isinstance(captains, list) else []):
        if isinstance(c, dict) and text(c.get("id")) in PRINTED_CAPTAINS and "name" in c \
                and c["name"] != PRINTED_CAPTAINS[c["id"]]:
            out.append(f"content.captains.{i}.name: the rulebook prints {c['id']} as "
                       f"{shown(PRINTED_CAPTAINS[c['id']])}, not {shown(c['name'])} [Captain Cards]")
    return out


# Where each field of a creation is in the rulebook: (section, ruling) by field prefix (cite).
SECTIONS: dict[str, tuple[str, str]] = {
    "players": ("Components", "CV-A1"),
    "options.first_player": ("Game Setup 6", "CV-P8"),
    "options.silver_supply": ("Collect Silver Coins", "CV-A17"),
    "options.recipient_captain_powers": ("Cursed Dice", "CV-A10"),
    "options.five_skull_skips_phase_d": ("Cursed Dice", "CV-A12"),
    "options.five_grog_restart_optional": ("Acquire Grog", "CV-A14"),
    "options.hazards_on_hook_move": ("Move Your Ship", "CV-A23"),
    "options.hazards_on_jaxn_move": ("Move Your Ship", "CV-A23"),
    "options.jaxn_island_rewards": ("Captain Cards", "CV-A32"),
    "options.merchant_min_cannons": ("Use Your Cannons", "CV-A25"),
    "options.hook_max_uses": ("Captain Cards", "CV-A29"),
    "options.skull_reset_mode": ("Reaching Skull Island", "CV-A35"),
    "content.dice": ("Components", ""),
    "content.dice.faces": ("Symbol Key", "CV-A2"),
    "content.silverTotal": ("Components", ""),
    "content.startIsland": ("Game Setup 3", "CV-A6"),
    "content.skullIsland": ("Game Setup 3", ""),
    "content.tracks": ("Move Your Ship", "CV-A21"),
    "content.captains": ("Captain Cards", "CV-A3"),
    "setup": ("Game Setup 2-3", "CV-P7"),
    "setup.captains": ("Game Setup 2", "CV-P7"),
    "setup.track": ("Game Setup 3", "CV-P7"),
}
