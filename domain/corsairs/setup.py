"""Corsairs of Valeria: creating a game. [Game Setup]"""
from __future__ import annotations

import jsonschema

from .. import kit
from ..kit import load_json, with_defaults
from ..kit import schema_problems as _schema_problems
from ..kit.printed import checked_content, cite, usable_options
from ..ruleset import InvalidCreation
from .board import content_problems
from .printed import PRINTED_CAPTAINS, SECTIONS, printed_problems

RULESET_ID = "corsairs-of-valeria"
RULESET_VERSION = "1.2.0"


CONTENT_SCHEMA = load_json(__package__, "schema.json")
DEFAULT_CONTENT = load_json(__package__, "reference.json")

OPTIONS_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Corsairs of Valeria options",
    "description": "House rules. Each default is Parley's ruling where the rulebook is silent; see docs/rulings.md.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "first_player": {"type": "integer", "minimum": 0, "maximum": 4, "default": 0,
                         "description": "Seat of the player who most recently lost a game [Game Setup 6]."},
        "silver_supply": {"enum": ["limited", "unlimited"], "default": "limited",
                          "description": "CV-A17: the 35 Silver coins are all there is, or the supply never runs out."},
        "recipient_captain_powers": {"enum": ["bones_only", "none"], "default": "bones_only",
                                     "description": "CV-A10: may Mister Bones ignore a Skull among dice given to him?"},
        "five_skull_skips_phase_d": {"type": "boolean", "default": True,
                                     "description": "CV-A12: true: once the Skull dice are given away and executed "
                                                    "the turn is over, without phase D (no Hasan), as [Cursed Dice] "
                                                    "says; false: phase D still happens and the giver sends end_turn."},
        "five_grog_restart_optional": {"type": "boolean", "default": False,
                                       "description": "CV-A14: the 5-Grog restart is the player's choice."},
        "hazards_on_hook_move": {"type": "boolean", "default": True,
                                 "description": "CV-A23: true: a Whirlpool, Sea Monster or Cutthroats acts where Captain Hook's"
                                                " move ends; false: only after Maps and push-backs"},
        "hazards_on_jaxn_move": {"type": "boolean", "default": True,
                                 "description": "CV-A23: true: a Whirlpool, Sea Monster or Cutthroats acts where Lucky Jax'n's "
                                                "step ends; false: not"},
        "jaxn_island_rewards": {"type": "boolean", "default": True,
                                "description": "CV-A32: Lucky Jax'n's step collects island rewards like a Map."},
        "merchant_min_cannons": {"enum": [1, 3], "default": 1,
                                 "description": "CV-A25: the Cannons needed to attack a Merchant ship (each Cannon then "
                                                "collects its reward): 1, or 3 as to attack a player"},
        "hook_max_uses": {"enum": [1, 2], "default": 1, "description": "CV-A29: Captain Hook moves per roll."},
        "skull_reset_mode": {"enum": ["add_2", "set_to_2"], "default": "add_2",
                             "description": "CV-A35: at the race reset Skull Island gets 2 more Silver, or is topped up to 2."},
    },
}

# What every seat sees on the table of what the table set up (docs/api.md section 7): the
# captains dealt face up and the track laid out; Corsairs hides nothing (CV-A4).
PUBLIC_SETUP_FIELDS = frozenset({"captains", "track"})

TABLE_SETUP_SCHEMA = {
    "type": "object",
    "description": "Table chance only: what the table dealt and built [Game Setup 2-3].",
    "required": ["captains", "track"],
    "additionalProperties": False,
    "properties": {
        "captains": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 5,
                     "description": "the captain id dealt to each seat, in seat order, all different: each one of "
                                    "default_content.captains (GET /rulesets/corsairs-of-valeria) whose 'enabled' "
                                    "is not false; CAPTAIN_11, whose card the rulebook does not print, is never "
                                    "dealt (CV-A3)"},
        "track": {"type": "array", "minItems": 3, "maxItems": 3,
                  "items": {"type": "object", "required": ["tile", "side"], "additionalProperties": False,
                            "properties": {"tile": {"type": "string", "maxLength": 20,
                                                    "description": "the track tile's id, as the content names it "
                                                                   "(default_content.tracks in GET "
                                                                   "/rulesets/corsairs-of-valeria)"},
                                           "side": {"enum": ["A", "B"], "description": "the side of that tile face up"}}},
                  "description": "the 3 tracks placed above Start Island, nearest first"},
    },
}

_options_validator = jsonschema.Draft202012Validator(OPTIONS_SCHEMA)
_content_validator = jsonschema.Draft202012Validator(CONTENT_SCHEMA)
_table_validator = jsonschema.Draft202012Validator(TABLE_SETUP_SCHEMA)


def setup(players: list[str], options: dict | None, content: dict | None, chance, table_setup: dict | None) -> list[dict]:
    """The first events of a game, or InvalidCreation listing every problem at once: the players,
    the options, the options against the player count, the content (its form and what the
    rulebook prints), options that cannot apply with this content, and the table setup. A check
    that needs a part is skipped only when that part is itself wrong."""
    n = len(players)
    count_ok = 2 <= n <= 5
    problems = [] if count_ok else [f"players: Corsairs of Valeria is for 2 to 5 players, not {n}"]  # CV-A1
    opts = dict(options or {})
    option_errors = _schema_problems(_options_validator, opts, "options")
    usable = usable_options(opts, option_errors, OPTIONS_SCHEMA)
    problems += option_errors
    if count_ok and usable["first_player"] >= n:
        problems.append(f"options.first_player: there is no seat {usable['first_player']} among {n} players")
    content, content_errors, sound = _content(content)
    problems += content_errors
    if sound:
        problems += _option_content_problems(opts, option_errors, content)
    problems += _table_problems(chance, table_setup, n if count_ok else None, content if sound else None)
    if problems:
        raise InvalidCreation(cite(problems, SECTIONS))
    return _first_events(players, with_defaults(opts, OPTIONS_SCHEMA), content, chance, table_setup)



def _content(content: dict | None) -> tuple[dict, list[str], bool]:
    """The content to play with, its problems and whether it is sound enough to check against (kit.printed)."""
    return checked_content(content, DEFAULT_CONTENT, _content_validator, printed_problems, content_problems)


# Options that only a captain uses: set to anything but their default while the content disables
# that captain, they cannot apply (docs/rulings.md CV-P17).
CAPTAIN_OPTIONS = {"recipient_captain_powers": "BONES", "hazards_on_hook_move": "HOOK", "hook_max_uses": "HOOK",
                   "hazards_on_jaxn_move": "JAXN", "jaxn_island_rewards": "JAXN"}


def _option_content_problems(opts: dict, option_errors: list[str], content: dict) -> list[str]:
    """House rules that cannot apply with this content (CV-P17): about a captain it disables, or
    about Merchant ships when its tracks have none."""
    out = []
    usable = usable_options(opts, option_errors, OPTIONS_SCHEMA)
    enabled = {c["id"] for c in content["captains"] if c.get("enabled", True)}
    for option, captain in CAPTAIN_OPTIONS.items():
        if option in opts and usable[option] != OPTIONS_SCHEMA["properties"][option]["default"] \
                and captain not in enabled:
            out.append(f"options.{option}: changes only what {PRINTED_CAPTAINS[captain]} does, and this "
                       f"content disables {captain} (CV-P17)")
    merchants = any(lane.get("merchants") for t in content["tracks"] for side in t["sides"].values()
                    for row in side["rows"] for lane in row["lanes"])
    if "merchant_min_cannons" in opts and usable["merchant_min_cannons"] != 1 and not merchants:
        out.append("options.merchant_min_cannons: this content's tracks have no Merchant ship to attack (CV-P17)")
    return out


def _table_problems(chance, table_setup: dict | None, n: int | None, content: dict | None) -> list[str]:
    """What is wrong with the table setup: given exactly when the table deals (CV-P7), in its form,
    then against the number of seats (when that is right) and the content (when that is sound)."""
    if chance.mode != "table":
        return [] if table_setup is None else ["setup: only a table-chance game says how the table was set up"]
    if table_setup is None:
        return ["setup: a table-chance game needs the captains dealt and the track built, in 'setup'"]
    problems = _schema_problems(_table_validator, table_setup, "setup")
    if problems:
        return problems
    captains, used = table_setup["captains"], [x["tile"] for x in table_setup["track"]]
    if content is not None:
        enabled = [c["id"] for c in content["captains"] if c.get("enabled", True)]
        tiles = [t["id"] for t in content["tracks"]]
        if n is not None and (len(captains) != n or len(set(captains)) != n or not set(captains) <= set(enabled)):
            problems.append(f"setup.captains: one distinct captain for each of the {n} seats, "
                            f"from {', '.join(map(str, enabled))}")
        if len(set(used)) != 3 or not set(used) <= set(tiles):
            problems.append(f"setup.track: three different tracks from {', '.join(map(str, tiles))}")
        return problems
    if n is not None and (len(captains) != n or len(set(captains)) != n):
        problems.append(f"setup.captains: one distinct captain for each of the {n} seats")
    if len(set(used)) != 3:
        problems.append("setup.track: three different tracks")
    return problems


def _first_events(players: list[str], opts: dict, content: dict, chance, table_setup: dict | None) -> list[dict]:
    n = len(players)
    enabled = [c["id"] for c in content["captains"] if c.get("enabled", True)]
    tiles = [t["id"] for t in content["tracks"]]
    if table_setup is not None:
        captains = table_setup["captains"]
        slots = [dict(x) for x in table_setup["track"]]
    else:
        # [Game Setup 2] captains at random; [3b] shuffle the 4 tracks, 3 in any order, either side up.
        captains = chance.shuffle(enabled, None, "captains")[:n]
        order = chance.shuffle(tiles, None, "track")
        slots = [{"tile": t, "side": chance.roll(1, ["A", "B"], None, "side")[0]} for t in order[:3]]
    unused = next(t for t in tiles if t not in {x["tile"] for x in slots})
    supply = content["silverTotal"] - 2 - 2 * n
    start = next(s["id"] for s in content["startIsland"]["spaces"] if s.get("start"))
    return [
        kit.setup_event(RULESET_ID, RULESET_VERSION, players, opts, content, chance),
        {"type": "CaptainsDealt", "captains": list(captains)},
        {"type": "RaceTrackBuilt", "slots": slots, "unused": unused},
        # [Game Setup 1, 4, 5] Grog 2, Silver 2 each and 2 on Skull Island, ships on Start.
        {"type": "SuppliesPlaced", "skull_island": 2, "silver_each": 2, "grog_each": 2, "start": start,
         "supply": supply},
        {"type": "TurnStarted", "seat": opts["first_player"], "turn": 1},
    ]


kit.check_shipped(_content_validator, DEFAULT_CONTENT, lambda c: printed_problems(c) + content_problems(c))
