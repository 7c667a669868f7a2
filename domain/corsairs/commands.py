"""Corsairs of Valeria: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

from .legal import REROLLED, ROLLED

FACES = ["SKULL", "SKULL_GROG", "GROG", "SILVER", "MAP", "CANNON"]
SEAT = {"type": "integer", "minimum": 0, "maximum": 4}
LANE = {"enum": ["L", "R"], "description": "side of an island that splits the track"}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_, "description": f"the command: '{type_}'"}, **(properties or {})}}


COMMAND_SCHEMAS = {
    "preset_die": _cmd("preset_die", "Phase A, Willem (CANNON) or Luthor (MAP): pay 1 Grog to set one die before rolling.",
                       {"face": {"enum": ["CANNON", "MAP"], "description": "the face the die is set to: Willem's "
                                                                           "CANNON or Luthor's MAP"}}, ["face"]),
    "roll_dice": _cmd("roll_dice", "Phase A: roll the dice. Table chance: 'faces' lists what was rolled.",
                      {"faces": {"type": "array", "items": {"enum": FACES}, "maxItems": 5,
                                 "description": "table chance only: " + ROLLED}}),
    "reroll_dice": _cmd("reroll_dice", "Phase B: re-roll the chosen dice for 1 Grog (Prince: or 1 Silver).",
                        {"dice": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 4},
                                  "minItems": 1, "maxItems": 5,
                                  "description": "the dice re-rolled, by position 0 to 4 in the turn's 'dice'"},
                         "pay_with": {"enum": ["grog", "silver"], "default": "grog",
                                      "description": "what pays for the re-roll: 1 Grog, or 1 Silver (Prince only)"},
                         "faces": {"type": "array", "items": {"enum": FACES}, "maxItems": 5,
                                   "description": "table chance only: " + REROLLED}}, ["dice"]),
    "lock_dice": _cmd("lock_dice", "End of phase B: stop re-rolling; Mistress of the Skull / Reo convert faces here.",
                      {"skull_grog_to_grog": {"type": "boolean", "default": False,
                                              "description": "Mistress of the Skull: turn Skull-and-Grog faces into Grog "
                                                             "faces"},
                       "maps_to_silver": {"type": "integer", "minimum": 0, "maximum": 3, "default": 0,
                                          "description": "Reo: how many Map faces (up to 3) to change into Silver faces"}}),
    "resolve_skulls": _cmd("resolve_skulls", "Phase C: execute your Skulls (Mister Bones may ignore one).",
                           {"ignore_one": {"type": "boolean", "default": False,
                                           "description": "Mister Bones: ignore one Skull"}}),
    "give_skull_dice": _cmd("give_skull_dice", "Phase C, 5 Skulls: give each die to another player (seat per die).",
                            {"to": {"type": "array", "items": SEAT, "minItems": 5, "maxItems": 5,
                                    "description": "the seat each of the five dice goes to, die by die"}}, ["to"]),
    "resolve_received_skulls": _cmd("resolve_received_skulls",
                                    "Mister Bones, given Skull dice: execute them, ignoring one if you wish.",
                                    {"ignore_one": {"type": "boolean", "default": False,
                                                    "description": "Mister Bones: ignore one of the Skulls given"}}),
    "acquire_grog": _cmd("acquire_grog", "Phase C: execute all Grog faces.",
                         {"restart": {"type": "boolean",
                                      "description": "only with the five_grog_restart_optional house rule, on 5 "
                                                     "Grog: true begins the turn again, false (or leaving it out) "
                                                     "goes on with the turn; refused otherwise (CV-A14)"}}),
    "collect_silver": _cmd("collect_silver", "Phase C: execute all Silver faces."),
    "move_ship": _cmd("move_ship", "Phase C: execute all Maps, one step each (up to Skull Island).",
                      {"steps": {"type": "array", "maxItems": 5,
                                 "description": "one step per Map face, in order (fewer when Skull Island is reached)",
                                 "items": {"type": "object", "additionalProperties": False, "required": ["direction"],
                                           "properties": {"direction": {"enum": ["forward", "backward"],
                                                                        "description": "backward only with 5 Maps"},
                                                          "lane": LANE}}}},
                      ["steps"]),
    "jaxn_move": _cmd("jaxn_move", "Phase C, Lucky Jax'n with no Maps: move 1 space forward and gain 1 Grog.",
                      {"lane": LANE}),
    "hook_move": _cmd("hook_move", "Phase C, Captain Hook: spend 2 Cannons to move to another player's space.",
                      {"target": {**SEAT, "description": "the seat whose space the ship moves to"}}, ["target"]),
    "attack_player": _cmd("attack_player", "Phase C: attack a player with 3+ Cannons (plunder) or 5 Cannons (steal_treasure).",
                          {"target": {**SEAT, "description": "the seat attacked"},
                           "mode": {"enum": ["plunder", "steal_treasure"], "default": "plunder",
                                    "description": "plunder (3+ Cannons) or steal_treasure (5 Cannons)"},
                           "jager_step": {"type": "boolean", "default": False,
                                          "description": "Jager: move 1 space forward with the attack"},
                           "jager_lane": {**LANE, "description": "Jager: the side of a split section stepped onto"}},
                          ["target"]),
    "attack_merchant": _cmd("attack_merchant", "Phase C: attack a Merchant ship in your space.",
                            {"merchant": {"type": "string", "maxLength": 40,
                                          "description": "the Merchant ship's id (the view's track.merchants)"}},
                            ["merchant"]),
    "hold_fire": _cmd("hold_fire", "Phase C: execute your Cannons without attacking."),
    "choose_lane": _cmd("choose_lane", "Your ship is pushed back into a split section: choose its side.",
                        {"lane": LANE}, ["lane"]),
    "end_turn": _cmd("end_turn", "Phase D: hand the dice on (Hasan may first convert Grog to Silver).",
                     {"hasan_convert": {"type": "boolean", "default": False,
                                        "description": "Hasan: pay 1 Grog, then each Grog left becomes 1 Silver"}}),
}
