"""Custom content is validated against its schema once per creation (domain/kit: the service's
check marks it valid; setup() then does not validate it again): nested content costs seconds."""
from __future__ import annotations

import copy

import jsonschema

from domain import kit
from domain.chrono import RULESET as CHRONO


class Counting:
    """A validator that counts the validations asked of it."""

    calls = 0

    def __init__(self, schema: dict):
        self.schema = schema
        self._validator = jsonschema.Draft202012Validator(schema)

    def iter_errors(self, instance):
        type(self).calls += 1
        return self._validator.iter_errors(instance)


def test_valid_content_is_validated_once_and_invalid_content_every_time():
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
    content["notice"] = 7  # invalid: never remembered
    assert kit.custom_content_problems(validator, content) and kit.custom_content_problems(validator, content)
    assert Counting.calls == 4


def test_what_the_service_found_valid_setup_does_not_validate_again(monkeypatch):
    content = copy.deepcopy(CHRONO.default_content)
    content["notice"] = "marked by the service"
    kit.mark_valid(CHRONO.content_schema, content)
    seen = []
    monkeypatch.setattr(kit, "schema_problems", lambda *a, **k: seen.append(a) or [])
    assert kit.custom_content_problems(jsonschema.Draft202012Validator(CHRONO.content_schema), content) == []
    assert seen == []
