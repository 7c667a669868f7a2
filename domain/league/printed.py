"""What the League of Pirates rulebook prints, which content may not change, and how a creation
problem cites the rulebook.

Content supplies only what the rulebook does not print (which coins are Skulls and which
Crosses, the skill values on the coin backs, the Skill Die's other faces, the Brig slots, a
points ceiling); every number, count or name it does print (the roster's names, roles, leagues
and Coin Values, the 19 starting points, the dice, the crew slots) is checked against the
print, so content that changes one is refused at creation naming the field, the printed value
and the section (docs/rulings.md LP-P10).
The helpers every game shares (reading content, showing a value, citing a section) are in
domain/kit/printed.py.
"""

from __future__ import annotations

from ..kit.printed import at, differs, shown, text, value_problems, with_ruling

# -- what League of Pirates prints -----------------------------------------------------------

RULING = "LP-P10"   # docs/rulings.md: printed numbers are not content

# (content path, printed value, what the rulebook prints, section)
PRINTED_VALUES = [
    (("startingPoints",), 19, "a point counter set to 19", "Set Up"),
    (("crewSlots", "captain"), 1, "1 Captain in a complete crew", "Set Sail"),
    (("crewSlots", "quartermaster"), 1, "1 Quartermaster in a complete crew", "Set Sail"),
    (("crewSlots", "sailingMaster"), 1, "1 Sailing Master in a complete crew", "Set Sail"),
    (("crewSlots", "surgeon"), 1, "1 Surgeon in a complete crew", "Set Sail"),
    (("crewSlots", "mate"), 3, "3 Mates in a complete crew", "Set Sail"),
    (("standardDice", "perPlayer"), 5, "five Standard Dice for each player", "Set Up"),
    (("standardDice", "faces"), [1, 2, 3, 4, 5, 6], "Standard Dice (1 to 6)", "Components"),
    (("skillDie", "perPlayer"), 1, "one Skill Die for each player", "Set Up"),
    (("coins",), 42, "2 Sets of Pirate Coins (21 Skulls & 21 Crosses)", "Components"),
]
COUNTED = {("coins",)}   # paths whose printed value is how many items the list holds

# [Set Up] "Red for Rogues, Blue for Nobles, and Yellow for Independents"
LEAGUES = {"blue": "nobles", "red": "rogues", "yellow": "independents"}
# [Raiding 2] the two skills the rulebook names
PRINTED_SKILLS = ("Martial Skill", "Virtue")

# [Pirate Coin Roster] each pirate's league (colour), role and Coin Value; every one of them is
# one coin, in one of the two sets.
ROSTER = {name: (color, role, value) for color, role, name, value in [
    ("blue", "captain", "Captain Arthur Howell", 10),
    ("blue", "captain", 'Captain Bulvar "The beserker" Kasteelgard', 8),
    ("blue", "surgeon", 'Surgeon Edward Cruikshank "Pincher"', 7),
    ("blue", "surgeon", 'Surgeon Angelina Herbert "Lady Stitch"', 7),
    ("blue", "quartermaster", 'Quartermaster Prescott "Jolly" Rogers', 9),
    ("blue", "quartermaster", 'Quartermaster Harrison "Iron Hand" Bukari', 10),
    ("blue", "sailingMaster", 'Sailing Master "Crazy" Louis Artois', 8),
    ("blue", "sailingMaster", 'Sailing Master Robert "One Bit" Stillwater', 9),
    ("blue", "mate", 'Master Gunner Jim "Dandy" Donne', 5),
    ("blue", "mate", "Powder Monkey Hawthorne Buccannon", 4),
    ("blue", "mate", "Steward Doe Eye", 3),
    ("blue", "mate", "Buffer Swimmer", 5),
    ("blue", "mate", 'Boatswain George "Sea Breeze" Middleton', 4),
    ("blue", "mate", "Minstrel Whistler", 4),
    ("red", "captain", 'Captain Count Antonio Felipe Vibora "The Terror of the Caribbean"', 9),
    ("red", "captain", 'Captain Reginald Tremble "Blackheart"', 9),
    ("red", "surgeon", "Surgeon Zhen Fang", 10),
    ("red", "surgeon", 'Surgeon Pedru "The Butcher" Vladuescu', 10),
    ("red", "quartermaster", "Quartermaster Edmund Bonesteller", 8),
    ("red", "quartermaster", 'Quartermaster Veronica Sanchez "The Spanish Banshee"', 8),
    ("red", "sailingMaster", "Sailing Master Seamus Magoon", 7),
    ("red", "sailingMaster", "Sailing Master Ill Bruto", 7),
    ("red", "mate", "Cook Gruel", 5),
    ("red", "mate", "Gunner Tick", 5),
    ("red", "mate", 'Master Gunner El Picoteador "Pecker"', 5),
    ("red", "mate", 'Gunner Pokanoket "Eagle Eye"', 3),
    ("red", "mate", "Carpenter Griper", 4),
    ("red", "mate", "Cooper Flat Hand", 5),
    ("yellow", "captain", 'Captain Erika Cottrell "Captain Harridan"', 8),
    ("yellow", "captain", 'Captain Wang Wei "The Strangler"', 11),
    ("yellow", "surgeon", 'Surgeon Geertruyt Henke "Peepers"', 7),
    ("yellow", "surgeon", "Surgeon Ukurugenzi", 8),
    ("yellow", "quartermaster", "Quartermaster Bang Wu", 8),
    ("yellow", "quartermaster", 'Quartermaster "Pitiless" Fergus Gilhanney', 8),
    ("yellow", "sailingMaster", 'Sailing Master O Macaco "The Monkey"', 9),
    ("yellow", "sailingMaster", "Sailing Master Abdul-Rafi", 8),
    ("yellow", "mate", "Waister Ren Trevaint", 3),
    ("yellow", "mate", "Boatswain Boris Rokoff", 4),
    ("yellow", "mate", "Carpenter Pickersgill", 5),
    ("yellow", "mate", "Gunner Trevor Gallows", 4),
    ("yellow", "mate", "Powder Monkey Freckle", 4),
    ("yellow", "mate", "Cooper Pike", 4),
]}


def printed_problems(content) -> list[str]:
    """What content changes of the print, each problem with its ruling (RULING unless it has one)."""
    return with_ruling(_printed(content), RULING)


def _printed(content) -> list[str]:
    """Every place where content differs from what the rulebook prints, as 'content.<field>:
    the rulebook prints X, not Y [Section]'. Reads content defensively: a part that is missing or
    of the wrong type is the schema's to report."""
    out = []
    out += value_problems(content, PRINTED_VALUES, COUNTED)
    coins = at(content, ("coins",))
    if isinstance(coins, list):
        out += _roster_problems([c if isinstance(c, dict) else {} for c in coins])
    names = at(content, ("skillNames",))
    faces = at(content, ("skillDie", "faces"))
    if isinstance(names, dict) and isinstance(faces, list):
        shown_on_die = {text(names.get(f)) for f in faces if isinstance(f, str)}
        missing = [s for s in PRINTED_SKILLS if s not in shown_on_die]
        if missing:
            out.append(f"content.skillNames: the rulebook names the skills {' and '.join(PRINTED_SKILLS)}; no face of "
                       f"the Skill Die is named {' or '.join(missing)} [Raiding 2] (LP-P10)")
    return out


def _roster_problems(coins: list[dict]) -> list[str]:
    """Each coin is a pirate of the roster, with its printed league, role and Coin Value, and each
    pirate of the roster is one coin (which set each is in is content: LP-A1)."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(coins):
        name = c.get("name")
        if not isinstance(name, str):
            continue
        if name not in ROSTER:
            out.append(f"content.coins.{i}.name: the roster prints no pirate named {shown(name)} [Pirate Coin Roster]")
            continue
        if name in seen:
            out.append(f"content.coins.{i}.name: {shown(name)} is one coin, already coins.{seen[name]} "
                       "[Pirate Coin Roster]")
        seen.setdefault(name, i)
        color, role, value = ROSTER[name]
        for field, printed, words in (("color", color, "league colour"), ("role", role, "role"),
                                      ("cunning", value, "Coin Value")):
            if field in c and differs(c[field], printed):
                out.append(f"content.coins.{i}.{field}: the roster prints {name}'s {words} as {shown(printed)}, "
                           f"not {shown(c[field])} [Pirate Coin Roster]")
        if "league" in c and text(c.get("color")) in LEAGUES and differs(c["league"], LEAGUES[c["color"]]):
            out.append(f"content.coins.{i}.league: the rulebook prints {c['color']} for the {LEAGUES[c['color']]}, "
                       f"not {shown(c['league'])} [Set Up]")
    missing = [n for n in ROSTER if n not in seen]
    if missing and len(coins) == len(ROSTER):
        out.append(f"content.coins: no coin is the roster's {', '.join(map(shown, missing[:3]))}"
                   f"{f' (and {len(missing) - 3} more)' if len(missing) > 3 else ''} [Pirate Coin Roster]")
    return out


# Where each field of a creation is in the rulebook: (section, ruling) by field prefix (cite).
SECTIONS: dict[str, tuple[str, str]] = {
    "players": ("Components", ""),
    "options.challenge_qualification": ("Dice Challenge", "LP-A4"),
    "options.full_tie": ("Dice Challenge", "LP-A9"),
    "options.allow_pass": ("Actions", "LP-A10"),
    "options.points_max": ("Resupply", "LP-A11"),
    "options.replaced_coin_return": ("Press Gang", "LP-A14"),
    "options.captain_replaceable": ("Press Gang", "LP-A15"),
    "options.reveal_drawn_coins": ("Press Gang", "LP-A18"),
    "options.traitor_on_capture": ("Turning", "LP-A20"),
    "options.traitor_skill_floor_zero": ("Raiding 2", "LP-A21"),
    "options.captain_may_defend": ("Raiding 4", "LP-A23"),
    "options.set_sail_loser_grants_action": ("Set Sail", "LP-A31"),
    "options.traitors_count_for_crew": ("Set Sail", "LP-A32"),
    "options.brig_scoring": ("Winning", "LP-A33"),
    "options.captain_self_bonus": ("Winning", "LP-A34"),
    "content.startingPoints": ("Set Up", ""),
    "content.pointsMin": ("Resupply", "LP-A11"),
    "content.pointsMax": ("Resupply", "LP-P7"),
    "content.crewSlots": ("Set Sail", ""),
    "content.brigSlots": ("Raiding 3", "LP-A26"),
    "content.standardDice": ("Set Up", ""),
    "content.skillDie": ("Raiding 2", "LP-A24"),
    "content.skillNames": ("Raiding 2", "LP-A24"),
    "content.coins": ("Pirate Coin Roster", "LP-A1"),
    "setup": ("Set Up", "LP-P1"),
}
