"""One result shape for every ruleset (domain/kit/results.py): reason, winners, a ranking of
every seat with shared ranks for ties, the tie-breaks applied, the game's own sheet in details."""
from __future__ import annotations

import pytest

from domain import kit
from domain.registry import all_rulesets
from tests.playouts.harness import play
from tests.playouts.test_league_playouts import sailor


def test_ranks_are_shared_by_equals_and_winners_are_first():
    result = {"reason": "over", "winners": [2], "tie_breaks": ["total"], "totals": [5, 7, 9, 5, 1]}
    merit = {0: (5, 0), 1: (7, 0), 2: (9, 0), 3: (5, 0), 4: (1, 0)}
    out = kit.ranked(result, {i: t for i, t in enumerate(result["totals"])}, merit)
    assert [(r["seat"], r["rank"], r["score"]) for r in out["ranking"]] == [(2, 1, 9), (1, 2, 7), (0, 3, 5), (3, 3, 5),
                                                                            (4, 5, 1)]
    assert out["details"] == {"totals": [5, 7, 9, 5, 1]} and out["tie_breaks"] == ["total"]
    assert out["totals"] == [5, 7, 9, 5, 1]  # the old key, deprecated, still there


def test_a_tie_broken_for_the_win_ranks_the_winner_alone_and_a_shared_win_shares_rank_one():
    broken = kit.ranked({"reason": "r", "winners": [1], "tie_breaks": ["set_sail"]}, {0: 4, 1: 4}, {0: (4,), 1: (4,)})
    assert [(r["seat"], r["rank"]) for r in broken["ranking"]] == [(1, 1), (0, 2)]
    shared = kit.ranked({"reason": "r", "winners": [0, 2]}, {0: 3, 1: 1, 2: 3}, {0: (3,), 1: (1,), 2: (3,)})
    assert [(r["seat"], r["rank"]) for r in shared["ranking"]] == [(0, 1), (2, 1), (1, 3)]


def test_names_are_added_for_the_caller():
    out = kit.named(kit.ranked({"reason": "r", "winners": [1]}, {0: 1, 1: 2}, {0: (1,), 1: (2,)}), ["Ann", "Bo"])
    assert out["ranking"] == [{"seat": 1, "name": "Bo", "rank": 1, "score": 2},
                              {"seat": 0, "name": "Ann", "rank": 2, "score": 1}]


def finished(ruleset, n: int):
    for game in range(8):
        policy = (lambda rng, legal: sailor(rng, legal)) if ruleset.id == "league-of-pirates" else None
        try:
            state, _ = play(ruleset, game, [f"P{i}" for i in range(n)], None, policy=policy, max_commands=8000)
        except AssertionError:
            continue
        return ruleset.status(state).result
    pytest.fail(f"no {ruleset.id} game ended")


@pytest.mark.parametrize("ruleset", list(all_rulesets().values()), ids=lambda r: r.id)
def test_every_ruleset_ends_with_the_one_shape(ruleset):
    n = min(3, ruleset.max_players)
    result = finished(ruleset, n)
    assert set(kit.results.SHAPE) <= set(result)
    ranking = result["ranking"]
    assert sorted(r["seat"] for r in ranking) == list(range(n))
    assert {r["seat"] for r in ranking if r["rank"] == 1} == set(result["winners"])
    assert [r["rank"] for r in ranking] == sorted(r["rank"] for r in ranking)
    for r in ranking:
        assert r["rank"] == 1 or r["rank"] == 1 + sum(1 for o in ranking if o["rank"] < r["rank"])
        assert isinstance(r["score"], int | float)
    assert isinstance(result["details"], dict) and result["details"]
