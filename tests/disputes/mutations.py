"""Random edits of a real export, for property tests: delete, replace or duplicate any value
in it, with arbitrary JSON."""
from __future__ import annotations

import copy

from hypothesis import strategies as st

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.sampled_from(["DiceRolled", "GameEnded", "roll_dice", "server", "table", "arbiter", "host", "",
                       "a" * 64, "0" * 32, "parley-export/1"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(
        ["type", "seat", "version", "event", "events", "body", "rolled", "dice", "name", "x"]) | st.text(max_size=6),
        children, max_size=4),
    max_leaves=12)

# What the rules read, not the envelope: a path into one of these is an edit of the contents.
CONTENTS = {"event", "body", "options", "content", "table_setup"}

# (where among the candidate paths, 0 to 1; what to do; the value it puts there)
MUTATION = st.tuples(st.floats(min_value=0, max_value=1, exclude_max=True),
                     st.sampled_from(["replace", "replace", "delete", "duplicate"]), JSON_VALUES)


def paths(value, prefix=()):
    """Every path to a value inside a JSON document (the root is ())."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from paths(child, prefix + (i,))


def in_envelope(path) -> bool:
    return not any(key in CONTENTS for key in path[:-1])


def mutated(document, mutations, envelope_only: bool = False):
    """The document with each mutation applied in turn (the original is left alone)."""
    document = copy.deepcopy(document)
    for where, action, value in mutations:
        candidates = list(paths(document))
        if envelope_only:
            candidates = [p for p in candidates if in_envelope(p)]
        document = _apply(document, candidates[int(where * len(candidates))], action, value)
    return document


def _apply(document, path, action: str, value):
    if not path:
        return value if action == "replace" else document
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if action == "delete":
        del parent[key]
    elif action == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    else:
        parent[key] = value
    return document
