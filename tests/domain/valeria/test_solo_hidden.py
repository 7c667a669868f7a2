"""The Dark Lord's Duke is hidden from the seat until the game is scored [BR p.16 'randomly place
one Duke face down above the Monster stacks'; p.17 'After counting your points, reveal the face of
the Dark Lord'] (VP-19): solo games, served and at a table, stopped at many points; there the seat
is answered alike (view, legal commands, table inputs, refusals and whole dry runs, in both chance
modes) in the game and in a twin whose Dark Lord this file changes by its own hand
(tests/playouts/leaks.py), never by ruleset.redeal."""
from __future__ import annotations

import json
import random

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import ARBITER
from domain.valeria import RULESET as R
from tests.playouts.harness import play, seed_for
from tests.playouts.leaks import SEEDS, assert_same_for, dry_run, no_redeal, seen_by
from tests.playouts.test_valeria_playouts import duke_of_valeria, every_card, places

MODES = ("server", "table")
SOLO = {"variant": "solo"}


def served(game_no: int) -> list:
    states = []
    play(R, game_no, ["Solo"], SOLO, policy=duke_of_valeria, at_rest=lambda s: states.append(s.clone()))
    return states


def at_table(game_no: int) -> list:
    """Every state at rest of a solo game at a table that reports what a server would have drawn."""
    rng = random.Random(game_no)
    c = R.default_content
    dukes = rng.sample(sorted(d["id"] for d in c["dukes"]), 3)
    setup = {"domains": rng.sample(sorted(d["id"] for d in c["domains"]), 5), "dukes": [dukes[:2]], "first_player": 0,
             "dark_lord": dukes[2]}
    events = R.setup(["Solo"], SOLO, None, TableChance(), setup)
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    states = []
    while not s.finished:
        cmd = dict(duke_of_valeria(rng, R.legal_commands(s, 0)))
        outcome = R.decide(s, 0, cmd, ServerChance(seed_for(game_no), len(events)))
        dice = [e["dice"] for e in outcome if e["type"] == "DiceRolled"]
        revealed = [e["card"] for e in outcome if e["type"] == "DomainRevealed"]
        new = R.decide(s, 0, {**cmd, **({"dice": dice[0]} if dice else {}), **({"revealed": revealed} if revealed else {})},
                       TableChance())
        for e in new:
            s = R.evolve(s, e)
        events += new
        states.append(s.clone())
        assert len(states) < 3000
    return states


_PLAYED: dict = {}


def game(how: str, game_no: int) -> list:
    if (how, game_no) not in _PLAYED:
        _PLAYED[how, game_no] = (served if how == "served" else at_table)(game_no)
    return _PLAYED[how, game_no]


def points(states: list, n: int = 5) -> list:
    """About n states over the game, the last before the end (its command scores the Dark Lord), the end."""
    chosen = states[::max(1, len(states) // n)] + states[-2:]
    return list({id(s): s for s in chosen}.values())


def twin(state, rng: random.Random):
    """The state with another Dark Lord: one of the Dukes nobody holds (the seat's two are its own)."""
    d = R.dump_state(state)
    if d["finished"]:
        return R.load_state(d)   # revealed at the end
    others = [k for k in d["duke_pool"] if k not in d["seats"][0]["offer"]]
    other = rng.choice(others)
    d["duke_pool"] = sorted([k for k in d["duke_pool"] if k != other] + [d["dark_lord"]])
    d["dark_lord"] = other
    return R.load_state(d)


def probes(state) -> list[dict]:
    dukes = [d["id"] for d in state.content["dukes"]]
    out = [{"type": t} for t in R.command_schemas] + [{"type": "keep_duke", "duke": k} for k in dukes]
    out += [{"type": "activate_monster", "die": 0, "stack": st} for st in state.monsters]
    out += [{"type": "build", "stack": "domain_1", "revealed": [d["id"]]} for d in state.content["domains"][:2]]
    return out


@pytest.mark.parametrize("how, game_no", [("served", 3), ("served", 8), ("table", 11)])
def test_the_seat_is_answered_alike_whatever_the_dark_lord(how, game_no):
    rng = random.Random(game_no)
    for s in points(game(how, game_no)):
        other = twin(s, rng)
        assert other.dark_lord != s.dark_lord or s.finished
        for mode in MODES:
            assert_same_for(R, s, other, 0, probes(s), mode)


def test_the_comparison_would_catch_a_dry_run_on_the_real_dark_lord():
    """The test above has teeth: decided on the real state (no re-deal), the dry run of the command that
    ends the game scores the real Dark Lord, and the seat tells the twins apart, in both modes."""
    for how, game_no in (("served", 3), ("table", 11)):
        last = game(how, game_no)[-2]
        rng = random.Random(1)
        for mode in MODES:
            leaky = [seen_by(R, x, 0, [], mode, seeds=SEEDS[:1], redeal=no_redeal) for x in (last, twin(last, rng))]
            assert leaky[0] != leaky[1], (how, mode)


def test_the_dark_lord_is_nowhere_in_what_the_seat_reads_before_the_end():
    for how, game_no in (("served", 3), ("table", 11)):
        states = game(how, game_no)
        for s in points(states, 8)[:-1]:
            dark = s.dark_lord
            assert dark not in json.dumps(R.view(s, 0)) and dark not in json.dumps(R.view(s, None))
            assert dark not in json.dumps(R.legal_commands(s, 0)) + json.dumps(R.table_inputs(s, 0))
            assert R.view(s, ARBITER)["dark_lord"]["duke"] == dark
        end = states[-1]
        assert end.finished and R.view(end, 0)["dark_lord"]["duke"] == end.dark_lord == end.result["dark_lord"]["duke"]


def test_the_dark_lord_placed_is_redacted_for_the_seat_and_a_spectator():
    events = R.setup(["Solo"], SOLO, None, ServerChance(seed_for(4), 0), None)
    placed = next(e for e in events if e["type"] == "DarkLordPlaced")
    assert R.redact(placed, 0) == R.redact(placed, None) == {"type": "DarkLordPlaced"}
    assert placed["duke"] not in json.dumps([R.redact(e, 0) for e in events if e["type"] != "GameSetUp"])


def test_redeal_deals_the_dark_lord_again_from_what_the_seat_cannot_see():
    states = game("served", 8)
    varied = 0
    for s in points(states, 8)[:-1]:
        mine = {s.seats[0].duke, *s.seats[0].offer} - {None}
        for seed in SEEDS:
            imagined = R.redeal(s, 0, ServerChance(seed, 9))
            assert R.view(imagined, 0) == R.view(s, 0) and R.legal_commands(imagined, 0) == R.legal_commands(s, 0)
            assert places(imagined) == every_card(imagined) and imagined.dark_lord not in mine
            varied += imagined.dark_lord != s.dark_lord
    assert varied


def test_a_dry_run_of_the_last_command_scores_an_imagined_dark_lord():
    """The answer scores some Dark Lord the seat cannot rule out, drawn from the dry run's seed: with
    three seeds, not always the real one (deterministic: the seeds are fixed)."""
    last = game("served", 3)[-2]
    ending = [c for c in R.legal_commands(last, 0)
              if R.decide(last, 0, c, ServerChance(SEEDS[2], 9))[-1]["type"] == "GameEnded"]
    seen = set()
    for seed in SEEDS:
        answer = dry_run(R, last, 0, ending[0], seed, "server")
        assert answer["status"][0] and answer["events"][-1]["type"] == "GameEnded"
        seen.add(answer["events"][-1]["dark_lord"])
    assert seen - {last.dark_lord} and not seen & {last.seats[0].duke}
