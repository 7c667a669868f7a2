"""A whole game at a table: every die and every Domain turned face up comes from the
commands, and the rules still check the rest."""
from __future__ import annotations

import random

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import InvalidCreation, Rejected
from domain.valeria import RULESET as R
from tests.domain.valeria.table import Table
from tests.playouts.test_valeria_playouts import duke_of_valeria


def test_a_table_plays_a_whole_game_sending_the_dice_and_the_domains_revealed():
    rng = random.Random(11)
    t = Table(players=3)
    for _ in range(5000):
        if t.state.finished:
            break
        seat = R.status(t.state).to_move[0]
        cmd = dict(duke_of_valeria(rng, R.legal_commands(t.state, seat)))
        needs = R.table_inputs(t.state, seat).get(cmd["type"], {})
        if "dice" in needs:
            cmd["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
        if "revealed" in needs:
            # What the table may turn up: the face-down Domains, or a Monster taken at random from
            # one seat's Victory stack (Magpie Roost's take_monster)
            pools = [list(t.state.domain_pool)] + [list(x.victory) for x in t.state.seats]
            found = None
            for k in range(3):   # a build reveals at most one; a reward may reveal another
                for pool in pools:
                    if len(pool) < k:
                        continue
                    try:   # how many the table must send: the rules say when it is too few or too many
                        R.decide(t.state, seat, {**cmd, "revealed": pool[:k]}, TableChance())
                    except Rejected as r:
                        assert r.code in ("TABLE_OUTCOME_REQUIRED", "TABLE_OUTCOME_INVALID"), r
                        continue
                    found = rng.sample(pool, k) if k else []
                    break
                if found is not None:
                    break
            assert found is not None, cmd
            if found:
                cmd["revealed"] = found
        t.do(seat, cmd)
    assert t.state.finished and t.state.result["winners"]
    assert t.state.seed is None   # nothing to reveal: the table rolled


def test_a_table_reporting_another_first_player_than_the_options_chose_is_refused_not_overruled():
    """[BR p.5] the first player is chosen once: options.first_player chooses it, or the table
    reports whom it chose. Both naming different seats is refused, naming both; the same seat, or
    the options leaving it 'random', is the table's report."""
    with pytest.raises(InvalidCreation) as refused:
        Table(options={"first_player": 0}, first=1, keep=False)
    (problem,) = [p for p in refused.value.problems if p.startswith("setup.first_player")]
    assert "chose seat 0" in problem and "reports seat 1" in problem
    for options in ({"first_player": 1}, {"first_player": "random"}, None):
        table = Table(options=options, first=1, keep=False)
        assert next(e for e in table.events if e["type"] == "FirstPlayerChosen")["seat"] == 1


@pytest.mark.parametrize("ruleset_id", ["valeria-card-kingdoms", "crimson-seas"])
def test_every_creation_problem_cites_where_the_rulebook_says_it(ruleset_id):
    """docs/api.md section 2: each creation problem reads 'field: what is wrong [section]'. An outside
    review met Valeria's table reports and option forms refused with no section at all."""
    from domain.registry import all_rulesets
    ruleset = all_rulesets()[ruleset_id]
    setup = {"domains": ["granary", "barracks", "chapel", "keep", "nowhere"],
             "dukes": [["duke_ash", "duke_ash"], ["duke_cora", "duke_dara"]], "first_player": "x"}
    if ruleset_id == "crimson-seas":
        with pytest.raises(InvalidCreation) as refused:
            ruleset.setup(["Anne", "Ben"], None, None, TableChance(), {**setup, "first_player": 0})
        assert "setup: 'araby' is a required property [BR p.4-5; CS Game Setup]" in refused.value.problems
        islands = next(e for e in ruleset.setup(["Anne", "Ben"], None, None, ServerChance("ab" * 32, 0), None)
                       if e["type"] == "IslandsLaidOut")
        setup |= {k: islands[k] for k in ("araby", "nae_aerie", "amarynth")}
    asked = [({"first_player": 7}, None, "options.first_player: 7 is not one of [0, 1, 2, 3, 4, 'random'] [BR p.5]"),
             ({"variant": ["mixed_citizens", "mixed_citizens"]}, None,
              "options.variant: lists 'mixed_citizens' more than once: each may be listed once [BR p.16-18]"),
             (None, setup, "setup.first_player: 'x' is not of type 'integer' [BR p.5]"),
             (None, {**setup, "first_player": 0}, "setup.domains: 'nowhere' cannot have been drawn from there. [BR p.4]")]
    for options, table, problem in asked:
        with pytest.raises(InvalidCreation) as refused:
            ruleset.setup(["Anne", "Ben"], options, None, TableChance(), table)
        assert problem in refused.value.problems, refused.value.problems
        assert all(p.endswith("]") or p.endswith(")") for p in refused.value.problems), refused.value.problems
