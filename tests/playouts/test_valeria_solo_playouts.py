"""Random playouts of the Valeria Solo Variant [BR p.16-18] (server chance), a third of them with
the Mixed Citizen Variant too (VP-49): every card in exactly one place (a mixed stack's face-down
Citizens counted among those not in sight) (the Dark Lord and his captures included) and no resource below zero after every event,
the round's phases in order, the endings only as printed, legal commands agreeing with decide and
with the command schemas, the gate refusing as decide does, replay and snapshot round trips, and a
clone sharing nothing with its original."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from domain.chance import ServerChance
from domain.ruleset import Rejected
from domain.valeria import RULESET as R
from domain.valeria.solo import columns, ending, result, targets
from domain.valeria.state import FACE_DOWN, SoloState
from tests.domain.test_skeleton import GATE_CODES
from tests.domain.test_state_clone_isolation import mutate_everything
from tests.playouts.harness import check_replay, play, seed_for
from tests.playouts.test_valeria_playouts import candidates, duke_of_valeria, every_card, places, schema_checker
from tests.playouts.test_valeria_variants_playouts import unseen

PHASES = ["setup", "dukes", "roll", "harvest", "action", "monsters", "second_harvest", "end"]


class SoloChecker:
    """The invariants, after every event."""

    def __init__(self):
        self.turn, self.phases, self.ended = 0, [], None

    def __call__(self, s, event: dict) -> None:
        if event["type"] == "GameSetUp":
            assert isinstance(s, SoloState)
            return
        seen = sorted([c for c in places(s) if c != FACE_DOWN] + unseen(s))
        assert seen == every_card(s), event                                               # one place each
        assert s.dark_lord not in s.duke_pool + s.seats[0].offer + [s.seats[0].duke]      # VP-19
        assert all(s.card(c)["kind"] in ("citizen", "domain") for c in s.captured)
        x = s.seats[0]
        assert min(x.gold, x.strength, x.magic, x.vp) >= 0, (event, x)
        assert len(set(s.exhausted)) == len(s.exhausted) and s.exhausted_pile >= 0
        assert len(s.exhausted_cards) == 2 - s.exhausted_pile                             # [BR p.4] 2 per player
        assert all(s.top(st) is None for st in s.exhausted)
        if event["type"] == "TurnStarted":
            assert (event["seat"], event["turn"]) == (0, self.turn + 1)                   # you roll every round
            self.turn, self.phases = event["turn"], []
        if s.phase not in self.phases:
            self.phases.append(s.phase)
            assert self.phases == [p for p in PHASES if p in self.phases] or s.phase == "over", self.phases
        if event["type"] == "TurnEnded":
            assert ending(s) is None and self.phases[-3:] == ["monsters", "second_harvest", "end"]
        if event["type"] == "GameEnded":
            self.ended = event


def finished_check(s, events) -> None:
    ended = [e for e in events if e["type"] == "GameEnded"]
    assert len(ended) == 1 and ended[0] is events[-1]
    res = s.result
    assert ended[0]["dark_lord"] == s.dark_lord == res["dark_lord"]["duke"]
    if res["reason"] == "column_overrun":     # [BR p.17] a Monster attacked an empty column
        hit = [e for e in events if e["type"] == "MonsterActivated"][-1]
        col = columns(s)[hit["column"] - 1]
        assert all(s.top(st) is None for st in col["citizens"] + [col["domain"]]) and s.top(col["monster"]) is not None
        assert res["winners"] == [] and res["solo"] == "lost"
    else:
        assert res == result(s, ending(s)) and ending(s) == res["reason"]
    assert (res["winners"] == [0]) == (res["solo"] == "won")
    if any(st.startswith("mixed_") for st in s.citizens):   # VP-49: the Dark Lord captured from mixed stacks
        assert all(c not in s.citizen_pool(st) for st in s.citizens for c in s.captured)


def gate_agrees(s, rng) -> None:
    """gate() refuses exactly as decide() does, or lets decide judge the body (tests/domain/test_skeleton.py)."""
    probes = R.legal_commands(s, 0)[:3] + [{"type": k} for k in R.command_schemas] + [{"type": "nope"}]
    for seat in (0, 1):
        for command in probes:
            gated = _answer(lambda: R.gate(s, seat, command))  # noqa: B023
            decided = _answer(lambda: R.decide(s, seat, command, ServerChance(seed_for(0), 1)))  # noqa: B023
            if gated is not None:
                assert gated == decided and gated[0] in GATE_CODES, (seat, command)
            else:
                assert decided is None or decided[0] not in GATE_CODES, (seat, command, decided)


def _answer(call):
    try:
        call()
    except Rejected as r:
        return r.code, str(r.rule), r.detail, r.ruling
    return None


def solo_candidates(rng: random.Random, s) -> list[dict]:
    """The base game's random commands, and Monster activations naming any die, stack and Citizen stack."""
    stacks = list(s.monsters) + list(s.citizens) + ["nope"]
    out = candidates(rng, s)
    for _ in range(6):
        body = {"type": "activate_monster", "die": rng.choice([0, 1, 2, True])}
        for key in ("stack", "citizen"):
            if rng.random() < 0.6:
                body[key] = rng.choice(stacks)
        out.append(body)
    out += [{"type": "harvest", "item": rng.randrange(4), "choice": [rng.choice(["gold", "magic", "strength"])]}]
    return out


def at_rest(s) -> None:
    """Between commands, an activation waiting for the player has a choice (VP-22)."""
    if s.phase == "monsters":
        assert s.attacks and all(len(targets(s, a)) > 1 for a in s.attacks)


def run(game_no: int, agreement: float = 0.0):
    rng = random.Random(-game_no)
    opts = {"variant": "solo" if game_no % 2 else ["solo"], "duke_rounding": rng.choice(["per_type", "pooled"])}
    mixed = game_no % 3 == 0
    if mixed:
        opts["variant"] = ["solo", "mixed_citizens"]
    if rng.random() < 0.5:
        areas = ["hills", "ruins", "forest", "valley", "mountains", "swamp"]
        rng.shuffle(areas)
        opts["monster_areas"] = areas[:5]
    if rng.random() < 0.5 and not mixed:
        opts["citizen_types"] = ["monk", "merchant", "mercenary", "archer", "peasant", "knight", "thief", "champion",
                                 "rogue", "miner"]
    checker = SoloChecker()
    s, events = play(R, game_no, ["Solo"], opts, policy=schema_checker(R) if agreement else duke_of_valeria,
                     candidates=solo_candidates if agreement else None, agreement=agreement, after_event=checker,
                     at_rest=at_rest)
    finished_check(s, events)
    return s, events


@pytest.mark.parametrize("batch", range(4))
def test_random_solo_games_end_as_printed_with_every_card_in_one_place(batch):
    for game_no in range(batch * 20, batch * 20 + 20):
        s, events = run(game_no)
        if game_no % 5 == 0:
            check_replay(R, s, events)


@pytest.mark.parametrize("game_no", range(700, 704))
def test_solo_legal_commands_agree_exactly_with_decide(game_no):
    s, events = run(game_no, agreement=0.3)
    check_replay(R, s, events)


def test_every_ending_turns_up_in_random_games():
    """The endings of [BR p.17] random play reaches, each outcome of the scored one included (slaying
    every Monster before five stacks run out is rare at random: tests/domain/valeria/test_solo_variant.py)."""
    seen = set()
    for game_no in range(200, 480):   # a column overrun comes about once in 140 random games
        s, _ = run(game_no)
        seen.add((s.result["reason"], s.result["solo"]))
        if {("column_overrun", "lost"), ("exhausted_stacks", "lost"), ("exhausted_stacks", "won")} <= seen:
            return
    raise AssertionError(seen)


@pytest.mark.parametrize("variant", ["solo", ["solo", "mixed_citizens"]])
def test_the_gate_the_snapshot_and_the_clone_of_a_solo_game(variant):
    """As tests/domain/test_skeleton.py and test_state_clone_isolation.py check the other games
    (which play two or more players): at every step of a solo game."""
    states = []
    play(R, 5, ["Solo"], {"variant": variant}, policy=duke_of_valeria, at_rest=lambda s: states.append(s.clone()))
    rng = random.Random(5)
    for s in states[::3]:
        gate_agrees(s, rng)
        dumped = R.dump_state(s)
        assert json.dumps(dumped) == json.dumps(dataclasses.asdict(s))
        again = R.load_state(json.loads(json.dumps(dumped)))
        assert isinstance(again, SoloState) and R.dump_state(again) == dumped
        before = json.dumps(dumped, sort_keys=True)
        assert mutate_everything(s.clone(), set()) > 10
        assert json.dumps(R.dump_state(s), sort_keys=True) == before
