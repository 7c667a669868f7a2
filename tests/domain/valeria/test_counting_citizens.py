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


def test_a_finished_games_view_shows_the_points_it_was_scored_with():
    """A finished game's seats show the points of its stored result (GameEnded), so a later
    version's scoring can never make the view disagree with who won."""
    from tests.playouts.harness import play
    from tests.playouts.test_valeria_playouts import duke_of_valeria
    s, _ = play(R, 52, ["Ann", "Ben"], None, policy=duke_of_valeria)
    assert s.finished
    for viewer in (0, 1, None):
        shown = R.view(s, viewer)["seats"]
        assert [x["points"] for x in shown] == s.result["points"]
    s.result["points"][0] = {**s.result["points"][0], "total": -1}   # as if scored otherwise
    assert R.view(s, 0)["seats"][0]["points"]["total"] == -1
