"""Los Tesoros del Rey Pirata: creating a game. [Setup], [Starting the Game], [Variants]"""
from __future__ import annotations

from collections import Counter

import jsonschema

from .. import kit
from ..chance import CHANCE_RULE
from ..kit import load_json, with_defaults
from ..kit import schema_problems as _schema_problems
from ..kit.printed import checked_content, cite, usable_options
from ..ruleset import InvalidCreation, Rejected
from . import rules
from .board import board_problems
from .printed import SECTIONS, printed_problems

RULESET_ID = "tesoros-del-rey-pirata"
RULESET_VERSION = "1.4.0"

CONTENT_SCHEMA = load_json(__package__, "schema.json")
DEFAULT_CONTENT = load_json(__package__, "reference.json")

OPTIONS_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Los Tesoros del Rey Pirata options",
    "description": "The three variants and house rules. Each default is the rulebook or Parley's ruling; see docs/rulings.md.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "first_player": {"enum": [0, 1, 2, 3, "draw_off"],
                         "default": 0,
                         "description": "[Starting the Game] the seat most recently in a watercraft, declared by the "
                                        "table (TA-36), or 'draw_off': each reveals the top card, highest die starts (TA-5)."},
        "pact_of_the_waves": {"type": ["integer", "null"], "minimum": 0, "maximum": 7, "default": None,
                              "description": "Variant 'The pact of the waves': how many Event cards are used, chosen at "
                                             "random from the content's events (TA-31). null: all of them."},
        "scanning_the_horizon": {"type": "boolean", "default": False,
                                 "description": "Variant 'Scanning the horizon': the next Event card is face up (TA-29)."},
        "chaos_on_the_high_seas": {"type": "boolean", "default": False,
                                   "description": "Variant 'Chaos on the high seas': the Event cards are shuffled into "
                                                  "the Play Deck after dealing (TA-30)."},
        "sudden_death_max_turns": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 40,
                                   "description": "TA-6: turns of sudden death after which the tied leaders share the win."},
        "ship_colors": {"type": ["array", "null"], "items": {"type": "string", "maxLength": 30}, "minItems": 2,
                        "maxItems": 4, "uniqueItems": True, "default": None,
                        "description": "[Setup 1] each player chooses a Ship color: the colors chosen, in seat order, "
                                       "one for each player, from the content's colors (the reference content's: brown, "
                                       "white, grey, black). null: the content's colors in seat order (TP-20)."},
    },
}

# A card id as the content spells it (content/schema.json: at most 41 characters).
CARD_ID = {"type": "string", "maxLength": 41}

# What every seat sees on the table of what the table set up (docs/api.md section 7): the Map
# cards revealed, the Event turned face up and the cards revealed in the draw-off; not the hands
# dealt nor the Events put face down under the Anchor.
PUBLIC_SETUP_FIELDS = frozenset({"maps", "face_up_event", "draw_off"})

TABLE_SETUP_SCHEMA = {
    "type": "object",
    "description": "Table chance only: what the table dealt and revealed [Setup 2-5], [Starting the Game].",
    "required": ["hands", "maps"],
    "additionalProperties": False,
    "properties": {
        "hands": {"type": "array", "minItems": 2, "maxItems": 4,
                  "items": {"type": "array", "items": CARD_ID, "minItems": 5, "maxItems": 5},
                  "description": "the 5 cards dealt to each seat, in seat order"},
        "maps": {"type": "array", "items": CARD_ID, "minItems": 3, "maxItems": 3,
                 "description": "the 3 Map cards revealed from the bottom of the Map Deck"},
        "events": {"type": "array", "items": CARD_ID, "maxItems": 7,
                   "description": "with 'The pact of the waves': the Event cards put under the Anchor "
                                  "(left out, or [], when the pact is of no Event). Left out when the table "
                                  "took them blind: each is then named as it is turned up, under the Anchor or "
                                  "with 'Chaos on the high seas' from the Play Deck (TP-22)"},
        "face_up_event": {**CARD_ID, "description": "with 'Scanning the horizon': the Event card turned face up"},
        "draw_off": {"type": "array", "items": CARD_ID, "maxItems": 42,
                     "description": "with first_player 'draw_off': the cards revealed, in the order revealed; with "
                                    "chaos_on_the_high_seas, the Event cards too, up to Scurvy (TA-30)"},
    },
}

_options_validator = jsonschema.Draft202012Validator(OPTIONS_SCHEMA)
_content_validator = jsonschema.Draft202012Validator(CONTENT_SCHEMA)
_table_validator = jsonschema.Draft202012Validator(TABLE_SETUP_SCHEMA)

# [Contents] and [Cards with Dice]: what the rulebook prints about the Play Deck.
KIND_COUNTS = {"treason": 12, "protection": 8, "equipment": 16, "die": 6}
SUBTYPES = {"treason": {"mutiny", "sabotage"}, "protection": {"walk_the_plank"},
            "equipment": {"machetes_swords", "cannons_pistols", "compass_sextant", "lamps_shovels"},
            "die": {"sirens_song", "smooth_sailing", "pirate_kings_favor"}}


def content_problems(content: dict) -> list[str]:
    """What the schema cannot say: the board is sound, ids are unique, the Play Deck holds the
    printed kinds, the Maps name islands of the board, the Victory Points grow."""
    problems = board_problems(content["board"])
    cards = content["playCards"]
    ids = [c["id"] for c in cards] + [m["id"] for m in content["maps"]] + [e["id"] for e in content["events"]]
    if len(set(ids)) != len(ids):
        problems.append("playCards: every id of the playCards, maps and events must be unique")
    got = Counter(c["kind"] for c in cards)
    if got != Counter(KIND_COUNTS):
        problems.append(f"playCards: the rulebook prints 12 Treason, 8 Protection, 16 Equipment and 6 Die cards, "
                        f"not {', '.join(f'{n} {k}' for k, n in got.items())} [Contents] (TP-12)")
    for i, c in enumerate(cards):
        if c["subtype"] not in SUBTYPES[c["kind"]]:
            problems.append(f"playCards.{i}.subtype: a {c['kind']} card cannot be a {c['subtype']} [Contents] (TP-12)")
    islands = {i["id"] for i in content["board"]["islands"]}
    on = [m["island"] for m in content["maps"]]
    if not set(on) <= islands or len(set(on)) != len(on):
        problems.append("maps: each Map card names a different island of the board (TA-39)")
    types = {t["id"]: t for t in content["treasureTypes"]}
    if len(types) != 4:
        problems.append("treasureTypes: one entry for each of jewels, magic, merchandise and gold")
    for tid, t in types.items():
        held = sum(1 for m in content["maps"] if m["treasure"] == tid)
        v = t["vpByCount"]
        # [Claim Treasure] 'The more Treasures of the same type you collect, the more Victory Points you will
        # gain': more for each count that can be held; entries past it are never read
        reach = v[:held + 1]
        if (len(v) < held + 1 or v[0] != 0 or any(a >= b for a, b in zip(reach, reach[1:], strict=False))
                or any(a > b for a, b in zip(v, v[1:], strict=False))):
            problems.append(f"treasureTypes[{tid}].vpByCount: from 0, more with each Treasure held ('The more Treasures "
                            f"of the same type you collect, the more Victory Points you will gain'), an entry for 0 to "
                            f"{held} held")
    return problems


kit.check_shipped(_content_validator, DEFAULT_CONTENT, lambda c: printed_problems(c) + content_problems(c))


def setup(players: list[str], options: dict | None, content: dict | None, chance, table_setup: dict | None) -> list[dict]:
    """The first events of a game, or InvalidCreation listing every problem at once: the players,
    the options, the options against the player count and each other, the content (its form and
    what the rulebook prints), the options against the content, and the table setup. A check
    that needs a part is skipped only when that part is itself wrong."""
    n = len(players)
    count_ok = 2 <= n <= 4
    problems = [] if count_ok else [f"players: Los Tesoros del Rey Pirata is for 2 to 4 players, not {n}"]
    opts = dict(options or {})
    option_errors = _schema_problems(_options_validator, opts, "options")
    usable = usable_options(opts, option_errors, OPTIONS_SCHEMA)
    problems += option_errors
    if count_ok and isinstance(usable["first_player"], int) and usable["first_player"] >= n:
        problems.append(f"options.first_player: there is no seat {usable['first_player']} among {n} players")
    problems += _variant_problems(opts, usable)
    content, content_errors, sound = _content(content)
    problems += content_errors
    problems += _color_problems(usable["ship_colors"], n if count_ok else None, content["colors"] if sound else None)
    events = [e["id"] for e in content["events"]] if sound else None
    using = None
    if events is not None:
        using = len(events) if usable["pact_of_the_waves"] is None else usable["pact_of_the_waves"]
        if using > len(events):
            problems.append(f"options.pact_of_the_waves: the content has only {len(events)} Event cards")
            using = None
    problems += _table_problems(chance, table_setup, usable, n if count_ok else None,
                                content if sound else None, using)
    if problems:
        raise InvalidCreation(cite(problems, SECTIONS))
    opts = with_defaults(opts, OPTIONS_SCHEMA)
    assert events is not None and using is not None
    dealt = kit.dealing(chance)  # every wrong report of the table at once
    try:
        table = _deal(opts, content, n, events, using, dealt, table_setup or {})
    except Rejected as r:  # a wrong report met earlier may be its cause: that one is listed
        raise InvalidCreation(cite([kit.report_problem(x) for x in kit.refused_reports(dealt) or [r]], SECTIONS)) from None
    if kit.refused_reports(dealt):
        raise InvalidCreation(cite([kit.report_problem(r) for r in kit.refused_reports(dealt)], SECTIONS))
    return _setup_events(players, opts, content, chance, events, table)




def _color_problems(chosen: list | None, n: int | None, colors: list | None) -> list[str]:
    """[Setup 1] "Each Player choses a Ship color" (TP-20): one for each player, of the content's
    (the content's own check holds them to the printed four)."""
    if chosen is None:
        return []
    out = []
    if n is not None and len(chosen) != n:
        out.append(f"options.ship_colors: one color for each of the {n} players, in seat order, not {len(chosen)}")
    if colors is not None:
        out += [f"options.ship_colors.{i}: {kit.spelled(c)} is not a Ship color of this content ({', '.join(colors)})"
                for i, c in enumerate(chosen) if c not in colors]
    return out


def _variant_problems(opts: dict, usable: dict) -> list[str]:
    """[Variants] that cannot apply together: the rulebook says The pact of the waves "may be
    combined with the next two", and does not combine those two (TP-13); with no Event card in
    the game, neither has anything to act on (TP-14)."""
    out = []
    if usable["scanning_the_horizon"] and usable["chaos_on_the_high_seas"]:
        out.append("options.chaos_on_the_high_seas: cannot be played with scanning_the_horizon: Chaos shuffles the "
                   "Event cards into the Play Deck, so none is face up beside it; the rulebook combines only The pact "
                   "of the waves with each of them [Variants] (TP-13)")
    named = {p.split(": ", 1)[0] for p in out}   # one problem per option
    if usable["pact_of_the_waves"] == 0:
        for option, what in (("scanning_the_horizon", "to turn face up"), ("chaos_on_the_high_seas", "to shuffle in")):
            if usable[option] and f"options.{option}" not in named:
                out.append(f"options.{option}: with pact_of_the_waves 0 there is no Event card {what} [Variants] (TP-14)")
    return out


def _content(content: dict | None) -> tuple[dict, list[str], bool]:
    """The content to play with, its problems and whether it is sound enough to check against (kit.printed)."""
    return checked_content(content, DEFAULT_CONTENT, _content_validator, printed_problems, content_problems)


def _table_problems(chance, table_setup: dict | None, opts: dict, n: int | None, content: dict | None,
                    using: int | None) -> list[str]:
    """What is wrong with the table setup: given exactly at a table (TP-2), in its form, then with
    exactly the parts these options use, a hand for each seat and cards of the content."""
    if chance.mode != "table":
        return [] if table_setup is None else ["setup: only a table-chance game says how the table was set up"]
    if table_setup is None:
        return ["setup: a table-chance game needs the hands dealt and the maps revealed, in 'setup'"]
    t = table_setup
    problems = _schema_problems(_table_validator, t, "setup")
    if problems:
        return problems
    if n is not None and len(t["hands"]) != n:
        problems.append(f"setup.hands: one hand of 5 for each of the {n} seats")
    wants = {"draw_off": opts["first_player"] == "draw_off"}
    if using is not None and content is not None:
        wants |= {"events": using < len(content["events"]),
                  "face_up_event": opts["scanning_the_horizon"] and not opts["chaos_on_the_high_seas"] and using > 0}
        if using == 0 and "events" not in t:
            wants["events"] = False   # no Event card in the game: nothing to name ([] may be sent too)
        if using == len(content["events"]) and "events" in t:
            wants["events"] = True    # a pact keeping every Event: the table may list them all, or not
        if 0 < using < len(content["events"]) and "events" not in t:
            wants["events"] = False   # TP-22: taken blind, named as each is turned up
    for key, wanted in wants.items():
        if wanted != (key in t):
            problems.append(f"setup.{key}: {'required' if wanted else 'not used'} with these options")
    if using is not None and content is not None and 0 < using < len(content["events"]) and \
            isinstance(t.get("events"), list) and len(t["events"]) != using:
        # a table that does not know them may be sending [] for "unknown": say what it may do
        problems.append(f"setup.events: the {using} Event card{'' if using == 1 else 's'} the pact keeps, "
                        f"not {len(t['events'])}; or leave 'events' out when the table took them blind: each "
                        "is then named as it is turned up (TP-22)")
    if content is not None:
        problems += _table_card_problems(t, content)
    return problems


def _table_card_problems(t: dict, content: dict) -> list[str]:
    """The cards a table names are cards of the content, none named twice; a problem names the
    cards at fault."""
    problems = []
    cards = {c["id"] for c in content["playCards"]}
    dealt = [c for hand in t["hands"] for c in hand]
    if not set(dealt) <= cards or len(set(dealt)) != len(dealt):
        problems.append("setup.hands: each card dealt is a different card of the Play Deck" + _at_fault(dealt, cards))
    maps = {m["id"] for m in content["maps"]}
    if not set(t["maps"]) <= maps or len(set(t["maps"])) != 3:
        problems.append("setup.maps: three different Map cards of the content" + _at_fault(t["maps"], maps))
    events = {e["id"] for e in content["events"]}
    if "events" in t and (not set(t["events"]) <= events or len(set(t["events"])) != len(t["events"])):
        problems.append("setup.events: different Event cards of the content" + _at_fault(t["events"], events))
    if "face_up_event" in t and t["face_up_event"] not in set(t.get("events", events)):
        problems.append("setup.face_up_event: one of the Event cards in play")
    return problems


def _at_fault(named: list, known: set) -> str:
    """Which of the cards a table named are not of the pool, and which it named twice."""
    unknown = list(dict.fromkeys(c for c in named if c not in known))
    twice = list(dict.fromkeys(c for i, c in enumerate(named) if c in named[:i]))
    parts = ([f"not one: {', '.join(map(repr, unknown[:5]))}"] if unknown else []) + \
            ([f"named twice: {', '.join(map(repr, twice[:5]))}"] if twice else [])
    return f" ({'; '.join(parts)})" if parts else ""


def _deal(opts: dict, content: dict, n: int, events: list, using: int, chance, t: dict) -> dict:
    """The table's chance outcomes, drawn in this order (a server-chance game's seed replays it)."""
    cards = sorted(c["id"] for c in content["playCards"])
    maps = sorted(m["id"] for m in content["maps"])
    # [Setup 2] the Event cards (TA-31: those in use, at random) under the Anchor
    unnamed = chance.mode == "table" and 0 < using < len(events) and "events" not in t
    if using == len(events) and "events" not in t:
        in_play = events   # every Event kept: nothing drawn (a table that lists them has them checked below)
    elif using == 0 and "events" not in t:
        in_play = []   # no Event card in the game: none drawn (a pick of 0 draws nothing), none to report
    elif unnamed:
        in_play = []   # TP-22: the table took them blind; each is named as it is turned up
    else:
        in_play = sorted(chance.pick(events, using, t.get("events"), "setup.events"))
    # [Setup 3] shuffle the Play Deck and deal 5 each (only which cards, never their order, is kept)
    dealt = chance.pick(cards, 5 * n, None if "hands" not in t else [c for h in t["hands"] for c in h], "setup.hands")
    hands = [sorted(dealt[5 * i:5 * i + 5]) for i in range(n)]
    deck = sorted(set(cards) - set(dealt))
    # [Setup 4-5] shuffle the Map Deck, reveal 3 from the bottom
    opened = chance.pick(maps, 3, t.get("maps"), "setup.maps")
    face_up = None
    if opts["scanning_the_horizon"] and (in_play or unnamed) and not opts["chaos_on_the_high_seas"]:
        face_up = chance.pick(events if unnamed else in_play, 1,
                              None if "face_up_event" not in t else [t["face_up_event"]], "setup.face_up_event")[0]
    shuffled_in = in_play if opts["chaos_on_the_high_seas"] else []  # [Variants] after the deal (TA-30)
    if unnamed and opts["chaos_on_the_high_seas"]:   # TP-22: any of them may turn up, as many as are in play
        shuffled_in = events
    first, draw_off, resume = _first_player(opts, n, content, deck, chance, t, shuffled_in,
                                            using if unnamed else None)
    return {"in_play": in_play, "hands": hands, "deck": deck, "opened": opened, "face_up": face_up, "first": first,
            "draw_off": draw_off, "resume": resume, "unnamed": using if unnamed else None}


def _setup_events(players: list[str], opts: dict, content: dict, chance, events: list, table: dict) -> list[dict]:
    in_play = table["in_play"]
    colors = opts["ship_colors"] or content["colors"][:len(players)]   # [Setup 1] chosen (TP-20), else in order
    placed = {"type": "EventsPlacedUnderAnchor", "count": len(in_play), "events": sorted(in_play),
              "out_of_game": sorted(set(events) - set(in_play)), "face_up": table["face_up"],
              "shuffled_into_deck": opts["chaos_on_the_high_seas"]}
    if table["unnamed"] is not None:   # TP-22: taken blind at the table, so nobody can say which: only how many
        using = table["unnamed"]
        placed |= {"count": using, "events": using, "out_of_game": len(events) - using, "unnamed": True}
    out = [kit.setup_event(RULESET_ID, RULESET_VERSION, players, opts, content, chance, colors=colors), placed,
           {"type": "CardsDealt", "hands": table["hands"], "deck": table["deck"]}]
    if opts["chaos_on_the_high_seas"]:  # [Variants] after dealing, the Event cards into the Play Deck
        out.append({"type": "EventsShuffledIntoDeck", "events": sorted(in_play)} if table["unnamed"] is None else
                   {"type": "EventsShuffledIntoDeck", "events": table["unnamed"], "unnamed": True})   # TP-22
    out.append({"type": "MapsRevealed", "maps": list(table["opened"])})
    out += _draw_off_events(out, chance, table["draw_off"], table["resume"])
    if table["first"] is not None:
        out.append({"type": "TurnStarted", "seat": table["first"], "turn": 1})
    return out


def _draw_off_events(before: list[dict], chance, steps: list[dict], resume: dict | None) -> list[dict]:
    """The draw-off's dice as DrawOffRevealed, and each Event revealed in it (TA-30) carried out
    as the rules carry out one drawn in play (rules.run_event), on the state the setup made so
    far: Scurvy, the Pirates' choice, comes last, with where the draw-off resumes."""
    out: list[dict] = []
    dice: list[dict] = []
    for step in steps:
        if "card" in step:
            dice.append(step)
            continue
        if dice:
            out.append({"type": "DrawOffRevealed", "cards": dice})
            dice = []
        state = rules.evolve_all(before + out)
        draft = rules.Draft(state, chance, {})
        rules.run_event(draft, step["event"], "deck", resume or {})
        out += draft.events
    if dice:
        out.append({"type": "DrawOffRevealed", "cards": dice})
    return out


def _blind_check(card: str, shown: int, blind: int | None, effects: dict) -> None:
    """A card revealed in the draw-off, `shown` Events having turned up before it. blind: where a
    table took the Events blind (TP-22), how many are in play: any Event may turn up until that
    many have, and one more is refused, saying so wherever it lies in the list."""
    if blind is not None and card in effects and shown == blind:
        raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                       f"setup.draw_off: only {blind} Event card{'' if blind == 1 else 's'} "
                       f"{'is' if blind == 1 else 'are'} in play, and all have turned up: {card!r} cannot")


def _first_player(opts: dict, n: int, content: dict, deck: list, chance, t: dict, shuffled_in: list,
                  blind: int | None = None):
    """[Starting the Game] highest die starts; TA-5: tied players draw again, the cards are discarded.

    The first player (None while Scurvy waits), the draw-off's steps in order ({"seat", "card"}
    for a die, {"event"} for an Event) and, when Scurvy stopped it, where it resumes. With Chaos
    on the high seas (TA-30) the Events are in the Play Deck: one revealed is carried out at once
    and the same Pirate reveals the next card; Scurvy waits for the Pirates' choices, and the
    draw-off goes on after them (rules.draw_off_card). blind: _blind_check's."""
    if opts["first_player"] != "draw_off":
        return opts["first_player"], [], None
    die = {c["id"]: c["die"] for c in content["playCards"]}
    effects = {e["id"]: e["effect"] for e in content["events"]}
    contenders = list(range(n))
    steps: list[dict] = []         # each card turned up, in order
    supplied = t.get("draw_off")
    pool = sorted(list(deck) + list(shuffled_in))
    round_: list[dict] = []        # this round's dice: {"seat", "card"}
    tied = False                   # a round was tied: the tied Pirates reveal again
    while True:
        wanted = len(contenders) - len(round_)
        told = None if supplied is None else supplied[len(steps):len(steps) + wanted]
        if told and len(told) < wanted and effects.get(told[-1]) == "scurvy":
            wanted = len(told)  # the list rightly stops at Scurvy (the rest comes with the choices)
        if tied and not round_ and told is not None and len(told) < min(wanted, len(pool)):
            # TA-5: a tie draws again; count the whole list (the pick would count this round only)
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                           f"setup.draw_off: the draw-off was tied, so the tied Pirates draw again: list "
                           f"{len(steps) + wanted} cards: the {len(steps)} revealed so far, then one "
                           f"for each of the {wanted} tied Pirates, in seat order"
                           + (", with each Event card revealed among them in its place" if shuffled_in else ""))
        got = chance.pick(pool, wanted, told, "setup.draw_off")
        if len(got) < wanted:
            return contenders[0], steps, None  # the deck ran dry: the first contender starts (TP-11)
        for c in got:
            _blind_check(c, sum("event" in x for x in steps), blind, effects)
            pool.remove(c)
            if c in effects:  # TA-30: carried out at once; the same Pirate reveals the next card
                steps.append({"event": c})
                if effects[c] == "scurvy":
                    if supplied is not None and len(supplied) != len(steps):
                        raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                                       "setup.draw_off: the draw-off stops at Scurvy until every Pirate has "
                                       "chosen the 2 cards to keep: list the cards revealed after it in 'drawn' "
                                       "with the last choice")
                    return None, steps, {"do": "draw_off", "seat": contenders[len(round_)],
                                         "contenders": contenders, "round": round_}
                continue
            step = {"seat": contenders[len(round_)], "card": c}
            steps.append(step)
            round_.append(step)
        kind, who = rules.draw_off_after(contenders, round_, die)
        if kind == "first":
            if supplied is not None and len(supplied) != len(steps):
                raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE, "setup.draw_off: more cards than the draw-off revealed")
            return who, steps, None
        if kind == "again":
            contenders, round_, tied = who, [], True
