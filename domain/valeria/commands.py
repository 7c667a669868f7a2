"""Valeria: Card Kingdoms: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

ID = {"type": "string", "maxLength": 41}


def _(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


RESOURCE = {"enum": ["gold", "strength", "magic"]}
PICK = {"description": "one pick: an index (choose), a resource (wild), true/false (may, exchange), "
                       "{seat, resource[, amount]} (take from an opponent), a Center stack (take a card, banish) or a seat "
                       "number (a random Monster taken from that seat); the view's pending_rewards[].asks says "
                       "what each pick of a waiting reward is",
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 5}, {"type": "boolean"},
                  {"type": "string", "maxLength": 41},
                  {"type": "object", "additionalProperties": False, "required": ["seat", "resource"],
                   "description": "take a resource from an opponent: the most the power allows, or 'amount'",
                   "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 4, "description": "the opponent"},
                                  "resource": _(RESOURCE, "the resource taken"),
                                  "amount": {"type": "integer", "minimum": 0, "maximum": 99,
                                             "description": "how many to take, fewer than the most if you wish "
                                                            "[BR p.19 Thief] (VP-8); left out: the most the power "
                                                            "allows and the opponent holds"}}},
                  {"type": "object", "additionalProperties": False, "required": ["seat", "card"],
                   "description": "Crimson Seas, the Skeleton Army: an opponent's Citizen",
                   "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 4, "description": "the opponent"},
                                  "card": _(ID, "the Citizen of that opponent's, flipped face down")}}]}
CHOICE = {"type": "array", "items": PICK, "maxItems": 20, "default": [],
          "description": "the picks the power asks for, in the order it asks them (legal commands list them). "
                         "Magpie Roost's random Monster asks for the seat number of the player it is taken from; at "
                         "a table 'revealed' then names a Monster of that seat's Victory stack (seats[...].victory "
                         "in the host's view)"}
# What 'revealed' carries (rules.Draft.reveal is called for each): legal.revealed_description words
# the same for one game, table_inputs' spec of it.
_REVEALED = ("table chance only: each card or token this command turns face up, in the order turned; none when "
             "nothing face down is turned up. A face-down Domain, when the one above it is built or taken [BR p.10]; "
             "a mixed stack's face-down Citizen, by its type [BR p.18] (Mixed Citizen Variant); a Monster Event "
             "turned up on an emptied Center stack [CS Monster Event Cards] (with the Monster Events); ")
_REFILLS = ("each Goods token, Tome token and Noble card drawn to refill Araby, Nae Aerie and Amarynth after a Sail "
            "[CS Sail] (copy ids such as 'fabrics#2'); ")
_VICTORY = ("a Monster taken at random from another player's Victory stack [BR p.19] (a copy id of that seat's "
            "'victory'). The ids the host's view lists under 'nameable'; only the host token reports them (TM-1).")
TABLE = {
    "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "minItems": 2, "maxItems": 2,
             "description": "table chance only, and only with roll_dice (any other command is refused with it, "
                            "VP-50): the two dice rolled, each 1 to 6 [BR p.7 Roll Phase]; the rolling seat reports "
                            "them"},
    "revealed": {"type": "array", "items": ID, "maxItems": 10, "description": _REVEALED + _VICTORY},
}
CS_REVEALED = {**TABLE["revealed"], "description": _REVEALED + _REFILLS + _VICTORY}
MAGIC = {"type": "integer", "minimum": 0, "maximum": 99, "default": 0,
         "description": "Magic standing in for Strength (slay) or Gold (recruit, build), in units: Magic tokens and "
                        "the Magic Tomes named in 'tomes' together (VA-11); the rest of the price is paid in the "
                        "resource itself, at least one token or Tome of which must be spent"}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_, "description": f"the command: '{type_}'"}, **(properties or {}),
                           **TABLE}}


COMMAND_SCHEMAS = {
    "keep_duke": _cmd("keep_duke", "Setup: keep one of the two Dukes dealt to you, secretly.",
                      {"duke": _(ID, "one of the two Dukes dealt to you")}, ["duke"]),
    "roll_dice": _cmd("roll_dice", "Roll Phase: the active player rolls the two dice."),
    "change_die": _cmd("change_die", "Roll Phase: use a Domain you own to change a die (each Domain once per Roll Phase).",
                       {"domain": _(ID, "the Domain of yours that changes it"),
                        "die": {"enum": [0, 1], "description": "the die, 0 the first"},
                        "to": {"type": "integer", "description": "the value it gets; a die shows 1 to 6, and the "
                                "rules refuse any other (BR p.19, VA-B7)"}},
                       ["domain", "die", "to"]),
    "announce_roll": _cmd("announce_roll", "Roll Phase: announce the result; the Harvest begins."),
    "harvest": _cmd("harvest", "Harvest Phase: resolve one of your activated powers.",
                    {"item": {"type": "integer", "minimum": 0, "maximum": 1000,
                              "description": "the Harvest item's id (the view's 'harvest')"}, "choice": CHOICE},
                    ["item"]),
    "slay": _cmd("slay", "Action: slay the top Monster of a stack.",
                 {"stack": _(ID, "the Monster stack (an Area, or a Center position with a Monster Event)"),
                  "magic": MAGIC}, ["stack"]),
    "recruit": _cmd("recruit", "Action: recruit the top Citizen of a stack (its cost +1 per copy you own).",
                    {"stack": _(ID, "the Citizen stack"), "magic": MAGIC}, ["stack"]),
    "build": _cmd("build", "Action: build the top Domain of a stack whose Role icons your Citizens match.",
                  {"stack": _(ID, "the Domain stack, domain_1 to domain_5"), "magic": MAGIC}, ["stack"]),
    "gain_resource": _cmd("gain_resource", "Action: take one Gold, Strength or Magic from the Bank.",
                          {"resource": _(RESOURCE, "the resource taken")}, ["resource"]),
    "resolve": _cmd("resolve", "Action Phase: resolve the reward of the Monster slain or the Domain built.",
                    {"choice": CHOICE,
                     "reward": {"type": "integer", "minimum": 0, "maximum": 20, "default": 0,
                                "description": "which of the rewards and powers waiting to resolve goes now, when several "
                                               "take effect at once: the order is yours [BR p.15]"}}),
}

SOLO_COMMAND_SCHEMAS = {
    "activate_monster": _cmd("activate_monster", "Solo variant, Monsters Phase [BR p.17]: one die's Monster stack attacks "
                                                 "its column (those with no choice activate by themselves).",
                             {"die": {"enum": [0, 1], "description": "the die, 0 the first"},
                              "stack": {**ID, "description": "a 6: the Monster stack of your choice (not an exhausted one)"},
                              "citizen": {**ID, "description": "when both Citizen stacks of the column hold a card: the "
                                                               "one a Citizen is removed from"}},
                             ["die"]),
}


TOMES = {"type": "object", "additionalProperties": False, "default": {},
         "description": "Crimson Seas: how many face-up Tomes of each type you flip to pay (each pays 1 of its type): "
                        "an action's price or a die change's cost [CS Tome Tokens 'At any time']; never a Harvest "
                        "exchange, whose gain comes from the Bank (refused TOME_FROM_BANK, VA-22)",
         "properties": {r: {"type": "integer", "minimum": 1, "maximum": 24,
                            "description": f"how many face-up {r.capitalize()} Tomes you flip"}
                        for r in ("gold", "strength", "magic")}}


def _with_tomes(schema: dict) -> dict:
    return {**schema, "properties": {**schema["properties"], "tomes": TOMES}}


def _seas(schema: dict) -> dict:
    """A command as Crimson Seas has it: 'revealed' also carries the islands' refills."""
    return {**schema, "properties": {**schema["properties"], "revealed": CS_REVEALED}}


CS_COMMAND_SCHEMAS = {
    **{k: _seas(_with_tomes(v) if k in ("slay", "recruit", "build", "harvest", "change_die") else v)
       for k, v in COMMAND_SCHEMAS.items()},
    "sail": _seas(_with_tomes(_cmd("sail", "Action [CS Sail]: pay 1 Map and sail to an island: Araby (buy the Goods in 'slots', "
                                     "0 top to 2 bottom), Nae Aerie (the Tomes in 'slots'), Exekratys (every token of "
                                     "'resource') or Amarynth (rescue the Noble in 'slot', paying in 'resource').",
                             {"island": {"enum": ["araby", "nae_aerie", "exekratys", "amarynth"],
                                         "description": "the island sailed to"},
                              "slots": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 2},
                                        "maxItems": 3, "default": [],
                                        "description": "Araby or Nae Aerie: the slots bought from, 0 top to 2 bottom, "
                                                       "ascending"},
                              "slot": {"type": "integer", "minimum": 0, "maximum": 2,
                                       "description": "Amarynth: the slot of the Noble rescued"},
                              "resource": _(RESOURCE, "Exekratys: the resource whose tokens you take; Amarynth: the "
                                                      "resource the rescue is paid in"),
                              "magic": MAGIC}, ["island"]))),
    "gain_map": _seas(_cmd("gain_map", "Action [CS Gain a Map]: take 1 Map from the Bank.")),
}
