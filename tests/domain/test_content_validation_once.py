"""Custom content is validated against its schema once per creation (domain/kit: the service's
check remembers what it found, valid or not; setup() then does not validate it again): nested
content costs seconds."""
from __future__ import annotations

import copy

import jsonschema
import pytest

from domain import kit
from domain.chance import ServerChance
from domain.chrono import RULESET as CHRONO
from domain.ruleset import InvalidCreation


class Counting:
    """A validator that counts the validations asked of it."""

    calls = 0

    def __init__(self, schema: dict):
        self.schema = schema
        self._validator = jsonschema.Draft202012Validator(schema)

    def iter_errors(self, instance):
        type(self).calls += 1
        return self._validator.iter_errors(instance)


def test_the_same_content_is_validated_once_whether_valid_or_not():
    validator = Counting(CHRONO.content_schema)
    content = copy.deepcopy(CHRONO.default_content)
    content["notice"] = "validated once"
    Counting.calls = 0
    assert kit.custom_content_problems(validator, content) == []
    assert kit.custom_content_problems(validator, copy.deepcopy(content)) == []
    assert Counting.calls == 1
    content["notice"] = "another content"
    assert kit.custom_content_problems(validator, content) == []
    assert Counting.calls == 2
    content["notice"] = 7  # invalid: what was found is remembered too
    first = kit.custom_content_problems(validator, content)
    assert first and first[0].startswith("content.notice: ")
    assert kit.custom_content_problems(validator, copy.deepcopy(content)) == first
    assert Counting.calls == 3


@pytest.mark.parametrize("notice", ["checked by the service", 7])
def test_what_the_service_checked_setup_does_not_validate_again(monkeypatch, notice):
    content = copy.deepcopy(CHRONO.default_content)
    content["notice"] = notice
    found = kit.check_custom_content(CHRONO.content_schema, content)
    assert (found == []) == isinstance(notice, str)
    seen = []
    monkeypatch.setattr(kit, "schema_problems", lambda *a, **k: seen.append(a) or [])
    chance = ServerChance("ab" * 32, 0)
    if found:
        with pytest.raises(InvalidCreation) as refused:
            CHRONO.setup(["Ann", "Bo"], None, copy.deepcopy(content), chance, None)
        assert found[0] in refused.value.problems
    else:
        assert CHRONO.setup(["Ann", "Bo"], None, copy.deepcopy(content), chance, None)
    assert not [a for a in seen if a[2] == "content"]


def test_content_with_very_many_problems_is_not_kept():
    validator = Counting(CHRONO.content_schema)
    content = copy.deepcopy(CHRONO.default_content)
    content["tiles"] = [7] * (kit.CHECKED_PROBLEMS_KEPT + 1)  # one problem per item
    Counting.calls = 0
    first = kit.custom_content_problems(validator, content)
    assert len(first) > kit.CHECKED_PROBLEMS_KEPT
    assert kit.custom_content_problems(validator, content) == first
    assert Counting.calls == 2


def test_content_equal_but_for_key_order_gets_its_own_problems():
    """The schema's problems at one path follow the content's key order; a cache keyed by the
    content sorted gave the second order the first one's list, and a golden fingerprint then
    depended on the test run before it."""
    import jsonschema

    from domain import kit

    validator = jsonschema.Draft202012Validator({"type": "object", "propertyNames": {"pattern": "^id"}})
    one, other = {"zeta": 1, "alpha": 2}, {"alpha": 2, "zeta": 1}   # two problems at one path each
    first = kit.custom_content_problems(validator, one)
    second = kit.custom_content_problems(validator, other)
    assert first == kit.schema_problems(validator, one, "content")
    assert second == kit.schema_problems(validator, other, "content") and second != first
