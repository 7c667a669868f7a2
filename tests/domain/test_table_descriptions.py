"""Issue 17: a companion app at a physical table learns from the rulesets alone what to send.
Every field a table must report (table_inputs) says what it carries, and so does every
property of every command schema (GET /rulesets/{id} serves them)."""
from __future__ import annotations

import re

import pytest

from domain.registry import all_rulesets
from tests.domain.test_host_pool_listing import GAMES, as_table, every_state

RULESETS = all_rulesets()
# Every field a table reports, by ruleset: the random games below reach each of them.
TABLE_FIELDS = {"corsairs-of-valeria": {"faces"}, "league-of-pirates": {"values", "coins", "rolls"},
                "tesoros-del-rey-pirata": {"drawn", "events", "stolen", "maps"},
                "chrono-corsairs": {"plans", "anomaly", "artifacts", "event_tokens"},
                "valeria-card-kingdoms": {"dice", "revealed"}, "crimson-seas": {"dice", "revealed"}}
# Fields that report six-sided dice as numbers (Corsairs' faces and League's skill die are symbols)
DICE_FIELDS = {"dice", "values"}


def table_positions():
    """(ruleset id, ruleset, state, seat) for each seat at every other position of random games of
    every ruleset, played at a table."""
    for k, (rid, *_) in enumerate(GAMES):
        rs = RULESETS[rid]
        for s in as_table(rid, every_state(k)[::2]):
            for seat in range(len(s.seats) if hasattr(s, "seats") else len(s.players)):
                yield rid, rs, s, seat


def undescribed_specs(inputs: dict) -> list[str]:
    """Each table input spec (and each part of a composite one, League's 'rolls') with no description."""
    out = []

    def walk(where: str, spec: dict) -> None:
        if not isinstance(spec.get("description"), str) or len(spec["description"]) < 20:
            out.append(where)
        for key, part in spec.items():
            if isinstance(part, dict) and ("count" in part or "one_of" in part):
                walk(f"{where}.{key}", part)
        for row in spec.get("by_command", []):   # each command's own spec, or its count under this one's
            if not isinstance(row.get("description", spec.get("description")), str):
                out.append(f"{where}.by_command")

    for kind, fields in inputs.items():
        for field, spec in fields.items():
            walk(f"{kind}.{field}", spec)
    return out


def test_every_table_input_of_every_ruleset_says_what_it_carries():
    """At every other position of random games of every ruleset, played at a table: each field
    table_inputs() asks for has a description, and every ruleset's fields are met on the way."""
    seen: dict[str, set] = {}
    for rid, rs, s, seat in table_positions():
        inputs = rs.table_inputs(s, seat)
        assert not undescribed_specs(inputs), (rid, undescribed_specs(inputs), inputs)
        for fields in inputs.values():
            seen.setdefault(rid, set()).update(fields)
            for name in DICE_FIELDS & set(fields):   # a die's faces, machine-readable
                assert all(f in range(1, 7) for f in fields[name]["one_of"]), (rid, name, fields[name])
    assert seen == TABLE_FIELDS


def test_the_walk_would_catch_a_spec_without_a_description():
    described = {"description": "The two dice rolled, each 1 to 6."}
    assert undescribed_specs({"roll_dice": {"dice": {"count": 2, **described}}}) == []
    assert undescribed_specs({"roll_dice": {"dice": {"count": 2}}}) == ["roll_dice.dice"]
    assert undescribed_specs({"defend_raid": {"rolls": {**described, "dice": {"count": 2}}}}) == ["defend_raid.rolls.dice"]


def undescribed_properties(schema, where: str = "") -> list[str]:
    """Every property, at any depth (nested objects, array items, alternatives), without a description."""
    out = []
    if isinstance(schema, dict):
        for name, prop in schema.get("properties", {}).items():
            if not isinstance(prop, dict) or not str(prop.get("description", "")).strip():
                out.append(f"{where}.{name}")
            out += undescribed_properties(prop, f"{where}.{name}")
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                out += undescribed_properties(schema[key], f"{where}[{key}]")
        for key in ("anyOf", "oneOf", "allOf"):
            for i, alt in enumerate(schema.get(key, [])):
                out += undescribed_properties(alt, f"{where}<{key}{i}>")
    return out


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_property_of_every_command_schema_has_a_description(rid):
    rs = RULESETS[rid]
    missing = [f"{kind}{p}" for kind, schema in rs.command_schemas.items() for p in undescribed_properties(schema)]
    assert not missing, missing
    for kind, schema in rs.command_schemas.items():
        assert schema.get("description"), kind


RULING_ID_ONLY = re.compile(r"^\W*[A-Z]{2,3}-[A-Z]?\d+\W*$")


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_creation_option_says_what_it_does_not_only_its_ruling(rid):
    """An app sees GET /rulesets/{id}'s options, not docs/rulings.md: a description that is only
    a ruling id tells it nothing."""
    options = RULESETS[rid].options_schema.get("properties", {})
    bare = {name: o.get("description") for name, o in options.items()
            if not o.get("description") or RULING_ID_ONLY.match(o["description"]) or len(o["description"]) < 20}
    assert not bare, bare


def test_the_option_check_would_catch_a_bare_ruling_id():
    # ids of the form rulings take (docs/rulings.md), made up here so as not to cite real rulings
    assert RULING_ID_ONLY.match("ZZ-A9") and RULING_ID_ONLY.match("ZZZ-A23") and RULING_ID_ONLY.match("ZZ-21")
    assert not RULING_ID_ONLY.match("ZZ-A9: a turn's challenge that ends in a full tie")


def test_the_schema_walk_would_catch_a_nested_property_without_a_description():
    nested = {"type": "object", "properties": {
        "type": {"const": "x", "description": "the command"},
        "steps": {"type": "array", "description": "steps", "items": {
            "type": "object", "properties": {"lane": {"enum": ["L", "R"]}}}}}}
    assert undescribed_properties(nested) == [".steps[items].lane"]


@pytest.mark.parametrize("rid, words", [
    ("valeria-card-kingdoms", ("Domain", "Monster Event", "Citizen", "Victory")),
    ("crimson-seas", ("Domain", "Monster Event", "Citizen", "Victory", "Goods", "Tome", "Noble", "refill"))])
def test_revealed_says_all_it_carries_not_only_domains(rid, words):
    """'revealed' carries whatever rules.Draft.reveal is called for: Domains, a mixed stack's Citizen,
    Monster Events, a Monster taken at random, and with Crimson Seas the islands' refills (Goods, Tomes,
    Nobles). Every command's schema and every table input spec of it says so."""
    rs = RULESETS[rid]
    for kind, schema in rs.command_schemas.items():
        text = schema["properties"]["revealed"]["description"]
        assert all(w in text for w in words), (kind, [w for w in words if w not in text])
    for k in [i for i, g in enumerate(GAMES) if g[0] == rid]:
        options = GAMES[k][1] or {}
        if options.get("variant") == "solo":
            continue   # solo: only Domains are turned up (SOLO_REVEALED)
        states = as_table(rid, every_state(k))
        specs = [spec["revealed"] for s in states for seat in range(len(s.seats))
                 for spec in rs.table_inputs(s, seat).values() if "revealed" in spec]
        assert specs
        s = states[0]
        game_words = ["Domain", "Victory"] + (["Monster Event"] if s.events_on else []) \
            + (["Citizen"] if options.get("variant") == "mixed_citizens" else []) \
            + (["Goods", "Tome", "Noble", "refill"] if s.cs else [])
        for spec in specs:
            assert all(w in spec["description"] for w in game_words), (game_words, spec["description"])


def test_a_table_is_asked_only_for_what_a_legal_command_takes():
    """docs/api.md section 7: table_inputs names the commands that take something, and a
    command it names is one the seat may send now; by_command lists legal commands only. (A
    League seat with no point left was asked for a Press Gang's coin it could not pay for.)"""
    checked: dict[str, int] = {}
    for rid, rs, s, seat in table_positions():
        legal = rs.legal_commands(s, seat)
        kinds = {c["type"] for c in legal}
        for kind, fields in rs.table_inputs(s, seat).items():
            assert kind in kinds, (rid, seat, kind, sorted(kinds))
            checked[rid] = checked.get(rid, 0) + 1
            for field, spec in fields.items():
                for row in spec.get("by_command", []):
                    assert row["command"] in legal, (rid, seat, kind, field, row["command"])
    assert set(checked) == set(TABLE_FIELDS) and min(checked.values()) >= 10, checked
