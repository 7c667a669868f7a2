"""One result shape for every ruleset (domain/kit/results.py): reason, winners, a ranking of
every seat with shared ranks for ties, the tie-breaks applied, the game's own sheet in details."""
from __future__ import annotations

import importlib
import re

import pytest

from domain import kit
from domain.registry import all_rulesets
from tests.playouts.harness import play
from tests.playouts.test_league_playouts import sailor


def test_ranks_are_shared_by_equals_and_winners_are_first():
    result = {"reason": "over", "winners": [2], "tie_breaks": ["total"], "totals": [5, 7, 9, 5, 1]}
    merit = {0: (5, 0), 1: (7, 0), 2: (9, 0), 3: (5, 0), 4: (1, 0)}
    out = kit.ranked(result, {i: t for i, t in enumerate(result["totals"])}, merit, [])
    assert [(r["seat"], r["rank"], r["score"]) for r in out["ranking"]] == [(2, 1, 9), (1, 2, 7), (0, 3, 5), (3, 3, 5),
                                                                            (4, 5, 1)]
    assert out["details"] == {"totals": [5, 7, 9, 5, 1]} and out["tie_breaks"] == []
    assert out["totals"] == [5, 7, 9, 5, 1]  # the old key, deprecated, still there


def test_a_tie_broken_for_the_win_ranks_the_winner_alone_and_a_shared_win_shares_rank_one():
    broken = kit.ranked({"reason": "r", "winners": [1]}, {0: 4, 1: 4}, {0: (4,), 1: (4,)}, ["set_sail"])
    assert [(r["seat"], r["rank"]) for r in broken["ranking"]] == [(1, 1), (0, 2)]
    shared = kit.ranked({"reason": "r", "winners": [0, 2]}, {0: 3, 1: 1, 2: 3}, {0: (3,), 1: (1,), 2: (3,)}, ["shared"])
    assert [(r["seat"], r["rank"]) for r in shared["ranking"]] == [(0, 1), (2, 1), (1, 3)]


def test_names_are_added_for_the_caller():
    out = kit.named(kit.ranked({"reason": "r", "winners": [1]}, {0: 1, 1: 2}, {0: (1,), 1: (2,)}, []), ["Ann", "Bo"])
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
    assert re.fullmatch(r"[a-z0-9_]+", result["reason"]), result["reason"]   # one word, as docs/api.md says
    ranking = result["ranking"]
    assert sorted(r["seat"] for r in ranking) == list(range(n))
    assert {r["seat"] for r in ranking if r["rank"] == 1} == set(result["winners"])
    assert [r["rank"] for r in ranking] == sorted(r["rank"] for r in ranking)
    for r in ranking:
        assert r["rank"] == 1 or r["rank"] == 1 + sum(1 for o in ranking if o["rank"] < r["rank"])
        assert isinstance(r["score"], int | float)
    assert isinstance(result["details"], dict) and result["details"]
    assert all(isinstance(t, str) for t in result["tie_breaks"])
    best = [r["seat"] for r in ranking if r["score"] == max(o["score"] for o in ranking)]
    if len(best) == 1 and best == result["winners"] and not result["reason"].startswith("sudden_death"):
        assert result["tie_breaks"] == []   # nothing was tied for the win
    if len(best) > 1:
        assert result["tie_breaks"]


def _corsairs(tie_breaks, reason="second_reach"):
    return {"reason": reason, "winners": [0], "tie_breaks": tie_breaks,
            "standings": [{"seat": 0, "treasure": 3, "silver": 5, "grog": 1}, {"seat": 1, "treasure": 3, "silver": 2, "grog": 4}]}


def _chrono(tie_breaks):
    return {"reason": "storm collapsed", "winners": [1], "tie_breaks": tie_breaks,
            "standings": [{"seat": 0, "total": 7, "flag": 1}, {"seat": 1, "total": 7, "flag": 0}]}


def _valeria(tie_breaks, winners):
    return {"reason": "end_conditions", "winners": winners, "totals": [30, 30], "cards": [12, 12 if len(winners) > 1 else 14],
            "tie_breaks": tie_breaks}


FEWEST = [{"rule": "BR p.8 fewest cards in the tableau", "cards": {"0": 12, "1": 14}}]

# (ruleset, the stored GameEnded result, the tie-breaks applied to decide the winners)
STORED = [
    ("corsairs-of-valeria", _corsairs(["treasure"]), []),
    ("corsairs-of-valeria", _corsairs(["treasure", "silver"]), ["silver"]),
    ("corsairs-of-valeria", _corsairs(["treasure", "silver", "grog", "shared"]), ["silver", "grog", "shared"]),
    ("corsairs-of-valeria", _corsairs([], "sixth_treasure"), []),
    ("chrono-corsairs", _chrono(["total"]), []),
    ("chrono-corsairs", _chrono(["total", "flag"]), ["flag"]),
    ("league-of-pirates", {"reason": "set_sail", "winners": [0], "totals": [60, 51], "tie_breaks": ["total"]}, []),
    ("league-of-pirates", {"reason": "set_sail", "winners": [1], "totals": [40, 40], "tie_breaks": ["total", "set_sail"]},
     ["set_sail"]),
    ("tesoros-del-rey-pirata", {"reason": "last_treasure", "winners": [0], "totals": [9, 4], "tie_breaks": []}, []),
    ("tesoros-del-rey-pirata", {"reason": "sudden_death", "winners": [1], "totals": [9, 10], "tie_breaks": []},
     ["sudden_death"]),
    ("tesoros-del-rey-pirata", {"reason": "sudden_death_limit", "winners": [0, 1], "totals": [9, 9],
                                "tie_breaks": ["shared_after_sudden_death_limit"]},
     ["sudden_death", "shared_after_sudden_death_limit"]),
    ("valeria-card-kingdoms", _valeria([], [0]), []),
    ("valeria-card-kingdoms", _valeria(FEWEST, [0]), ["fewest_cards_in_tableau"]),
    ("valeria-card-kingdoms", _valeria(FEWEST, [0, 1]), ["fewest_cards_in_tableau", "shared"]),
]


MODULES = {"corsairs-of-valeria": "domain.corsairs", "chrono-corsairs": "domain.chrono", "league-of-pirates": "domain.league",
           "tesoros-del-rey-pirata": "domain.tesoros", "valeria-card-kingdoms": "domain.valeria"}


@pytest.mark.parametrize("ruleset_id, stored, applied", STORED)
def test_tie_breaks_name_only_those_applied_to_decide_the_winners(ruleset_id, stored, applied):
    """Stored GameEnded results keep their own tie_breaks (which may name the score itself, or
    carry objects); the one shape lists the tie-breaks applied, as words."""
    result = importlib.import_module(MODULES[ruleset_id]).result(stored)
    assert result["tie_breaks"] == applied
    assert result["reason"] == stored["reason"].replace(" ", "_")   # Chrono's stored "storm collapsed"
    assert result["winners"] == stored["winners"]
