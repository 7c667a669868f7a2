"""A dry run tells a seat nothing about what it cannot see (issue 13): the Dukes of the other
players [BR p.5, p.15], the Dukes nobody holds, and which face-down Domain, Goods, Tome, Noble
or Monster Event turns up next (VP-1). Random games in both rulesets, served and at a table,
are stopped at many points; there each seat must be answered alike (view, legal commands,
table inputs, refusals, and whole dry runs) in the real game and in a twin whose hidden parts
this file changes by its own hand, never by ruleset.redeal (tests/playouts/leaks.py)."""
from __future__ import annotations

import json
import random

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import Rejected
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from tests.domain.valeria.table import SeasTable, Table
from tests.playouts.harness import play, seed_for
from tests.playouts.leaks import SEEDS, assert_same_for, dry_run, no_redeal, seen_by
from tests.playouts.test_valeria_playouts import NAMES, duke_of_valeria, every_card, places

MODES = ("server", "table")
ORDERLESS = ("domain_pool", "goods_supply", "tome_supply", "noble_deck", "event_pool")


# ---------------------------------------------------------------- games stopped at many points

def served(rs, game_no: int, players: int) -> list:
    """Every state at rest of a random served game (the harness checks legal commands, replay)."""
    states = []
    play(rs, game_no, NAMES[:players], {}, policy=duke_of_valeria, at_rest=lambda s: states.append(s.clone()))
    return states


def at_table(rs, game_no: int, players: int) -> list:
    """Every state at rest of a random game played at a table: the table sets up, rolls and turns
    cards up as a server would have (its choices are sent in 'dice' and 'revealed')."""
    rng = random.Random(game_no)
    c = rs.default_content
    dukes = rng.sample(sorted(d["id"] for d in c["dukes"]), 2 * players)
    setup = {"domains": rng.sample(sorted(d["id"] for d in c["domains"]), 5),
             "dukes": [dukes[2 * i:2 * i + 2] for i in range(players)], "first_player": rng.randrange(players)}
    if rs is CS:
        x = c["crimson_seas"]
        setup["araby"] = rng.sample([f"{g}#{k}" for g in x["goods"]["types"] for k in range(1, x["goods"]["per_type"] + 1)], 3)
        setup["nae_aerie"] = rng.sample([f"tome_{r}#{k}" for r, n in x["tomes"]["counts"].items() for k in range(1, n + 1)], 3)
        setup["amarynth"] = rng.sample([n["id"] for n in x["nobles"]], 3)
    events = rs.setup(NAMES[:players], {}, None, TableChance(), setup)
    s = rs.initial_state()
    for e in events:
        s = rs.evolve(s, e)
    states = []
    while not s.finished:
        seat = rng.choice(rs.status(s).to_move)
        cmd = dict(duke_of_valeria(rng, rs.legal_commands(s, seat)))
        outcome = rs.decide(s, seat, cmd, ServerChance(seed_for(game_no), len(events)))
        dice = [e["dice"] for e in outcome if e["type"] == "DiceRolled"]
        revealed = [x for e in outcome for x in ([e["card"]] if e["type"] in ("DomainRevealed", "EventRevealed", "MonsterTaken")
                                                 else e["drawn"] if e["type"] == "IslandRefreshed" else [])]
        new = rs.decide(s, seat, {**cmd, **({"dice": dice[0]} if dice else {}), **({"revealed": revealed} if revealed else {})},
                        TableChance())
        for e in new:
            s = rs.evolve(s, e)
        events += new
        states.append(s.clone())
        assert len(states) < 5000
    return states


GAMES = [(R, served, 3, 2), (R, served, 7, 5), (R, at_table, 11, 3), (CS, served, 5, 4), (CS, at_table, 13, 2)]
IDS = ["base-served-2", "base-served-5", "base-table-3", "seas-served-4", "seas-table-2"]
_PLAYED: dict = {}


def game(k: int) -> tuple:
    if k not in _PLAYED:
        rs, how, game_no, players = GAMES[k]
        _PLAYED[k] = (rs, how(rs, game_no, players))
    return _PLAYED[k]


def points(states: list, n: int) -> list:
    """About n states spread over the game, the last before the end (its next command ends the
    game and scores every Duke) and the finished game."""
    chosen = states[::max(1, len(states) // n)] + states[-2:]
    return list({id(s): s for s in chosen}.values())


# ---------------------------------------------------------------- twins, made by this file

def twin(rs, state, seat, rng: random.Random, orders: bool = True):
    """The state with what `seat` cannot see changed: the Dukes the other players were dealt or
    kept, and those nobody holds, shuffled among them (each player keeps how many it holds, and
    what some other player holds changes); in a solo game the Dark Lord swapped for a Duke nobody
    holds; with `orders`, the order of every face-down pool
    shuffled too (it has none, VP-1)."""
    d = rs.dump_state(state)
    if d["finished"]:
        return rs.load_state(d)   # every Duke is revealed when the game is scored
    others = [d["seats"][i] for i in range(len(d["seats"])) if i != seat]
    held = [x["offer"] + ([x["duke"]] if x["duke"] else []) for x in others]
    hidden = list(d["duke_pool"]) + [c for h in held for c in h]
    while True:
        rng.shuffle(hidden)
        dealt = iter(hidden)
        new = [[next(dealt) for _ in h] for h in held]
        if [sorted(h) for h in new] != [sorted(h) for h in held] or not any(held):
            break
    for x, h in zip(others, new, strict=False):
        x["offer"] = sorted(h[:len(x["offer"])])
        if x["duke"]:
            x["duke"] = h[-1]
    d["duke_pool"] = sorted(dealt)
    if d.get("dark_lord") is not None and d["duke_pool"]:   # solo: the Dark Lord is a face-down Duke (VP-19)
        k = rng.randrange(len(d["duke_pool"]))
        d["dark_lord"], d["duke_pool"][k] = d["duke_pool"][k], d["dark_lord"]
        d["duke_pool"] = sorted(d["duke_pool"])
    if orders:
        for name in ORDERLESS:
            rng.shuffle(d[name])
    return rs.load_state(d)


def probes(state) -> list[dict]:
    """Every kind of command, and commands naming Dukes and face-down cards (from the content
    and the public board only: the same list for the twin); every Duke while they are kept."""
    c = state.content
    dukes = [d["id"] for d in c["dukes"]]
    out = [{"type": t} for t in CS.command_schemas]
    out += [{"type": "keep_duke", "duke": d} for d in (dukes if state.phase == "dukes" else dukes[:2])]
    out += [{"type": "build", "stack": "domain_1"}, {"type": "harvest", "item": 1}]
    out += [{"type": "build", "stack": "domain_2", "revealed": [d["id"]]} for d in c["domains"][:2]]
    events = c.get("crimson_seas", {}).get("monster_events", [])
    out += [{"type": "slay", "stack": next(iter(state.monsters)), "revealed": [e["id"] for e in events[:1]]}]
    out += [{"type": "sail", "island": "araby", "slots": [0]}, {"type": "sail", "island": "amarynth", "slot": 0, "resource": "gold"}]
    return out


@pytest.mark.parametrize("k", range(len(GAMES)), ids=IDS)
def test_every_seat_is_answered_alike_whatever_it_cannot_see(k):
    """[BR p.5] 'Each player keeps their Duke secret from the other players until the end of the
    game'; VP-1: face-down cards have no order. Each seat, at many points of a game, in both
    chance modes: the same answers in the game and in its twin, dry runs included."""
    rs, states = game(k)
    rng = random.Random(k)
    for s in points(states, 4):
        probe = probes(s)
        for seat in range(len(s.seats)):
            other = twin(rs, s, seat, rng)
            for mode in MODES:
                assert_same_for(rs, s, other, seat, probe, mode)


def test_the_comparison_would_catch_a_dry_run_decided_on_the_real_dukes():
    """The test above has teeth: with the dry run decided on the real state (no re-deal), in every
    game and in both chance modes, some seat tells the game from a twin that differs only in
    the other players' Dukes (the last turn's dry runs score them)."""
    for k in range(len(GAMES)):
        rs, states = game(k)
        rng = random.Random(k)
        caught = set()
        for s in reversed(points(states, 4)):
            for seat in range(len(s.seats)):
                other = twin(rs, s, seat, rng, orders=False)
                for mode in set(MODES) - caught:
                    leaky = [seen_by(rs, x, seat, [], mode, seeds=SEEDS[:1], redeal=no_redeal) for x in (s, other)]
                    if leaky[0] != leaky[1]:
                        caught.add(mode)
            if caught == set(MODES):
                break
        assert caught == set(MODES), (IDS[k], caught)


# ---------------------------------------------------------------- redeal itself

def hidden_dukes(state, seat) -> str:
    return json.dumps([[x.offer, x.duke] for i, x in enumerate(state.seats) if i != seat] + [state.duke_pool])


@pytest.mark.parametrize("k", range(len(GAMES)), ids=IDS)
def test_redeal_deals_again_only_what_the_seat_cannot_see(k):
    """At many points, for each seat: the re-deal is a function of what the seat sees and the
    fresh seed (deterministic, the same for the twin), leaves the seat's view, legal commands
    and table inputs alone, does not touch the game, gives a state the rules could reach
    (every card in one place), deals the other Dukes differently for other seeds, and every
    legal command is decided on it without a crash."""
    rs, states = game(k)
    rng = random.Random(100 + k)
    varied = 0
    for s in points(states, 8):
        before = json.dumps(rs.dump_state(s), sort_keys=True)
        for seat in range(len(s.seats)):
            fresh = [ServerChance(seed, 9) for seed in SEEDS]
            imagined = rs.redeal(s, seat, ServerChance(SEEDS[0], 9))
            dumped = rs.dump_state(imagined)
            assert dumped == rs.dump_state(rs.redeal(s, seat, ServerChance(SEEDS[0], 9)))          # deterministic
            assert dumped == rs.dump_state(rs.redeal(twin(rs, s, seat, rng), seat, ServerChance(SEEDS[0], 9)))
            assert rs.view(imagined, seat) == rs.view(s, seat)
            assert rs.legal_commands(imagined, seat) == rs.legal_commands(s, seat)
            assert rs.table_inputs(imagined, seat) == rs.table_inputs(s, seat)
            assert places(imagined) == every_card(imagined)
            assert all(getattr(imagined, p) == sorted(getattr(imagined, p)) for p in ORDERLESS + ("duke_pool",))
            assert len({hidden_dukes(imagined, seat)} | {hidden_dukes(rs.redeal(s, seat, f), seat) for f in fresh}) > 1 \
                or s.finished
            varied += hidden_dukes(imagined, seat) != hidden_dukes(s, seat)
            for cmd in rs.legal_commands(s, seat):
                if s.chance_mode == "server":
                    assert rs.decide(imagined, seat, cmd, ServerChance(SEEDS[1], 9)), cmd
                else:
                    try:
                        assert rs.decide(imagined, seat, cmd, TableChance("seat")), cmd
                    except Rejected as r:
                        assert r.code in ("TABLE_OUTCOME_REQUIRED", "TABLE_OUTCOME_FROM_HOST"), r
        assert json.dumps(rs.dump_state(s), sort_keys=True) == before                                # not mutated
    assert varied


def test_a_finished_game_hides_nothing_and_is_not_redealt():
    rs, states = game(0)
    end = states[-1]
    assert end.finished
    assert rs.dump_state(rs.redeal(end, 1, ServerChance(SEEDS[0], 9))) == rs.dump_state(end)


# ---------------------------------------------------------------- the example

A = [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"]]
B = [["duke_iris", "duke_jory"], ["duke_cora", "duke_dara"]]


def last_action(table, dukes):
    """Two players; the end is met (4 exhausted stacks) and seat 1 has one action left: the
    next one ends the game and scores every Duke [BR p.8]."""
    t = table(dukes=dukes)
    t.state.exhausted = ["a", "b", "c", "d"]
    t.to_actions()
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    t.to_actions()
    t.do(1, {"type": "gain_resource", "resource": "gold"})
    return t


@pytest.mark.parametrize("table", [Table, SeasTable], ids=["base", "crimson-seas"])
def test_a_dry_run_of_the_last_action_does_not_show_the_other_players_duke(table):
    """[BR p.5] 'Each player keeps their Duke secret from the other players until the end of the
    game.' Given seat 0 kept the Duke of Ash in one game and the Duke of Iris in another, all
    else alike, and seat 1's next action ends the game, when seat 1 dry-runs it, then the answer
    scores some Duke for seat 0, one that seat 1 cannot rule out, and it is byte for byte the
    same in both games; only the real command reveals seat 0's Duke."""
    gain = {"type": "gain_resource", "resource": "gold"}
    rs = table.ruleset
    a, b = last_action(table, A), last_action(table, B)
    assert (a.state.seats[0].duke, b.state.seats[0].duke) == ("duke_ash", "duke_iris")
    imagined = set()
    for seed in SEEDS:
        for mode in MODES:
            answer = dry_run(rs, a.state, 1, gain, seed, mode)
            assert answer == dry_run(rs, b.state, 1, gain, seed, mode)
            ended = answer["events"][-1]
            assert ended["type"] == "GameEnded" and answer["status"][0]
            assert ended["seed"] is None  # the throwaway seed is not the game's (DR-1)
            assert ended["dukes"][1] == "duke_cora"                    # its own Duke is its own
            assert ended["dukes"][0] != "duke_cora"                    # any other it cannot rule out
            imagined.add(ended["dukes"][0])
    assert len(imagined) > 1
    # what the issue saw: decided on the real state, the dry run showed the real Duke
    leaked = {rs.decide(t.state, 1, gain, ServerChance(SEEDS[0], 9))[-1]["dukes"][0] for t in (a, b)}
    assert leaked == {"duke_ash", "duke_iris"}
    real = a.do(1, gain)
    assert real[-1]["dukes"] == ["duke_ash", "duke_cora"]

