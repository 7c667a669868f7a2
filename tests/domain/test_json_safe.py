"""json_safe (domain/adjudication.py) copies a value as a trip through JSON would leave it,
without writing the text: it must give exactly json.loads(json.dumps(value)) for whatever the
rules can produce, and refuse what json.dumps refuses."""
from __future__ import annotations

import json
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.adjudication import json_safe

KEYS = st.one_of(st.text(max_size=4), st.integers(-5, 5), st.booleans(), st.none(),
                 st.floats(allow_nan=False, width=16))
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=6))
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=25)


def same(a, b) -> bool:
    """Equal, with the same types all the way down and the same key order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_json_safe_is_the_trip_through_json(value):
    assert same(json_safe(value), json.loads(json.dumps(value)))


def test_keys_that_meet_once_written_keep_the_last_value_at_the_first_place():
    value = {1: "a", "x": 0, "1": "b", None: "c", "null": "d"}
    assert json.loads(json.dumps(value)) == {"1": "b", "x": 0, "null": "d"}
    assert same(json_safe(value), json.loads(json.dumps(value)))


def test_tuples_become_lists_and_nothing_is_shared_with_the_value():
    value = {"events": ({"type": "Rolled", "dice": (3, 5)},)}
    copied = json_safe(value)
    assert copied == {"events": [{"type": "Rolled", "dice": [3, 5]}]}
    copied["events"][0]["dice"].append(6)
    assert value["events"][0]["dice"] == (3, 5)


def test_subclasses_take_the_trip_as_json_writes_them():
    value = OrderedDict(b=1, a=(2,))
    assert same(json_safe(value), {"b": 1, "a": [2]})


@pytest.mark.parametrize("value", [{(1, 2): 3}, {"a": {1, 2}}, [object()], {"k": b"bytes"}])
def test_what_json_refuses_is_refused(value):
    with pytest.raises(TypeError):
        json.dumps(value)
    with pytest.raises(TypeError):
        json_safe(value)
