"""What the Los Tesoros del Rey Pirata rulebook prints, which content may not change, and how a
creation problem cites the rulebook.

Content supplies only what the rulebook does not print (the board, the die value of most cards,
the Mutiny/Sabotage and Equipment splits, the Map cards, the Victory Points, the Blank Events);
every number, count or name it does print is checked against the print, so content that changes
one is refused at creation naming the field, the printed value and the section (docs/rulings.md
TP-12).
The helpers every game shares (reading content, showing a value, citing a section) are in
domain/kit/printed.py.
"""

from __future__ import annotations

from ..kit.printed import at, differs, shown, text, value_problems, with_ruling

# -- what Los Tesoros del Rey Pirata prints --------------------------------------------------

RULING = "TP-12"   # docs/rulings.md: printed numbers are not content

# (content path, printed value, what the rulebook prints, section)
PRINTED_VALUES = [
    (("handSize",), 5, "5 cards dealt to each player", "Setup 3"),
    (("handLimit",), 8, "a hand limit of 8 cards", "Player Turn"),
    (("openMaps",), 3, "3 Map Cards revealed", "Setup 5"),
    (("playCards",), 42, "a Play Deck of 42 cards (12 Treason, 8 Protection, 16 Equipment, 6 Die)", "Contents"),
    (("maps",), 12, "12 Map cards", "Contents"),
]
COUNTED = {("playCards",), ("maps",)}   # paths whose printed value is how many items the list holds

# [Fire Cannons and Challenge to Duel] the examples' four Ship colours
PRINTED_COLORS = ("brown", "white", "grey", "black")
# [Contents], [Treason and Protection Cards], [Equipment Cards], [Cards with Dice]: each card's name
PRINTED_NAMES = {"mutiny": "Mutiny", "sabotage": "Sabotage", "walk_the_plank": "Walk the Plank",
                 "machetes_swords": "Machetes & Swords", "cannons_pistols": "Cannons & Pistols",
                 "compass_sextant": "Compass & Sextant", "lamps_shovels": "Lamps & Shovels",
                 "sirens_song": "Siren's Song", "smooth_sailing": "Smooth Sailing",
                 "pirate_kings_favor": "Pirate King's Favor"}
# [Cards with Dice] the Die cards' printed values
DIE_CARD_VALUES = {"sirens_song": 1, "smooth_sailing": 6, "pirate_kings_favor": 7}
# Cards whose printed die the examples show: (subtype, die, section)
EXAMPLE_CARDS = [("sabotage", 3, "Treason and Protection Cards"), ("walk_the_plank", 1, "Treason and Protection Cards"),
                 ("mutiny", 6, "Treason and Protection Cards"), ("mutiny", 2, "Example of Play")]
# [Claim Treasure] the four types of Treasure
TREASURE_NAMES = {"jewels": "Jewels", "magic": "Magic", "merchandise": "Merchandise", "gold": "Gold"}
# [Event Cards] the five printed Event cards (the two Blank ones are the content's own)
PRINTED_EVENTS = {"damned_lighthouse": "Damned Lighthouse", "storm": "Storm", "scurvy": "Scurvy",
                  "outrage": "Outrage", "rumors": "Rumors"}
# [Movement] and [Example of Play]: the islands the rulebook names, by the words that name them
PRINTED_ISLANDS = {"Tortuga Island": ("tortuga",), "Puerto Viejo": ("puerto viejo",),
                   "Isla del Volcán (Volcano Island)": ("volcán", "volcano"),
                   "Ghost Island": ("ghost", "fantasma"), "Mysterious Island": ("mysterious", "misteriosa")}


def printed_problems(content) -> list[str]:
    """What content changes of the print, each problem with its ruling (RULING unless it has one)."""
    return with_ruling(_printed(content), RULING)


def _printed(content) -> list[str]:
    """Every place where content differs from what the rulebook prints, as 'content.<field>:
    the rulebook prints X, not Y [Section]'. Reads content defensively: a part that is missing or
    of the wrong type is the schema's to report."""
    out = []
    out += value_problems(content, PRINTED_VALUES, COUNTED)
    colors = at(content, ("colors",))
    if isinstance(colors, list) and sorted(map(str, colors)) != sorted(PRINTED_COLORS):
        out.append(f"content.colors: the rulebook's Ships are {', '.join(PRINTED_COLORS)}, not {shown(colors)} "
                   "[Fire Cannons and Challenge to Duel]")
    cards = at(content, ("playCards",))
    if isinstance(cards, list):
        out += _card_problems([c if isinstance(c, dict) else {} for c in cards])
    return out + _named_problems(content)


def _card_problems(cards: list[dict]) -> list[str]:
    """The Play Deck: the printed names, the Die cards' values and the cards the examples show."""
    out = []
    for i, c in enumerate(cards):
        sub = text(c.get("subtype"))
        if sub in PRINTED_NAMES and "name" in c and c["name"] != PRINTED_NAMES[sub]:
            out.append(f"content.playCards.{i}.name: the rulebook names a {sub} card {shown(PRINTED_NAMES[sub])}, "
                       f"not {shown(c['name'])} [Contents]")
        if sub in DIE_CARD_VALUES and "die" in c and differs(c["die"], DIE_CARD_VALUES[sub]):
            out.append(f"content.playCards.{i}.die: the rulebook prints {PRINTED_NAMES[sub]} as a die with a "
                       f"{DIE_CARD_VALUES[sub]}, not {shown(c['die'])} [Cards with Dice]")
    for sub, die, section in EXAMPLE_CARDS:
        if len(cards) == 42 and not any(c.get("subtype") == sub and c.get("die") == die for c in cards):
            out.append(f"content.playCards: the rulebook's example shows a {PRINTED_NAMES[sub]} card printed with a "
                       f"{die}; none here has one [{section}] (TP-12)")
    return out


def _named_problems(content) -> list[str]:
    """The Treasure types, the printed Event cards and the islands the rulebook names."""
    out = []
    types = at(content, ("treasureTypes",))
    for i, t in enumerate(types if isinstance(types, list) else []):
        if isinstance(t, dict) and text(t.get("id")) in TREASURE_NAMES and "name" in t \
                and t["name"] != TREASURE_NAMES[t["id"]]:
            out.append(f"content.treasureTypes.{i}.name: the rulebook names the {t['id']} Treasure "
                       f"{shown(TREASURE_NAMES[t['id']])}, not {shown(t['name'])} [Claim Treasure]")
    events = at(content, ("events",))
    if isinstance(events, list):
        have = {(text(e.get("effect")), text(e.get("name"))) for e in events if isinstance(e, dict)}
        missing = [name for effect, name in PRINTED_EVENTS.items() if (effect, name) not in have]
        if missing:
            out.append(f"content.events: the rulebook prints the Event cards {', '.join(PRINTED_EVENTS.values())}; "
                       f"missing: {', '.join(missing)} [Event Cards] (TA-32)")
    islands = at(content, ("board", "islands"))
    if isinstance(islands, list):
        names = [str(i.get("name", "")).lower() for i in islands if isinstance(i, dict)]
        missing = [p for p, words in PRINTED_ISLANDS.items() if not any(w in n for n in names for w in words)]
        if missing:
            out.append(f"content.board.islands: the rulebook names the islands {', '.join(PRINTED_ISLANDS)}; "
                       f"missing: {', '.join(missing)} [Example of Play] (TA-34)")
    width, height, rose = (at(content, ("board", k)) for k in ("width", "height", "compassRose"))
    if isinstance(width, int) and isinstance(height, int) and isinstance(rose, list) and len(rose) == 2 \
            and all(type(v) is int for v in rose) \
            and (rose[0] not in {(width - 1) // 2, width // 2} or rose[1] not in {(height - 1) // 2, height // 2}):
        out.append(f"content.board.compassRose: the rulebook puts the Compass Rose in the center of the Board, "
                   f"not at {shown(rose)} of a {width} x {height} board [Setup 5]")
    return out

# Where each field of a creation is in the rulebook: (section, ruling) by field prefix (cite).
SECTIONS: dict[str, tuple[str, str]] = {
    "players": ("Contents", ""),
    "options.first_player": ("Starting the Game", "TA-36"),
    "options.pact_of_the_waves": ("Variants", "TA-31"),
    "options.scanning_the_horizon": ("Variants", "TA-29"),
    "options.chaos_on_the_high_seas": ("Variants", "TA-30"),
    "options.sudden_death_max_turns": ("Victory and End of Game", "TA-6"),
    "options.ship_colors": ("Setup 1", "TP-20"),
    "content.colors": ("Contents", ""),
    "content.handSize": ("Setup 3", ""),
    "content.handLimit": ("Player Turn", ""),
    "content.openMaps": ("Setup 5", ""),
    "content.board": ("Movement", "TA-23"),
    "content.board.compassRose": ("Setup 5", ""),
    "content.playCards": ("Contents", ""),
    "content.playCards.*.die": ("Use of the Dice (Assign Die Value)", ""),
    "content.treasureTypes": ("Claim Treasure", "TA-52"),
    "content.maps": ("Claim Treasure", "TA-39"),
    "content.events": ("Event Cards", "TA-32"),
    "setup": ("Setup", "TP-2"),
    "setup.hands": ("Setup 3", "TP-2"),
    "setup.maps": ("Setup 5", "TA-9"),
    "setup.events": ("Variants", "TA-31"),
    "setup.face_up_event": ("Variants", "TA-29"),
    "setup.draw_off": ("Starting the Game", "TA-5"),
}
