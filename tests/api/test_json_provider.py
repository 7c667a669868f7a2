"""Answers are written by orjson where that gives Flask's very text (service.JSONProvider):
the same bytes as Flask's own provider for every value, but for a float's exponent (the same
number: 1e-7 for 1e-07). Characters outside printable ASCII, which Flask escapes and orjson
writes as UTF-8, are escaped after orjson as Flask escapes them; Flask's encoder answers what
orjson refuses (integers past 64 bits, keys that are not strings, deep nesting, lone
surrogates)."""
from __future__ import annotations

import dataclasses
import datetime
import json
import uuid
from decimal import Decimal

import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from hypothesis import given, settings
from hypothesis import strategies as st

from service import JSONProvider

COMPACT = {"separators": (",", ":")}


@pytest.fixture(scope="module")
def providers():
    ours, flasks = Flask("ours"), Flask("flasks")
    ours.json = JSONProvider(ours)
    flasks.json = DefaultJSONProvider(flasks)
    flasks.json.sort_keys = False
    return ours.json, flasks.json


def exponent_free(value) -> bool:
    return "e" not in repr(value) and "n" not in repr(value)  # no 1e-07, inf or nan


TEXT = st.one_of(st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=8),  # controls, DEL, Latin
                 st.text(max_size=8))     # the whole of Unicode: CJK, astral planes (surrogate pairs), no lone surrogates
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                   st.floats().filter(exponent_free), TEXT)
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(TEXT, inner, max_size=4)), max_leaves=25)


@settings(max_examples=500, deadline=None)
@given(VALUES)
def test_the_same_text_as_flasks_own_provider(providers, value):
    ours, flasks = providers
    assert ours.dumps(value, **COMPACT) == flasks.dumps(value, **COMPACT)


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_is_written_as_the_same_number(providers, number):
    ours, flasks = providers
    assert json.loads(ours.dumps([number], **COMPACT)) == json.loads(flasks.dumps([number], **COMPACT))


@dataclasses.dataclass
class Seat:
    name: str
    seat: int


@pytest.mark.parametrize("value", [
    {"name": "Zoë", "seat": 0},                       # escaped by Flask (ensure_ascii), and after orjson
    {"Jäger": ["海賊", "🏴\u200d☠️", "\U0010ffff"]},      # non-ASCII keys, the BMP and past it
    {"lone": "\ud800"},                               # a lone surrogate: orjson refuses it
    {"text": "tab\there, DEL \x7f"},                  # DEL: escaped by Flask, not by orjson
    {"big": 2**64 + 1},                               # past orjson's 64 bits
    {1: "a"},                                         # a key that is not a string
    {"at": datetime.datetime(2026, 12, 3, 12, 0, tzinfo=datetime.UTC)},  # Flask's HTTP date
    {"day": datetime.date(2026, 12, 3)},
    {"id": uuid.UUID(int=7)},
    {"seat": Seat("Ana", 1)},
    {"price": Decimal("1.50")},
    {"deep": json.loads("[" * 300 + "]" * 300)},      # past orjson's nesting
])
def test_what_orjson_would_write_otherwise_is_flasks(providers, value):
    ours, flasks = providers
    assert ours.dumps(value, **COMPACT) == flasks.dumps(value, **COMPACT)


def test_what_neither_can_write_is_refused_alike(providers):
    ours, flasks = providers
    for provider in (ours, flasks):
        with pytest.raises(TypeError):
            provider.dumps({"a": {1, 2}}, **COMPACT)


def test_other_arguments_are_flasks_own(providers):
    ours, flasks = providers
    value = {"b": [1, 2], "a": "x"}
    assert ours.dumps(value) == flasks.dumps(value) == '{"b": [1, 2], "a": "x"}'
    assert ours.dumps(value, indent=2) == flasks.dumps(value, indent=2)


def test_the_service_answers_through_it(client):
    assert isinstance(client.application.json, JSONProvider)
    answer = client.get("/rulesets")
    assert answer.status_code == 200
    assert answer.data.endswith(b"\n") and answer.data.isascii()


def test_an_answer_with_an_accent_is_written_by_orjson_not_by_flasks_encoder(providers, monkeypatch):
    """A Corsairs captain named Jäger put a third of a game's command answers through Flask's
    encoder, at several times orjson's cost: they are escaped after orjson now."""
    ours, flasks = providers
    from flask.json.provider import DefaultJSONProvider as Default

    monkeypatch.setattr(Default, "dumps", lambda *a, **k: pytest.fail("answered by Flask's encoder"))
    value = {"captains": [{"id": "JAGER", "name": "Jäger Knot"}], "seat": "Zoë \x7f"}
    assert ours.dumps(value, **COMPACT) == json.dumps(value, separators=(",", ":"))
