"""The Dukes are secret until scoring [BR p.15]; the face-down Domains are nobody's. Re-dealing
those hidden parts must leave everything another seat is shown byte-identical: its view, the
events and commands as redacted for it, its legal commands, its table inputs and the words of
every rejection it can provoke."""
import json

import pytest

from domain.chance import TableChance
from domain.ruleset import ARBITER, Rejected
from domain.valeria import RULESET as R
from tests.domain.valeria.table import Table


def probes(state):
    out = [{"type": t} for t in R.command_schemas]
    out += [{"type": "keep_duke", "duke": d["id"]} for d in state.content["dukes"]]
    out += [{"type": "build", "stack": f"domain_{k}"} for k in range(1, 6)]
    out += [{"type": "harvest", "item": k} for k in range(6)]
    return out


def seen_by(table, seat, ruleset=R):
    errors = []
    for cmd in probes(table.state):
        try:
            ruleset.decide(table.state, seat, cmd, TableChance())
            errors.append("accepted")
        except Rejected as r:
            errors.append([r.code, r.rule, r.detail, r.ruling])
    return json.dumps({"view": ruleset.view(table.state, seat),
                       "events": [ruleset.redact(e, seat) for e in table.events],
                       "commands": [ruleset.redact_command(c["command"], c["actor"], seat) for c in table.commands],
                       "legal": ruleset.legal_commands(table.state, seat),
                       "table_inputs": ruleset.table_inputs(table.state, seat),
                       "errors": errors}, sort_keys=True)


A = [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"]]
B = [["duke_jory", "duke_iris"], ["duke_cora", "duke_dara"]]


def redealt(keep=True):
    """Two tables alike but for seat 0's Dukes (and so the Dukes nobody holds)."""
    return Table(dukes=A, keep=keep), Table(dukes=B, keep=keep)


def test_the_dukes_dealt_and_kept_are_invisible_to_every_other_seat():
    a, b = redealt(keep=False)
    assert seen_by(a, 1) == seen_by(b, 1) and seen_by(a, None) == seen_by(b, None)
    assert seen_by(a, 0) != seen_by(b, 0)
    a.do(0, {"type": "keep_duke", "duke": "duke_bran"})
    b.do(0, {"type": "keep_duke", "duke": "duke_iris"})
    assert seen_by(a, 1) == seen_by(b, 1) and seen_by(a, None) == seen_by(b, None)
    for t in (a, b):
        t.do(1, {"type": "keep_duke", "duke": "duke_cora"})
        t.to_actions()
        t.do(0, {"type": "gain_resource", "resource": "gold"})
    assert seen_by(a, 1) == seen_by(b, 1) and seen_by(a, None) == seen_by(b, None)
    assert R.view(a.state, ARBITER) != R.view(b.state, ARBITER)
    assert R.view(a.state, 0)["seats"][0]["duke"] == "duke_bran"
    assert "duke" not in R.view(a.state, 1)["seats"][0]


def test_which_domain_lies_face_down_is_nobodys():
    a = Table()
    assert "domain_pool" not in R.view(a.state, 1) and "domain_pool" in R.view(a.state, ARBITER)
    assert isinstance(R.redact(a.events[1], 1)["domain_pool"], int)


def test_the_duke_is_revealed_when_the_game_is_scored():
    t = Table()
    t.state.exhausted = ["a", "b", "c", "d"]
    for seat in (0, 1):
        t.to_actions()
        t.do(seat, {"type": "gain_resource", "resource": "gold"})
        t.do(seat, {"type": "gain_resource", "resource": "gold"})
    assert t.state.finished
    assert R.view(t.state, 1)["seats"][0]["duke"] == "duke_ash"


def leaky(ruleset):
    """The ruleset with its redaction removed: every seat sees what the arbiter sees."""
    class Leaky:
        def __getattr__(self, name):
            return getattr(ruleset, name)

        @staticmethod
        def redact(event, viewer):
            return event

        @staticmethod
        def view(state, viewer):
            return ruleset.view(state, ARBITER)

        @staticmethod
        def redact_command(command, actor, viewer):
            return command

    return Leaky()


def test_the_leak_test_fails_when_redaction_is_removed():
    """The test above would catch a leak: without redaction, seat 1 tells the deals apart."""
    a, b = redealt(keep=False)
    assert seen_by(a, 1, leaky(R)) != seen_by(b, 1, leaky(R))
    for t in (a, b):
        t.do(0, {"type": "keep_duke", "duke": t.state.seats[0].offer[0]})
    a2, b2 = json.loads(seen_by(a, 1, leaky(R))), json.loads(seen_by(b, 1, leaky(R)))
    assert a2["events"] != b2["events"] and a2["commands"] != b2["commands"]


def test_with_crimson_seas_the_dukes_and_the_supplies_stay_hidden():
    from domain.valeria import CRIMSON_SEAS as CS
    from tests.domain.valeria.table import SeasTable
    a, b = SeasTable(dukes=A, keep=False), SeasTable(dukes=B, keep=False)
    a.do(0, {"type": "keep_duke", "duke": "duke_ash"})
    b.do(0, {"type": "keep_duke", "duke": "duke_iris"})
    for t in (a, b):
        t.do(1, {"type": "keep_duke", "duke": "duke_dara"})
    assert seen_by(a, 1, CS) == seen_by(b, 1, CS) and seen_by(a, None, CS) == seen_by(b, None, CS)
    assert seen_by(a, 0, CS) != seen_by(b, 0, CS)
    laid = next(e for e in a.events if e["type"] == "IslandsLaidOut")
    assert all(isinstance(CS.redact(laid, 1)[k], int) for k in ("goods_supply", "tome_supply", "noble_deck", "event_pool"))


def test_with_crimson_seas_the_leak_test_fails_when_redaction_is_removed():
    from domain.valeria import CRIMSON_SEAS as CS
    from tests.domain.valeria.table import SeasTable

    a, b = SeasTable(dukes=A, keep=False), SeasTable(dukes=B, keep=False)
    assert seen_by(a, 1, CS) == seen_by(b, 1, CS)
    assert seen_by(a, 1, leaky(CS)) != seen_by(b, 1, leaky(CS))


POOLS = ("domain_pool", "duke_pool", "goods_supply", "tome_supply", "noble_deck", "event_pool")


@pytest.mark.parametrize("ruleset_name", ["valeria-card-kingdoms", "crimson-seas"])
def test_no_deck_order_is_kept_anywhere_the_next_card_is_drawn_when_turned_up(ruleset_name):
    """[BR p.4] the Domains and [CS Game Setup] the Goods, Tomes, Nobles and Monster Events are
    shuffled face down: their order is nobody's (VP-1). No state or event holds an order or the
    server's seed before the end; the same game re-seeded is the same game until a card turns up."""
    from domain.chance import ServerChance
    from domain.valeria import CRIMSON_SEAS as CS
    from domain.valeria.state import dump_state
    rs = CS if ruleset_name == "crimson-seas" else R
    seed = "ab" * 32
    events = rs.setup(["A", "B", "C"], {"first_player": 0}, None, ServerChance(seed, 0), None)
    s = rs.initial_state()
    for e in events:
        s = rs.evolve(s, e)
    for seat in range(3):
        cmd = {"type": "keep_duke", "duke": s.seats[seat].offer[0]}
        for e in rs.decide(s, seat, cmd, ServerChance(seed, len(events))):
            s = rs.evolve(s, e)
            events.append(e)
    arbiter = json.dumps(dump_state(s)) + json.dumps(events) + json.dumps(rs.view(s, ARBITER))
    assert seed not in arbiter                                        # only its commitment is stored
    for pool in POOLS:
        assert getattr(s, pool) == sorted(getattr(s, pool)), pool   # a set, not a deck
    for viewer in (0, 1, 2, None):
        seen = json.dumps(rs.view(s, viewer)) + json.dumps([rs.redact(e, viewer) for e in events])
        assert not any(isinstance(rs.view(s, viewer).get(p), list) for p in POOLS)
        assert seed not in seen
    # the same position under other seeds: what turns up is drawn only when it turns up
    from domain.valeria.rules import Draft
    pools = [p for p in POOLS if p != "duke_pool" and getattr(s, p)]
    assert len(pools) == (5 if rs is CS else 1)
    for pool in pools:
        shown = {Draft(s, ServerChance(f"{k:02x}" * 32, len(events)), {}).reveal(getattr(s, pool)) for k in range(12)}
        assert len(shown) > 2 and shown <= set(getattr(s, pool)), pool
