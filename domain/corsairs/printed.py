"""What the Corsairs of Valeria rulebook prints, which content may not change, and how a
creation problem cites the rulebook.

Content supplies only what the rulebook does not print (the tracks, Start Island's spaces, the
11th captain's text); every number, count or name the rulebook does print is checked against
the print here, so content that changes one is refused at creation naming the field, the
printed value and the section (docs/rulings.md CV-P16).
The helpers every game shares (reading content, showing a value, citing a section) are in
domain/kit/printed.py.
"""
from __future__ import annotations

from ..kit.printed import at, shown, text, value_problems, with_ruling

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
    return with_ruling(_printed(content), RULING)


def _printed(content) -> list[str]:
    """Every place where content differs from what the rulebook prints, as 'content.<field>:
    the rulebook prints X, not Y [Section]'. Reads content defensively: a part that is missing or
    of the wrong type is the schema's to report."""
    out = []
    out += value_problems(content, PRINTED_VALUES, COUNTED)
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
