"""Each ruleset's setup() answers exactly as it did when tests/golden/setup_fingerprints.json was
written (issue 14: a refactor that changes no behaviour): the same events, key order included,
the same draws from a seed, and the same refusals in the same order. See
tests/golden/setup_fingerprint.py for what is recorded."""
from __future__ import annotations

import json

import pytest

from domain.registry import all_rulesets
from domain.ruleset import InvalidCreation
from tests.golden.setup_fingerprint import FILE, fingerprint

RECORDED = json.loads(FILE.read_text())


@pytest.mark.parametrize("ruleset_id", sorted(RECORDED))
def test_setup_answers_as_recorded(ruleset_id):
    assert fingerprint(all_rulesets()[ruleset_id]) == RECORDED[ruleset_id], (
        f"{ruleset_id}: setup() answers differently than when tests/golden/setup_fingerprints.json was written")


def test_every_ruleset_is_fingerprinted():
    assert set(RECORDED) == set(all_rulesets())


class _Reordered:
    """A ruleset that lists a refusal's problems in the opposite order: the fingerprint must notice."""

    def __init__(self, ruleset):
        self._ruleset = ruleset

    def __getattr__(self, name):
        return getattr(self._ruleset, name)

    def setup(self, *args):
        try:
            return self._ruleset.setup(*args)
        except InvalidCreation as e:
            raise InvalidCreation(e.problems[::-1]) from None


def test_a_reordered_refusal_changes_the_fingerprint():
    league = all_rulesets()["league-of-pirates"]
    assert fingerprint(_Reordered(league)) != RECORDED["league-of-pirates"]
