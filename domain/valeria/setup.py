"""Valeria: Card Kingdoms: creating a game. [BR p.4-5 Game Setup], [BR p.16 5-Player Variant],
[BR p.16 Solo Variant], [BR p.18 Mixed Citizen Variant], [CS Monster Event Cards] (the Monster
Events on their own)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import jsonschema

from .. import kit
from ..kit import custom_content_problems, load_json, with_defaults
from ..kit import schema_problems as _schema_problems
from ..kit.printed import cite
from ..ruleset import InvalidCreation, Rejected
from .effects import MOST_WAYS, has_choice, most_ways
from .printed import printed_card_problems, sections
from .state import FACE_DOWN, MIXED, lowest_copies, mixed_stack

RULESET_ID = "valeria-card-kingdoms"
CS_RULESET_ID = "crimson-seas"
RULESET_VERSION = "1.9.0"

CONTENT_SCHEMA = load_json(__package__, "schema.json")
DEFAULT_CONTENT = load_json(__package__, "reference.json")
CS_CONTENT = load_json(__package__, "crimson-seas.json")

SLOTS = ([1], [2], [3], [4], [5], [6], [7], [8], [9, 10], [11, 12])  # [BR p.4] one Citizen type per number
UNSUPPORTED = "Parley serves the first-edition base game only"
VARIANTS = ("solo", "mixed_citizens")        # the rulebook's [BR p.16-18]
MONSTER_EVENTS = "monster_events"            # [CS Monster Event Cards] 'can be played independent'

OPTIONS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Valeria: Card Kingdoms options",
    "description": "Which cards are used and the house rules. Each default is the rulebook or Parley's ruling; "
                   "see docs/rulings.md.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "citizen_types": {"type": ["array", "null"], "items": {"type": "string", "maxLength": 41}, "maxItems": 10,
                          "default": None,
                          "description": "[BR p.4] one Citizen type per activation number (1-8, 9/10, 11/12); null: the "
                                         "first type the content lists for each"},
        "monster_areas": {"type": ["array", "null"], "items": {"type": "string", "maxLength": 41}, "maxItems": 5,
                          "default": None,
                          "description": "[BR p.4] the 5 Monster Areas; null: the first five the content lists"},
        "first_player": {"enum": [0, 1, 2, 3, 4, "random"], "default": "random",
                         "description": "[BR p.5] the first player, chosen at random unless the table says"},
        "duke_rounding": {"enum": ["per_type", "pooled"], "default": "per_type",
                          "description": "VA-B4: a Duke's '1 VP per N of each resource' floors each resource apart, "
                                         "or the pooled total"},
        "expansions": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 10, "default": [],
                       "description": "['monster_events']: Crimson Seas' Monster Events on the base game, without the "
                                      "rest of the expansion [CS Monster Event Cards] (VP-43); in crimson-seas "
                                      "['crimson_seas'] and 'monster_events' change nothing (they are in it); any other "
                                      "expansion is refused"},
        "monster_events_preselected": {
            "type": "array", "items": {"type": "string", "maxLength": 41}, "maxItems": 5, "uniqueItems": True,
            "description": "[CS Monster Event Cards, Setup] 'If there is a specific Monster Event card that you would "
                           "like to play with, you may preselect it as one of the Monster Event cards to shuffle and "
                           "place onto the Exhausted card stack': the Monster Events certainly among those set out face "
                           "down, at most one per player; the rest are drawn at random as usual. Only with the Monster "
                           "Events (Crimson Seas, or expansions ['monster_events']). Not sent: none (VP-48)"},
        "solo_vp_tokens": {"type": "boolean", "default": False,
                           "description": "solo variant only: true counts your Victory Point tokens in your score "
                                          "against the Dark Lord, as the base game's scoring does [BR p.8]; the Solo "
                                          "Variant's own list [BR p.17] (your slain Monsters, built Domains and Duke) "
                                          "leaves them out, and so does the default (VP-26)"},
        "edition": {"type": "string", "maxLength": 30, "default": "first",
                    "description": "refused unless 'first': the second edition is not supported"},
        "variant": {"anyOf": [{"type": "string", "maxLength": 30},
                              {"type": "array", "items": {"type": "string", "maxLength": 30}, "minItems": 1,
                               "maxItems": 2, "uniqueItems": True}],
                    "default": "standard",
                    "description": "'standard', 'solo' (1 player against the Dark Lord [BR p.16-18], VP-19 to VP-27), "
                                   "'mixed_citizens' (the Mixed Citizen Variant [BR p.18], VP-40), or a list of distinct "
                                   "names among those two: ['solo', 'mixed_citizens'] plays both (VP-49)"},
    },
}

# What every seat sees on the table of what the table set up (docs/api.md section 7): the
# Domains and Citizens dealt face up, the first player, and (Crimson Seas) the Goods, Tomes and
# Nobles turned face up on the Island Board; not the Dukes dealt nor the solo Dark Lord.
PUBLIC_SETUP_FIELDS = frozenset({"domains", "citizens", "first_player", "araby", "nae_aerie", "amarynth"})

TABLE_SETUP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Table chance only: what the table dealt [BR p.4-5].",
    "required": ["domains", "dukes", "first_player"],
    "additionalProperties": False,
    "properties": {
        "domains": {"type": "array", "items": {"type": "string", "maxLength": 41}, "minItems": 5, "maxItems": 5,
                    "description": "the Domain turned face up on each of the 5 Domain stacks, left to right"},
        "dukes": {"type": "array", "minItems": 1, "maxItems": 5,
                  "items": {"type": "array", "items": {"type": "string", "maxLength": 41}, "minItems": 2, "maxItems": 2},
                  "description": "the 2 Dukes dealt to each seat, in seat order"},
        "first_player": {"type": "integer", "minimum": 0, "maximum": 4, "description": "the seat chosen to go first"},
        "dark_lord": {"type": "string", "maxLength": 41,
                      "description": "solo variant only: the Duke placed face down above the Monster stacks as the Dark "
                                     "Lord [BR p.16], one of those not dealt to the player (VP-19). Left out when "
                                     "the table placed it unseen: it is then named when it is turned up to be scored "
                                     "(VP-55)"},
        "citizens": {"type": "array", "items": {"type": "string", "maxLength": 41}, "minItems": 10, "maxItems": 10,
                     "description": "Mixed Citizen Variant only [BR p.18]: the Citizen dealt face up on each stack, for "
                                    "Activation 1 to 8, 9/10 and 11/12, by its type (or a copy's id)"},
    },
}

CS_TABLE_SETUP_SCHEMA = {
    **TABLE_SETUP_SCHEMA,
    "description": "Table chance only: what the table dealt [BR p.4-5] and laid on the Island Board [CS Game Setup].",
    "required": TABLE_SETUP_SCHEMA["required"] + ["araby", "nae_aerie", "amarynth"],
    "properties": {**TABLE_SETUP_SCHEMA["properties"],
                   "araby": {"type": "array", "items": {"type": "string", "maxLength": 41}, "minItems": 3, "maxItems": 3,
                             "description": "the 3 Goods turned face up in Araby, top to bottom, each a copy "
                                            "id '<type>#<k>': a type of content.crimson_seas.goods.types and k "
                                            "from 1 to its per_type, e.g. 'fabrics#1', each copy once"},
                   "nae_aerie": {"type": "array", "items": {"type": "string", "maxLength": 41}, "minItems": 3, "maxItems": 3,
                                 "description": "the 3 Tomes turned face up in Nae Aerie, top to bottom, each a "
                                                "copy id 'tome_<resource>#<k>': a resource of "
                                                "content.crimson_seas.tomes.counts and k from 1 to its count, e.g. "
                                                "'tome_gold#1', each copy once"},
                   "amarynth": {"type": "array", "items": {"type": "string", "maxLength": 41}, "minItems": 3, "maxItems": 3,
                                "description": "the 3 Nobles turned face up in Amarynth: ids of "
                                               "content.crimson_seas.nobles"}},
}

_options_validator = jsonschema.Draft202012Validator(OPTIONS_SCHEMA)
_cs_table_validator = jsonschema.Draft202012Validator(CS_TABLE_SETUP_SCHEMA)
_content_validator = jsonschema.Draft202012Validator(CONTENT_SCHEMA)
_table_validator = jsonschema.Draft202012Validator(TABLE_SETUP_SCHEMA)


def content_problems(content: dict, cs: bool = False) -> list[str]:
    """Custom content's problems beyond its schema, in the order a refusal lists them (cs: for
    the crimson-seas ruleset)."""
    problems = _edition_problems(content, cs)
    ids = _card_ids(content)
    if "crimson_seas" in content:
        problems += _printed_island(content["crimson_seas"])
    if content["starting_resources"] != {"gold": 2, "strength": 0, "magic": 1}:
        problems.append("content.starting_resources: the rulebook prints them: 'Give each player 2 Gold tokens and "
                        "1 Magic token.' [BR p.5]")
    dup = [i for i, n in Counter(ids).items() if n > 1]
    if dup:
        problems.append(f"content: every card id must be unique; repeated: {', '.join(sorted(map(str, dup)))}")
    problems += printed_card_problems(content)
    problems += _center_problems(content, cs)
    problems += _misplaced_actions(content, cs)
    problems += _ongoing_problems(content, cs)
    if len(content["domains"]) < 15:
        problems.append("content.domains: 5 stacks of 3 need at least 15 Domains [BR p.4]")
    if len(content["dukes"]) < 10:
        problems.append("content.dukes: 2 Dukes for each of up to 5 players need at least 10 [BR p.5]")
    return problems


def _edition_problems(content: dict, cs: bool) -> list[str]:
    """The first-edition base game's cards, with Crimson Seas' exactly when the ruleset is crimson-seas."""
    problems = []
    if content["edition"] != "first":
        problems.append(f"content.edition: {UNSUPPORTED}; '{content['edition']}' is not supported")
    wanted = ["crimson_seas"] if cs else []
    if content.get("expansions", []) != wanted:
        problems.append(f"content.expansions: {UNSUPPORTED}{' with Crimson Seas' if cs else ''}; cards of "
                        f"{content.get('expansions', [])} are not supported")
    if cs and "crimson_seas" not in content:
        problems.append("content.crimson_seas: the island board, the Coxswain, the Nobles and the Monster Events are needed")
    if not cs and ("crimson_seas" in content or any(m.get("plus") or m["type"] == "warden" for m in content["monsters"])):
        problems.append("content: Crimson Seas cards (the island board, '+' Monsters, Wardens) need the crimson-seas ruleset")
    if cs and "monster_events" in content:
        problems.append("content.monster_events: Crimson Seas content carries its Monster Events in crimson_seas.monster_events")
    if not cs:
        problems += event_problems(content.get("monster_events", []))
    return problems


# What needs the Crimson Seas island board or its Maps: no such thing without it (VP-44).
_ISLAND_NODES = ("take_island", "offer_exekratys")


def _needs_island(effect) -> bool:
    if isinstance(effect, list):
        return any(_needs_island(e) for e in effect)
    if not isinstance(effect, dict):
        return False
    for k, v in effect.items():
        if k in _ISLAND_NODES or (k == "gain" and isinstance(v, dict) and "map" in v) \
                or (k == "action" and v in ("sail", "gain_map")):
            return True
        if _needs_island(v):
            return True
    return False


def event_problems(events: list[dict]) -> list[str]:
    """[CS Monster Event Cards] 'can be played independent from the rest of this expansion': on the
    base game a Monster Event reads without the island board only if what it says of Maps, Goods,
    Tomes, Nobles, Exekratys or Sail is one branch of a choice with another branch that needs
    none of them (that branch is then the choice, VP-44); anything else is refused."""
    out = []
    for k, e in enumerate(events):
        for part in ("reward", "on_roll", "on_reveal"):
            effect = e.get(part)
            if effect is None or not _needs_island(effect):
                continue
            branches = effect.get("choose")
            if not (isinstance(branches, list) and any(not _needs_island(b) for b in branches)):
                out.append(f"content.monster_events[{k}].{part}: '{e['name']}' needs the Crimson Seas island board or its "
                           "Maps, which the Monster Events on their own do not bring [CS Monster Event Cards] (VP-44)")
    return out


def _card_ids(content: dict) -> list[str]:
    """The id of every card (and of every Crimson Seas token type), each as often as it is given."""
    ids = ([c["id"] for c in content["starters"]] + [c["id"] for c in content["citizens"]]
           + [m["id"] for m in content["monsters"]] + [d["id"] for d in content["domains"]] + [d["id"] for d in content["dukes"]])
    ids += [e["id"] for e in content.get("monster_events", [])]
    if "crimson_seas" in content:
        x = content["crimson_seas"]
        ids += [x["coxswain"]["id"]] + [n["id"] for n in x["nobles"]] + [e["id"] for e in x["monster_events"]]
        ids += list(x["goods"]["types"]) + ["tome_gold", "tome_strength", "tome_magic"]
    return ids


def _center_problems(content: dict, cs: bool) -> list[str]:
    """[BR p.4] a Citizen type for each activation number; 5 Monster Areas of the printed size."""
    problems = []
    for slot in SLOTS:
        if not any(c["activation"] == slot for c in content["citizens"]):
            problems.append(f"content.citizens: no Citizen type for activation {'/'.join(map(str, slot))} [BR p.4]")
    areas = Counter(m["area"] for m in content["monsters"])
    if len(areas) < 5:
        problems.append("content.monsters: at least 5 Monster Areas are needed [BR p.4]")
    for area in areas:
        base = sum(m["copies"] for m in content["monsters"] if m["area"] == area)
        five = sum(m["five_player_copies"] for m in content["monsters"] if m["area"] == area)
        want = 6 if cs else 5  # VA-25: with Crimson Seas the Warden is a sixth
        if base != want or five != 1:
            problems.append(f"content.monsters[{area}]: an Area has {want} Monsters and 1 with the 5-player icon "
                            "[BR p.4, p.16]" + (" (VA-25)" if cs else ""))
        if cs and sum(m["copies"] for m in content["monsters"] if m["area"] == area and m["type"] == "warden") != 1:
            problems.append(f"content.monsters[{area}]: one Warden per Area [CS New Monster Icons]")
        if area.startswith("domain_"):
            problems.append(f"content.monsters[{area}]: an Area id may not start with 'domain_'")
    return problems


def _ongoing_problems(content: dict, cs: bool) -> list[str]:
    """A Domain's ongoing powers: what triggers on doubles, and what a discount may apply to [BR p.18-19]."""
    problems = []
    for k, dom in enumerate(content["domains"]):
        for power in dom.get("ongoing", []):
            if power["when"] == "doubles" and ("effect" not in power or has_choice(power["effect"])):
                problems.append(f"content.domains[{k}].ongoing: a power on doubles is an effect that needs no choice "
                                "(it may trigger on anyone's turn) [BR p.18-19]")
            off = power.get("discount")
            if off is None:
                continue
            if power["when"] != "always":
                problems.append(f"content.domains[{k}].ongoing: a discount holds 'always', not on '{power['when']}'")
            if off.get("ignore_plus") and off["action"] not in ("recruit", "slay", "noble"):
                problems.append(f"content.domains[{k}].ongoing.discount: only a Citizen, a '+' Monster or a Noble rescue "
                                f"has a '+' to ignore, not '{off['action']}'")
            if off["action"] in ("goods", "tome", "noble") and not cs:
                problems.append(f"content.domains[{k}].ongoing.discount: {off['action']} are bought on the Crimson Seas "
                                "island board; such content needs the crimson-seas ruleset")
    return problems


def _grants(effect) -> list[str]:
    """The 'action' nodes of an effect tree."""
    out = []
    if isinstance(effect, list):
        for e in effect:
            out += _grants(e)
    elif isinstance(effect, dict):
        for k, v in effect.items():
            out += [v] if k == "action" else _grants(v)
    return out


def _misplaced_actions(content: dict, cs: bool) -> list[str]:
    """[BR p.15] an additional action is a reward's, in the Action Phase: never a Harvest power's nor a
    Monster Event's Roll Phase instruction; Sail and Gain a Map only with Crimson Seas."""
    out = []
    x = content.get("crimson_seas", {})
    harvest = [(f"citizens[{k}]", [c["on_turn"], c["off_turn"]]) for k, c in enumerate(content["citizens"])]
    harvest += [(f"starters[{k}]", [c["on_turn"], c["off_turn"]]) for k, c in enumerate(content["starters"])]
    harvest += [(f"domains[{k}].ongoing", [p.get("effect") for p in d.get("ongoing", []) if p["when"] == "harvest"])
                for k, d in enumerate(content["domains"])]
    if x:
        harvest.append(("crimson_seas.coxswain", [x["coxswain"]["on_turn"], x["coxswain"]["off_turn"]]))
        harvest += [(f"crimson_seas.monster_events[{k}]", [e.get("on_roll"), e.get("on_reveal")])
                    for k, e in enumerate(x["monster_events"])]
    harvest += [(f"monster_events[{k}]", [e.get("on_roll"), e.get("on_reveal")])
                for k, e in enumerate(content.get("monster_events", []))]
    for where, effects in harvest:
        if _grants(effects):
            out.append(f"content.{where}: an additional action is granted only by a reward in the Action Phase [BR p.15]")
    if not cs:
        rewards = [d.get("immediate") for d in content["domains"]] + [m["reward"] for m in content["monsters"]]
        rewards += [p.get("effect") for d in content["domains"] for p in d.get("ongoing", [])]
        if set(_grants(rewards)) & {"sail", "gain_map"}:
            out.append("content: Sail and Gain a Map are Crimson Seas actions; such content needs the crimson-seas ruleset")
    return out


def _printed_island(x: dict) -> list[str]:
    """What Crimson Seas prints is a rule, not card data: only the board's prices, the Tome
    types and the cards are the content's (VA-2, VA-12)."""
    out = []
    if x["exekratys_start"] != {"gold": 2, "strength": 2, "magic": 2}:
        out.append("content.crimson_seas.exekratys_start: 'Place 2 Strength, 2 Magic, and 2 Gold tokens within the "
                   "white circle on Exekratys.' [CS Game Setup]")
    if x["maps"]["per_player"] != 2:
        out.append("content.crimson_seas.maps.per_player: 'Give each player 1 Coxswain Starter card and 2 Map "
                   "tokens.' [CS Game Setup]")
    if x["maps"]["total"] != 20:
        out.append("content.crimson_seas.maps.total: '20 Map Tokens' [CS Components]")
    if x["rescue"] != {"base": 9, "per_noble": 1}:
        out.append("content.crimson_seas.rescue: 'paying 9 of any 1 Resource type plus an additional 1 of the same "
                   "Resource type for each Noble card in your tableau' [CS Sail]")
    if x["goods"]["set_vp"] != [0, 2, 4, 7, 12, 18, 25]:
        out.append("content.crimson_seas.goods.set_vp: the printed table reads 1-6 -> 2, 4, 7, 12, 18, 25 "
                   "(with 0 for none) [CS Goods Tokens]")
    if len(x["goods"]["types"]) != 4 or x["goods"]["per_type"] * len(x["goods"]["types"]) != 24:
        out.append("content.crimson_seas.goods: '24 Goods Tokens' [CS Components] of 'Fabrics, Jewels, Spices, and "
                   "Artifacts' [CS Goods Tokens]: 4 types of 6")
    if sum(x["tomes"]["counts"].values()) != 24:
        out.append("content.crimson_seas.tomes.counts: '24 Tome Tokens' [CS Components] (VA-12)")
    if len(x["nobles"]) != 16:
        out.append(f"content.crimson_seas.nobles: '16 Noble Cards' [CS Components], not {len(x['nobles'])}")
    for kind, island in (("goods", "Araby"), ("tomes", "Nae Aerie")):
        prices = x[kind]["prices"]
        if any(a <= b for a, b in zip(prices, prices[1:], strict=False)):
            out.append(f"content.crimson_seas.{kind}.prices: {island}'s tokens 'move ... down to cover up empty "
                       "slots. (In this way, they become less expensive.)': each slot, top to bottom, costs more "
                       f"than the one below it, not {prices} [CS Sail] (VA-2)")
    return out


def with_events(content: dict) -> dict:
    """The content a base game with the Monster Events on their own is played with: its own
    'monster_events', or else the Crimson Seas reference content's [CS Monster Event Cards] (VP-43)."""
    if "monster_events" in content:
        return content
    return {**content, "monster_events": CS_CONTENT["crimson_seas"]["monster_events"]}


kit.check_shipped(_content_validator, DEFAULT_CONTENT, content_problems)
kit.check_shipped(_content_validator, CS_CONTENT, lambda c: content_problems(c, cs=True))
kit.check_shipped(_content_validator, with_events(DEFAULT_CONTENT), content_problems)


def setup(players: list[str], options: dict | None, content: dict | None, chance, table_setup: dict | None) -> list[dict]:
    return _setup(False, players, options, content, chance, table_setup)


def setup_crimson_seas(players: list[str], options: dict | None, content: dict | None, chance,
                       table_setup: dict | None) -> list[dict]:
    return _setup(True, players, options, content, chance, table_setup)


def variants(opts: dict) -> list[str]:
    """The variants an options' `variant` names: none for 'standard'."""
    v = opts["variant"]
    return [] if v == "standard" else [v] if isinstance(v, str) else list(v)


def _setup(cs: bool, players, options, content, chance, table_setup) -> list[dict]:
    n = len(players)
    opts, content, problems = _accepted(cs, players, options, content)
    if opts is None:  # the players, the options' form or the content's form is wrong: nothing below can be checked
        raise InvalidCreation(cite(problems, sections(cs)))
    content_sound = not problems  # content kept its schema; if it broke a rule, the stacks cannot be chosen from it
    problems += _option_problems(cs, opts, content, n)
    mixed = "mixed_citizens" in variants(opts)
    types: list[str] = []
    areas: list[str] = []
    if content_sound:
        if not cs and MONSTER_EVENTS in opts["expansions"]:
            content = _played_with_events(content, problems)
        types = [] if mixed else _citizen_types(content, opts, problems)
        areas = _areas(content, opts, problems)
        problems += _preselected_problems(cs, opts, content, n)
    t = table_setup or {}
    late = _check_table_setup(cs, mixed, chance, table_setup, n, problems, solo="solo" in variants(opts),
                              chosen_first=opts["first_player"])
    if problems:
        raise InvalidCreation(cite(problems + late, sections(cs)))
    center = _center(content, cs, n, types, areas, mixed)
    table = kit.dealing(chance)  # every wrong report of the table at once
    try:
        dealt = _deal(content, opts, n, table, t)
        if mixed:
            late += _mixed_tops(center, content, table, t)
        events_only = not cs and MONSTER_EVENTS in opts["expansions"]
        islands = [_islands(content, n, table, t)] if cs else \
            [{"type": "MonsterEventsSetOut", **_events(content["monster_events"], n)}] if events_only else []
    except Rejected as r:  # a wrong report met earlier may be its cause: that one is listed
        raise InvalidCreation(cite(_with_late(late, table) + ([] if kit.refused_reports(table) else [r.detail]),
                                   sections(cs))) from None
    if late or kit.refused_reports(table):
        raise InvalidCreation(cite(_with_late(late, table), sections(cs)))
    return _setup_events(cs, players, opts, content, chance, center, dealt, islands)


def _played_with_events(content: dict, problems: list) -> dict:
    """The content with the Monster Events it plays (VP-43), its ids still unique. Adds to problems."""
    played = with_events(content)
    if played is not content:
        dup = sorted(set(_card_ids(content)) & {e["id"] for e in played["monster_events"]})
        if dup:
            problems.append(f"content: the Crimson Seas reference Monster Events played with it (VP-43) repeat the ids {dup}; "
                            "give the content its own 'monster_events'")
    return played


# Where custom content holds a power (content/schema.json's $ref to $defs/effect).
EFFECT_KEYS = ("on_turn", "off_turn", "reward", "immediate", "effect", "on_roll", "on_reveal")
CENTER_STACKS = 20   # [BR p.4] 10 Citizen stacks, 5 Monster stacks, 5 Domain stacks


def _powers(x, path: str = "content") -> Iterator[tuple[str, dict]]:
    """Every power of the content, with where it is."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k in EFFECT_KEYS and isinstance(v, dict):
                yield f"{path}.{k}", v
            else:
                yield from _powers(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _powers(v, f"{path}[{i}]")


# The most ways custom content's powers may offer together, waiting at once: a legal-commands
# listing holds every way of every power waiting (a harvest's, or the rewards pending), so the
# powers' part of one listing is at most this long. A probe within MOST_WAYS alone reached
# 500,000 entries (56 MB, 18-23 s of a worker's CPU) with 100 powers of 5,000 ways waiting in one
# harvest (docs/performance.md). The reference contents come to 3,803 at most this way
# (Crimson Seas, 5 players).
MOST_WAYS_AT_ONCE = 25_000
ACTIVATIONS = 3   # [BR p.7 Roll Phase] each die value and their sum activate: a card at most three times a roll
TURN_POWERS = ("on_turn", "off_turn")   # [BR p.7 Harvest Phase] an activated card's holder uses one of the two


def _waits(card: str, content: dict, n: int) -> int:
    """How many times one card's power can wait at once, at most, every seat's listing together:
    a Citizen's on every copy and a Starter's in every seat, each activated by a roll's three
    values; the Coxswain's and a Monster Event's in every seat; any other (a Domain's, a Monster's
    reward) once, for the one seat that built, slew or holds it."""
    if card.startswith("content.citizens["):
        index = int(card[len("content.citizens["):].split("]", 1)[0])
        return content["citizens"][index].get("copies", 1) * ACTIVATIONS
    if card.startswith("content.starters"):
        return n * ACTIVATIONS
    if card.startswith(("content.crimson_seas.coxswain", "content.crimson_seas.monster_events",
                        "content.monster_events")):
        return n
    return 1


def _ways(content: dict, n: int) -> Iterator[tuple[str, int]]:
    """Each power of the content, with an upper bound on the ways to resolve it with n players."""
    cards = sum(c.get("copies", 1) for c in content.get("citizens", [])) + len(content.get("monsters", []))
    for where, power in _powers(content):
        yield where, most_ways(power, n, CENTER_STACKS, cards)


def ways_at_once(content: dict, n: int) -> int:
    """An upper bound on the powers' entries in one legal-commands listing with n players, every
    seat's together (the host's): each power's ways times how many times it can wait at once; of
    a card's on-turn and off-turn powers, the larger (an activation uses one of them)."""
    turn: dict[str, int] = {}
    total = 0
    for where, ways in _ways(content, n):
        card, _, key = where.rpartition(".")
        if key in TURN_POWERS:
            turn[card] = max(turn.get(card, 0), ways)
        else:
            total += ways * _waits(where, content, n)
    return total + sum(ways * _waits(card, content, n) for card, ways in turn.items())


def too_many_ways(content: dict, n: int) -> list[str]:
    """Custom content's powers that could offer more than MOST_WAYS ways to resolve them, and
    content whose powers could together offer more than MOST_WAYS_AT_ONCE waiting at once."""
    problems = [f"{where}: this power could offer more than {MOST_WAYS:,} ways to resolve it with {n} players "
                "(every way is listed in legal commands); nest fewer choices"
                for where, ways in _ways(content, n) if ways > MOST_WAYS]
    together = 0 if problems else ways_at_once(content, n)
    if together > MOST_WAYS_AT_ONCE:
        problems.append(f"content: its powers could offer {together:,} ways to resolve them waiting at once with "
                        f"{n} players, more than {MOST_WAYS_AT_ONCE:,} (every way of every power waiting is listed "
                        "in legal commands; a Citizen's power counted on every copy and a Starter's in every seat, "
                        "three activations a roll; the Coxswain's and a Monster Event's in every seat; any other "
                        "power once); offer fewer choices or fewer copies")
    return problems


def _accepted(cs: bool, players, options, content) -> tuple[dict | None, dict, list[str]]:
    """The options (with their defaults) and the content the game is created with, and every
    problem with the players, the options' form and custom content at once. The options are
    None when the checks that read them cannot run: the players are too many or too few, or
    the options or the content break their schema. Content that keeps its schema but changes
    a printed number still has its options checked, so one refusal lists both."""
    problems: list[str] = []
    default = CS_CONTENT if cs else DEFAULT_CONTENT
    n = len(players)
    if not 1 <= n <= 5:
        problems.append(f"players: Valeria: Card Kingdoms is for 1 (the solo variant) to 5 players, not {n} [BR p.4, p.16]"
                        if not cs else f"players: Crimson Seas is for 2 to 5 players, not {n} [BR p.4]")
    opts = dict(options or {})
    form = _schema_problems(_options_validator, opts, "options")
    problems += form
    if content is None or content == default:
        content = default
    else:
        errs = custom_content_problems(_content_validator, content)
        problems += errs or content_problems(content, cs) + (too_many_ways(content, n) if 1 <= n <= 5 else [])
        form += errs
    if form or not 1 <= n <= 5:
        return None, content, problems
    return with_defaults(opts, OPTIONS_SCHEMA), content, problems


def _option_problems(cs: bool, opts: dict, content: dict, n: int) -> list[str]:
    """What these options ask for that this ruleset does not serve, or these players cannot use."""
    problems = []
    asked = opts["expansions"]
    known = {"crimson_seas", MONSTER_EVENTS} if cs else {MONSTER_EVENTS}
    twice = sorted({x for x in asked if asked.count(x) > 1})
    if twice:
        problems.append(f"options.expansions: {', '.join(map(repr, twice))} listed more than once: name each expansion once")
    elif not set(asked) <= known:
        problems.append(f"options.expansions: {UNSUPPORTED}{' and Crimson Seas' if cs else ''}, with Crimson Seas' Monster "
                        f"Events on their own ('monster_events'); {asked} cannot be added"
                        + ("" if cs else " (for Crimson Seas create a 'crimson-seas' game)") + " [CS Monster Event Cards]")
    if opts["edition"] != "first":
        problems.append(f"options.edition: {UNSUPPORTED}; the '{opts['edition']}' edition is not supported")
    problems += _variant_problems(cs, opts, content, n)
    if isinstance(opts["first_player"], int) and opts["first_player"] >= n:
        problems.append(f"options.first_player: there is no seat {opts['first_player']} among {n} players")
    if n == 5 and len(content["domains"]) < 20:
        problems.append("content.domains: 5 stacks of 4 at 5 players need at least 20 Domains [BR p.16]")
    return problems


def _preselected_problems(cs: bool, opts: dict, content: dict, n: int) -> list[str]:
    """[CS Monster Event Cards, Setup] Monster Events preselected: the game's own, and no more than
    are set out, one per player (VP-48)."""
    chosen = opts.get("monster_events_preselected")
    if chosen is None:
        return []
    if not (cs or MONSTER_EVENTS in opts["expansions"]):
        return ["options.monster_events_preselected: Monster Events are preselected only where they are played: "
                "in Crimson Seas, or with options.expansions ['monster_events'] [CS Monster Event Cards]"]
    events = sorted(e["id"] for e in (content["crimson_seas"]["monster_events"] if cs else content["monster_events"]))
    problems = []
    unknown = [x for x in chosen if x not in events]
    if unknown:
        problems.append(f"options.monster_events_preselected: {unknown} are not among this game's Monster Events "
                        f"{events} [CS Monster Event Cards]")
    most = min(n, len(events))
    if len(chosen) > most:
        problems.append(f"options.monster_events_preselected: 1 Monster Event per player is set out, {most} in all: "
                        f"{len(chosen)} cannot be preselected [CS Monster Event Cards] (VP-48)")
    return problems


def _variant_problems(cs: bool, opts: dict, content: dict, n: int) -> list[str]:
    """[BR p.16-18] the variants the rulebook prints: the Mixed Citizen Variant and the Solo Variant
    are played, solo for exactly one player (VP-21) and never with Crimson Seas (VA-4)."""
    problems = []
    names = variants(opts)
    for name in names:
        if name == "standard":
            problems.append("options.variant: 'standard' is sent alone, not in a list of variants [BR p.16-18]")
        elif name not in VARIANTS:
            problems.append(f"options.variant: '{name}' is not a variant: send 'standard', 'solo' or 'mixed_citizens', "
                            "or a list of distinct ones among 'solo' and 'mixed_citizens' [BR p.16-18]")
    problems += _solo_problems(cs, names, n, opts["expansions"], opts.get("solo_vp_tokens", False))
    if "mixed_citizens" in names:
        if opts["citizen_types"] is not None:
            problems.append("options.citizen_types: 'take all of the Citizen Types with the same Activation number and "
                            "shuffle them together': the Mixed Citizen Variant uses every type; leave it null [BR p.18] (VP-41)")
        clash = sorted({m["area"] for m in content["monsters"] if m["area"].startswith(MIXED)})
        if clash:
            problems.append(f"content.monsters: an Area id may not start with '{MIXED}' in the Mixed Citizen Variant: {clash}")
    return problems


def _solo_problems(cs: bool, names: list[str], n: int, expansions: list[str], solo_vp_tokens: bool = False) -> list[str]:
    """[BR p.16] the Solo Variant: one player and variant 'solo', never one without the other (VP-21);
    not with Crimson Seas nor its Monster Events (VA-4); with the Mixed Citizen Variant, both variants'
    rules (VP-49)."""
    if cs and ("solo" in names or n == 1):
        return [("options.variant" if "solo" in names else "players") + ": solo play is not defined with Crimson Seas, "
                "whose setup and powers are for 2 to 5 players and their opponents; for solo create a "
                "'valeria-card-kingdoms' game with variant 'solo' [CS Game Setup] (VA-4)"]
    if "solo" in names and n != 1:
        return [f"options.variant: the solo variant is for one player, not {n} [BR p.16] (VP-21)"]
    if n == 1 and "solo" not in names:
        return ["players: one player plays the solo variant against the Dark Lord: send options.variant 'solo' "
                "[BR p.16] (VP-21)"]
    if "solo" not in names and solo_vp_tokens:
        return ["options.solo_vp_tokens: only the Solo Variant scores against the Dark Lord; the base game always "
                "counts Victory Point tokens [BR p.8] (VP-26)"]
    if "solo" in names and MONSTER_EVENTS in expansions:
        return ["options.expansions: solo play is not defined with Crimson Seas' Monster Events, set out one per player "
                "and turning up where the Dark Lord's Monsters capture [CS Monster Event Cards] (VA-4)"]
    return []


def _check_table_setup(cs: bool, mixed: bool, chance, table_setup: dict | None, n: int, problems: list,
                       solo: bool = False, chosen_first: int | str = "random") -> list[str]:
    """A table setup only at a table, and there in its form. Adds to problems what stops the deal;
    returns what the deal can go on past (the number of Dukes, the first player, the Dark Lord),
    looked at once the setup's form is right, so that one refusal lists them with every wrong
    card the deal then meets (docs/api.md: a 422 lists everything wrong)."""
    late: list[str] = []
    if chance.mode == "table":
        if table_setup is None:
            problems.append("setup: a table-chance game needs the Domains turned up, the Dukes dealt and the first player, "
                            "in 'setup'" + (", and the Citizen dealt face up on each stack, in 'citizens'" if mixed else ""))
            return late
        form = _schema_problems(_cs_table_validator if cs else _table_validator, table_setup, "setup")
        problems += form
        if mixed and "citizens" not in table_setup:
            problems.append("setup.citizens: 'then deal 1 Citizen face up on top of the stack': name the Citizen face up on "
                            "each stack, for Activation 1 to 8, 9/10 and 11/12 [BR p.18]")
        if not mixed and "citizens" in table_setup:   # the deal reads them only in that variant
            late.append("setup.citizens: only the Mixed Citizen Variant deals Citizens face up at setup [BR p.18]")
        if not form and len(table_setup["dukes"]) != n:
            problems.append(f"setup.dukes: two Dukes for each of the {n} seats")   # the deal needs their number
        if not form and not table_setup["first_player"] < n:
            late.append(f"setup.first_player: there is no seat {table_setup['first_player']}")
        elif not form and chosen_first not in ("random", table_setup["first_player"]):
            # options.first_player decides who goes first, so a table reporting another seat is
            # not silently overruled: the two must agree [BR p.5 Active Player]
            late.append(f"setup.first_player: options.first_player already chose seat {chosen_first} to go first, and "
                        f"the table reports seat {table_setup['first_player']}: send the same seat, or leave "
                        "options.first_player 'random' [BR p.5] (VP-54)")
        if solo and not form and table_setup.get("dark_lord") in [d for pair in table_setup["dukes"] for d in pair]:
            late.append("setup.dark_lord: the Dark Lord is one of the Dukes not dealt to you [BR p.5, p.16] (VP-19)")
        if not solo and "dark_lord" in table_setup:   # the deal reads it only in that variant
            late.append("setup.dark_lord: only the solo variant has a Dark Lord [BR p.16]")
    elif table_setup is not None:
        problems.append("setup: only a table-chance game says how the table was set up")
    return late


def _with_late(late: list[str], table) -> list[str]:
    """The deal's wrong reports, with the checks made before it in their place: a field already
    named there (the first player, the Dark Lord) is not named twice."""
    named = {p.split(":", 1)[0] for p in late}
    reports = [kit.report_problem(r) for r in kit.refused_reports(table)]
    return late + [p for p in reports if p.split(":", 1)[0] not in named]


def _center(content: dict, cs: bool, n: int, types: list[str], areas: list[str], mixed: bool) -> dict:
    """The Monster and Citizen stacks of the Center, and the cards left in the box."""
    five = n == 5
    per_stack = 6 if five else 5
    box: list[str] = []
    monsters: dict[str, list[str]] = {}
    # [BR p.4] Monsters: highest Strength at the bottom; [BR p.16] the 5-player cards only at 5
    by = {m["id"]: m for m in content["monsters"]}
    # VA-B3: ties by id; [CS New Monster Icons] the Warden directly above the Boss
    rank = {"boss": 0, "warden": 1} if cs else {}
    for area in areas:
        cards = []
        for m in content["monsters"]:
            if m["area"] != area:
                continue
            cards += [f"{m['id']}#{k}" for k in range(1, m["copies"] + 1)]
            fives = [f"{m['id']}#{m['copies'] + k}" for k in range(1, m["five_player_copies"] + 1)]
            (cards if five else box).extend(fives)
        monsters[area] = sorted(cards, key=lambda c: (rank.get(by[c.split("#")[0]]["type"], 2),
                                                      -by[c.split("#")[0]]["strength"], c))
    for m in content["monsters"]:
        if m["area"] not in areas:
            box += [f"{m['id']}#{k}" for k in range(1, m["copies"] + m["five_player_copies"] + 1)]
    citizens, boxed = (_mixed_stacks if mixed else _citizen_stacks)(content, per_stack, types)
    return {"monsters": monsters, "citizens": citizens, "box": box + boxed}


def _citizen_stacks(content: dict, per_stack: int, types: list[str]) -> tuple[dict, list[str]]:
    """[BR p.4] one stack per chosen type, 1 of 6 removed (none at 5 players); the rest boxed."""
    citizens, box = {}, []
    for c in content["citizens"]:
        copies = [f"{c['id']}#{k}" for k in range(1, c["copies"] + 1)]
        if c["id"] in types:
            citizens[c["id"]] = copies[:per_stack]
            box += copies[per_stack:]
        else:
            box += copies
    return citizens, box


def _mixed_stacks(content: dict, per_stack: int, types: list[str]) -> tuple[dict, list[str]]:
    """[BR p.18] every type of an Activation number shuffled together, 4 dealt face down (5 at 5 players;
    VP-41: 4 at 2 and 3 players too; VP-49: and solo), the face-up one chosen next (_mixed_tops);
    those left go back to the box unseen, so they are not listed in it (VP-40). A type whose number is no stack's is boxed.
    With Crimson Seas, its Citizens and the base game's alike (VP-45)."""
    citizens = {}
    for slot in SLOTS:
        copies = sum(c["copies"] for c in content["citizens"] if c["activation"] == slot)
        citizens[mixed_stack(slot)] = [FACE_DOWN] * min(per_stack - 1, copies - 1)
    box = [f"{c['id']}#{k}" for c in content["citizens"] if c["activation"] not in SLOTS for k in range(1, c["copies"] + 1)]
    return citizens, box


def _mixed_tops(center: dict, content: dict, chance, t: dict) -> list[str]:
    """[BR p.18] 'then deal 1 Citizen face up on top of the stack': from the server's seed, or as the
    table says (by type or copy id), in the order of the stacks. Returns the table's reports that
    cannot be: a Citizen not of its stack's Activation number, named with the stack's types (the
    content's, which every player may read); the deal goes on past it with a stand-in."""
    told = t.get("citizens")
    wrong = []
    for i, (stack, pile) in enumerate(center["citizens"].items()):
        slot = [int(x) for x in stack.removeprefix(MIXED).split("_")]
        pool = sorted(f"{c['id']}#{k}" for c in content["citizens"] if c["activation"] == slot
                      for k in range(1, c["copies"] + 1))
        named = None if told is None else told[i]
        types = lowest_copies(pool)
        if chance.mode == "table" and named is not None and named not in pool and named not in types:
            # named by its place in the list, so that the refusal says which stack's Citizen is wrong
            wrong.append(_not_on_the_stack(f"setup.citizens.{i}", named, slot, pool, sorted(types)))
            pile.append(pool[0])
            continue
        pile.append(pick_citizen(chance, pool, named, f"setup.citizens.{i}"))
    return wrong


def _not_on_the_stack(field: str, named, slot: list[int], pool: list[str], types: list[str]) -> str:
    """A Mixed Citizen top the stack cannot hold, in words saying what it may hold: a copy that
    does not exist, a type spelled otherwise than its id, or another number's Citizen."""
    where = f"the Activation {'/'.join(map(str, slot))} stack"
    kind = named.split("#")[0] if isinstance(named, str) else None
    if kind in types:
        copies = sorted(int(c.split("#")[1]) for c in pool if c.split("#")[0] == kind)
        return (f"{field}: there is no {kit.spelled(named)}: the {kind} copies of {where} are {kind}#1 to "
                f"{kind}#{copies[-1]}; or name the type, {kind!r} [BR p.18]")
    if isinstance(kind, str) and kind.lower() in types:
        return f"{field}: name the Citizen by its id, {named.lower()!r}, not {kit.spelled(named)} [BR p.18]"
    kinds = list(map(repr, types))
    holds = f"holds only {kinds[0]}" if len(kinds) == 1 else f"shuffles together {', '.join(kinds[:-1])} and {kinds[-1]}"
    return f"{field}: {kit.spelled(named)} cannot be on {where}, which {holds}: name its type, or a copy id such as " \
           f"{pool[0]!r} [BR p.18]"


def _deal(content: dict, opts: dict, n: int, chance, t: dict) -> dict:
    """The chance outcomes of the base game's setup, drawn in this order (a server-chance game's
    seed replays it): the face-up Domains, the Dukes, the first player."""
    domain_ids = sorted(d["id"] for d in content["domains"])
    dukes = sorted(d["id"] for d in content["dukes"])
    # [BR p.4] deal 2 face down and 1 face up per Domain stack ([BR p.16] 3 + 1 at 5 players)
    up = chance.pick(domain_ids, 5, t.get("domains"), "setup.domains")
    # [BR p.5] deal 2 Dukes to each player
    dealt = chance.pick(dukes, 2 * n, None if "dukes" not in t else [d for pair in t["dukes"] for d in pair], "setup.dukes")
    if opts["first_player"] == "random":  # [BR p.5]
        told = None if "first_player" not in t else [t["first_player"]]
        first = chance.pick(list(range(n)), 1, told, "setup.first_player")[0]
    else:
        first = opts["first_player"]
    dark, unnamed = [], False
    if "solo" in variants(opts):  # [BR p.16] one Duke face down above the Monster stacks: the Dark Lord (VP-19)
        unnamed = chance.mode == "table" and "dark_lord" not in t   # VP-55: reported when it is turned up
        if not unnamed:
            told = None if "dark_lord" not in t else [t["dark_lord"]]
            dark = chance.pick(sorted(set(dukes) - set(dealt)), 1, told, "setup.dark_lord")
    return {"domain_ids": domain_ids, "up": up, "dukes": dukes, "dealt": dealt, "first": first, "dark": dark,
            "dark_unnamed": unnamed}


def _setup_events(cs: bool, players, opts: dict, content: dict, chance, center: dict, dealt: dict,
                  islands: list[dict]) -> list[dict]:
    n = len(players)
    stacks = [f"domain_{k}" for k in range(1, 6)]
    up = dealt["up"]
    return [
        kit.setup_event(CS_RULESET_ID if cs else RULESET_ID, RULESET_VERSION, players, opts, content, chance),
        {"type": "CenterLaidOut", "monsters": center["monsters"], "citizens": center["citizens"],
         "domains": dict(zip(stacks, up, strict=False)), "face_down": {st: 3 if n == 5 else 2 for st in stacks},
         "domain_pool": sorted(set(dealt["domain_ids"]) - set(up)), "box": sorted(center["box"]),
         "exhausted": 2 * n},  # [BR p.4] 2 Exhausted cards per player
        {"type": "KingdomsFounded", "starters": [[f"{s['id']}@{seat}" for s in content["starters"]] for seat in range(n)],
         "resources": dict(content["starting_resources"])},  # [BR p.4-5]
        {"type": "DukesDealt", "offers": [sorted(dealt["dealt"][2 * i:2 * i + 2]) for i in range(n)],
         "pool": sorted(set(dealt["dukes"]) - set(dealt["dealt"]) - set(dealt["dark"]))},
        *[{"type": "DarkLordPlaced", "duke": duke} for duke in dealt["dark"]],
        *([{"type": "DarkLordPlaced", "unnamed": True}] if dealt["dark_unnamed"] else []),   # VP-55
        *islands,
        {"type": "FirstPlayerChosen", "seat": dealt["first"]},
    ]


def pick_citizen(chance, pool: list[str], told: str | None, field: str) -> str:
    """A Citizen turned face up from the copies not in sight: drawn by the server, or named by the
    table by its type (the lowest such copy) or a copy's id."""
    if chance.mode != "table":
        return chance.pick(pool, 1, None, field)[0]
    lowest = lowest_copies(pool)
    got = chance.pick(sorted(set(lowest) | set(pool)), 1, None if told is None else [told], field)[0]
    return lowest.get(got, got)


def _events(events: list[dict], n: int) -> dict:
    """[CS Monster Event Cards] one face down per player on top of the Exhausted stack (VP-1: no order)."""
    return {"events_on_top": min(n, len(events)), "event_pool": sorted(e["id"] for e in events)}


def _islands(content: dict, n: int, chance, t: dict) -> dict:
    """[CS Game Setup] the Island Board, 2 Maps and a Coxswain each, the Monster Events on the Exhausted stack."""
    x = content["crimson_seas"]
    goods = sorted(f"{g}#{k}" for g in x["goods"]["types"] for k in range(1, x["goods"]["per_type"] + 1))
    tomes = sorted(f"tome_{r}#{k}" for r, c in x["tomes"]["counts"].items() for k in range(1, c + 1))
    nobles = sorted(nb["id"] for nb in x["nobles"])
    araby = chance.pick(goods, 3, t.get("araby"), "setup.araby",
                        f"a copy id of the Goods supply, '<type>#<k>' with k from 1 to {x['goods']['per_type']}, such as "
                        f"{goods[0]!r}")
    nae = chance.pick(tomes, 3, t.get("nae_aerie"), "setup.nae_aerie",
                      f"a copy id of the Tome supply, 'tome_<resource>#<k>', such as {tomes[0]!r}")
    amarynth = chance.pick(nobles, 3, t.get("amarynth"), "setup.amarynth", "a Noble of content.crimson_seas.nobles")
    return {"type": "IslandsLaidOut", "araby": araby, "goods_supply": sorted(set(goods) - set(araby)),
            "nae_aerie": nae, "tome_supply": sorted(set(tomes) - set(nae)),
            "amarynth": amarynth, "noble_deck": sorted(set(nobles) - set(amarynth)),
            "exekratys": dict(x["exekratys_start"]),
            "bank_maps": x["maps"]["total"] - n * x["maps"]["per_player"], "maps_each": x["maps"]["per_player"],
            "coxswains": [f"{x['coxswain']['id']}@{i}" for i in range(n)], **_events(x["monster_events"], n)}


def _citizen_types(content: dict, opts: dict, problems: list) -> list[str]:
    by = {c["id"]: c for c in content["citizens"]}
    chosen = opts["citizen_types"]
    if chosen is None:
        return [next(c["id"] for c in content["citizens"] if c["activation"] == slot) for slot in SLOTS]
    unknown = [c for c in chosen if c not in by]
    if unknown:
        problems.append(f"options.citizen_types: no such Citizen types {unknown}")
        return []
    got = sorted(tuple(by[c]["activation"]) for c in chosen)
    if got != sorted(tuple(s) for s in SLOTS):
        problems.append("options.citizen_types: exactly one Citizen type for each of 1-8, 9/10 and 11/12 [BR p.4]")
    return list(chosen)


def _areas(content: dict, opts: dict, problems: list) -> list[str]:
    known = list(dict.fromkeys(m["area"] for m in content["monsters"]))
    chosen = opts["monster_areas"]
    if chosen is None:
        return known[:5]
    if len(chosen) != 5 or len(set(chosen)) != 5 or not set(chosen) <= set(known):
        problems.append(f"options.monster_areas: 5 different Areas among {', '.join(map(str, known))} [BR p.4]")
        return []
    return list(chosen)
