"""League of Pirates: a seat's dry run cannot tell what that seat cannot see (issue 13).

A dry run is decided on the game as the seat may imagine it (domain/dry_run.py,
domain/league/hidden.py). Its whole answer, and everything else the seat is answered, must
be the same in two games that differ only in what the seat cannot see: the other seat's
sealed league [Set Up], and which coins the other seat's blind draw produced (LP-A18). The
twins below are made by this file's own code from the rulebook and view.py, never by
ruleset.redeal (a twin made by it could not catch what it forgets).
"""
from __future__ import annotations

import hashlib
import json
import random
from functools import cache

import pytest

from domain.chance import ServerChance, TableChance
from domain.league import RULESET as R
from domain.league.state import LEAGUES
from tests.playouts.harness import play
from tests.playouts.leaks import assert_same_for, dry_run, no_redeal, seen_by
from tests.playouts.test_league_playouts import after_event as invariants
from tests.playouts.test_league_playouts import random_options, sailor

MODES = ("server", "table")
# (game number, options): two games with the default rules, two with random house rules (drawn
# coins kept secret), and one where drawn coins are shown to the opponent (nothing of a draw hidden).
GAMES = [(0, {}), (1, {}), (2, {**random_options(random.Random(2)), "reveal_drawn_coins": False}),
         (3, {**random_options(random.Random(3)), "reveal_drawn_coins": False}),
         (4, {"reveal_drawn_coins": True})]
EVERY = 25    # every EVERY-th point of a game is checked ...
HIDDEN = 6    # ... and about HIDDEN of the points where a seat has something hidden from it
RNG_SEEDS = [hashlib.sha256(b"redeal-%d" % i).hexdigest() for i in range(12)]


# -- Points of real games -----------------------------------------------------------

def fresh(chance):
    state = R.initial_state()
    for e in R.setup(["Anne", "Ben"], None, None, chance, None):
        state = R.evolve(state, e)
    return state


def as_table(state):
    """The same game played at a table (the same outcomes reported by the table)."""
    s = state.clone()
    s.chance_mode, s.commitment = "table", None
    return s


@cache
def league_points() -> tuple:
    """Every sealed choice one seat can have made while the other has not chosen."""
    out = []
    for chance in (ServerChance(hashlib.sha256(b"leagues").hexdigest(), 0), TableChance()):
        for seat in (0, 1):
            for league in LEAGUES:
                s = fresh(chance)
                for e in R.decide(s, seat, {"type": "choose_league", "league": league}, chance):
                    s = R.evolve(s, e)
                out.append(s)
    return tuple(out)


@cache
def game_points(game_no: int) -> tuple:
    """A random game stopped after every command, sampled: points where a seat has something
    hidden from it, and every EVERY-th point; every other one as if played at a table."""
    options = dict(GAMES)[game_no]
    states = []
    play(R, game_no, ["Anne", "Ben"], options, policy=sailor, at_rest=lambda s: states.append(s.clone()))
    hidden = [n for n, s in enumerate(states) if any(twins(s, seat) for seat in (0, 1))]
    chosen = set(hidden[::max(1, len(hidden) // HIDDEN)]) | set(range(0, len(states), EVERY))
    return tuple(as_table(s) if n % 2 else s for n, s in enumerate(states) if n in chosen)


def all_points():
    yield from league_points()
    for game_no, _ in GAMES:
        yield from game_points(game_no)


# -- Twins: what a seat cannot see, changed by hand ---------------------------------

def hidden_draw(s, seat) -> bool:
    """[Press Gang] "blindly pull"; LP-A18: the coins drawn are the drawer's alone."""
    p = s.pending
    return (p is not None and p.get("kind") == "draw" and p["seat"] != seat
            and not s.options["reveal_drawn_coins"])


def sealed_other(s, seat) -> int | None:
    """[Set Up] "Secretly choose the pirate league": the other seat's choice, before the reveal."""
    if s.phase == "leagues" and s.seats[1 - seat].league is not None:
        return 1 - seat
    return None


def twins(s, seat) -> list:
    """States that differ from s only in what `seat` cannot see."""
    out = []
    other = sealed_other(s, seat)
    if other is not None:
        for league in LEAGUES:
            if league != s.seats[other].league:
                t = s.clone()
                t.seats[other].league = league
                out.append(t)
    if hidden_draw(s, seat):
        drawer = s.pending["seat"]
        drawn, bag = s.pending["drawn"], s.seats[drawer].bag
        for i, j in ((0, 0), (len(drawn) - 1, len(bag) - 1)):
            if bag:  # another coin of the bag came out instead
                t = s.clone()
                t.pending["drawn"][i], t.seats[drawer].bag[j] = bag[j], drawn[i]
                t.seats[drawer].bag.sort()
                out.append(t)
        if len(drawn) > 1:  # the same coins, drawn in another order
            t = s.clone()
            t.pending["drawn"].reverse()
            out.append(t)
    return out


def probes(s, twin) -> list[dict]:
    """Commands of every kind, and illegal ones naming each hidden coin and league."""
    out = [{"type": t} for t in R.command_schemas]
    out += [{"type": "choose_league", "league": league} for league in LEAGUES]
    coins = []
    for x in (s, twin):
        if x.pending and x.pending.get("kind") == "draw":
            coins += x.pending["drawn"] + x.seats[x.pending["seat"]].bag[:1]
    for coin in dict.fromkeys(coins):
        out += [{"type": "place_coin", "coin": coin, "slot": "mate1"}, {"type": "turn_coin", "coin": coin},
                {"type": "raid", "target": coin, "raider": coin}, {"type": "enlist", "coin": coin, "slot": "mate1"},
                {"type": "choose_rescue_defender", "coin": coin}]
    return out


def cases():
    for s in all_points():
        for seat in (0, 1):
            for twin in twins(s, seat):
                yield s, twin, seat


# -- 1. Everything a seat is answered is the same in a state and its twin ------------

@pytest.mark.parametrize("game", ["leagues"] + [g for g, _ in GAMES])
def test_a_seat_is_answered_the_same_whatever_it_cannot_see(game):
    points = league_points() if game == "leagues" else game_points(game)
    checked = 0
    for s in points:
        for seat in (0, 1):
            for twin in twins(s, seat):
                for mode in MODES:
                    assert_same_for(R, s, twin, seat, probes(s, twin), mode)
                checked += 1
    assert checked or dict(GAMES).get(game, {}).get("reveal_drawn_coins"), "the game hid nothing"


# -- 2. The comparison has teeth ------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_the_comparison_would_catch_a_dry_run_decided_on_the_real_state(mode):
    def caught(s, twin, seat) -> bool:
        one = seen_by(R, s, seat, probes(s, twin), mode, redeal=no_redeal)
        other = seen_by(R, twin, seat, probes(s, twin), mode, redeal=no_redeal)
        if one == other:
            return False
        a, b = json.loads(one), json.loads(other)
        assert [k for k in a if a[k] != b[k]] == ["dry_runs"]
        return True
    assert any(caught(*case) for case in cases())


# -- 3. Properties of redeal itself ------------------------------------------------------

def dumped(s) -> str:
    """dump_state as JSON, the content (constant, and named by content_key) left out: copying
    its 42 coins for every comparison would cost most of this file's time."""
    light = s.clone()
    light.content = {}
    return json.dumps(R.dump_state(light), sort_keys=True)


def hidden_parts(s, seat) -> tuple:
    """What the seat cannot see: the other's sealed league, the other's drawn coins."""
    other = sealed_other(s, seat)
    return (s.seats[other].league if other is not None else None,
            tuple(s.pending["drawn"]) if hidden_draw(s, seat) else None)


@pytest.mark.parametrize("game", ["leagues"] + [g for g, _ in GAMES])
def test_redeal_is_a_reachable_state_the_seat_cannot_tell_from_the_real_one(game):
    points = league_points() if game == "leagues" else game_points(game)
    for s in points:
        before = dumped(s)
        for seat in (0, 1):
            imagined = R.redeal(s, seat, ServerChance(RNG_SEEDS[0], 5))
            assert dumped(imagined) == dumped(R.redeal(s, seat, ServerChance(RNG_SEEDS[0], 5)))  # deterministic
            assert dumped(s) == before                                                             # not mutated
            assert R.view(imagined, seat) == R.view(s, seat)
            assert R.legal_commands(imagined, seat) == R.legal_commands(s, seat)
            assert R.table_inputs(imagined, seat) == R.table_inputs(s, seat)
            assert R.status(imagined) == R.status(s)
            if s.seats[0].crew["captain"] is not None:
                invariants(imagined, {"type": "imagined"})   # every coin in exactly one place, ...
            if hidden_draw(s, seat):                         # drawn from the drawer's own bag
                drawer = s.pending["seat"]
                assert (sorted(imagined.pending["drawn"] + imagined.seats[drawer].bag)
                        == sorted(s.pending["drawn"] + s.seats[drawer].bag))
            for twin in twins(s, seat):
                assert dumped(R.redeal(twin, seat, ServerChance(RNG_SEEDS[0], 5))) == dumped(imagined)
            if hidden_parts(s, seat) != (None, None):
                for command in R.legal_commands(s, seat):    # decide never crashes on it ...
                    for mode in MODES:
                        dry_run(R, s, seat, command, RNG_SEEDS[1], mode)
                for mover in R.status(imagined).to_move:     # ... and the game can go on from it
                    for command in R.legal_commands(imagined, mover):
                        R.decide(imagined, mover, command, ServerChance(RNG_SEEDS[1], 9))
            assert dumped(s) == before
            assert dumped(imagined) == dumped(R.redeal(s, seat, ServerChance(RNG_SEEDS[0], 5)))


@pytest.mark.parametrize("game", ["leagues"] + [g for g, _ in GAMES[:2]])
def test_redeal_re_deals_what_the_seat_cannot_see(game):
    points = league_points() if game == "leagues" else game_points(game)
    varied = 0
    for s in points:
        for seat in (0, 1):
            parts = hidden_parts(s, seat)
            if parts == (None, None):
                assert dumped(R.redeal(s, seat, ServerChance(RNG_SEEDS[2], 1))) == dumped(s)
                continue
            pool = len(s.seats[s.pending["seat"]].bag) if parts[1] else None
            if pool == 0:
                continue  # the whole bag was drawn: nothing else could have come out
            seen = {hidden_parts(R.redeal(s, seat, ServerChance(seed, 1)), seat) for seed in RNG_SEEDS}
            assert len(seen) > 1, (parts, seen)
            varied += 1
    assert varied


# -- 4. The example -------------------------------------------------------------

def test_a_dry_run_of_choose_league_does_not_show_the_league_the_other_seat_sealed():
    """[Set Up] "Secretly choose the pirate league (color) you wish to play; then you and your
    opponent reveal your chosen Captain at the same time." Issue 13: after Anne (seat 0) had
    chosen, Ben's (seat 1) dry run of choose_league showed her league in LeaguesRevealed."""
    for mode, chance in (("server", ServerChance(RNG_SEEDS[3], 0)), ("table", TableChance())):
        # given Anne has chosen blue in one game and yellow in the other
        games = {}
        for league in ("blue", "yellow"):
            s = fresh(chance)
            for e in R.decide(s, 0, {"type": "choose_league", "league": league}, chance):
                s = R.evolve(s, e)
            games[league] = s
        # when Ben dry-runs choosing red
        answers = {league: [dry_run(R, s, 1, {"type": "choose_league", "league": "red"}, seed, mode)
                            for seed in RNG_SEEDS] for league, s in games.items()}
        # then his answer is the same whichever league Anne chose ...
        assert answers["blue"] == answers["yellow"]
        revealed = [next(e for e in a["events"] if e["type"] == "LeaguesRevealed") for a in answers["blue"]]
        assert all(e["leagues"][1] == "red" for e in revealed)
        # ... and the league it shows for Anne is imagined, not hers
        assert len({e["leagues"][0] for e in revealed}) > 1
        # while the game Anne imagines keeps her own choice
        assert all(R.redeal(games["blue"], 0, ServerChance(seed, 1)).seats[0].league == "blue"
                   for seed in RNG_SEEDS)
