"""Hidden information in the two variants: the face-down Citizens of the Mixed Citizen Variant
[BR p.18] 'are not public knowledge and may not be revealed until the Citizen directly above it
has been taken' (VP-40), and the face-down Monster Events on the Exhausted stack when they are
played on the base game on their own (VP-43, VP-1).

VP-40 holds no face-down Citizen's identity anywhere: the state, the events and every view,
the arbiter's included, show a placeholder; the Citizen turned up is drawn when it turns up.
So these tests prove (1) that no answer a seat can get (view, redacted events, legal commands,
table inputs, refusals, dry runs) differs between a game and a twin whose hidden parts this file
changes by hand (the other Dukes, the order of every pool), at many points of served and table
games of both variants; (2) that nothing of a game, at any viewer, names a Citizen not in sight;
(3) that what a dry run turns up comes from its fresh seed, not the game's; and (4) that the
comparison has teeth: a state that named a face-down Citizen would be told apart."""
from __future__ import annotations

import json
import random

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import ARBITER
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from domain.valeria.state import FACE_DOWN, MIXED
from tests.domain.valeria.test_dry_run_hidden import points, twin
from tests.domain.valeria.test_dry_run_hidden import probes as base_probes
from tests.playouts.harness import play, seed_for
from tests.playouts.leaks import SEEDS, assert_same_for, dry_run, seen_by
from tests.playouts.test_valeria_playouts import NAMES, duke_of_valeria

BOTH = {"variant": "mixed_citizens", "expansions": ["monster_events"]}
MODES = ("server", "table")
TOPS = ["cleric", "merchant", "mercenary", "archer", "peasant", "knight", "thief", "champion", "rogue", "miner"]


def served(rs, options: dict, game_no: int, players: int) -> list:
    states = []
    play(rs, game_no, NAMES[:players], options, policy=duke_of_valeria, at_rest=lambda s: states.append(s.clone()))
    return states


def _table_setup(rs, rng: random.Random, players: int) -> dict:
    c = rs.default_content
    dukes = rng.sample(sorted(d["id"] for d in c["dukes"]), 2 * players)
    setup = {"domains": rng.sample(sorted(d["id"] for d in c["domains"]), 5),
             "dukes": [dukes[2 * i:2 * i + 2] for i in range(players)], "first_player": rng.randrange(players),
             "citizens": TOPS}
    if rs is CS:
        x = c["crimson_seas"]
        setup["araby"] = rng.sample([f"{g}#{k}" for g in x["goods"]["types"] for k in range(1, x["goods"]["per_type"] + 1)], 3)
        setup["nae_aerie"] = rng.sample([f"tome_{r}#{k}" for r, n in x["tomes"]["counts"].items() for k in range(1, n + 1)], 3)
        setup["amarynth"] = rng.sample([n["id"] for n in x["nobles"]], 3)
    return setup


REVEALS = {"DomainRevealed": "card", "EventRevealed": "card", "MonsterTaken": "card", "CitizenRevealed": "card"}


def at_table(rs, options: dict, game_no: int, players: int) -> list:
    """Every state at rest of a random game at a table, which turns up what a server would have
    (sent in 'dice' and 'revealed'; a Citizen by its type, VP-40)."""
    rng = random.Random(game_no)
    events = rs.setup(NAMES[:players], options, None, TableChance(), _table_setup(rs, rng, players))
    s = rs.initial_state()
    for e in events:
        s = rs.evolve(s, e)
    states = []
    while not s.finished:
        seat = rng.choice(rs.status(s).to_move)
        cmd = dict(duke_of_valeria(rng, rs.legal_commands(s, seat)))
        outcome = rs.decide(s, seat, cmd, ServerChance(seed_for(game_no), len(events)))
        dice = [e["dice"] for e in outcome if e["type"] == "DiceRolled"]
        revealed = [x for e in outcome for x in ([e["card"].split("#")[0] if e["type"] == "CitizenRevealed" else e["card"]]
                                                 if e["type"] in REVEALS else e["drawn"] if e["type"] == "IslandRefreshed" else [])]
        new = rs.decide(s, seat, {**cmd, **({"dice": dice[0]} if dice else {}), **({"revealed": revealed} if revealed else {})},
                        TableChance())
        for e in new:
            s = rs.evolve(s, e)
        events += new
        states.append(s.clone())
        assert len(states) < 5000
    return states


GAMES = [(R, BOTH, served, 3, 2), (R, BOTH, at_table, 11, 3), (R, {"expansions": ["monster_events"]}, served, 7, 5),
         (CS, {"variant": ["mixed_citizens"]}, served, 5, 4), (CS, {"variant": "mixed_citizens"}, at_table, 13, 2),
         (R, {"variant": ["solo", "mixed_citizens"]}, served, 9, 1)]       # VP-49: the Dark Lord too
IDS = ["both-served-2", "both-table-3", "events-served-5", "seas-mixed-served-4", "seas-mixed-table-2",
       "solo-mixed-served-1"]
_PLAYED: dict = {}


def game(k: int) -> tuple:
    if k not in _PLAYED:
        rs, options, how, game_no, players = GAMES[k]
        _PLAYED[k] = (rs, how(rs, options, game_no, players))
    return _PLAYED[k]


def probes(state) -> list[dict]:
    """The standard probes, and commands that turn a mixed stack's Citizen or a Monster Event up,
    naming every Citizen type and every Monster Event (the same list for the twin)."""
    out = base_probes(state)
    c = state.content
    events = c.get("monster_events") or c.get("crimson_seas", {}).get("monster_events", [])
    for st in [x for x in state.citizens if x.startswith(MIXED)][:2]:
        out += [{"type": "recruit", "stack": st}]
        out += [{"type": "recruit", "stack": st, "revealed": [t["id"]]} for t in c["citizens"][:3]]
        out += [{"type": "recruit", "stack": st, "revealed": [e["id"]]} for e in events[:2]]
    return out


def unseen(s) -> set:
    return {c for st in s.citizens if st.startswith(MIXED) for c in s.citizen_pool(st)}


def strings(x) -> set:
    if isinstance(x, dict):
        return set().union(*(strings(v) for v in x.values()), set(map(str, x)))
    if isinstance(x, list):
        return set().union(*(strings(v) for v in x)) if x else set()
    return {x} if isinstance(x, str) else set()


@pytest.mark.parametrize("k", range(len(GAMES)), ids=IDS)
def test_every_seat_is_answered_alike_whatever_it_cannot_see(k):
    """[BR p.18] face-down Citizens are not public knowledge; [CS Monster Event Cards] the Monster
    Events lie face down on the Exhausted stack; [BR p.5] the Dukes are secret. Each seat, at many
    points, both chance modes: the same answers (dry runs included) in the game and its twin."""
    rs, states = game(k)
    rng = random.Random(k)
    for s in points(states, 3):
        probe = probes(s)
        for seat in range(len(s.seats)):
            other = twin(rs, s, seat, rng)
            for mode in MODES:
                assert_same_for(rs, s, other, seat, probe, mode)


@pytest.mark.parametrize("k", [0, 1, 3, 4, 5], ids=[IDS[i] for i in (0, 1, 3, 4, 5)])
def test_no_state_event_view_or_answer_names_a_citizen_not_in_sight(k):
    """VP-40: at every point of the game, the state, each event as anyone is shown it, each view
    (the arbiter's too), legal commands and table inputs name no Citizen that is not in sight, and
    every mixed stack is its face-down placeholders under face-up Citizens."""
    rs, states = game(k)
    for s in states[::7] + states[-1:]:
        hidden = unseen(s)
        assert hidden or s.finished
        said = [rs.dump_state(s)] + [rs.view(s, v) for v in (*range(len(s.seats)), None, ARBITER)]
        said += [rs.legal_commands(s, i) for i in range(len(s.seats))] + [rs.table_inputs(s, i) for i in range(len(s.seats))]
        assert not strings(said) & hidden
        for pile in [p for st, p in s.citizens.items() if st.startswith(MIXED)]:
            down = pile.count(FACE_DOWN)
            assert pile[:down] == [FACE_DOWN] * down and FACE_DOWN not in pile[down:]


def test_a_dry_run_turns_up_a_citizen_from_its_fresh_seed_never_the_games():
    """DR-1, VP-40: a seat dry-running a recruit that turns a face-down Citizen up is shown one drawn
    from the dry run's fresh seed: across fresh seeds both the Monks and the Clerics under the
    face-up Citizen turn up, while the real command turns up the one the game's seed draws."""
    events = R.setup(["A", "B"], {"variant": "mixed_citizens", "first_player": 0}, None, ServerChance("12" * 32, 0), None)
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    for seat in (0, 1):
        for e in R.decide(s, seat, {"type": "keep_duke", "duke": s.seats[seat].offer[0]}, ServerChance("12" * 32, 9)):
            s = R.evolve(s, e)
    s.phase, s.dice, s.actions_left = "action", [1, 2], 2
    s.seats[0].gold = 9
    cmd = {"type": "recruit", "stack": "mixed_1"}
    shown = set()
    for k in range(16):
        answer = dry_run(R, s, 0, cmd, f"{k:02x}" * 32, "server")
        shown |= {e["card"].split("#")[0] for e in answer["events"] if e["type"] == "CitizenRevealed"}
    assert shown == {"monk", "cleric"}
    assert all(dry_run(R, s, 0, cmd, seed, "server") == dry_run(R, s, 0, cmd, seed, "server") for seed in SEEDS)


def test_the_comparison_would_catch_a_state_that_named_a_face_down_citizen():
    """The twin comparison has teeth: were a face-down Citizen's identity in the state (as a
    dealt order would put it), a seat would tell two such states apart."""
    rs, states = game(0)
    s = next(x for x in states if x.phase == "action")
    a, b = s.clone(), s.clone()
    pool = a.citizen_pool("mixed_1")
    a.citizens["mixed_1"][0], b.citizens["mixed_1"][0] = pool[0], pool[-1]
    assert pool[0].split("#")[0] != pool[-1].split("#")[0] or pool[0] != pool[-1]
    assert seen_by(rs, a, 0, [], "server", seeds=SEEDS[:1]) != seen_by(rs, b, 0, [], "server", seeds=SEEDS[:1])


def test_monster_events_set_out_on_the_base_game_are_nobodys_until_turned_up():
    """[CS Monster Event Cards] 'take 1 face-down Monster Event card per player': which are set out
    is in no seat's view nor event; the arbiter sees the pool, with no order (VP-1)."""
    events = R.setup(["A", "B", "C"], {"expansions": ["monster_events"]}, None, ServerChance("34" * 32, 0), None)
    laid = next(e for e in events if e["type"] == "MonsterEventsSetOut")
    assert laid["event_pool"] == sorted(laid["event_pool"])
    for viewer in (0, 1, 2, None):
        assert R.redact(laid, viewer) == {**laid, "event_pool": 6}
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    for viewer in (0, None):
        view = json.dumps(R.view(s, viewer))
        assert view.count('"monster_events_face_down": 3') == 1
        assert not any(f'"{x}"' in view for x in laid["event_pool"])
