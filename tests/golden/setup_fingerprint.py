"""A fingerprint of what each ruleset's setup() answers, for refactors that must change no behaviour.

tests/golden/fingerprint.py follows seeded games from their default setup; this one covers
creation itself: for each ruleset, every player count from 1 to 6 with each option value (and
some invalid ones), under server chance, at a table reporting what the server would have drawn,
at a table saying nothing and at a table reporting it wrongly; and custom contents made from the
reference content by seeded mutations (most keep its shape, so they pass the schema and reach
the game's own content check). It records the events (their JSON text: key order included) or
the refusal's problems, in order. tests/golden/setup_fingerprints.json holds the hashes.

Refresh it (only when a change of behaviour is intended, and say so in the commit):
    .venv/bin/python -m tests.golden.setup_fingerprint --write
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from pathlib import Path

from domain.chance import ServerChance, TableChance
from domain.registry import all_rulesets
from domain.ruleset import InvalidCreation

FILE = Path(__file__).with_name("setup_fingerprints.json")
SEED = hashlib.sha256(b"golden-setup").hexdigest()
SHAPED, ANY = 40, 15   # custom contents per ruleset: shape-keeping mutations, any mutations


def _answer(ruleset, players, options, content, chance, table_setup) -> list:
    try:
        return ["events", ruleset.setup(players, copy.deepcopy(options), content, chance, copy.deepcopy(table_setup))]
    except InvalidCreation as e:
        return ["refused", e.problems]


def _option_values(schema: dict) -> list:
    out = [None, {}, {"no_such_option": 1}]
    for k, spec in schema["properties"].items():
        out += [{k: v} for v in spec.get("enum", [])]
        if spec.get("type") == "boolean":
            out += [{k: True}, {k: False}]
        if "minimum" in spec:
            out += [{k: spec["minimum"]}, {k: spec["minimum"] - 1}, {k: spec["maximum"]}]
        out.append({k: "bogus"})
    return out


def _table_setup(events: list) -> dict | None:
    """What a table reports when it dealt what the server drew (read back from the events)."""
    by = {e["type"]: e for e in events}
    if "CaptainsDealt" in by:
        return {"captains": by["CaptainsDealt"]["captains"], "track": by["RaceTrackBuilt"]["slots"]}
    if "CardsDealt" in by:
        under = by["EventsPlacedUnderAnchor"]
        t = {"hands": by["CardsDealt"]["hands"], "maps": by["MapsRevealed"]["maps"]}
        t |= {"events": under["events"]} if under["out_of_game"] else {}
        t |= {"face_up_event": under["face_up"]} if under["face_up"] else {}
        if "DrawOffRevealed" in by:
            t["draw_off"] = [x["card"] for x in by["DrawOffRevealed"]["cards"]]
        return t
    if "BoardSetUp" in by:
        b, spots = by["BoardSetUp"], events[0]["content"]["board"]["spots"]
        region = {sp["id"]: sp["region"] for sp in spots}
        t = {k: [b["tiles"][s] for s in b["tiles"] if region[s] == r]
             for k, r in (("interior", "interior"), ("exterior", "exterior"), ("caves", "cave"))}
        t |= {"sides": list(b["sides"].values()), "token_backs": list(b["token_backs"].values()),
              "anomaly": [b["anomaly"]]}
        return t if events[0]["options"]["initial_flag_order"] == "seat_order" else t | {"flag": b["flag"]}
    if "CenterLaidOut" in by:
        t = {"domains": list(by["CenterLaidOut"]["domains"].values()), "dukes": by["DukesDealt"]["offers"],
             "first_player": by["FirstPlayerChosen"]["seat"]}
        if "IslandsLaidOut" in by:
            t |= {k: by["IslandsLaidOut"][k] for k in ("araby", "nae_aerie", "amarynth")}
        return t
    return None


def _wrong(rng: random.Random, t: dict) -> dict:
    """A table setup with one part dropped, shortened or repeated."""
    t = copy.deepcopy(t)
    key = rng.choice(sorted(t))
    if rng.random() < 0.3:
        del t[key]
    elif isinstance(t[key], list) and t[key]:
        t[key] = t[key][1:] if rng.random() < 0.5 else t[key] + t[key][:1]
    else:
        t[key] = "bogus"
    return t


def _paths(x, prefix=()):
    yield prefix
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    for k, v in items:
        yield from _paths(v, prefix + (k,))


def _at(x, path):
    for p in path:
        x = x[p]
    return x


def _mutated(rng: random.Random, content: dict, shaped: bool) -> dict:
    """The content with one or two changes: a value taken from a sibling of the same name, a list
    item dropped or repeated (shaped); or anything replaced by anything (not shaped)."""
    x = copy.deepcopy(content)
    for _ in range(rng.choice([1, 1, 2])):
        path = rng.choice([p for p in _paths(x) if p])
        parent, key = _at(x, path[:-1]), path[-1]
        v = parent[key]
        if not shaped:
            parent[key] = rng.choice([None, "x", 0, -1, 3, [], {}, True])
        elif isinstance(v, list) and v and rng.random() < 0.5:
            v.pop(rng.randrange(len(v)))
        elif isinstance(v, list) and v:
            v.append(copy.deepcopy(rng.choice(v)))
        elif isinstance(v, bool):
            parent[key] = not v
        elif isinstance(v, int):
            parent[key] = v + rng.choice([-1, 1])
        else:
            same = [p for p in _paths(x) if p and p != path and p[-1] == key]
            if same:
                parent[key] = copy.deepcopy(_at(x, rng.choice(same)))
    return x


def fingerprint(ruleset) -> str:
    rng = random.Random(f"setup-{ruleset.id}")
    out = hashlib.sha256()

    def line(*parts):
        out.update(json.dumps(parts, default=str).encode() + b"\n")

    for n in range(1, 7):
        players = [f"P{i}" for i in range(n)]
        for options in _option_values(ruleset.options_schema):
            served = _answer(ruleset, players, options, None, ServerChance(SEED, 0), None)
            line("server", n, options, served)
            line("table, none", n, options, _answer(ruleset, players, options, None, TableChance(), None))
            table = _table_setup(served[1]) if served[0] == "events" else None
            if table is None:
                continue
            line("table", n, options, _answer(ruleset, players, options, None, TableChance(), table))
            line("table, seat", n, options, _answer(ruleset, players, options, None, TableChance("seat"), table))
            line("server, table", n, options, _answer(ruleset, players, options, None, ServerChance(SEED, 0), table))
            wrong = _wrong(rng, table)
            line("table, wrong", n, options, wrong, _answer(ruleset, players, options, None, TableChance(), wrong))
    players = ["P0", "P1"] if ruleset.id == "league-of-pirates" else ["P0", "P1", "P2"]
    for k in range(SHAPED + ANY):
        content = _mutated(rng, ruleset.default_content, shaped=k < SHAPED)
        answer = _answer(ruleset, players, None, content, ServerChance(SEED, 0), None)
        if answer[0] == "events":   # the content is in the event: its hash is enough
            answer = ["events", hashlib.sha256(json.dumps(answer[1]).encode()).hexdigest()]
        line("content", k, answer)
    return out.hexdigest()


def main(argv: list[str]) -> None:
    found = {rid: fingerprint(r) for rid, r in sorted(all_rulesets().items())}
    if "--write" in argv:
        FILE.write_text(json.dumps(found, indent=2, sort_keys=True) + "\n")
    print(json.dumps(found, indent=2, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
