"""Compiled forms of a game's content (boards, card and part indexes) are kept in small LRU
caches keyed by the content's fingerprint, so a worker sent endless distinct custom contents
keeps only the last few. What a cache drops is rebuilt from the content the state holds, never
from a shared store that another request thread could have emptied meanwhile: a game plays
the same whether or not its compiled forms were dropped."""
from __future__ import annotations

import pytest

from domain import kit
from domain.chrono import effects as chrono_effects
from domain.chrono import state as chrono_state
from domain.corsairs import board as corsairs_board
from domain.league import state as league_state
from domain.registry import all_rulesets
from domain.tesoros import board as tesoros_board
from domain.tesoros import state as tesoros_state
from domain.valeria import state as valeria_state
from tests.playouts import harness

CACHES = [corsairs_board._BOARDS, chrono_state._INDEXES, tesoros_state._INDEXES,
          tesoros_board._BOARDS, league_state._INDEXES, valeria_state._CARDS]


def drop_every_compiled_form() -> None:
    for cache in CACHES:
        for i in range(cache.size + 1):
            cache.setdefault(("flood", i), None)
    chrono_effects._GRAPHS.clear()


def test_an_lru_keeps_only_the_most_recently_used():
    cache = kit.LRU(3)
    for i in range(10):
        cache.setdefault(i, str(i))
    assert len(cache) == 3 and 9 in cache and 0 not in cache
    cache.get(7)  # now the most recent
    cache.setdefault(10, "10")
    assert 7 in cache and 8 not in cache


def test_the_first_value_kept_under_a_key_stays():
    cache = kit.LRU(3)
    first, second = {"same": 1}, {"same": 1}
    assert cache.setdefault("k", first) is first
    assert cache.setdefault("k", second) is first
    assert cache.get_or_build("k", lambda: second) is first


def play(ruleset, seed: int, commands: int, between=None) -> list[dict]:
    """Random legal commands from one seed; `between` runs before each command's decide()."""
    players = ["A", "B", "C"][:min(3, ruleset.max_players)]
    _, events = harness.play(ruleset, seed, players, None, max_commands=commands,
                             before_command=between, to_the_end=False)
    return events


@pytest.mark.parametrize("rid", sorted(all_rulesets()))
def test_a_game_plays_the_same_when_its_compiled_forms_are_dropped_before_every_command(rid):
    ruleset = all_rulesets()[rid]
    quiet = play(ruleset, 3, 120)
    dropped = play(ruleset, 3, 120, between=drop_every_compiled_form)
    assert len(quiet) > 20 and dropped == quiet


@pytest.mark.parametrize("rid", sorted(all_rulesets()))
def test_a_state_loaded_after_its_compiled_forms_were_dropped_plays_on(rid):
    ruleset = all_rulesets()[rid]
    events = play(ruleset, 4, 20)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    saved = ruleset.dump_state(state)
    drop_every_compiled_form()
    loaded = ruleset.load_state(saved)
    seat = ruleset.status(loaded).to_move[0]
    assert ruleset.legal_commands(loaded, seat) == ruleset.legal_commands(state, seat)
    assert ruleset.view(loaded, seat) == ruleset.view(state, seat)


def test_the_compiled_content_caches_are_bounded():
    # Each distinct custom content compiles into these caches; unbounded, a worker sent many
    # large contents would keep them all (docs/performance.md, worker memory).
    assert all(cache.size <= 512 for cache in CACHES)

    class Fake:
        def __init__(self, n):
            self.content_key = f"key-{n}"
            self.content = {"board": {"spots": [{"id": "A"}], "harbor": ["A"], "edges": []}}

    for n in range(chrono_effects.GRAPHS_KEPT * 3):
        chrono_effects.neighbors(Fake(n))
    assert len(chrono_effects._GRAPHS) == chrono_effects.GRAPHS_KEPT
    assert "key-0" not in chrono_effects._GRAPHS and f"key-{n}" in chrono_effects._GRAPHS
