"""VP-52: "per Citizen" counts Citizen cards, not the Starters; a count by name counts a Starter
of that name (VA-B1), a count by role never does (Starters have no Role icons)."""
from __future__ import annotations

from domain.chance import ServerChance
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from domain.valeria.effects import count
from domain.valeria.rules import terms_points
from tests.playouts.harness import seed_for


def _start(rs, players: int = 2):
    s = rs.initial_state()
    for e in rs.setup(["Ann", "Ben", "Cy"][:players], None, None, ServerChance(seed_for(52), 0), None):
        s = rs.evolve(s, e)
    return s


def test_a_starting_tableau_holds_no_citizen_but_a_starter_counts_by_its_name():
    s = _start(R)
    me = s.seats[0]
    starters = [c for c in me.citizens if s.card(c)["kind"] == "starter"]
    assert len(starters) == 2 and len(me.citizens) == 2
    assert count(s, 0, {"citizens": {}}, all_up=True) == 0
    assert terms_points(s, 0, [{"vp": 1, "per": {"citizens": {}}}]) == 0
    peasant = s.card(starters[0])["name"]
    assert count(s, 0, {"citizens": {"name": peasant}}, all_up=True) == 1


def test_recruited_citizens_count_and_the_coxswain_does_not():
    s = _start(CS, 3)
    me = s.seats[1]
    assert any(s.card(c)["kind"] == "starter" and c.startswith(s.content["crimson_seas"]["coxswain"]["id"])
               for c in me.citizens)
    bought = [stack[-1] for stack in s.citizens.values() if stack][:3]
    assert len(bought) == 3 and all(s.card(c)["kind"] == "citizen" for c in bought)
    me.citizens.extend(bought)
    assert count(s, 1, {"citizens": {}}, all_up=True) == 3
    assert terms_points(s, 1, [{"vp": 2, "per": {"citizens": {}}}]) == 6
