"""League of Pirates: creating a game. [Set Up]"""
from __future__ import annotations

from collections import Counter

import jsonschema

from .. import kit
from ..kit import load_json, with_defaults
from ..kit import schema_problems as _schema_problems
from ..kit.printed import checked_content, cite
from ..ruleset import InvalidCreation
from .printed import SECTIONS, printed_problems

RULESET_ID = "league-of-pirates"
RULESET_VERSION = "1.0.0"


CONTENT_SCHEMA = load_json(__package__, "schema.json")
DEFAULT_CONTENT = load_json(__package__, "reference.json")

OPTIONS_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "League of Pirates options",
    "description": "House rules. Each default is Parley's ruling where the rulebook is silent; see docs/rulings.md.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "challenge_qualification": {"enum": ["rolled_in_order", "scc", "presence"], "default": "rolled_in_order",
                                    "description": "LP-A4: what '1-2-3 in order' means."},
        "full_tie": {"enum": ["rechallenge", "no_action"], "default": "rechallenge",
                     "description": "LP-A9: a turn's challenge that ends in a full tie: 'rechallenge' rolls another round; "
                                    "'no_action': nobody acts and the next turn begins"},
        "allow_pass": {"type": "boolean", "default": False,
                       "description": "LP-A10: true lets the challenge's winner pass_turn (take no action); by default the "
                                      "winner takes exactly one action"},
        "points_max": {"type": ["integer", "null"], "minimum": 19, "maximum": 1000, "default": None,
                       "description": "LP-A11: a ceiling on the ship card's scale."},
        "replaced_coin_return": {"enum": ["origin_bag", "set_owner_bag", "replacer_bag"], "default": "origin_bag",
                                 "description": "LP-A14: the 'corresponding player's' bag."},
        "captain_replaceable": {"type": "boolean", "default": True,
                                "description": "LP-A15: true lets a drawn Captain replace your Captain (your league bonus then "
                                               "follows the new colour); false: a drawn Captain can only be returned"},
        "reveal_drawn_coins": {"type": "boolean", "default": False,
                               "description": "LP-A18: drawn coins shown to the opponent too."},
        "traitor_on_capture": {"enum": ["clear", "keep"], "default": "clear",
                               "description": "LP-A20: a Traitor captured into the Brig: 'clear' makes it an ordinary coin; "
                                              "'keep' keeps it a Traitor in the Brig and when enlisted or rescued"},
        "traitor_skill_floor_zero": {"type": "boolean", "default": False,
                                     "description": "LP-A21: true stops a Traitor's reduced skill values at 0; by default each "
                                                    "drops by 2 and may go negative"},
        "captain_may_defend": {"type": "boolean", "default": True,
                               "description": "LP-A23: true lets the Captain substitute as a raid's defender or defend a "
                                              "prisoner; false: never the Captain"},
        "set_sail_loser_grants_action": {"type": "boolean", "default": False,
                                         "description": "LP-A31: true gives the opponent who wins a Set Sail challenge an "
                                                        "action at once; by default a new turn begins"},
        "traitors_count_for_crew": {"type": "boolean", "default": True,
                                    "description": "LP-A32: true counts a slot held by a Traitor as crewed when Setting Sail; "
                                                   "false: as empty"},
        "brig_scoring": {"enum": ["none", "face"], "default": "none",
                         "description": "LP-A33: coins in a player's Brig at the end: 'none' score nothing; 'face' add their "
                                        "printed Coin Value to that player's total"},
        "captain_self_bonus": {"type": "boolean", "default": True,
                               "description": "LP-A34: true gives each Captain the +2 of a crewmember of its own colour; false:"
                                              " not"},
    },
}

_options_validator = jsonschema.Draft202012Validator(OPTIONS_SCHEMA)
_content_validator = jsonschema.Draft202012Validator(CONTENT_SCHEMA)


def content_problems(content: dict) -> list[str]:
    problems = []
    ids = [c["id"] for c in content["coins"]]
    if len(set(ids)) != len(ids):
        problems.append("coins: ids must be unique")
    want = Counter({"captain": 1, "quartermaster": 1, "sailingMaster": 1, "surgeon": 1, "mate": 3})
    for coin_set in ("skull", "cross"):
        for color in ("blue", "red", "yellow"):
            got = Counter(c["role"] for c in content["coins"] if c["set"] == coin_set and c["color"] == color)
            if got != want:
                problems.append(f"coins: the {coin_set} set's {color} league must be 1 captain, 1 quartermaster, "
                                f"1 sailingMaster, 1 surgeon and 3 mates; it is "
                                f"{', '.join(f'{n} {k}' for k, n in got.items())} [Set Up] (LP-A1)")
    faces = set(content["skillDie"]["faces"])
    for c in content["coins"]:
        if set(c["skills"]) != faces:
            problems.append(f"coins[{c['id']}].skills: needs a value for exactly the skill-die faces {', '.join(sorted(faces))} "
                            "[Raiding 2] (LP-A24)")
    return problems


kit.check_shipped(_content_validator, DEFAULT_CONTENT, lambda c: printed_problems(c) + content_problems(c))


def setup(players: list[str], options: dict | None, content: dict | None, chance, table_setup: dict | None) -> list[dict]:
    """The first event of a game, or InvalidCreation listing every problem at once: the players,
    the options, the content (its form and what the rulebook prints), options that cannot apply
    with this content, and a table setup (League has none)."""
    problems: list[str] = []
    if len(players) != 2:  # [Components] 2 Ship Cards, 2 Sets of Pirate Coins
        problems.append(f"players: League of Pirates is for exactly 2 players, not {len(players)}")
    opts = dict(options or {})
    option_errors = _schema_problems(_options_validator, opts, "options")
    problems += option_errors
    content, content_errors, sound = _content(content)
    problems += content_errors
    if sound:
        problems += _option_content_problems(opts, option_errors, content)
    if table_setup is not None:
        problems.append("setup: League of Pirates needs no table setup; the leagues are chosen with choose_league")
    if problems:
        raise InvalidCreation(cite(problems, SECTIONS))
    opts = with_defaults(opts, OPTIONS_SCHEMA)
    # LP-A2: the first seat plays the Skull set, the second the Cross set.
    return [kit.setup_event(RULESET_ID, RULESET_VERSION, players, opts, content, chance,
                            coin_sets=["skull", "cross"], points=content["startingPoints"])]


def _content(content: dict | None) -> tuple[dict, list[str], bool]:
    """The content to play with, its problems and whether it is sound enough to check against (kit.printed)."""
    return checked_content(content, DEFAULT_CONTENT, _content_validator, printed_problems, content_problems)


def _option_content_problems(opts: dict, option_errors: list[str], content: dict) -> list[str]:
    """House rules that cannot apply with this content (docs/rulings.md LP-P11)."""
    out = []
    bad = {e.split(": ", 1)[0] for e in option_errors}
    if opts.get("points_max") is not None and "options.points_max" not in bad \
            and content["pointsMax"] is not None and opts["points_max"] != content["pointsMax"]:
        out.append(f"options.points_max: this content's Ship Card already ends at {content['pointsMax']} "
                   f"(pointsMax); give one ceiling, not two (LP-P11)")
    if opts.get("traitor_skill_floor_zero") is True and "options.traitor_skill_floor_zero" not in bad:
        lowest = min((v for c in content["coins"] if c["role"] != "captain" for v in c["skills"].values()), default=2)
        if lowest >= 2:
            out.append("options.traitor_skill_floor_zero: no skill of this content's coins is below 2, so a Traitor's "
                       "skill can never fall below 0 (LP-P11)")
    return out
