"""Corsairs of Valeria: creating a game. [Game Setup]"""
from __future__ import annotations

import jsonschema

from .. import kit
from ..kit import custom_content_problems, load_json, with_defaults
from ..kit import schema_problems as _schema_problems
from ..ruleset import InvalidCreation
from .board import content_problems

RULESET_ID = "corsairs-of-valeria"
RULESET_VERSION = "1.0.0"


CONTENT_SCHEMA = load_json(__package__, "schema.json")
DEFAULT_CONTENT = load_json(__package__, "reference.json")

OPTIONS_SCHEMA = {
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
        "five_skull_skips_phase_d": {"type": "boolean", "default": False,
                                     "description": "CV-A12: after giving the Skull dice away the turn ends "
                                                    "without phase D (no Hasan)."},
        "five_grog_restart_optional": {"type": "boolean", "default": False,
                                       "description": "CV-A14: the 5-Grog restart is the player's choice."},
        "hazards_on_hook_move": {"type": "boolean", "default": True, "description": "CV-A23"},
        "hazards_on_jaxn_move": {"type": "boolean", "default": True, "description": "CV-A23"},
        "jaxn_island_rewards": {"type": "boolean", "default": True,
                                "description": "CV-A32: Lucky Jax'n's step collects island rewards like a Map."},
        "merchant_min_cannons": {"enum": [1, 3], "default": 1, "description": "CV-A25"},
        "hook_max_uses": {"enum": [1, 2], "default": 1, "description": "CV-A29: Captain Hook moves per roll."},
        "skull_reset_mode": {"enum": ["add_2", "set_to_2"], "default": "add_2",
                             "description": "CV-A35: at the race reset Skull Island gets 2 more Silver, or is topped up to 2."},
    },
}

TABLE_SETUP_SCHEMA = {
    "type": "object",
    "description": "Table chance only: what the table dealt and built [Game Setup 2-3].",
    "required": ["captains", "track"],
    "additionalProperties": False,
    "properties": {
        "captains": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 5,
                     "description": "captain id for each seat, in seat order"},
        "track": {"type": "array", "minItems": 3, "maxItems": 3,
                  "items": {"type": "object", "required": ["tile", "side"], "additionalProperties": False,
                            "properties": {"tile": {"type": "string", "maxLength": 20}, "side": {"enum": ["A", "B"]}}},
                  "description": "the 3 tracks placed above Start Island, nearest first"},
    },
}

_options_validator = jsonschema.Draft202012Validator(OPTIONS_SCHEMA)
_content_validator = jsonschema.Draft202012Validator(CONTENT_SCHEMA)
_table_validator = jsonschema.Draft202012Validator(TABLE_SETUP_SCHEMA)


def setup(players: list[str], options: dict | None, content: dict | None, chance, table_setup: dict | None) -> list[dict]:
    problems: list[str] = []
    n = len(players)
    if not 2 <= n <= 5:  # CV-A1: 5 ships; attacks need another player
        problems.append(f"players: Corsairs of Valeria is for 2 to 5 players, not {n}")
    opts = dict(options or {})
    problems += _schema_problems(_options_validator, opts, "options")
    if content is None or content == DEFAULT_CONTENT:
        content = DEFAULT_CONTENT  # checked once, below
    else:
        content_errors = custom_content_problems(_content_validator, content)
        if not content_errors:
            content_errors = [f"content: {p}" for p in content_problems(content)]
        problems += content_errors
    if problems:
        raise InvalidCreation(problems)
    opts = with_defaults(opts, OPTIONS_SCHEMA)
    if opts["first_player"] >= n:
        raise InvalidCreation([f"options.first_player: there is no seat {opts['first_player']} among {n} players"])
    enabled = [c["id"] for c in content["captains"] if c.get("enabled", True)]
    tiles = [t["id"] for t in content["tracks"]]
    if chance.mode == "table":
        if table_setup is None:
            raise InvalidCreation(["setup: a table-chance game needs the captains dealt and the track built, in 'setup'"])
        problems = _schema_problems(_table_validator, table_setup, "setup")
        if not problems:
            captains = table_setup["captains"]
            if len(captains) != n or len(set(captains)) != n or not set(captains) <= set(enabled):
                problems.append(f"setup.captains: one distinct captain for each of the {n} seats, from {enabled}")
            used = [x["tile"] for x in table_setup["track"]]
            if len(set(used)) != 3 or not set(used) <= set(tiles):
                problems.append(f"setup.track: three different tracks from {tiles}")
        if problems:
            raise InvalidCreation(problems)
        slots = [dict(x) for x in table_setup["track"]]
    else:
        if table_setup is not None:
            raise InvalidCreation(["setup: only a table-chance game says how the table was set up"])
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


kit.check_shipped(_content_validator, DEFAULT_CONTENT, content_problems)
