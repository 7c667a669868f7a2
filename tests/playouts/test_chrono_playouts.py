"""Random playouts of Chrono Corsairs in server-chance mode: complete games at 2 to 5 players,
invariants after every event, legal commands agreeing with decide, replay and snapshot round trips."""
from __future__ import annotations

import random
from collections import Counter

import jsonschema
import pytest

from domain.chrono import RULESET as R
from domain.chrono.state import CREW, HARBOR, MAT, OFFICERS, TIMES, WATER
from tests.playouts.harness import check_replay, play

GAMES = 201
VALIDATORS = {t: jsonschema.Draft202012Validator(s) for t, s in R.command_schemas.items()}


def schema_checked(policy):
    """The service validates bodies against the command schemas before decide: every legal
    command must pass them (all of them now and then, the one chosen always)."""
    def choose(rng: random.Random, legal: list[dict]) -> dict:
        for c in (legal if rng.random() < 0.05 else []):
            VALIDATORS[c["type"]].validate(c)
        cmd = policy(rng, legal)
        VALIDATORS[cmd["type"]].validate(cmd)
        return cmd
    return choose


def captain(rng: random.Random, legal: list[dict]) -> dict:
    """Mostly performs plans and steps, sometimes forgoes; outfits a little, then stops."""
    kinds = {c["type"]: c for c in legal}
    if "done_outfitting" in kinds and rng.random() < 0.4:
        return kinds["done_outfitting"]
    if "skip_step" in kinds and rng.random() < 0.15:
        return kinds["skip_step"]
    steps = [c for c in legal if c["type"] in ("do_step", "perform_plan", "select_plan", "purchase", "play_artifact")]
    if steps and rng.random() < 0.85:
        return rng.choice(steps)
    return rng.choice(legal)


def candidates(rng: random.Random, s) -> list[dict]:
    places = list(s.content["board"]["resolutionOrder"]) + [HARBOR, WATER, "NOWHERE"]
    cards = list(s.plans) + ["nope"]
    return [
        {"type": "draw_plans"}, {"type": "perform_plan"}, {"type": "forgo_plan"}, {"type": "end_turn"},
        {"type": "skip_step"}, {"type": "do_step"}, {"type": "done_outfitting"},
        {"type": "select_plan", "card": rng.choice(cards), "slot": rng.choice(TIMES + ("NOON",))},
        {"type": "play_artifact", "artifact": rng.choice(list(s.artifacts) + ["x"])},
        {"type": "do_step", "option": rng.randrange(3)},
        {"type": "do_step", "value": rng.choice(["beach", "jungle", "volcano", "cave"])},
        {"type": "do_step", "owner": rng.randrange(len(s.seats)), "kind": rng.choice(["officer", "crew"]),
         "from": rng.choice(places), "to": rng.choice(places)},
        {"type": "do_step", "owner": rng.randrange(len(s.seats)), "kind": rng.choice(["officer", "crew"]),
         "from": rng.choice(places), "to": rng.choice(places), "carry": {"officer": rng.randrange(2), "crew": rng.randrange(4)}},
        {"type": "do_step", "owner": rng.randrange(len(s.seats)), "kind": "crew", "at": rng.choice(places)},
        {"type": "choose_flag", "position": rng.randrange(6)},
        {"type": "purchase", "item": rng.choice(["move_plan", "advance_cube", "recruit", "time_gem", "artifact"]),
         "from": rng.choice(TIMES), "to": rng.choice(TIMES), "track": rng.choice(["stable", "unstable"])},
    ]


class Watch:
    """Invariants after every event (notes B7)."""

    def __init__(self):
        self.storm = None
        self.face_up = {}
        self.unstable_steps = 0
        self.flag = None

    def __call__(self, s, event: dict) -> None:
        self.events(s, event)
        if not s.seats or not s.flag and s.phase != "priority":
            return
        if self.flag is not None and s.flag and s.flag != self.flag:                # CI-11: only Phase 5 moves Flags
            assert s.phase == "priority" and event["type"] == "FlagChosen", event
        self.flag = list(s.flag) if s.flag else self.flag
        for deck in s.decks.values():                                               # CI-20: no unseen order is held
            assert deck["pool"] == sorted(deck["pool"])
        for tok in s.tokens.values():
            assert (tok["id"] is None) == (tok["name"] is None)
        for x in s.seats:
            for kind, total in (("officer", OFFICERS), ("crew", CREW)):          # every piece in exactly one place
                counts = x.pieces[kind]
                assert sum(counts.values()) == total, (event, kind, counts)
                assert all(v > 0 for v in counts.values()), counts
                assert set(counts) <= set(s.spots) | {HARBOR, WATER, MAT}, counts
            assert x.doubloons >= 0 and x.gems >= 0, event                          # never negative
            assert 0 <= x.overflow <= x.pieces["crew"].get(MAT, 0)
            assert x.pieces["crew"].get(MAT, 0) - x.overflow <= 6
            assert all(0 <= x.cubes[t] < len(s.content["shipMat"][t + "Track"]) for t in x.cubes)
        if self.storm is not None:                                                  # the storm only moves forward
            assert s.storm >= self.storm, event
        self.storm = s.storm
        assert s.storm <= len(s.content["vortex"]["stages"]) - 1
        plans = [c for d in ("stable", "unstable") for c in s.decks[d]["pool"] + s.decks[d]["bottom"]]
        plans += [c for x in s.seats for c in x.mat.values() if c] + [c for x in s.seats for c in x.drawn]
        assert sorted(plans) == sorted(s.plans), event                           # CI-3
        arts = s.decks["artifact"]["pool"] + s.decks["artifact"]["bottom"] + [a for x in s.seats for a in x.artifacts]
        arts += [s.artifact_in_play] if s.artifact_in_play else []
        assert sorted(arts) == sorted(s.artifacts), event                        # CI-19
        anomalies = s.anomaly_pool + s.anomaly_discard + ([s.anomaly_top] if s.anomaly_top else [])
        assert sorted(anomalies) == sorted(s.anomalies), event                   # CI-5
        assert len(s.tokens) == 12                                                  # CI-6
        for spot, tok in s.tokens.items():
            if spot in self.face_up:
                assert tok["id"] == self.face_up[spot]
            elif tok["id"]:
                self.face_up[spot] = tok["id"]
                assert s.event_tokens[tok["id"]]["back"] == tok["back"]
        if s.flag:
            assert sorted(s.flag) == list(range(len(s.seats)))                     # CI-11
        if s.phase in ("priority", "outfit"):                                       # CI-16
            for x in s.seats:
                for kind in ("officer", "crew"):
                    assert set(x.pieces[kind]) <= {HARBOR, MAT}, (event, x.pieces)


@pytest.mark.parametrize("batch", range(3))
def test_complete_games_keep_every_invariant(batch):
    rounds = Counter()
    for g in range(batch * GAMES // 3, (batch + 1) * GAMES // 3):
        n = 2 + g % 4
        watch = Watch()
        state, events = play(R, g, [f"P{i}" for i in range(n)], None, policy=schema_checked(captain), candidates=candidates,
                             agreement=0.02 if g % 6 == 0 else 0.0, after_event=watch, max_commands=6000)
        assert state.finished and state.result["winners"]
        rounds[state.round] += 1
        if g % 10 == 0:
            check_replay(R, state, events)
        standings = state.result["standings"]
        best = max(r["total"] for r in standings)
        assert standings[state.result["winners"][0]]["total"] == best
    assert max(rounds) <= 8


def test_games_with_house_rules_finish():
    for g, opts in enumerate([{"initial_flag_order": "seat_order", "max_reward_places": 3},
                              {"final_round_keeps_doubloons": False, "flag_breaks_condition_ties": False},
                              {"artifacts_per_turn": 0, "volcano_min_stage": "RIPPLING"}]):
        players = ["A", "B", "C", "D"] if opts.get("max_reward_places") == 3 else ["A", "B", "C"]   # CP-17
        state, events = play(R, 1000 + g, players, opts, policy=captain, after_event=Watch(), max_commands=6000)
        assert state.finished
        check_replay(R, state, events)


def _events(self, s, event: dict) -> None:
    """Invariants read off single events (notes B7)."""
    from domain.chrono.state import STAGES
    t = event["type"]
    if t == "RoundBegan":
        self.unstable_steps = 0
        if event["round"] > 1:                                                      # CI-10
            assert all(x.doubloons == 0 for x in s.seats)
    elif t == "StormAdvanced" and event["reason"] == "unstable plan revealed":      # CI-8
        self.unstable_steps += 1
        assert self.unstable_steps == 1 and s.unstable_revealed
    elif t == "EventTokenTriggered":                                                # CI-15, CA-15
        assert s.phase == "loop" and s.tokens[event["spot"]]["back"] == TIMES[s.time]
    elif t == "TileEvaluated":                                                      # CI-17, CI-18
        spot, st = event["spot"], STAGES.index(s.content["vortex"]["stages"][s.storm])
        counts = [sum(s.seats[x].pieces[k].get(spot, 0) for k in ("officer", "crew")) for x in event["ranking"]]
        assert all(c > 0 for c in counts) and counts == sorted(counts, reverse=True)
        assert len(event["ranking"]) == sum(1 for x in s.seats if any(x.pieces[k].get(spot, 0) for k in ("officer", "crew")))
        for k, a in enumerate(event["awarded"]):
            assert a["seat"] == event["ranking"][k] and a["place"] == k + 1 and STAGES.index(a["stage"]) == st - k
        places = "first" if spot in ("CTL", "CTR", "CLO") else s.tiles[s.spots[spot]]["places"]
        assert len(event["awarded"]) <= (1 if places == "first" else 4)
        if spot not in ("CTL", "CTR", "CLO") and s.tiles[s.spots[spot]]["terrain"] == "volcano" and st < 1:
            assert event["awarded"] == [] and event["blocked"]


Watch.events = _events
