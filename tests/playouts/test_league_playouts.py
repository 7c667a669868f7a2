"""Random playouts of League of Pirates in server-chance mode: invariants after every
event, legal commands agreeing with decide, replay and snapshot round trips."""
from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from domain.league import RULESET as R
from domain.league.state import CREW_SLOTS, ROLE_OF_SLOT
from tests.playouts.harness import check_replay, play


def sailor(rng: random.Random, legal: list[dict]) -> dict:
    """A player who throws sensibly, fills the ship, keeps some points and sets sail."""
    throws = [c for c in legal if c["type"] == "throw_dice"]
    if throws and rng.random() < 0.85:
        return min(throws, key=lambda c: len(c["keep"]))
    if rng.random() < 0.15:
        return rng.choice(legal)
    for wanted in (("set_sail",), ("place_coin", "place_rescued_coin", "enlist"), ("press_gang", "recruit")):
        pref = [c for c in legal if c["type"] in wanted]
        if pref and rng.random() < 0.8:
            return rng.choice(pref)
    pref = [c for c in legal if c["type"] in ("resupply", "raid", "turn_coin", "rescue")]
    return rng.choice(pref or legal)


def random_options(rng: random.Random) -> dict:
    opts = {}
    for name, spec in R.options_schema["properties"].items():
        if rng.random() < 0.75 or name == "points_max":
            continue
        opts[name] = rng.choice(spec["enum"]) if "enum" in spec else rng.choice([True, False])
    return opts


def candidates(rng: random.Random, s) -> list[dict]:
    coins = list(s.coins)
    def coin():
        return rng.choice(coins + ["nope"])
    def slot():
        return rng.choice(list(CREW_SLOTS) + ["brig"])
    return [
        {"type": "choose_league", "league": rng.choice(["blue", "red", "yellow", "green"])},
        {"type": "throw_dice", "keep": rng.sample(range(6), rng.randrange(0, 5))},
        {"type": "stop_throwing"},
        {"type": "press_gang"}, {"type": "recruit"}, {"type": "resupply"}, {"type": "set_sail"},
        {"type": "pass_turn"}, {"type": "return_coins"},
        {"type": "place_coin", "coin": rng.choice((s.pending or {}).get("drawn") or coins), "slot": slot()},
        {"type": "turn_coin", "coin": coin()},
        {"type": "raid", "target": coin(), "raider": coin()},
        {"type": "defend_raid", **({"with": coin()} if rng.random() < 0.7 else {})},
        {"type": "rescue", "prisoner": coin(), "raider": coin()},
        {"type": "choose_rescue_defender", "coin": coin()},
        {"type": "place_rescued_coin", **({"slot": slot()} if rng.random() < 0.7 else {"to_bag": True})},
        {"type": "enlist", "coin": coin(), "slot": slot()},
    ]


def after_event(s, event: dict) -> None:
    coins = s.coins
    places = Counter()
    for x in s.seats:
        places.update(c for c in x.crew.values() if c)
        places.update(c for c in x.brig if c)
        places.update(x.bag)
        assert x.points >= 0, event                                             # LP-I6
        cap = x.crew["captain"]
        if cap is not None:                                                      # LP-I2
            assert coins[cap]["role"] == "captain" and cap not in s.traitors
        for slot, c in x.crew.items():                                           # LP-I3
            assert c is None or coins[c]["role"] == ROLE_OF_SLOT[slot], (slot, c)
        assert len(x.brig) == s.content["brigSlots"]                              # LP-I5
    if s.pending and s.pending.get("kind") == "draw":
        places.update(s.pending["drawn"])
    places.update(s.removed)
    if s.seats[0].crew["captain"] is not None:                                   # LP-I1, after setup
        assert sorted(places) == sorted(coins), event
        assert max(places.values()) == 1, event
    for t in s.traitors:                                                         # LP-I4
        assert any(t in x.crew.values() for x in s.seats) or s.options["traitor_on_capture"] == "keep"
    for c, info in s.captured.items():
        holder = next(i for i, x in enumerate(s.seats) if c in x.brig)
        assert info["from"] == 1 - holder                                        # LP-I5
    ch = s.challenge
    if ch is not None:                                                           # LP-I9
        for i in (0, 1):
            assert ch.throws[i] <= 3
            banked = ch.banked[i]
            assert [ch.dice[i][banked[k]] for k in sorted(banked)] == [int(k) for k in sorted(banked)]
    if event["type"] == "ChallengeResolved" and event["winner"] is not None:     # LP-I10
        sc = event["scores"]
        w = event["winner"]
        assert sc[w] is not None and (sc[1 - w] is None or sc[w] >= sc[1 - w])


def check_end(s) -> None:
    res = s.result
    setter = s.set_sail_by
    assert setter is not None and all(s.seats[setter].crew[sl] is not None for sl in CREW_SLOTS)  # LP-I12
    totals = res["totals"]
    assert totals == [b["total"] for b in res["breakdown"]]
    best = max(totals)
    expected = [i for i in (0, 1) if totals[i] == best]
    assert res["winners"] == (expected if len(expected) == 1 else [setter])


@pytest.mark.parametrize("batch", range(5))
def test_random_games_end_by_setting_sail_with_invariants_holding(batch):
    for game_no in range(batch * 40, batch * 40 + 40):
        rng = random.Random(-game_no)
        s, events = play(R, game_no, ["Anne", "Ben"], random_options(rng), policy=sailor,
                         after_event=after_event)
        check_end(s)
        assert hashlib.sha256(bytes.fromhex(s.seed)).hexdigest() == s.commitment
        check_replay(R, s, events)


@pytest.mark.parametrize("game_no", range(500, 506))
def test_legal_commands_agree_exactly_with_decide(game_no):
    s, _ = play(R, game_no, ["Anne", "Ben"], random_options(random.Random(game_no)), policy=sailor,
                candidates=candidates, agreement=0.3)
    check_end(s)
