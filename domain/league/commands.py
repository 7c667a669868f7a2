"""League of Pirates: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

from .legal import HOST_REPORTS, THROWN

COIN = {"type": "string", "maxLength": 40}
SLOT = {"enum": ["captain", "quartermaster", "sailing_master", "surgeon", "mate1", "mate2", "mate3"]}


def _coin(description: str) -> dict:
    return {**COIN, "description": description}


def _slot(description: str) -> dict:
    return {**SLOT, "description": description}

ROLLS = {"type": "object", "additionalProperties": False, "required": ["skills", "dice"],
         "description": "table chance only: [raider's, defender's] Skill Die faces and Standard Dice, which the "
                        "seat sending the command reports ([Raiding], [Rescue])",
         "properties": {"skills": {"type": "array", "items": {"type": "string", "maxLength": 31}, "minItems": 2, "maxItems": 2,
                                   "description": "the raider's then the defender's Skill Die face"},
                        "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                                 "minItems": 2, "maxItems": 2,
                                 "description": "the raider's then the defender's Standard Die value"}}}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_, "description": f"the command: '{type_}'"}, **(properties or {})}}


DRAWN = {"type": "array", "items": COIN, "minItems": 1, "maxItems": 3,
         "description": "table chance only: the coins pulled blindly from the seat's Homeport Bag, one for Press "
                        "Gang [Press Gang], three for Recruit (fewer if the bag holds fewer) [Recruit]" + HOST_REPORTS}

COMMAND_SCHEMAS = {
    "choose_league": _cmd("choose_league", "Set Up: secretly choose your league; both are revealed together.",
                          {"league": {"enum": ["blue", "red", "yellow"], "description": "the league (colour) chosen"}},
                          ["league"]),
    "throw_dice": _cmd("throw_dice", "Dice Challenge: throw every die not kept (the first throw rolls all five).",
                       {"keep": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 4},
                                 "maxItems": 5, "default": [],
                                 "description": "the dice kept (banked), by position 0 to 4; every other die is thrown"},
                        "values": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "maxItems": 5,
                                   "description": "table chance only: " + THROWN}}),
    "stop_throwing": _cmd("stop_throwing", "Dice Challenge: stop before your third throw."),
    "press_gang": _cmd("press_gang", "Action, 1 point: blindly pull one coin from your Homeport Bag.", {"coins": DRAWN}),
    "recruit": _cmd("recruit", "Action, 3 points: pull three coins and keep at most one.", {"coins": DRAWN}),
    "place_coin": _cmd("place_coin", "Place a drawn coin in its slot (the others return to the bag).",
                       {"coin": _coin("one of the coins drawn"), "slot": _slot("the crew slot it goes to")},
                       ["coin", "slot"]),
    "return_coins": _cmd("return_coins", "Return every drawn coin to the bag."),
    "resupply": _cmd("resupply", "Action: +2 points."),
    "turn_coin": _cmd("turn_coin", "Action, 2 points: turn a coin on the opponent's ship into a Traitor.",
                      {"coin": _coin("the opponent's coin turned")}, ["coin"]),
    "raid": _cmd("raid", "Action, 2 points: raid an opponent's coin with one of your own.",
                 {"target": _coin("the opponent's coin raided"), "raider": _coin("your coin that raids")},
                 ["target", "raider"]),
    "defend_raid": _cmd("defend_raid", "Defender: accept the raid, or pay 2 to fight 'with' another coin; then the dice roll.",
                        {"with": _coin("the coin of yours that fights instead of the one raided (2 points)"),
                         "rolls": ROLLS}),
    "rescue": _cmd("rescue", "Action, 2 points: raid to free your coin from the opponent's Brig.",
                   {"prisoner": _coin("your coin in the opponent's Brig"), "raider": _coin("your coin that raids")},
                   ["prisoner", "raider"]),
    "choose_rescue_defender": _cmd("choose_rescue_defender", "Holder of a prisoner: choose its defender; then the dice roll.",
                                   {"coin": _coin("the coin of yours that defends"), "rolls": ROLLS}, ["coin"]),
    "place_rescued_coin": _cmd("place_rescued_coin",
                               "Put a rescued coin back (its original slot, an empty mate slot) or in its bag.",
                               {"slot": _slot("the slot it goes back to"),
                                "to_bag": {"const": True, "description": "put it in its Homeport Bag instead"}}),
    "enlist": _cmd("enlist", "Action, 1 point: move a coin from your Brig onto your ship.",
                   {"coin": _coin("the coin in your Brig"), "slot": _slot("the crew slot it goes to")},
                   ["coin", "slot"]),
    "set_sail": _cmd("set_sail", "Action, 2 points, full crew: roll off; win and the game ends."),
    "pass_turn": _cmd("pass_turn", "Only with the allow_pass house rule: take no action."),
}
