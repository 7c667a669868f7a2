"""Los Tesoros del Rey Pirata: the commands a player sends, as JSON Schemas (served at /rulesets)."""
from __future__ import annotations

from . import legal

CARD = {"type": "string", "maxLength": 40}
SEAT = {"type": "integer", "minimum": 0, "maximum": 3}


def _card(description: str) -> dict:
    return {**CARD, "description": description}


def _seat(description: str) -> dict:
    return {**SEAT, "description": description}

DIE = {"type": "string", "maxLength": 40,
       "description": "a card id from your hand or your equipped card, 'deck' (the top card of the Play Deck) "
                      "or 'free5' (Compass & Sextant to move, Cannons & Pistols to Fire Cannons)"}
CARDS = {"type": "array", "items": CARD, "maxItems": 50}
TABLE = {
    "drawn": {**CARDS, "description": "table chance only: " + legal.DRAWN},
    "events": {**CARDS, "description": "table chance only: " + legal.EVENTS},
    "stolen": {**CARDS, "description": "table chance only: " + legal.STOLEN},
    "maps": {**CARDS, "description": "table chance only: " + legal.MAPS},
}


def _cmd(type_: str, description: str, properties: dict | None = None, required: list | None = None) -> dict:
    return {"type": "object", "description": description, "additionalProperties": False,
            "required": ["type"] + (required or []),
            "properties": {"type": {"const": type_, "description": f"the command: '{type_}'"}, **(properties or {}),
                           **TABLE}}


COMMAND_SCHEMAS = {
    "draw_card": _cmd("draw_card", "Draw a Card (phase 1, an action, or a card's effect): the top card of the Play Deck, "
                                   "or with Lamps & Shovels the top card of the discard pile.",
                      {"from": {"enum": ["deck", "discard"], "default": "deck",
                                "description": "the Play Deck, or with Lamps & Shovels the discard pile"}}),
    "peek_deck": _cmd("peek_deck", "Lamps & Shovels: before drawing, look at the top card of the Play Deck."),
    "fire_cannons": _cmd("fire_cannons",
                         "Action: attack a Ship in your square or the 8 adjacent ones; win and steal 2 cards at random.",
                         {"target": _seat("the Pirate attacked"), "die": DIE}, ["target", "die"]),
    "challenge_duel": _cmd("challenge_duel", "Action: attack a Ship in your square; win and take 1 Treasure.",
                           {"target": _seat("the Pirate challenged"), "die": DIE}, ["target", "die"]),
    "defend": _cmd("defend", "The attacked Pirate assigns a die value to the defence.", {"die": DIE}, ["die"]),
    "take_treasure": _cmd("take_treasure", "After winning a Duel: the Treasure card you take.",
                          {"map": _card("the Map id of the loser's Treasure taken")}, ["map"]),
    "play_treason": _cmd("play_treason", "Action: play Mutiny or Sabotage on another Pirate; 'replace' changes its "
                                         "die value with another card (hand, equipped or 'deck').",
                         {"card": _card("the Mutiny or Sabotage card played from your hand"),
                          "target": _seat("the Pirate targeted"), "replace": DIE}, ["card", "target"]),
    "accept_treason": _cmd("accept_treason", "The targeted Pirate plays no Walk the Plank."),
    "walk_the_plank": _cmd("walk_the_plank", "The targeted Pirate answers with Walk the Plank; 'replace' changes its die value.",
                           {"card": _card("the Walk the Plank card played from your hand"), "replace": DIE}, ["card"]),
    "take_card": _cmd("take_card", "Mutiny: the card you take from the targeted Pirate's hand.",
                      {"card": _card("a card of the targeted Pirate's hand, which you are looking at")}, ["card"]),
    "equip": _cmd("equip", "Action: equip an Equipment card (the one equipped before goes back to your hand).",
                  {"card": _card("the Equipment card from your hand")}, ["card"]),
    "claim_treasure": _cmd("claim_treasure", "Action: at a revealed Map's island, discard the Equipment it names and take it.",
                           {"map": _card("the revealed Map claimed"),
                            "card": _card("the Equipment card it names, from your hand or equipped")}, ["map", "card"]),
    "assign_move_die": _cmd("assign_move_die", "Phase 3: assign the die value of the move.", {"die": DIE}, ["die"]),
    "move_ship": _cmd("move_ship", "Phase 3: where the Ship ends its move ('x,y' for a sea square, or an island id).",
                      {"to": {"type": "string", "maxLength": 40, "description": "'x,y' or an island id"}}, ["to"]),
    "discard_card": _cmd("discard_card", "End of turn: discard one card while you hold more than 8.",
                         {"card": _card("the card discarded from your hand")}, ["card"]),
    "keep_cards": _cmd("keep_cards", "Scurvy: the 2 cards of your hand you keep.",
                       {"cards": {"type": "array", "items": CARD, "minItems": 2, "maxItems": 2,
                                  "description": "the 2 cards of your hand kept; the others are discarded"}}, ["cards"]),
}
