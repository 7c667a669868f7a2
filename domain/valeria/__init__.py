"""Valeria: Card Kingdoms, first edition (2 to 5 players), from ../shared/rules/valeria-card-kingdoms-base.txt.

The base game's rules are enforced: the center stacks, starters, resources and Dukes dealt; the
Roll Phase with die-changing Domains (some paying for it); the Harvest with each die and the
sum, on-turn and off-turn powers, doubles, the Thief first and the "take any one Resource"
rule; the two actions (slay, recruit with its rising cost, build with its Role icons, take a
resource, and any additional action a reward grants) with Magic standing in for Gold or
Strength; exhausted stacks; the three end conditions with equal turns; scoring with the Duke
and the tie-break; the 5-player Resting player. Where the rulebook is silent Parley rules as
docs/rulings.md records (VA-n from the rules notes, VP-n its own), which also lists, rule by
rule, where each is enforced and tested. Card data is content (content/schema.json) whose
powers are written in the effect language of effects.py; the default set is invented reference
content, labelled as not the printed cards. Hidden information: see view.py; a seat's dry
run is decided on the game as that seat may imagine it, what it cannot see re-dealt by
hidden.py. Not supported (refused at creation): the second edition and every expansion but
Crimson Seas and its Monster Events.

Three printed variants are options of the base game (the first two of Crimson Seas too). The
Mixed Citizen Variant (options.variant "mixed_citizens", [BR p.18]): each Citizen stack is every
type of one Activation number shuffled, 4 face down (5 at 5 players) under 1 face up; a
face-down Citizen is nobody's (a placeholder in the state) until the one above it is taken, when
it is drawn from those of that number not in sight (VP-40 to VP-42, VP-45). Crimson Seas'
Monster Events on the base game on their own (options.expansions ["monster_events"], [CS Monster
Event Cards]): the Monster Event rules below and no other part of the expansion, the cards from
the content's 'monster_events' or Crimson Seas' reference content (VP-43, VP-44). The Solo
Variant (one player, options.variant "solo", [BR p.16-18]), not with Crimson Seas (VA-4): played
as printed against the Dark Lord, his Duke hidden until the end (solo.py, VP-19 to VP-27).

CRIMSON_SEAS is the same engine with the expansion on (../shared/rules/crimson-seas.txt): the
Island Board and its setup, sixes feeding Exekratys, the Coxswain replacing "take any one
Resource", Sail to the four islands with their purchase and refresh rules, Gain a Map,
Wardens, "+" Monsters, Tomes flipped to pay and restored after the End Phase, Monster Events
waiting on the Exhausted stack, the three island end conditions, Goods, Noble and Tome scoring.
Discounts are one construct of the card data (an owned Domain's `discount`): an amount off the
price of a recruit, build, slay, each Goods or Tome bought, or a Noble rescue, or the '+'
surcharge waived; every price (decide and legal_commands alike) is computed with it (VP-12).
"""
from __future__ import annotations

from types import SimpleNamespace

from .. import kit
from ..ruleset import Status, Variant
from . import hidden, legal, rules, solo, state, view
from . import setup as _setup
from .commands import COMMAND_SCHEMAS, CS_COMMAND_SCHEMAS, SOLO_COMMAND_SCHEMAS


def result(r: dict) -> dict:
    """[BR p.8] places by Victory Points, ties to the fewest cards in the tableau (kit.results); a
    solo game's one seat against the Dark Lord, who is not a seat (solo.ranked, VP-27)."""
    if "solo" in r:
        return solo.ranked(r)
    seats = range(len(r["totals"]))
    applied = ["fewest_cards_in_tableau"] if r["tie_breaks"] else []   # stored as {rule, cards}
    if applied and len(r["winners"]) > 1:
        applied.append("shared")
    return kit.ranked(r, {i: r["totals"][i] for i in seats}, {i: (r["totals"][i], -r["cards"][i]) for i in seats},
                      applied)


def status(s: state.ValeriaState) -> Status:
    if s.finished:
        return Status(finished=True, to_move=[], phase="finished", result=result(s.result) if s.result is not None else None)
    if not s.seats:
        return Status(finished=False)
    return Status(finished=False, to_move=rules.to_move(s), phase=s.phase)


# The variants the base rulebook prints [BR p.16-18], and Crimson Seas' Monster Events on their own.
FIVE_PLAYERS = Variant("5-Player Variant", kit.Section("5-Player Variant", book="BR", page="16"), {}, 5, 5,
                       "Played whenever there are 5 players: 6 Monsters and 6 Citizens a stack, Domain stacks of 4, "
                       "and the Resting Player, who does not harvest.")
SOLO = Variant("Solo Variant", kit.Section("Solo Variant", book="BR", page="16"), {"variant": "solo"}, 1, 1,
               "One player against the Dark Lord, a Duke face down above the Monster stacks: each round the dice also "
               "send the Monsters of their positions to capture Citizens and Domains for him, and a Second Harvest "
               "pays your Citizens' right side.")
MIXED_CITIZENS = Variant("Mixed Citizen Variant", kit.Section("Mixed Citizen Variant", book="BR", page="18"),
                         {"variant": "mixed_citizens"}, 2, 5,
                         "Every Citizen type of an activation number shuffled into one stack: 4 face down (5 at five "
                         "players) under 1 face up; the face-down Citizens are secret until turned up.")
MONSTER_EVENTS = Variant("Monster Events", kit.Section("Monster Event Cards", book="CS"),
                         {"expansions": ["monster_events"]}, 2, 5,
                         "Crimson Seas' Monster Events on the base game, without the rest of the expansion: one a "
                         "player on the Exhausted stack, turned up when a Center stack empties.")
PRESELECTED = ("A Monster Event you would like to play with, preselected as one of those shuffled onto the "
               "Exhausted stack (any of the game's, one a player at most): certainly set out, the rest drawn as usual "
               "(VP-48).")
PRESELECTED_EVENTS = Variant("Preselected Monster Events", kit.Section("Monster Event Cards", book="CS"),
                             {"expansions": ["monster_events"], "monster_events_preselected": ["leviathan"]}, 2, 5,
                             PRESELECTED)
CS_PRESELECTED_EVENTS = Variant("Preselected Monster Events", kit.Section("Monster Event Cards", book="CS"),
                                {"monster_events_preselected": ["leviathan"]}, 2, 5, PRESELECTED)

RULESET = kit.ruleset(
    id=_setup.RULESET_ID,
    version=_setup.RULESET_VERSION,
    name="Valeria: Card Kingdoms",
    min_players=1,
    max_players=5,
    summary="Dukes of Valeria roll for their Citizens' harvest, then slay Monsters, recruit Citizens and build "
            "Domains; a secret Duke scores at the end. Most Victory Points when the Monsters or the Domains run "
            "out or enough stacks are exhausted wins. One player plays the Solo Variant against the Dark Lord.",
    table_setup_schema=_setup.TABLE_SETUP_SCHEMA,
    public_setup_fields=_setup.PUBLIC_SETUP_FIELDS,
    command_schemas={**COMMAND_SCHEMAS, **SOLO_COMMAND_SCHEMAS},
    variants=(FIVE_PLAYERS, SOLO, MIXED_CITIZENS, MONSTER_EVENTS, PRESELECTED_EVENTS),
    setup=_setup, state=state, rules=rules, legal=legal, view=view, hidden=hidden, status=status,
)


_cs_setup = SimpleNamespace(OPTIONS_SCHEMA={**_setup.OPTIONS_SCHEMA, "title": "Valeria: Card Kingdoms - Crimson Seas options"},
                            CONTENT_SCHEMA=_setup.CONTENT_SCHEMA, DEFAULT_CONTENT=_setup.CS_CONTENT,
                            setup=_setup.setup_crimson_seas)

CRIMSON_SEAS = kit.ruleset(
    id=_setup.CS_RULESET_ID,
    version=_setup.RULESET_VERSION,
    name="Valeria: Card Kingdoms - Crimson Seas",
    min_players=2,
    max_players=5,
    summary="Valeria: Card Kingdoms with the Crimson Seas expansion: the Island "
            "Board (Goods, Tomes, Nobles, Exekratys), Maps and the Sail action, the Coxswain, Wardens and '+' Monsters, "
            "and Monster Events waiting on the Exhausted stack.",
    table_setup_schema=_setup.CS_TABLE_SETUP_SCHEMA,
    public_setup_fields=_setup.PUBLIC_SETUP_FIELDS,
    command_schemas=CS_COMMAND_SCHEMAS,
    variants=(FIVE_PLAYERS, MIXED_CITIZENS, CS_PRESELECTED_EVENTS),  # mixed Citizens with Crimson Seas: docs/rulings.md
    setup=_cs_setup, state=state, rules=rules, legal=legal, view=view, hidden=hidden, status=status,
)
