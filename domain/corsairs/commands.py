"""Corsairs of Valeria: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

FACES = ["SKULL", "SKULL_GROG", "GROG", "SILVER", "MAP", "CANNON"]
SEAT = {"type": "integer", "minimum": 0, "maximum": 4}
LANE = {"enum": ["L", "R"], "description": "side of an island that splits the track"}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_}, **(properties or {})}}


COMMAND_SCHEMAS = {
    "preset_die": _cmd("preset_die", "Phase A, Willem (CANNON) or Luthor (MAP): pay 1 Grog to set one die before rolling.",
                       {"face": {"enum": ["CANNON", "MAP"]}}, ["face"]),
    "roll_dice": _cmd("roll_dice", "Phase A: roll the dice. Table chance: 'faces' lists what was rolled.",
                      {"faces": {"type": "array", "items": {"enum": FACES}, "maxItems": 5}}),
    "reroll_dice": _cmd("reroll_dice", "Phase B: re-roll the chosen dice for 1 Grog (Prince: or 1 Silver).",
                        {"dice": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 4},
                                  "minItems": 1, "maxItems": 5},
                         "pay_with": {"enum": ["grog", "silver"], "default": "grog"},
                         "faces": {"type": "array", "items": {"enum": FACES}, "maxItems": 5}}, ["dice"]),
    "lock_dice": _cmd("lock_dice", "End of phase B: stop re-rolling; Mistress of the Skull / Reo convert faces here.",
                      {"skull_grog_to_grog": {"type": "boolean", "default": False},
                       "maps_to_silver": {"type": "integer", "minimum": 0, "maximum": 3, "default": 0}}),
    "resolve_skulls": _cmd("resolve_skulls", "Phase C: execute your Skulls (Mister Bones may ignore one).",
                           {"ignore_one": {"type": "boolean", "default": False}}),
    "give_skull_dice": _cmd("give_skull_dice", "Phase C, 5 Skulls: give each die to another player (seat per die).",
                            {"to": {"type": "array", "items": SEAT, "minItems": 5, "maxItems": 5}}, ["to"]),
    "resolve_received_skulls": _cmd("resolve_received_skulls",
                                    "Mister Bones, given Skull dice: execute them, ignoring one if you wish.",
                                    {"ignore_one": {"type": "boolean", "default": False}}),
    "acquire_grog": _cmd("acquire_grog", "Phase C: execute all Grog faces.",
                         {"restart": {"type": "boolean", "description": "only with the five_grog_restart_optional house rule"}}),
    "collect_silver": _cmd("collect_silver", "Phase C: execute all Silver faces."),
    "move_ship": _cmd("move_ship", "Phase C: execute all Maps, one step each (up to Skull Island).",
                      {"steps": {"type": "array", "maxItems": 5,
                                 "items": {"type": "object", "additionalProperties": False, "required": ["direction"],
                                           "properties": {"direction": {"enum": ["forward", "backward"]}, "lane": LANE}}}},
                      ["steps"]),
    "jaxn_move": _cmd("jaxn_move", "Phase C, Lucky Jax'n with no Maps: move 1 space forward and gain 1 Grog.",
                      {"lane": LANE}),
    "hook_move": _cmd("hook_move", "Phase C, Captain Hook: spend 2 Cannons to move to another player's space.",
                      {"target": SEAT}, ["target"]),
    "attack_player": _cmd("attack_player", "Phase C: attack a player with 3+ Cannons (plunder) or 5 Cannons (steal_treasure).",
                          {"target": SEAT, "mode": {"enum": ["plunder", "steal_treasure"], "default": "plunder"},
                           "jager_step": {"type": "boolean", "default": False}, "jager_lane": LANE}, ["target"]),
    "attack_merchant": _cmd("attack_merchant", "Phase C: attack a Merchant ship in your space.",
                            {"merchant": {"type": "string", "maxLength": 40}}, ["merchant"]),
    "hold_fire": _cmd("hold_fire", "Phase C: execute your Cannons without attacking."),
    "choose_lane": _cmd("choose_lane", "Your ship is pushed back into a split section: choose its side.",
                        {"lane": LANE}, ["lane"]),
    "end_turn": _cmd("end_turn", "Phase D: hand the dice on (Hasan may first convert Grog to Silver).",
                     {"hasan_convert": {"type": "boolean", "default": False}}),
}
