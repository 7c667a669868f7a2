"""Chrono Corsairs: creating a game. [Components & Setup]"""
from __future__ import annotations

from collections import Counter

import jsonschema

from .. import kit
from ..chance import CHANCE_RULE
from ..kit import load_json, with_defaults
from ..kit import schema_problems as _schema_problems
from ..kit.printed import checked_content, cite, usable_options
from ..ruleset import InvalidCreation, Rejected
from .printed import SECTIONS, printed_problems
from .state import STAGES, TIMES, initial_state

RULESET_ID = "chrono-corsairs"
RULESET_VERSION = "1.7.0"
COLORS = ["red", "blue", "green", "yellow", "purple"]

CONTENT_SCHEMA = load_json(__package__, "schema.json")
DEFAULT_CONTENT = load_json(__package__, "reference.json")

OPTIONS_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Chrono Corsairs options",
    "description": "House rules. Each default is Parley's ruling where the rulebook is silent; see docs/rulings.md.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "initial_flag_order": {"enum": ["random", "seat_order"], "default": "random",
                               "description": "CA-7: the first round's turn order."},
        "final_round_keeps_doubloons": {"type": "boolean", "default": True,
                                        "description": "CA-9: the last round's Doubloons convert 2:1 at Final Scoring."},
        "max_reward_places": {"enum": [3, 4], "default": 4,
                              "description": "CA-10: a 4th place in Collapsing (4), or none (3: only with 4 or 5 "
                                             "players, since fewer never fill a 4th place: CP-17)."},
        "flag_breaks_condition_ties": {"type": "boolean", "default": True,
                                       "description": "CA-12: the Flag track breaks ties inside effects (Scrying Mirror)."},
        "artifacts_per_turn": {"enum": [0, 1], "default": 1,
                               "description": "CA-21: Artifact cards a player may play on their own Loop turn, before or after "
                                              "the plan: 1, or 0 (none are played)"},
        "volcano_min_stage": {"enum": list(STAGES), "default": "EXPANDING",
                              "description": "CA-28: the lowest Loop stage at which a volcano gives rewards, whatever place "
                                             "(OPENING is refused: a Volcano pays nothing under Opening in any content, CP-19)"},
    },
}

# Ids in a table setup are content ids (content/schema.json: at most 40 characters); a board
# has 12 spots (content_problems), so no list here can be longer.
TILE_ID = {"type": "string", "maxLength": 40}

# What every seat sees on the table of what the table set up (docs/api.md section 7): the
# tiles and caves laid out with their sides, the backs of the face-down Event tokens (not their
# faces), the Flag track and the Anomaly cards turned up. All of it.
PUBLIC_SETUP_FIELDS = frozenset({"interior", "exterior", "caves", "sides", "token_backs", "flag", "anomaly"})

TABLE_SETUP_SCHEMA = {
    "type": "object",
    "description": "Table chance only: how the table laid out the board [Components & Setup].",
    "required": ["interior", "exterior", "caves", "sides", "token_backs", "anomaly"],
    "additionalProperties": False,
    "properties": {
        "interior": {"type": "array", "items": TILE_ID, "maxItems": 12,
                     "description": "the interior tiles, in the board's spot order"},
        "exterior": {"type": "array", "items": TILE_ID, "maxItems": 12,
                     "description": "the exterior tiles, in the board's spot order"},
        "caves": {"type": "array", "items": TILE_ID, "maxItems": 12,
                  "description": "the cave tiles on the cave spots, in order"},
        "sides": {"type": "array", "items": {"enum": ["A", "B"]}, "maxItems": 12,
                  "description": "the side up of each of those caves"},
        "token_backs": {"type": "array", "items": {"enum": list(TIMES)}, "maxItems": 12,
                        "description": "the back of the face-down Event token on each spot, in the board's "
                                       "resolution order"},
        "flag": {"type": "array", "items": {"type": "integer"}, "maxItems": 5,
                 "description": "with initial_flag_order random: the seats, highest Flag first; with seat_order "
                                "nothing is drawn: leave it out, or send [] or the seats in order"},
        "anomaly": {"type": "array", "items": TILE_ID, "minItems": 1, "maxItems": 2,
                    "description": "the top card of the Anomaly deck, then the one turned up after it if round 1's "
                                   "anomaly needs nobody's decision (which depends on the card and the table: a "
                                   "refusal names the card and the count)"},
    },
}

_options_validator = jsonschema.Draft202012Validator(OPTIONS_SCHEMA)
_content_validator = jsonschema.Draft202012Validator(CONTENT_SCHEMA)
_table_validator = jsonschema.Draft202012Validator(TABLE_SETUP_SCHEMA)

OPS = {"move", "moveAll", "kill", "loseToStorm", "gain", "lose", "recruit", "advanceCube", "rearrangePlans",
       "storm", "modify", "schedule", "noEffect"}
PARAMS = {"forgoReward", "priceMovePlan", "priceCube", "priceRecruit", "priceGem", "priceArtifact",
          "unstableAdvance", "eventsActive", "rewardsBlockedTerrain"}


def effect_problems(e, where: str, *, token: bool = False) -> list[str]:
    """Type-check a CCEL program beyond its JSON Schema: the parts the interpreter relies on."""
    out = []
    if not isinstance(e, dict):
        return [f"{where}: an effect is an object"]
    if "seq" in e:
        for i, x in enumerate(e["seq"]):
            out += effect_problems(x, f"{where}.seq[{i}]", token=token)
    elif "choice" in e:
        for i, x in enumerate(e["choice"]["options"]):
            out += effect_problems(x, f"{where}.choice.options[{i}]", token=token)
    elif "if" in e:
        out += effect_problems(e["then"], f"{where}.then", token=token)
        if "else" in e:
            out += effect_problems(e["else"], f"{where}.else", token=token)
    elif "repeat" in e:
        out += effect_problems(e["repeat"]["do"], f"{where}.repeat.do", token=token)
    elif "forEachSpace" in e:
        out += effect_problems(e["forEachSpace"]["do"], f"{where}.forEachSpace.do", token=token)
    elif "forEachPlayer" in e:
        out += effect_problems(e["forEachPlayer"]["do"], f"{where}.forEachPlayer.do", token=token)
    elif "bind" in e:
        out += effect_problems(e["in"], f"{where}.in", token=token)
    elif e.get("op") in OPS:
        op = e["op"]
        if op in ("kill", "loseToStorm", "moveAll") and not isinstance(e.get("who"), dict):
            out.append(f"{where}: {op} needs 'who', a pirate selector")
        if op == "moveAll" and "to" not in e:
            out.append(f"{where}: moveAll needs 'to'")
        if isinstance(e.get("who"), dict) and e["who"].get("entering") and not token:
            out.append(f"{where}: 'entering' only means something in an Event token's effect")
        if op == "storm" and (not isinstance(e.get("delta"), int) or e["delta"] < 0):
            out.append(f"{where}: storm needs a 'delta' of 0 or more (CP-3: the storm only moves forward)")
        if op == "modify" and not (isinstance(e.get("param"), str) and e["param"] in PARAMS):
            out.append(f"{where}: modify 'param' must be one of {', '.join(sorted(PARAMS))}")
        if op == "schedule":
            if e.get("at") not in ("endOfPhase3", "endOfPhase4", "endOfRound"):
                out.append(f"{where}: schedule 'at' must be endOfPhase3, endOfPhase4 or endOfRound")
            out += effect_problems(e.get("do"), f"{where}.do", token=token)
        if op == "move" and e.get("piece", "officer") not in ("officer", "crew", "pirate"):
            out.append(f"{where}: move 'piece' must be officer, crew or pirate")
        if op == "advanceCube" and e.get("track", "stable") not in ("stable", "unstable", "choice"):
            out.append(f"{where}: advanceCube 'track' must be stable, unstable or choice")
    else:
        out.append(f"{where}: no effect has the keys {', '.join(sorted(map(str, e))) or '(none)'}")
    return out


COUNTS = ("steps", "doubloons", "timeGems", "artifacts", "delta")


def _whole(v, allow_all: bool = False) -> bool:
    return (allow_all and v == "all") or (isinstance(v, int) and not isinstance(v, bool) and v >= 0)


def count_problems(x, where: str = "content") -> list[str]:
    """Every amount an effect counts with (an op's steps, doubloons, time gems, artifacts,
    storm delta and number of pieces; a repeat's count) is a whole number of 0 or more ('n' of
    a pirate selector may be "all"). Otherwise the content is refused at creation, listing each
    one, instead of failing in the middle of a game."""
    out = []
    if isinstance(x, dict):
        if "op" in x:
            for k in COUNTS:
                if k in x and not _whole(x[k]):
                    out.append(f"{where}.{k}: must be a whole number of 0 or more, not {kit.spelled(x[k])}")
            if "n" in x and not _whole(x["n"]):
                out.append(f"{where}.n: must be a whole number of 0 or more, not {kit.spelled(x['n'])}")
        if isinstance(x.get("who"), dict) and "n" in x["who"] and not _whole(x["who"]["n"], allow_all=True):
            out.append(f"{where}.who.n: must be a whole number of 0 or more, or \"all\", not {kit.spelled(x['who']['n'])}")
        if x.get("op") == "modify":
            param, value = x.get("param"), x.get("value")
            if param == "rewardsBlockedTerrain":
                if not (isinstance(value, list) and all(isinstance(t, str) for t in value)):
                    out.append(f"{where}.value: rewardsBlockedTerrain takes a list of terrain names")
            elif param == "eventsActive":
                if not isinstance(value, bool):
                    out.append(f"{where}.value: eventsActive takes true or false")
            elif isinstance(param, str) and param in PARAMS and not _whole(value):
                out.append(f"{where}.value: {param} takes a whole number of 0 or more, not {kit.spelled(value)}")
        if isinstance(x.get("has"), dict):
            out += [f"{where}.has.{k}: must be a whole number of 0 or more, not {kit.spelled(v)}"
                    for k, v in x["has"].items() if not _whole(v)]
        if isinstance(x.get("count"), dict) and "value" in x["count"] and not _whole(x["count"]["value"]):
            out.append(f"{where}.count.value: must be a whole number of 0 or more, not {kit.spelled(x['count']['value'])}")
        if isinstance(x.get("repeat"), dict) and not _whole(x["repeat"].get("n")):
            out.append(f"{where}.repeat.n: must be a whole number of 0 or more, not {kit.spelled(x['repeat'].get('n'))}")
        for k in ("carry", "entering", "optional"):
            if k in x and not isinstance(x[k], bool):
                out.append(f"{where}.{k}: must be true or false, not {kit.spelled(x[k])}")
        for k, v in x.items():
            out += count_problems(v, f"{where}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += count_problems(v, f"{where}[{i}]")
    return out


def _says_here(x) -> bool:
    if x == "here":
        return True
    if isinstance(x, dict):
        return any(_says_here(v) for v in x.values())
    if isinstance(x, list):
        return any(_says_here(v) for v in x)
    return False


def content_problems(c: dict) -> list[str]:
    """Custom content's problems beyond its schema and what the rulebook prints (printed.py), in
    the order a refusal lists them: the amounts effects count with, ids, the Vortex, the board,
    then the effects themselves."""
    problems = count_problems(c, "content")
    problems += _id_problems(c) + _vortex_problems(c["vortex"]) + _board_problems(c["board"])
    if not problems:
        problems += _unreachable(c["board"])
    programs = _program_problems(c)
    return problems + programs + _placeless_problems(c) + ([] if problems or programs else _work_problems(c))


def _id_problems(c: dict) -> list[str]:
    ids = [x["id"] for part in ("plans", "anomalies", "tiles", "caves", "eventTokens", "artifacts") for x in c[part]]
    if len(set(ids)) != len(ids):
        return ["content: every plan, anomaly, tile, cave, token and artifact id must be unique [Components & Setup]"]
    return []


def _vortex_problems(vortex: dict) -> list[str]:
    problems = []
    st = vortex["stages"]
    if [STAGES.index(x) for x in st] != sorted(STAGES.index(x) for x in st) or st[-1] != "COLLAPSING":
        problems.append("vortex.stages: stages never go back and the last space is COLLAPSING (CA-3)")
    elif st.count("COLLAPSING") > 1:
        # [Phase 6] "If the Storm Stability Marker is on the 'collapsing' space, proceed to Final
        # Scoring": one space, the last, as printed; a second would end the game before the track does
        problems.append("vortex.stages: only the last space is COLLAPSING, as printed [Phase 6] (CA-3)")
    if len(st) < 3:
        problems.append("vortex.stages: the marker starts on the second space and needs a space to advance to")
    return problems


def _board_problems(board: dict) -> list[str]:
    """The board's spots, edges, Harbor and resolution order."""
    problems = []
    spots = [sp["id"] for sp in board["spots"]]
    reg = Counter(sp["region"] for sp in board["spots"])
    if reg != Counter({"interior": 3, "exterior": 6, "cave": 3}) or len(set(spots)) != 12 or "HARBOR" in spots:
        problems.append("board.spots: 3 interior, 6 exterior and 3 cave spots with distinct ids (not HARBOR)")
    known = set(spots)
    if any(a not in known or b not in known for a, b in board["edges"]):
        problems.append("board.edges: join two spots of the board")
    if (len(set(board["harbor"])) != 3 or
            any(h not in known or next(sp["region"] for sp in board["spots"] if sp["id"] == h) != "exterior"
                for h in board["harbor"])):
        problems.append("board.harbor: the Harbor is adjacent to the nearest 3 Exterior Island tiles, and only "
                        "to them [Phase 3: Run the Loop]")
    order = board["resolutionOrder"]
    kinds = [next(sp["region"] for sp in board["spots"] if sp["id"] == x) for x in order if x in known]
    if sorted(order) != sorted(spots) or kinds != sorted(kinds, key=["cave", "exterior", "interior"].index):
        problems.append("board.resolutionOrder: every spot once, caves, then exterior, then interior "
                        "[Phase 4: Find Treasure] (CA-11)")
    return problems


def _unreachable(board: dict) -> list[str]:
    """Every spot can be reached from the Harbor (checked once the rest of the content is sound)."""
    spots = [sp["id"] for sp in board["spots"]]
    adj: dict[str, set[str]] = {x: set() for x in spots + ["HARBOR"]}
    for a, b in board["edges"]:
        adj[a].add(b)
        adj[b].add(a)
    for h in board["harbor"]:
        adj[h].add("HARBOR")
        adj["HARBOR"].add(h)
    seen, todo = {"HARBOR"}, ["HARBOR"]
    while todo:
        for y in adj[todo.pop()] - seen:
            seen.add(y)
            todo.append(y)
    if seen != set(adj):
        return ["board: every spot must be reachable from the Harbor"]
    return []


# The most steps one effect program may take, counted as if every choice took its longest way:
# a repeat runs its body n times, a forEachSpace once for every space and the Harbor, a
# forEachPlayer five times, each Artifact gained is a draw (the Artifact deck empty, each still
# an event), and a step's `n` (pieces moved, cubes advanced, plans moved, Crew recruited, one by
# one) and a move's `steps` (each a search of the board) count one each. The interpreter lays a
# repeat's body out n times in the agenda that every command stores, so content whose program
# could run a million steps (a crafted `gain` of 10^6 Artifacts hung a worker until gunicorn
# killed it; repeats nested 17 deep stored 310 KB a step; an `advanceCube` of n = 10^7 looped at
# setup) is refused at creation instead. The reference content's longest takes 31.
MOST_STEPS = 1000
# And what a program may lay out in the agenda: while it runs, every command stores the frames
# left to run (the Agenda event), a repeat's body n times over, so a large program repeated
# stores its size many times a step (a 118 KB program of repeats stored 310 KB a step, 101 MB in
# 330 commands). Bounded by its steps times its size as compact JSON: the reference content's
# largest is 7.8 KB. At 256 KiB (until 1.4.0) an outside audit's 22 KB program of 11 steps,
# repeated, stored 251 KB with every command while it ran: 155 MB in 2,909 commands of one
# game, and a 139 MB export. 32 KiB is four times the reference's largest.
MOST_LAID_OUT = 32 * 1024


def most_steps(e, spaces: int) -> int:
    """An upper bound of the steps program `e` takes (see MOST_STEPS), each node counted once for
    itself, so that a repeat of an empty sequence counts too; 0 for what is not a program."""
    if not isinstance(e, dict):
        return 0
    if "seq" in e:
        return 1 + sum(most_steps(x, spaces) for x in e["seq"])
    if "choice" in e:
        return 1 + max((most_steps(x, spaces) for x in e["choice"]["options"]), default=0)
    if "if" in e:
        return 1 + max(most_steps(e.get("then"), spaces), most_steps(e.get("else"), spaces))
    if "repeat" in e:
        return 1 + e["repeat"]["n"] * most_steps(e["repeat"]["do"], spaces)
    if "forEachSpace" in e:
        return 1 + spaces * most_steps(e["forEachSpace"]["do"], spaces)
    if "forEachPlayer" in e:
        return 1 + 5 * most_steps(e["forEachPlayer"]["do"], spaces)
    if "bind" in e:
        return 1 + most_steps(e.get("in"), spaces)
    steps = 1 + (e.get("artifacts", 0) if e.get("op") in ("gain", "lose") else 0)
    for counted in ("n", "steps"):   # pieces, cubes, plan moves or Crew one by one; a move's spaces
        if isinstance(e.get(counted), int):
            steps += e[counted]
    return steps + (most_steps(e.get("do"), spaces) if e.get("op") == "schedule" else 0)


def _programs(c: dict) -> list[tuple[str, object]]:
    """Every effect program of the content, with where it is."""
    out: list[tuple[str, object]] = []
    for t in c["tiles"]:
        out += [(f"tiles[{t['id']}].rewards.{stage}", e) for stage, e in t["rewards"].items()]
    for cv in c["caves"]:
        for side, face in cv["sides"].items():
            out += [(f"caves[{cv['id']}].{side}.{stage}", e)
                    for stage, e in (face.get("rewards") or {"all": face.get("rewardsAllStages")}).items()]
    out += [(f"eventTokens[{tk['id']}]", tk["effect"]) for tk in c["eventTokens"]]
    out += [(f"plans[{p['id']}]", p["effect"]) for p in c["plans"]]
    out += [(f"anomalies[{a['id']}].{stage}", e) for a in c["anomalies"] for stage, e in a["effects"].items()]
    out += [(f"artifacts[{a['id']}]", a["effect"]) for a in c["artifacts"]]
    out += [(f"shipMat.preprinted.{slot}", e) for slot, e in c["shipMat"]["preprinted"].items()]
    return out


def _work_problems(c: dict) -> list[str]:
    """Programs that could take more than MOST_STEPS steps, or lay out more than MOST_LAID_OUT
    bytes (their amounts already whole numbers)."""
    spaces = len(c["board"]["spots"]) + 1
    out = []
    for where, e in _programs(c):
        n = most_steps(e, spaces)
        if n > MOST_STEPS:
            out.append(f"{where}: this effect could take {n:,} steps or more; custom content may take at most "
                       f"{MOST_STEPS:,} (a repeat counts its body n times, forEachSpace once a space, forEachPlayer "
                       "five times, an Artifact gained or lost one each)")
        elif n * (size := kit.content_size(e)) > MOST_LAID_OUT:
            out.append(f"{where}: this effect's {size:,} bytes times its {n:,} steps come to more than "
                       f"{MOST_LAID_OUT:,}, what one effect may lay out while it runs (every command stores what is "
                       "left of it)")
    return out


def _program_problems(c: dict) -> list[str]:
    """Every effect program of the content (effect_problems), by kind of component."""
    problems = []
    for t in c["tiles"]:
        for stage, e in t["rewards"].items():
            problems += effect_problems(e, f"tiles[{t['id']}].rewards.{stage}")
        if t["terrain"] == "volcano" and t["rewards"]["OPENING"] != {"op": "noEffect"}:
            problems.append(f"tiles[{t['id']}]: a Volcano pays nothing under Opening [Phase 4: Find Treasure] (CA-28)")
    for cv in c["caves"]:
        for side, face in cv["sides"].items():
            for stage, e in (face.get("rewards") or {"all": face.get("rewardsAllStages")}).items():
                problems += effect_problems(e, f"caves[{cv['id']}].{side}.{stage}")
    for tk in c["eventTokens"]:
        problems += effect_problems(tk["effect"], f"eventTokens[{tk['id']}]", token=True)
    for p in c["plans"]:
        problems += effect_problems(p["effect"], f"plans[{p['id']}]")
    for a in c["anomalies"]:
        for stage, e in a["effects"].items():
            problems += effect_problems(e, f"anomalies[{a['id']}].{stage}")
    for a in c["artifacts"]:
        problems += effect_problems(a["effect"], f"artifacts[{a['id']}]")
    for slot, e in c["shipMat"]["preprinted"].items():
        problems += effect_problems(e, f"shipMat.preprinted.{slot}")
    return problems


def _placeless_problems(c: dict) -> list[str]:
    """'here' in an effect that has no place: a plan, an artifact, an anomaly, a pre-printed plan."""
    placeless = [(f"plans[{p['id']}]", p["effect"]) for p in c["plans"]]
    placeless += [(f"artifacts[{a['id']}]", a["effect"]) for a in c["artifacts"]]
    placeless += [(f"anomalies[{a['id']}].{st}", e) for a in c["anomalies"] for st, e in a["effects"].items()]
    placeless += [(f"shipMat.preprinted.{slot}", e) for slot, e in c["shipMat"]["preprinted"].items()]
    return [f"{where}: 'here' is the tile of a reward or the space of an Event token; a plan, artifact or anomaly has none"
            for where, e in placeless if _says_here(e)]


kit.check_shipped(_content_validator, DEFAULT_CONTENT, lambda c: printed_problems(c) + content_problems(c))


def setup(players: list[str], options: dict | None, content: dict | None, chance, table_setup: dict | None) -> list[dict]:
    n = len(players)
    opts, content = _accepted(players, options, content, chance, table_setup)
    t = table_setup or {}
    dealt = kit.dealing(chance)  # every wrong report of the table's layout at once
    try:
        laid = _lay_out(content, opts, n, dealt, t)
    except Rejected as r:  # a wrong report met earlier may be its cause: that one is listed
        raise InvalidCreation(cite([kit.report_problem(x) for x in kit.refused_reports(dealt) or [r]], SECTIONS)) from None
    if kit.refused_reports(dealt):
        raise InvalidCreation(cite([kit.report_problem(r) for r in kit.refused_reports(dealt)], SECTIONS))
    events = [kit.setup_event(RULESET_ID, RULESET_VERSION, players, opts, content, chance, colors=COLORS[:n]),
              _board_set_up(content, n, laid)]
    return events + _first_round(events, chance, t)



def _accepted(players: list[str], options: dict | None, content: dict | None, chance,
              table_setup: dict | None) -> tuple[dict, dict]:
    """The options (with their defaults) and content the game is created with, or every problem
    at once: the players, the options, the options against the player count, the content (its
    form and what the rulebook prints), and the table setup (its form, then against the options,
    the seats and the content). A check that needs a part is skipped only when that part is
    itself wrong."""
    n = len(players)
    count_ok = 2 <= n <= 5
    problems = [] if count_ok else [f"players: Chrono Corsairs is for 2 to 5 players, not {n}"]  # 5 Ship Mats
    opts = dict(options or {})
    option_errors = _schema_problems(_options_validator, opts, "options")
    usable = usable_options(opts, option_errors, OPTIONS_SCHEMA)
    problems += option_errors
    if count_ok and opts.get("max_reward_places") == 3 and usable["max_reward_places"] == 3 and n <= 3:
        problems.append(f"options.max_reward_places: 3 changes nothing with {n} players: only 4 players can take "
                        "a 4th place on a tile (CP-17)")
    if opts.get("volcano_min_stage") == "OPENING" and usable["volcano_min_stage"] == "OPENING":
        problems.append("options.volcano_min_stage: OPENING changes nothing: every content gives a Volcano nothing "
                        "under Opening (CA-28), so it plays as EXPANDING, the default (CP-19)")
    content, content_errors, sound = _content(content)
    problems += content_errors
    problems += _table_problems(chance, table_setup, usable, n if count_ok else None, content if sound else None)
    if problems:
        raise InvalidCreation(cite(problems, SECTIONS))
    return with_defaults(opts, OPTIONS_SCHEMA), content



def _content(content: dict | None) -> tuple[dict, list[str], bool]:
    """The content to play with, its problems and whether it is sound enough to check against (kit.printed)."""
    return checked_content(content, DEFAULT_CONTENT, _content_validator, printed_problems, content_problems)


def _table_problems(chance, table_setup: dict | None, opts: dict, n: int | None, content: dict | None) -> list[str]:
    """What is wrong with the table setup: given exactly at a table (CP-2), in its form, then
    against the options and the seats, then against the content."""
    if chance.mode != "table":
        return [] if table_setup is None else ["setup: only a table-chance game says how the table was set up"]
    if table_setup is None:
        return ["setup: a table-chance game says how the table laid out the board, in 'setup'"]
    t = table_setup
    problems = _schema_problems(_table_validator, t, "setup")
    if problems:
        return problems
    if opts["initial_flag_order"] == "seat_order" and not _seat_order_told(t, n):
        problems.append("setup.flag: with seat_order the Flags go in seat order; leave it out (or send [] or the "
                        "seats in order)")
    elif opts["initial_flag_order"] == "random" and n is not None and sorted(t.get("flag", [-1])) != list(range(n)):
        problems.append(f"setup.flag: the {n} seats in the order their Flags were drawn, highest first")
    if content is not None:
        problems += _layout_problems(t, content)
    return problems


def _layout_problems(t: dict, content: dict) -> list[str]:
    """[Components & Setup] the tiles, caves and sides a table lays out are those of the content."""
    problems = []
    for region, count in (("interior", 3), ("exterior", 6)):
        if sorted(t[region]) != _ids(content["tiles"], region):
            problems.append(f"setup.{region}: each of the {count} {region.capitalize()} Island tiles once")
    caves = {c["id"] for c in content["caves"]}
    if len(t["caves"]) != 3 or len(set(t["caves"])) != 3 or not set(t["caves"]) <= caves:
        problems.append("setup.caves: 3 different Mysterious Cave tiles of the content")
    if len(t["sides"]) != 3:
        problems.append("setup.sides: the side up of each of the 3 caves")
    have = Counter(x["back"] for x in content["eventTokens"])
    if len(t["token_backs"]) != 12 or any(v > have[k] for k, v in Counter(t["token_backs"]).items()):
        problems.append("setup.token_backs: one back for each of the 12 spots, as many of each as there are tokens")
    if not set(t["anomaly"]) <= {a["id"] for a in content["anomalies"]}:
        problems.append("setup.anomaly: Anomaly cards of the content")
    return problems


def _lay_out(content: dict, opts: dict, n: int, chance, t: dict) -> dict:
    """[Components & Setup] the chance outcomes of the layout, drawn in this order (a
    server-chance game's seed replays it): tiles in a random order; 3 of 4 caves, random side
    up; the Event tokens' backs; the Flag order; the top Anomaly."""
    tiles_in = chance.shuffle(_ids(content["tiles"], "interior"), t.get("interior"), "setup.interior")
    tiles_ex = chance.shuffle(_ids(content["tiles"], "exterior"), t.get("exterior"), "setup.exterior")
    caves = chance.pick(sorted(x["id"] for x in content["caves"]), 3, t.get("caves"), "setup.caves")
    sides = chance.roll(3, ["A", "B"], t.get("sides"), "setup.sides")
    backs = _token_backs(content, chance, t)
    flag = _flag_order(opts, n, chance, t)
    top = chance.pick(sorted(a["id"] for a in content["anomalies"]), 1,
                      None if "anomaly" not in t else t["anomaly"][:1], "setup.anomaly")[0]
    return {"interior": tiles_in, "exterior": tiles_ex, "caves": caves, "sides": sides, "backs": backs, "flag": flag,
            "anomaly": top}


def _ids(tiles: list[dict], region: str) -> list[str]:
    return sorted(x["id"] for x in tiles if x["region"] == region)


def _token_backs(content: dict, chance, t: dict) -> list[str]:
    """One face-down Event token on each tile, drawn blind: only its back shows."""
    if chance.mode == "table":
        backs = t["token_backs"]
        have = Counter(x["back"] for x in content["eventTokens"])
        if len(backs) != 12 or any(v > have[k] for k, v in Counter(backs).items()):
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                           "setup.token_backs: one back for each of the 12 spots, as many of each as there are tokens")
        return backs
    drawn = chance.pick(sorted(x["id"] for x in content["eventTokens"]), 12, None, "setup.token_backs")
    return [next(x["back"] for x in content["eventTokens"] if x["id"] == i) for i in drawn]


def _seat_order_told(t: dict, n: int | None) -> bool:
    """With seat_order nothing is drawn: a table may leave 'flag' out, send it empty (as a client
    filling every field with its default does), or send the seat order itself."""
    return t.get("flag", []) in ([], list(range(n or 0)))


def _flag_order(opts: dict, n: int, chance, t: dict) -> list[int]:
    """CA-7: the first round's Flag order is random (or seat order, as a house rule)."""
    if opts["initial_flag_order"] == "seat_order":
        if not _seat_order_told(t, n):
            raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE, "setup.flag: with seat_order the Flags go in seat "
                                                                "order; leave it out (or send [] or the seats in order)")
        return list(range(n))
    return chance.shuffle(list(range(n)), t.get("flag"), "setup.flag")


def _board_set_up(content: dict, n: int, laid: dict) -> dict:
    board = content["board"]
    interior = [sp["id"] for sp in board["spots"] if sp["region"] == "interior"]
    exterior = [sp["id"] for sp in board["spots"] if sp["region"] == "exterior"]
    cave_spots = [sp["id"] for sp in board["spots"] if sp["region"] == "cave"]
    start = content["vortex"]["start"]["2" if n == 2 else "3+"]   # [Components & Setup] Storm Stability marker
    spots = (dict(zip(interior, laid["interior"], strict=False)) | dict(zip(exterior, laid["exterior"], strict=False))
             | dict(zip(cave_spots, laid["caves"], strict=False)))
    return {"type": "BoardSetUp", "tiles": spots, "sides": dict(zip(cave_spots, laid["sides"], strict=False)),
            "box_cave": next(c["id"] for c in content["caves"] if c["id"] not in laid["caves"]),
            "token_backs": dict(zip(board["resolutionOrder"], laid["backs"], strict=False)), "storm": start,
            "flag": laid["flag"], "anomaly": laid["anomaly"]}


def _first_round(events: list[dict], chance, t: dict) -> list[dict]:
    """The first round begins at once: its Anomaly, and the next one turned up if this one needs
    nobody's decision (at a table, exactly the cards listed in setup.anomaly)."""
    from . import rules
    from .state import evolve
    s = kit.fold(initial_state(), evolve, events)
    s.jobs = [{"kind": "new_round"}]
    d = rules.Draft(s, chance, {"anomaly": t.get("anomaly", [])[1:]} if chance.mode == "table" else {})
    d.start = None
    d.in_game = False

    def count(cards: int) -> Rejected:
        """The whole list's count, and why: the last card the table listed (or needed) either
        resolves without anyone's decision, so the next one is turned up too, or waits."""
        sent = list(t.get("anomaly") or [])
        if cards > len(sent):
            why = (f"{sent[-1] if sent else 'the top card'} resolves in round 1 without anyone's decision, so "
                   "the next card of the Anomaly deck is turned up too")
        else:
            why = f"{sent[cards - 1]} waits for a decision in round 1, so no card after it is turned up yet"
        return Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                        f"setup.anomaly: list the top card of the Anomaly deck, then the next one only if round 1's "
                        f"Anomaly resolved without anyone's decision: {why}; send {cards} "
                        f"card{'' if cards == 1 else 's'}, not {len(sent)}")

    try:
        try:
            rules.finish(d)
        except Rejected as r:
            # the draft counts the cards after setup.anomaly's first: say how many the whole list needs
            raise count(2 + d.used["anomaly"]) if d.missing == "anomaly" else r from None
        if chance.mode == "table" and len(t["anomaly"]) != 1 + d.used["anomaly"]:
            raise count(1 + d.used["anomaly"])
    except kit.TooManyEvents:
        raise InvalidCreation(cite([f"content: round 1's Anomaly would set off more than {kit.MAX_EVENTS:,} events "
                                    "at once, more than Parley adjudicates in one command"], SECTIONS)) from None
    except Rejected as r:
        detail = r.detail if r.detail.startswith("setup") else f"setup.anomaly: {r.detail}"
        raise InvalidCreation(cite([detail], SECTIONS)) from None
    return d.events
