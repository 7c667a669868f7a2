"""VP-47: [BR p.10] Build a Domain takes the Rewards (step 4) before the next Domain is revealed
(step 5). Where the reward can reach a Domain on the Center stacks (the reference Temple: "may
banish a domain"), the next Domain is turned up only once the reward is taken; a table then
reports it with the `resolve` that takes the reward."""
from __future__ import annotations

from domain.chance import ServerChance
from domain.valeria import RULESET as R
from domain.valeria.legal import table_inputs
from tests.domain.valeria.table import UP, Table


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def temple_table() -> Table:
    t = Table(up=["temple", *UP[1:]]).give(0, "monk", 2).give(0, "archer")   # 2 Holy, 1 Soldier
    t.to_actions()
    t.purse(0, gold=10)
    return t


def test_the_temple_banishes_before_the_next_domain_is_turned_up():
    t = temple_table()
    events = t.do(0, {"type": "build", "stack": "domain_1"})          # nothing turned up yet
    assert not of(events, "DomainRevealed") and t.state.domains["domain_1"]["up"] is None
    assert of(events, "RewardAwaited")[0]["then_reveal"] == "domain_1"
    view = R.view(t.state, 0)
    assert view["pending_rewards"][0]["then_reveal"] == "domain_1"
    # the reward can banish the top of any other Domain stack, never the one still face down
    choices = [c["choice"] for c in R.legal_commands(t.state, 0) if c["type"] == "resolve"]
    assert [True, "domain_1"] not in choices and [True, "domain_2"] in choices and [False] in choices
    assert "revealed" in table_inputs(t.state, 0)["resolve"]
    t.rejects(0, {"type": "resolve", "choice": [True, "domain_2"]}, "TABLE_OUTCOME_REQUIRED")
    under_banished, next_up = [d for d in R.view(t.state, "arbiter")["nameable"]["domains"] if d != "moonwell"][0], "moonwell"
    events = t.do(0, {"type": "resolve", "choice": [True, "domain_2"], "revealed": [under_banished, next_up]})
    kinds = [e["type"] for e in events]
    assert kinds.index("RewardResolved") < kinds.index("DomainRevealed")
    # the banished Domain's stack turns up its next first (the reward), then the Temple's (step 5)
    assert [(e["stack"], e["card"]) for e in of(events, "DomainRevealed")] == [("domain_2", under_banished),
                                                                               ("domain_1", next_up)]
    assert t.state.domains["domain_1"]["up"] == "moonwell" and not t.state.pending


def test_a_reward_that_cannot_reach_the_center_keeps_the_domain_turned_up_with_the_build():
    """BR p.10's own example (Palace of the Dawn: an ongoing benefit) and any reward that cannot
    reach the Center stacks: the order cannot change anything, and the table reports the Domain
    with the build, as before VP-47."""
    t = Table().give(0, "archer", 2).give(0, "peasant")
    t.to_actions()
    t.purse(0, gold=11)
    events = t.do(0, {"type": "build", "stack": "domain_4", "revealed": ["moonwell"]})
    assert of(events, "DomainRevealed")[0]["card"] == "moonwell"


def test_with_the_servers_chance_the_order_is_the_same():
    t = temple_table()
    state = t.state
    events = R.decide(state, 0, {"type": "build", "stack": "domain_1"}, ServerChance("00" * 32, 9))
    assert not of(events, "DomainRevealed")


def test_a_reward_granting_a_build_is_taken_before_the_next_domain_is_turned_up():
    """[BR p.15] the additional action is part of the Build that granted it, so it comes before
    step 5: the granted build cannot take the Domain still face down under the Granary, and that
    Domain is turned up once it is done. An outside audit found it turned up with the first build."""
    from tests.domain.valeria.test_event_after_rewards import granting
    t = Table(content=granting("build"))
    t.to_actions()
    t.purse(0, gold=5)
    events = t.do(0, {"type": "build", "stack": "domain_1"})
    assert not of(events, "DomainRevealed") and of(events, "RewardAwaited")[0]["then_reveal"] == "domain_1"
    events = t.do(0, {"type": "resolve", "choice": [True]})
    assert [e["type"] for e in events] == ["RewardResolved", "ActionGranted", "RevealPostponed"]
    builds = [c["stack"] for c in R.legal_commands(t.state, 0) if c["type"] == "build"]
    assert "domain_1" not in builds and "domain_2" in builds
    t.rejects(0, {"type": "build", "stack": "domain_1"}, "NOT_YET_TURNED_UP")
    nameable = [d for d in R.view(t.state, "arbiter")["nameable"]["domains"]]
    under_1, under_2 = nameable[0], nameable[1]
    events = t.do(0, {"type": "build", "stack": "domain_2", "revealed": [under_1, under_2]})
    # the whole Build finished, its stacks are turned up in the order they were emptied (VP-53)
    assert [(e["stack"], e["card"]) for e in of(events, "DomainRevealed")] == [("domain_1", under_1), ("domain_2", under_2)]
    assert not t.state.reveals_waiting and t.state.actions_left == 1


def test_the_citadels_granted_slay_comes_before_the_next_domain_so_its_reward_cannot_take_that_domain():
    """The reference Citadel grants a slay; the Chimera's reward takes a Domain free. The slay is part
    of the Build [BR p.15], so the Domain under the Citadel is not yet turned up for it to take (a
    review found it was)."""
    from tests.domain.valeria.test_event_after_rewards import granting
    t = Table(content=granting("build"), up=["citadel", *UP[1:]])
    t.to_actions()
    t.on_top("chimera", "hills")
    t.purse(0, gold=5, strength=30, magic=30)
    events = t.do(0, {"type": "build", "stack": "domain_1"})
    assert not of(events, "DomainRevealed") and of(events, "RewardAwaited")[0]["then_reveal"] == "domain_1"
    t.do(0, {"type": "resolve", "choice": [True]})            # the Citadel's Strength, and the slay
    assert t.state.granted == ["slay"] and t.state.reveals_waiting == ["domain_1"]
    t.do(0, {"type": "slay", "stack": "hills"})
    choices = [c["choice"] for c in R.legal_commands(t.state, 0) if c["type"] == "resolve"]
    assert ["domain_1"] not in choices and ["domain_2"] in choices
    first, second = R.view(t.state, "arbiter")["nameable"]["domains"][:2]
    events = t.do(0, {"type": "resolve", "choice": ["domain_2"], "revealed": [first, second]})
    # the Build finished, its stacks in the order they were emptied: the Citadel's, then the free Domain's
    assert [(e["stack"], e["card"]) for e in of(events, "DomainRevealed")] == [("domain_1", first), ("domain_2", second)]
    assert not t.state.reveals_waiting and t.state.actions_left == 1
