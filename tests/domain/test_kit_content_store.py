"""domain/kit's content store keeps only the most recently used contents, so a worker sent
endless distinct custom contents does not keep them all; what it drops is rebuilt from the
content a state holds, so a game plays the same whether or not its content was dropped."""
from __future__ import annotations

import hashlib
import random

import pytest

from domain import kit
from domain.chance import ServerChance
from domain.corsairs import board as corsairs_board
from domain.registry import all_rulesets


def flood_content_store() -> None:
    for i in range(kit.CONTENT_STORE_SIZE + 5):
        kit.remember(kit.content_key({"flood": i}), {"flood": i})


def test_the_store_keeps_only_the_most_recently_used_contents():
    keys = [kit.content_key({"n": i}) for i in range(kit.CONTENT_STORE_SIZE + 10)]
    for i, key in enumerate(keys):
        kit.remember(key, {"n": i})
    assert len(kit._CONTENTS) == kit.CONTENT_STORE_SIZE
    assert kit.content(keys[-1]) == {"n": len(keys) - 1}
    for dropped in keys[:10]:
        with pytest.raises(KeyError):
            kit.content(dropped)


def test_a_content_in_use_is_kept_however_many_others_pass_through():
    kept = kit.content_key({"kept": True})
    kit.remember(kept, {"kept": True})
    for i in range(kit.CONTENT_STORE_SIZE * 3):
        kit.remember(kit.content_key({"passing": i}), {"passing": i})
        assert kit.content(kept) == {"kept": True}  # each use makes it the most recent
    assert len(kit._CONTENTS) == kit.CONTENT_STORE_SIZE


def test_the_first_content_remembered_under_a_key_is_the_one_kept():
    key = kit.content_key({"same": 1})
    first, second = {"same": 1}, {"same": 1}
    kit.remember(key, first)
    kit.remember(key, second)
    assert kit.content(key) is first


def test_remember_state_puts_a_states_content_back():
    state = all_rulesets()["valeria-card-kingdoms"].initial_state()
    state.content, state.content_key = {"mine": True}, kit.content_key({"mine": True})
    kit.remember_state(state)
    flood_content_store()
    with pytest.raises(KeyError):
        kit.content(state.content_key)
    kit.remember_state(state)
    assert kit.content(state.content_key) == {"mine": True}


def play(ruleset, seed: int, commands: int, between=lambda: None) -> list[dict]:
    """Random legal commands from one seed; `between` runs before each command."""
    rng = random.Random(seed)
    chance_seed = hashlib.sha256(b"store-%d" % seed).hexdigest()
    events = ruleset.setup(["A", "B", "C"], None, None, ServerChance(chance_seed, 0), None)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    for _ in range(commands):
        status = ruleset.status(state)
        if status.finished:
            break
        between()
        seat = status.to_move[0]
        new = ruleset.decide(state, seat, rng.choice(ruleset.legal_commands(state, seat)),
                             ServerChance(chance_seed, len(events)))
        for e in new:
            state = ruleset.evolve(state, e)
        events += new
    return events


def test_a_corsairs_game_plays_the_same_when_its_compiled_board_and_content_are_dropped():
    corsairs = all_rulesets()["corsairs-of-valeria"]

    def drop_everything():
        flood_content_store()
        for i in range(corsairs_board._BOARDS.size + 1):
            corsairs_board._BOARDS.setdefault(("flood", i), None)

    quiet = play(corsairs, 3, 150)
    dropped = play(corsairs, 3, 150, between=drop_everything)
    assert len(quiet) > 150 and dropped == quiet


@pytest.mark.parametrize("rid", ["valeria-card-kingdoms", "chrono-corsairs", "tesoros-del-rey-pirata"])
def test_a_state_loaded_after_its_content_was_dropped_plays_on(rid):
    ruleset = all_rulesets()[rid]
    events = play(ruleset, 4, 20)
    state = ruleset.initial_state()
    for e in events:
        state = ruleset.evolve(state, e)
    saved = ruleset.dump_state(state)
    flood_content_store()
    loaded = ruleset.load_state(saved)  # loading remembers the content again
    seat = ruleset.status(loaded).to_move[0]
    assert ruleset.legal_commands(loaded, seat) == ruleset.legal_commands(state, seat)
    assert ruleset.view(loaded, seat) == ruleset.view(state, seat)


def test_the_rulesets_compiled_content_caches_are_bounded():
    # Each distinct custom content compiles into these caches; unbounded, a worker sent many
    # large contents would keep them all (docs/performance.md, worker memory).
    from domain.chrono import effects as chrono_effects, state as chrono_state
    from domain.league import state as league_state
    from domain.tesoros import board as tesoros_board, state as tesoros_state
    from domain.valeria import state as valeria_state

    for cached in (chrono_state._index, tesoros_state._index, tesoros_board._compile,
                   league_state._index, valeria_state._cards, valeria_state._card):
        assert cached.cache_info().maxsize is not None and cached.cache_info().maxsize <= 4096

    class Fake:
        def __init__(self, n):
            self.content_key = f"key-{n}"
            self.content = {"board": {"spots": [{"id": "A"}], "harbor": ["A"], "edges": []}}

    for n in range(chrono_effects.GRAPHS_KEPT * 3):
        chrono_effects.neighbors(Fake(n))
    assert len(chrono_effects._GRAPHS) == chrono_effects.GRAPHS_KEPT
    assert "key-0" not in chrono_effects._GRAPHS and f"key-{n}" in chrono_effects._GRAPHS
