"""A client's own Chrono Corsairs content with a wrong amount or flag anywhere in an effect is
refused at creation with every problem listed (a 422), never accepted to fail mid-game."""
import copy

import pytest

from domain.chance import ServerChance
from domain.chrono import RULESET as R
from domain.ruleset import InvalidCreation


def scalar_paths(x, path=()):
    if isinstance(x, dict):
        for k, v in x.items():
            if isinstance(v, (bool, int)) and k != "printed":
                yield path + (k,)
            yield from scalar_paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from scalar_paths(v, path + (i,))


PATHS = list(scalar_paths(R.default_content))


def test_the_reference_content_has_amounts_and_flags_to_break():
    assert len(PATHS) > 200


@pytest.mark.parametrize("path", PATHS[::7], ids=lambda p: ".".join(map(str, p)))
def test_a_non_number_or_non_flag_anywhere_is_refused_naming_where(path):
    content = copy.deepcopy(R.default_content)
    node = content
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = "lots"
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B", "C"], None, content, ServerChance("ab" * 32, 0), None)
    assert any(str(path[-1]) in p for p in info.value.problems), info.value.problems


def _first_modify(x):
    if isinstance(x, dict):
        if x.get("op") == "modify":
            return x
        for v in x.values():
            found = _first_modify(v)
            if found is not None:
                return found
    elif isinstance(x, list):
        for v in x:
            found = _first_modify(v)
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("param", [{"a": 1}, ["priceGem"], None, 3])
def test_a_modify_whose_param_is_not_a_name_is_refused_not_a_crash(param):
    content = copy.deepcopy(R.default_content)
    modify = _first_modify(content)
    assert modify is not None, "the reference content has a modify effect"
    modify["param"] = param
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B", "C"], None, content, ServerChance("ab" * 32, 0), None)
    assert any("param" in p for p in info.value.problems), info.value.problems
