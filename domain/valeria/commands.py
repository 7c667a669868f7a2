"""Valeria: Card Kingdoms: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

ID = {"type": "string", "maxLength": 41}
PICK = {"description": "one pick: an index (choose), a resource (wild), true/false (may, exchange), "
                       "{seat, resource} (take from an opponent) or a Center stack (take a card, banish)",
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 5}, {"type": "boolean"},
                  {"type": "string", "maxLength": 41},
                  {"type": "object", "additionalProperties": False, "required": ["seat", "resource"],
                   "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 4},
                                  "resource": {"enum": ["gold", "strength", "magic"]}}}]}
CHOICE = {"type": "array", "items": PICK, "maxItems": 20, "default": [],
          "description": "the picks the power asks for, in the order it asks them (legal commands list them)"}
TABLE = {
    "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "minItems": 2, "maxItems": 2,
             "description": "table chance only: the two dice rolled"},
    "revealed": {"type": "array", "items": ID, "maxItems": 10,
                 "description": "table chance only: each Domain turned face up by this command, in order"},
}
MAGIC = {"type": "integer", "minimum": 0, "maximum": 99, "default": 0,
         "description": "Magic tokens standing in for Strength (slay) or Gold (recruit, build); at least one token of "
                        "the resource itself must still be spent"}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_}, **(properties or {}), **TABLE}}


COMMAND_SCHEMAS = {
    "keep_duke": _cmd("keep_duke", "Setup: keep one of the two Dukes dealt to you, secretly.", {"duke": ID}, ["duke"]),
    "roll_dice": _cmd("roll_dice", "Roll Phase: the active player rolls the two dice."),
    "change_die": _cmd("change_die", "Roll Phase: use a Domain you own to change a die (each Domain once per Roll Phase).",
                       {"domain": ID, "die": {"enum": [0, 1]}, "to": {"type": "integer", "minimum": 1, "maximum": 6}},
                       ["domain", "die", "to"]),
    "announce_roll": _cmd("announce_roll", "Roll Phase: announce the result; the Harvest begins."),
    "harvest": _cmd("harvest", "Harvest Phase: resolve one of your activated powers.",
                    {"item": {"type": "integer", "minimum": 0, "maximum": 1000}, "choice": CHOICE}, ["item"]),
    "slay": _cmd("slay", "Action: slay the top Monster of a stack.", {"stack": ID, "magic": MAGIC}, ["stack"]),
    "recruit": _cmd("recruit", "Action: recruit the top Citizen of a stack (its cost +1 per copy you own).",
                    {"stack": ID, "magic": MAGIC}, ["stack"]),
    "build": _cmd("build", "Action: build the top Domain of a stack whose Role icons your Citizens match.",
                  {"stack": ID, "magic": MAGIC}, ["stack"]),
    "gain_resource": _cmd("gain_resource", "Action: take one Gold, Strength or Magic from the Bank.",
                          {"resource": {"enum": ["gold", "strength", "magic"]}}, ["resource"]),
    "resolve": _cmd("resolve", "Action Phase: resolve the reward of the Monster slain or the Domain built.", {"choice": CHOICE}),
}
