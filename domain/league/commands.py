"""League of Pirates: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

COIN = {"type": "string", "maxLength": 40}
SLOT = {"enum": ["captain", "quartermaster", "sailing_master", "surgeon", "mate1", "mate2", "mate3"]}
ROLLS = {"type": "object", "additionalProperties": False, "required": ["skills", "dice"],
         "description": "table chance only: [raider's, defender's] Skill Die faces and Standard Dice",
         "properties": {"skills": {"type": "array", "items": {"type": "string", "maxLength": 31}, "minItems": 2, "maxItems": 2},
                        "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                                 "minItems": 2, "maxItems": 2}}}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_}, **(properties or {})}}


DRAWN = {"type": "array", "items": COIN, "minItems": 1, "maxItems": 3,
         "description": "table chance only: the coins drawn from the bag"}

COMMAND_SCHEMAS = {
    "choose_league": _cmd("choose_league", "Set Up: secretly choose your league; both are revealed together.",
                          {"league": {"enum": ["blue", "red", "yellow"]}}, ["league"]),
    "throw_dice": _cmd("throw_dice", "Dice Challenge: throw every die not kept (the first throw rolls all five).",
                       {"keep": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 4},
                                 "maxItems": 4, "default": []},
                        "values": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "maxItems": 5,
                                   "description": "table chance only: the values thrown, in position order"}}),
    "stop_throwing": _cmd("stop_throwing", "Dice Challenge: stop before your third throw."),
    "press_gang": _cmd("press_gang", "Action, 1 point: blindly pull one coin from your Homeport Bag.", {"coins": DRAWN}),
    "recruit": _cmd("recruit", "Action, 3 points: pull three coins and keep at most one.", {"coins": DRAWN}),
    "place_coin": _cmd("place_coin", "Place a drawn coin in its slot (the others return to the bag).",
                       {"coin": COIN, "slot": SLOT}, ["coin", "slot"]),
    "return_coins": _cmd("return_coins", "Return every drawn coin to the bag."),
    "resupply": _cmd("resupply", "Action: +2 points."),
    "turn_coin": _cmd("turn_coin", "Action, 2 points: turn a coin on the opponent's ship into a Traitor.",
                      {"coin": COIN}, ["coin"]),
    "raid": _cmd("raid", "Action, 2 points: raid an opponent's coin with one of your own.",
                 {"target": COIN, "raider": COIN}, ["target", "raider"]),
    "defend_raid": _cmd("defend_raid", "Defender: accept the raid, or pay 2 to fight 'with' another coin; then the dice roll.",
                        {"with": COIN, "rolls": ROLLS}),
    "rescue": _cmd("rescue", "Action, 2 points: raid to free your coin from the opponent's Brig.",
                   {"prisoner": COIN, "raider": COIN}, ["prisoner", "raider"]),
    "choose_rescue_defender": _cmd("choose_rescue_defender", "Holder of a prisoner: choose its defender; then the dice roll.",
                                   {"coin": COIN, "rolls": ROLLS}, ["coin"]),
    "place_rescued_coin": _cmd("place_rescued_coin",
                               "Put a rescued coin back (its original slot, an empty mate slot) or in its bag.",
                               {"slot": SLOT, "to_bag": {"const": True}}),
    "enlist": _cmd("enlist", "Action, 1 point: move a coin from your Brig onto your ship.",
                   {"coin": COIN, "slot": SLOT}, ["coin", "slot"]),
    "set_sail": _cmd("set_sail", "Action, 2 points, full crew: roll off; win and the game ends."),
    "pass_turn": _cmd("pass_turn", "Only with the allow_pass house rule: take no action."),
}
