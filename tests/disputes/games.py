"""Real games played over the API (in memory) and exported, for the dispute tests."""
from __future__ import annotations

import copy
import random
import re
from uuid import UUID

from disputes import chain
from service import create_app
from tests.fakes.http import bearer, create, progressing
from tests.playouts.test_league_playouts import sailor

ARBITER_TOKEN = "arbiter-" + "x" * 40
ARBITER = bearer(ARBITER_TOKEN)
CORSAIRS, LEAGUE, TESOROS = "corsairs-of-valeria", "league-of-pirates", "tesoros-del-rey-pirata"
CHRONO, VALERIA, SEAS = "chrono-corsairs", "valeria-card-kingdoms", "crimson-seas"
TABLE_SETUP = {CORSAIRS: {"captains": ["HOOK", "BONES"],
                          "track": [{"tile": "T1", "side": "A"}, {"tile": "T2", "side": "B"},
                                    {"tile": "T3", "side": "A"}]},
               TESOROS: {"hands": [["MS-2", "MUT-2a", "SAB-1", "WTP-1a", "CS-3"],
                                   ["SAB-5", "MUT-4", "LS-5", "SAB-2", "WTP-2a"]],
                         "maps": ["MAP-tortuga", "MAP-puerto_viejo", "MAP-volcan"]},
               VALERIA: {"domains": ["granary", "barracks", "chapel", "palace_of_the_dawn", "foxgrove"],
                         "dukes": [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"]], "first_player": 0},
               SEAS: {"domains": ["granary", "barracks", "chapel", "palace_of_the_dawn", "foxgrove"],
                      "dukes": [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"]], "first_player": 0,
                      "araby": ["fabrics#1", "jewels#1", "artifacts#1"],
                      "nae_aerie": ["tome_gold#1", "tome_strength#1", "tome_magic#1"],
                      "amarynth": ["augur", "doom", "saint"]}}
# Rulesets whose table reports cards one by one from pools the host's view names (Tesoros'
# 'drawn', 'events', 'maps', 'stolen'; Valeria's 'revealed'): the "table" finds what it turned
# up by asking the rules, as a player finds a card in a deck, without reading the hidden order.
ASKED = (TESOROS, VALERIA, SEAS)


def _chrono_layout() -> dict:
    from tests.domain.chrono.table import LAYOUT

    return LAYOUT


def new_app(persistence: dict | None = None):
    return create_app({"PERSISTENCE": persistence or {"PERSISTENCE_MODULE": "eventsourcing.popo"},
                       "ARBITER_TOKEN": ARBITER_TOKEN})


def _fill(spec: dict, command: dict, bag: list, rng: random.Random):
    """A table outcome for one field of table_inputs, as a physical table might produce it."""
    if "one_of" in spec:
        count = spec["count"]
        if not isinstance(count, int):
            count = 5 - len(command.get("keep", [])) if command["type"] == "throw_dice" else len(command.get("dice", []))
        return [rng.choice(spec["one_of"]) for _ in range(count)]
    if "from" in spec:
        return rng.sample(bag, spec["count"])
    return {k: _fill(v, command, bag, rng) for k, v in spec.items() if isinstance(v, dict)}


def _named(value) -> list[str]:
    """Every card or token id a view names (the host's: its 'nameable' pools, hands, stacks)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _named(v)]
    if isinstance(value, list):
        return [x for v in value for x in _named(v)]
    return []


def _told(ruleset, state, seat: int, command: dict, rng: random.Random) -> dict | None:
    """The command with what a table turned up, found one card at a time: each refusal of the
    rules (TABLE_OUTCOME_REQUIRED, or a card that cannot have come from there) says which field
    wants another card or another guess, and the guesses are every id the host's view names."""
    from domain.chance import TableChance
    from domain.ruleset import ARBITER, Rejected

    view = ruleset.view(state, ARBITER)  # the host's view: as the arbiter
    likely = sorted(set(_named(view.get("nameable", {}))))  # the face-down pools, by id
    rest = sorted(set(_named(view)) - set(likely))  # hands, victory stacks, ... (a card stolen)
    rng.shuffle(likely)
    rng.shuffle(rest)
    candidates = likely + rest
    sent: dict[str, list] = {}
    tried: dict[tuple[str, int], set] = {}

    def guess(field: str, at: int) -> bool:
        """Another card at position `at` of `field`; what came after it is guessed afresh."""
        for key in [k for k in tried if k[0] == field and k[1] > at]:
            del tried[key]
        untried = [c for c in candidates if c not in tried.setdefault((field, at), set())]
        if not untried:
            return False
        tried[(field, at)].add(untried[0])
        sent[field][at:] = [untried[0]]
        return True

    for _ in range(4000):
        try:
            ruleset.decide(state, seat, {**command, **sent}, TableChance("host"))
            return {**command, **sent}
        except Rejected as refused:
            named = re.search(r"'(\w+)'", refused.detail or "")
            if refused.code not in ("TABLE_OUTCOME_REQUIRED", "TABLE_OUTCOME_INVALID") or named is None:
                return None
            field = named.group(1)
            faces = re.search(r"send the (\d+) faces? rolled", refused.detail)
            allowed = re.search(r"exactly (\d+) faces?, one for each die rolled, each one of (.+)\.$", refused.detail)
            not_a_face = re.search(r"is not a face of the die; each is one of (.+)\.$", refused.detail)
            if faces:  # dice: ask which faces there are, then roll them
                sent[field] = [None] * int(faces.group(1))
                continue
            if allowed or not_a_face:
                listed = allowed.group(2) if allowed else not_a_face.group(1)
                count = int(allowed.group(1)) if allowed else len(sent[field])
                options = [int(f) if f.isdigit() else f for f in listed.split(", ")]
                sent[field] = [rng.choice(options) for _ in range(count)]
                continue
            fewer = re.search(r"more than this command (?:took|turned face up) \((\d+)\)", refused.detail)
            if fewer:
                del sent[field][int(fewer.group(1)):]
                if not sent[field]:
                    del sent[field]
                continue
            given = sent.setdefault(field, [])
            exactly = re.search(r"must list exactly what was drawn: (\d+) item", refused.detail)
            if exactly and len(given) > int(exactly.group(1)):
                del given[int(exactly.group(1)):]
                continue
            wrong = re.search(r"'\w+': '([^']+)' cannot have", refused.detail)
            if refused.code == "TABLE_OUTCOME_REQUIRED" or exactly:
                at = len(given)  # one more
            elif wrong and wrong.group(1) in given:
                at = given.index(wrong.group(1))  # the card refused, wherever it is
            else:
                at = len(given) - 1
            if not guess(field, max(at, 0)):
                return None
    return None


def play(game, rng: random.Random, commands: int | None) -> None:
    """Random legal commands (table outcomes filled in), to the end or `commands`.

    Straight through the application, not HTTP: a whole random game is thousands of commands.
    """
    parley = game.client.application.extensions["parley"]
    game_id = UUID(game.id)
    sent = unreported = 0
    while commands is None or sent < commands:
        aggregate = parley.get_game(game_id)
        ruleset, state = aggregate.ruleset, aggregate.state
        status = ruleset.status(state)
        if status.finished:
            return
        seat = rng.choice(status.to_move)
        legal = ruleset.legal_commands(state, seat)
        command = dict(sailor(rng, legal) if ruleset.id == LEAGUE else rng.choice(progressing(legal)))
        if aggregate.chance_mode == "table" and ruleset.id == CHRONO:
            # Chrono's table_inputs names each outcome per command; the "table" turns up
            # what its physical decks hold (tests/domain/chrono/test_table_games.py).
            from tests.domain.chrono.test_table_games import announced, turn_up

            for name, spec in announced(ruleset.table_inputs(state, seat), command).items():
                command[name] = turn_up(state, name, spec, rng)
        elif aggregate.chance_mode == "table" and ruleset.id in ASKED:
            told = _told(ruleset, state, seat, command, rng)
            if told is None:
                unreported += 1
                assert unreported < 200, f"no table outcome found for {command}"
                continue  # no table could report this one (rare): another command
            command = told
        elif aggregate.chance_mode == "table":
            needed = ruleset.table_inputs(state, seat).get(command["type"], {})
            bag = ruleset.view(state, seat).get("seats", [{}] * (seat + 1))[seat].get("bag", [])
            for name, spec in needed.items():
                command[name] = _fill(spec, command, bag, rng)
        parley.execute(game_id, seat, command, game=aggregate)
        sent += 1
        assert sent < 20000


def played(client, ruleset: str, chance: str, commands: int | None, seed: int = 7):
    setup = TABLE_SETUP.get(ruleset) or (_chrono_layout() if ruleset == CHRONO else None)
    game = create(client, ruleset, chance=chance,
                  **({"setup": setup} if chance == "table" and setup else {}))
    play(game, random.Random(seed), commands)
    return game


def export(game, auth=None) -> dict:
    response = game.get("/export", auth or ARBITER)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def records(document: dict) -> list[dict]:
    """Every event entry in log order, with the command its batch carries (the first entry)."""
    out = [dict(e, command=None) for e in document["setup"]]
    for c in document["commands"]:
        for i, e in enumerate(c["events"]):
            out.append(dict(e, command={"seat": c["seat"], "body": c["body"]} if i == 0 else None))
    return out


def rechain(document: dict) -> dict:
    """Recompute every hash after an edit, as a forger who knows the format would."""
    previous = document["creation"]["hash"]
    for c in [None] + document["commands"]:
        entries = document["setup"] if c is None else c["events"]
        for i, e in enumerate(entries):
            command = {"seat": c["seat"], "body": c["body"]} if c is not None and i == 0 else None
            e["hash"] = chain.event_hash(previous, e["version"], e["salt"], e["event"], command)
            previous = e["hash"]
    last = ([document["creation"]] + document["setup"] + [e for c in document["commands"] for e in c["events"]])[-1]
    document["version"], document["head_hash"] = last["version"], previous   # and the header, as the chain's
    return document


def tampered(document: dict) -> dict:
    return copy.deepcopy(document)
