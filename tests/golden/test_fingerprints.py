"""The rules answer exactly as they did when tests/golden/fingerprints.json was written (issue 14:
a refactor that changes no behaviour). See tests/golden/fingerprint.py for what is recorded."""
from __future__ import annotations

import json

import pytest

from domain.registry import all_rulesets
from domain.ruleset import Rejected
from tests.golden.fingerprint import FILE, PLAYERS, fingerprint

RECORDED = json.loads(FILE.read_text())


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_the_rules_answer_as_recorded(key):
    ruleset_id, game = key.split("/")
    assert fingerprint(all_rulesets()[ruleset_id], int(game), PLAYERS[ruleset_id]) == RECORDED[key], (
        f"{key}: the rules answer differently than when tests/golden/fingerprints.json was written")


def test_every_ruleset_is_fingerprinted():
    assert {k.split("/")[0] for k in RECORDED} == set(all_rulesets()) == set(PLAYERS)


class _Reworded:
    """A ruleset whose refusals say one word more: the fingerprint must notice."""

    def __init__(self, ruleset):
        self._ruleset = ruleset

    def __getattr__(self, name):
        return getattr(self._ruleset, name)

    def decide(self, state, seat, command, chance):
        try:
            return self._ruleset.decide(state, seat, command, chance)
        except Rejected as r:
            raise Rejected(r.code, r.rule, r.detail + " Really.", r.ruling) from None


def test_a_changed_refusal_changes_the_fingerprint():
    league = all_rulesets()["league-of-pirates"]
    assert fingerprint(_Reworded(league), 0, 2) != RECORDED["league-of-pirates/0"]
