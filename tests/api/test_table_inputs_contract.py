"""The contract types what legal-commands' table_inputs carries (TABLE_INPUT_SPEC in
openapi.yaml), so a generated client can read it: every spec every ruleset gives, at every other
position of random table games, is valid against that schema."""
from __future__ import annotations

import jsonschema

from service.api.legal_commands import TABLE_INPUT_SPEC
from tests.domain.test_table_descriptions import table_positions


def test_every_table_input_spec_is_valid_against_the_contracts_schema():
    validator = jsonschema.Draft202012Validator(TABLE_INPUT_SPEC)
    keys: set[str] = set()
    for rid, rs, s, seat in table_positions():
        for kind, fields in rs.table_inputs(s, seat).items():
            for field, spec in fields.items():
                errors = [e.message for e in validator.iter_errors(spec)]
                assert not errors, (rid, kind, field, errors, spec)
                keys |= set(spec)
    # every key met is one the schema names, but League's two nested specs under 'rolls'
    assert keys - set(TABLE_INPUT_SPEC["properties"]) == {"skills", "dice"}, keys


def test_the_schema_would_refuse_a_spec_without_a_description_or_with_a_count_of_another_type():
    validator = jsonschema.Draft202012Validator(TABLE_INPUT_SPEC)
    assert not list(validator.iter_errors({"count": 2, "description": "The two dice rolled."}))
    assert list(validator.iter_errors({"count": 2}))
    assert list(validator.iter_errors({"count": [2], "description": "The two dice rolled."}))
