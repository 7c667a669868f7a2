"""VP-52: "per Citizen" counts the Starters with the Citizens (as VA-6 counts a Starter's
activation, and [BR p.9] a Starter Peasant as a copy of the Peasant); a count by role never
counts them (Starters have no Role icons, [BR p.14])."""
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


def test_a_starting_tableau_counts_its_two_starters_as_citizens_by_name_too_never_by_role():
    s = _start(R)
    me = s.seats[0]
    starters = [c for c in me.citizens if s.card(c)["kind"] == "starter"]
    assert len(starters) == 2 and len(me.citizens) == 2
    assert count(s, 0, {"citizens": {}}, all_up=True) == 2
    assert terms_points(s, 0, [{"vp": 1, "per": {"citizens": {}}}]) == 2
    peasant = s.card(starters[0])["name"]
    assert count(s, 0, {"citizens": {"name": peasant}}, all_up=True) == 1
    roles = {r for c in s.content["citizens"] for r in c.get("roles", [])}
    assert roles and all(count(s, 0, {"citizens": {"role": r}}, all_up=True) == 0 for r in roles)


def test_recruited_citizens_count_with_the_starters_and_the_coxswain():
    s = _start(CS, 3)
    me = s.seats[1]
    assert sum(1 for c in me.citizens if s.card(c)["kind"] == "starter") == 3   # Peasant, Knight, Coxswain
    bought = [stack[-1] for stack in s.citizens.values() if stack][:3]
    assert len(bought) == 3 and all(s.card(c)["kind"] == "citizen" for c in bought)
    me.citizens.extend(bought)
    assert count(s, 1, {"citizens": {}}, all_up=True) == 6
    assert terms_points(s, 1, [{"vp": 2, "per": {"citizens": {}}}]) == 12
