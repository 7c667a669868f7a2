"""What the Chrono Corsairs rulebook prints, which content may not change, and how a creation
problem cites the rulebook.

Content supplies only what the rulebook does not print (the plans, anomalies, tiles, caves,
tokens and artifacts, the board's adjacency, the Vortex track's length); every number, count
or name it does print is checked against the print, so content that changes one is refused at
creation naming the field, the printed value and the section (docs/rulings.md CP-14).
The helpers every game shares (reading content, showing a value, citing a section) are in
domain/kit/printed.py.
"""

from __future__ import annotations

from ..kit.printed import at, differs, shown, value_problems

# -- what Chrono Corsairs prints -------------------------------------------------------------

SETUP, LOOP, OUTFIT = "Components & Setup", "Phase 3: Run the Loop", "Phase 6: Outfit Ship"

# (content path, printed value, what the rulebook prints, section)
PRINTED_VALUES = [
    (("anomalies",), 9, "9 Anomaly Cards", SETUP),
    (("caves",), 4, "4 Mysterious Cave Tiles", SETUP),
    (("eventTokens",), 28, "28 Event Tokens", SETUP),
    (("shipMat", "crewSpaces"), 6, "6 Crew spaces on a Ship mat (55 Crew Meeples, 11 of a colour, 5 in the Harbor)",
     SETUP),
    (("vortex", "start", "2"), 0, "the Storm Stability marker on the first space (0) with 2 players", SETUP),
    (("vortex", "start", "3+"), 1, "the Storm Stability marker on the second space (1) with 3 or more players",
     SETUP),
    (("shipMat", "stableTrack", 0), 1, "the Stable Plans cube on the \"1\" space", SETUP),
    (("shipMat", "unstableTrack", 0), 1, "the Unstable Plans cube on the \"1\" space", SETUP),
    (("forgoReward",), 1, "1 Doubloon for a Plan forgone", LOOP),
    (("shipMat", "overflowRecruitCost"), 2, "a Pirate with no empty Crew space recruited again for 2 Doubloons", LOOP),
    (("prices", "movePlan"), 1, "1 Doubloon to move a Plan card", OUTFIT),
    (("prices", "cube"), 2, "2 Doubloons to move a Plan cube", OUTFIT),
    (("prices", "recruit"), 2, "2 Doubloons to recruit a Crew member", OUTFIT),
    (("prices", "gem"), 3, "3 Doubloons for a Time Gem", OUTFIT),
    (("prices", "artifact"), 5, "5 Doubloons for an Artifact card", OUTFIT),
]
COUNTED = {("anomalies",), ("caves",), ("eventTokens",), ("shipMat", "crewSpaces")}
# A problem's field is its path, but where a key is not a name ("3+"): the object that holds it.
FIELDS: dict[tuple, str] = {("vortex", "start", "2"): "content.vortex.start", ("vortex", "start", "3+"): "content.vortex.start"}
# [Components & Setup] how many of each the decks and the tiles hold, by kind
PRINTED_KINDS = [("plans", "deck", {"stable": 30, "unstable": 19}, "30 Stable and 19 Unstable Plan Cards"),
                 ("tiles", "region", {"interior": 3, "exterior": 6}, "3 Interior and 6 Exterior Island Tiles")]
# [Glossary of Symbols] the one tile whose text is printed
MIRROR = "Scrying Mirror"
MIRROR_GAIN = {"op": "gain", "doubloons": 2}


def printed_problems(content) -> list[str]:
    """Every place where content differs from what the rulebook prints, as 'content.<field>:
    the rulebook prints X, not Y [Section]'. Reads content defensively: a part that is missing or
    of the wrong type is the schema's to report."""
    out = []
    out += [f"{p} (CP-14)" for p in value_problems(content, PRINTED_VALUES, COUNTED, FIELDS)]
    for part, key, counts, words in PRINTED_KINDS:
        items = at(content, (part,))
        if isinstance(items, list):
            got = {k: sum(1 for x in items if isinstance(x, dict) and x.get(key) == k) for k in counts}
            if got != counts or len(items) != sum(counts.values()):
                out.append(f"content.{part}: the rulebook prints {words}, not {len(items)} ({shown(got)}) "
                           f"[{SETUP}] (CP-14)")
    spaces = at(content, ("shipMat", "crewSpaces"))
    if isinstance(spaces, list) and any(differs(x, 2) for x in spaces):
        out.append(f"content.shipMat.crewSpaces: the rulebook prints 2 Doubloons to recruit a Crew member, whichever "
                   f"space it leaves, not {shown(spaces)} [{OUTFIT}] (CP-14)")
    return out + _mirror_problems(at(content, ("caves",)))


def _gains(effect) -> list:
    """Every 'gain' step inside an effect program."""
    if isinstance(effect, dict):
        found = [effect] if effect.get("op") == "gain" else []
        return found + [g for v in effect.values() for g in _gains(v)]
    if isinstance(effect, list):
        return [g for v in effect for g in _gains(v)]
    return []


def _mirror_problems(caves) -> list[str]:
    """[Glossary of Symbols] the Scrying Mirror's printed text: 'Gain 2 Doubloons for each space of
    that type you have more Pirates in than anyone else.'"""
    if not isinstance(caves, list):
        return []
    faces = []
    for i, cave in enumerate(caves):
        sides = cave.get("sides") if isinstance(cave, dict) else None
        if isinstance(sides, dict):
            faces += [(i, side, face) for side, face in sides.items() if isinstance(face, dict)]
    mirrors = [(i, side, face) for i, side, face in faces if face.get("name") == MIRROR]
    if faces and not mirrors:
        return [f"content.caves: the rulebook prints the Mysterious Cave {MIRROR}; no cave side is named so "
                "[Glossary of Symbols] (CP-14)"]
    out = []
    for i, side, face in mirrors:
        gains = _gains(face.get("rewardsAllStages")) + _gains(face.get("rewards"))
        if not gains or any(g != MIRROR_GAIN for g in gains):
            out.append(f"content.caves.{i}.sides.{side}: the rulebook prints {MIRROR} as \"Gain 2 Doubloons for each "
                       "space of that type you have more Pirates in\"; its gains here are "
                       f"{shown(gains)} [Glossary of Symbols] (CP-14)")
    return out


# Where each field of a creation is in the rulebook: (section, ruling) by field prefix (cite).
SECTIONS: dict[str, tuple[str, str]] = {
    "players": (SETUP, ""),
    "options.initial_flag_order": ("Gameplay in Detail", "CA-7"),
    "options.final_round_keeps_doubloons": ("Final Scoring", "CA-9"),
    "options.max_reward_places": ("Phase 4: Find Treasure", "CA-10"),
    "options.flag_breaks_condition_ties": ("Gameplay in Detail", "CA-12"),
    "options.artifacts_per_turn": (LOOP, "CA-21"),
    "options.volcano_min_stage": ("Phase 4: Find Treasure", "CA-28"),
    "content.vortex": (SETUP, ""),
    "content.vortex.stages": ("Phase 4: Find Treasure", "CA-3"),
    "content.shipMat": (SETUP, "CA-23"),
    "content.shipMat.preprinted": (LOOP, ""),
    "content.board": (LOOP, ""),
    "content.tiles": ("Phase 4: Find Treasure", ""),
    "content.caves": (SETUP, ""),
    "content.eventTokens": (LOOP, "CA-37"),
    "content.plans": ("Phase 2: Select Plans", ""),
    "content.anomalies": ("Phase 1: Destabilization and Anomalies", ""),
    "content.artifacts": (LOOP, "CA-4"),
    "content.prices": (OUTFIT, "CP-14"),
    "content.forgoReward": (LOOP, "CP-14"),
    "setup": (SETUP, "CP-2"),
    "setup.flag": ("Gameplay in Detail", "CA-7"),
    "setup.anomaly": ("Phase 1: Destabilization and Anomalies", "CP-2"),
}
