"""TM-2: the host's view (ARBITER) lists what every face-down pool still holds, as counts by
printed id, never the order, and the ids a table report may name from each; nobody else's
view has either.

The expected pools are written here from each state's fields (not read from view.py), at
several points of random games of every ruleset, served and at a table (what each game lists:
TP-15, CP-18, VP-46). A twin whose pools hold the same cards in another order gives every viewer
the same view."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from domain.registry import all_rulesets
from domain.ruleset import ARBITER
from domain.valeria import CRIMSON_SEAS
from domain.valeria import RULESET as VALERIA
from tests.domain.valeria.test_mixed_hidden import at_table
from tests.playouts.harness import play
from tests.playouts.test_chrono_playouts import captain
from tests.playouts.test_tesoros_playouts import captain as pirate
from tests.playouts.test_valeria_playouts import duke_of_valeria

RULESETS = all_rulesets()


def _copies(ids) -> Counter:
    return Counter(c.split("#")[0] for c in ids)


def expected_pools(rid: str, s) -> dict[str, Counter]:
    """Each face-down pool's cards, from the state, by printed id."""
    if rid == "corsairs-of-valeria":
        return {}
    if rid == "league-of-pirates":
        return {f"homeport_bag_{i}": Counter(x.bag) for i, x in enumerate(s.seats)}
    if rid == "tesoros-del-rey-pirata":
        return {"play_deck": Counter(s.deck + ([s.deck_top] if s.deck_top else [])),
                "events_under_anchor": Counter(s.events_left), "map_deck": Counter(s.map_deck)}
    if rid == "chrono-corsairs":
        if not s.decks:
            return {}
        out = {f"{name}": Counter(s.decks[deck]["pool"] + s.decks[deck]["bottom"])
               for name, deck in (("stable_plans", "stable"), ("unstable_plans", "unstable"), ("artifacts", "artifact"))}
        out["anomalies"] = Counter(s.anomaly_pool)
        face_up = {t["id"] for t in s.tokens.values() if t["id"] is not None}
        for t in s.content["eventTokens"]:
            if t["id"] not in face_up:
                out.setdefault(f"event_tokens_{t['back'].lower()}", Counter())[t["id"]] += 1
        return out
    out = {"domains": Counter(s.domain_pool), "dukes": Counter(s.duke_pool)}
    if s.cs:
        out.update(goods_supply=_copies(s.goods_supply), tome_supply=_copies(s.tome_supply),
                   noble_deck=Counter(s.noble_deck))
    if s.events_on:
        out["monster_events"] = Counter(s.event_pool)
    return out


def reorder(rid: str, s, rng: random.Random):
    """A twin: every pool holds the same cards in another order (a bag, a deck, a supply)."""
    t = s.clone()

    def mix(pile: list) -> None:
        before = list(pile)
        rng.shuffle(pile)
        if pile == before:
            pile.reverse()

    if rid == "league-of-pirates":
        for x in t.seats:
            mix(x.bag)
    elif rid == "tesoros-del-rey-pirata":
        for pile in (t.deck, t.events_left, t.map_deck):
            mix(pile)
    elif rid == "chrono-corsairs":
        for deck in t.decks.values():
            mix(deck["pool"])
            mix(deck["bottom"])
        mix(t.anomaly_pool)
    elif rid in ("valeria-card-kingdoms", "crimson-seas"):
        for pile in (t.domain_pool, t.duke_pool, t.goods_supply, t.tome_supply, t.noble_deck, t.event_pool):
            mix(pile)
    return t


# (ruleset, options, players, game): random games, states at rest sampled along the way
GAMES = [("corsairs-of-valeria", None, 3, 1), ("league-of-pirates", None, 2, 2),
         ("tesoros-del-rey-pirata", None, 3, 3), ("tesoros-del-rey-pirata", {"chaos_on_the_high_seas": True}, 4, 4),
         ("chrono-corsairs", None, 3, 5), ("valeria-card-kingdoms", None, 3, 6),
         ("valeria-card-kingdoms", {"variant": "mixed_citizens", "expansions": ["monster_events"]}, 2, 7),
         ("valeria-card-kingdoms", {"variant": "solo"}, 1, 8), ("crimson-seas", None, 3, 9)]
POLICY = {"chrono-corsairs": captain, "valeria-card-kingdoms": duke_of_valeria, "crimson-seas": duke_of_valeria}
_PLAYED: dict = {}


def every_state(k: int) -> list:
    """Every state at rest of game k's first 600 commands."""
    if k not in _PLAYED:
        rid, options, players, game = GAMES[k]
        states: list = []
        policy = POLICY.get(rid)
        if rid == "tesoros-del-rey-pirata":   # sails for the open Maps, so Treasures are claimed
            policy = lambda rng, legal: pirate(rng, legal, states[-1] if states else None)  # noqa: E731
        play(RULESETS[rid], game, [f"P{i}" for i in range(players)], options, policy=policy,
             at_rest=lambda s: states.append(s.clone()), max_commands=600, to_the_end=False)
        _PLAYED[k] = states
    return _PLAYED[k]


def served(k: int) -> list:
    """About 9 states spread over game k."""
    states = every_state(k)
    return states[::max(1, len(states) // 8)] + states[-1:]


def as_table(rid: str, states: list) -> list:
    """The same positions in a table-chance game (a snapshot round trip, the chance mode the table's)."""
    rs = RULESETS[rid]
    out = []
    for s in states:
        t = rs.load_state(json.loads(json.dumps(rs.dump_state(s))))
        t.chance_mode = "table"
        out.append(t)
    return out


def check_listing(rid: str, s) -> None:
    rs = RULESETS[rid]
    host = rs.view(s, ARBITER)
    want = expected_pools(rid, s)
    assert set(host["pools"]) == set(want), (set(host["pools"]), set(want))
    for name, counts in want.items():
        assert Counter(host["pools"][name]) == counts, name
        assert all(n > 0 for n in host["pools"][name].values())
    for name, ids in host["nameable"].items():
        assert ids == sorted(set(ids))
        if name in host["pools"]:   # what may be named is still in the pool
            may = set(host["pools"][name])
            if rid == "tesoros-del-rey-pirata" and name == "play_deck" and not s.deck and s.deck_top is None:
                # TP-16: the Anchor comes first: the pile it shuffles onto it (below)
                may = set(s.discard) | {c for x in s.seats for c in [*x.hand, x.equipped] if c}
            assert {c.split("#")[0] for c in ids} <= may, name
    if rid == "tesoros-del-rey-pirata":
        # TP-16: the pile the Anchor shuffles onto it may hold the discard pile and what hands and
        # equipped slots may lose to it in the same command; offered for the next card when the
        # deck is spent, else for those after the Anchor when a command can go past it
        reshuffled = sorted(set(s.discard) | {c for x in s.seats for c in [*x.hand, x.equipped] if c})
        spent = not s.deck and s.deck_top is None
        assert (host["nameable"]["play_deck"] == reshuffled) == spent or not reshuffled
        if "play_deck_after_anchor" in host["nameable"]:
            assert host["nameable"]["play_deck_after_anchor"] == reshuffled and not spent
    for viewer in (*range(len(s.seats) if hasattr(s, "seats") else len(s.players)), None):
        seen = rs.view(s, viewer)
        assert "pools" not in seen and "nameable" not in seen


@pytest.mark.parametrize("k", range(len(GAMES)), ids=[f"{g[0]}-{g[3]}" for g in GAMES])
def test_the_host_view_counts_what_each_face_down_pool_holds_in_both_chance_modes(k):
    rid = GAMES[k][0]
    states = served(k)
    for s in states + as_table(rid, states):
        check_listing(rid, s)


@pytest.mark.parametrize("k", range(len(GAMES)), ids=[f"{g[0]}-{g[3]}" for g in GAMES])
def test_no_view_changes_when_only_the_order_of_a_pool_changes(k):
    rid = GAMES[k][0]
    rs = RULESETS[rid]
    rng = random.Random(k)
    for s in served(k):
        twin = reorder(rid, s, rng)
        n = len(s.seats) if hasattr(s, "seats") else len(s.players)
        for viewer in (*range(n), None, ARBITER):
            assert rs.view(s, viewer) == rs.view(twin, viewer), viewer


def test_the_comparison_would_catch_a_listing_in_pool_order():
    """The twin test has teeth: a listing that kept the pool's order would be told apart."""
    states = served(5)
    s = next(x for x in states if len(x.domain_pool) > 1)
    twin = reorder("valeria-card-kingdoms", s, random.Random(0))
    assert list(s.domain_pool) != list(twin.domain_pool)
    assert sorted(s.domain_pool) == sorted(twin.domain_pool)


@pytest.mark.parametrize("rs, options, game", [(VALERIA, {"variant": "mixed_citizens", "expansions": ["monster_events"]}, 11),
                                               (CRIMSON_SEAS, {"variant": "mixed_citizens"}, 13)],
                         ids=["valeria-mixed-events", "crimson-seas-mixed"])
def test_games_played_at_a_table_list_their_pools_for_the_host(rs, options, game):
    """Games at a table (dice and what is turned up reported): the listing holds at every point,
    and each supply's copy ids are nameable, while a mixed stack lists only Citizen types (VP-40, VP-46)."""
    states = at_table(rs, options, game, 3)
    for s in states[::5] + states[-1:]:
        check_listing(rs.id, s)
        named = rs.view(s, ARBITER)["nameable"]
        if s.cs:
            assert named["goods_supply"] == sorted(s.goods_supply)
            assert named["tome_supply"] == sorted(s.tome_supply)
        for stack in [st for st in s.citizens if st.startswith("mixed_") and "face_down" in s.citizens[st]]:
            assert named[stack] == sorted({c.split("#")[0] for c in s.citizen_pool(stack)})
            assert all("#" not in c for c in named[stack])
