"""VP-53: [CS Action Phase] "if a stack in the Center Stacks is ever Exhausted as a result of an
Action taken by a player, the player first finishes the Action and then adds an Exhausted card
... After revealing a Monster Event card, place it face-up in the stack you exhausted." Slaying
a Monster ends with "4. Take the Rewards" [BR p.9], so a Monster Event turned up on the stack a
slay emptied comes after every reward of that slay: in the same command when the rewards resolve
by themselves, else with the `resolve` that takes the last of them (a table reports it there).
An outside audit over HTTP found the Event turned up first: the Ghost Ship then took no Gold from
a slayer whose reward was Gold, and the Pirate Blockade refused a Citizen the reward offered."""
from __future__ import annotations

import copy

import pytest

from domain.chance import ServerChance
from domain.valeria import RULESET as R
from domain.valeria.legal import table_inputs
from tests.domain.valeria.table import of
from tests.domain.valeria.test_monster_events_on_their_own import EventsTable


def last_monster(t: EventsTable, stack: str, card: str) -> EventsTable:
    """Only `card` is left on the Monster stack `stack`."""
    t.state.monsters[stack][:] = [card]
    return t


def kinds(events) -> list[str]:
    return [e["type"] for e in events]


def test_the_ghost_ship_turned_up_by_a_slay_takes_gold_from_the_reward_just_taken():
    """VA-19: turned up, the Ghost Ship takes 1 Gold from the active player if they have one. A slayer
    with no Gold whose reward is 3 Gold has one by then."""
    t = last_monster(EventsTable(), "hills", "hill_troll#1")
    t.to_actions()
    t.purse(0, strength=5)
    events = t.do(0, {"type": "slay", "stack": "hills", "revealed": ["ghost_ship"]})
    order = kinds(events)
    assert order.index("RewardResolved") < order.index("EventRevealed")
    assert of(events, "EventRevealed") == [{"type": "EventRevealed", "stack": "hills", "card": "ghost_ship"}]
    assert t.seat(0).gold == 2 and t.state.event_tokens["ghost_ship"] == {"gold": 1}
    assert "hills" in t.state.exhausted and not t.state.pending


def test_a_reward_taken_before_the_blockade_turns_up_may_take_a_citizen_whose_number_was_rolled():
    """The Pirate Blockade forbids gaining a rolled Citizen once it is face up; the reward of the slay
    that emptied its stack is taken before that, so it may take one."""
    t = last_monster(EventsTable(), "ruins", "wraith#1")      # reward: a Citizen costing up to 3
    t.to_actions(1, 2)                                        # 1, 2 and 3 rolled: Monk, Merchant, Mercenary
    t.purse(0, strength=4, magic=2)
    t.rejects(0, {"type": "slay", "stack": "ruins", "revealed": ["blockade"]}, "TABLE_OUTCOME_INVALID")
    events = t.do(0, {"type": "slay", "stack": "ruins"})       # nothing is turned up yet
    assert not of(events, "EventRevealed") and t.state.pending[0]["then_reveal"] == "ruins"
    assert R.view(t.state, 0)["pending_rewards"][0]["then_reveal"] == "ruins"
    choices = [c["choice"] for c in R.legal_commands(t.state, 0) if c["type"] == "resolve"]
    assert ["monk"] in choices and ["mercenary"] in choices
    assert "revealed" in table_inputs(t.state, 0)["resolve"]
    t.rejects(0, {"type": "resolve", "choice": ["mercenary"]}, "TABLE_OUTCOME_REQUIRED")
    events = t.do(0, {"type": "resolve", "choice": ["mercenary"], "revealed": ["blockade"]})
    order = kinds(events)
    assert order.index("RewardResolved") < order.index("EventRevealed")
    assert any(c.startswith("mercenary") for c in t.seat(0).citizens)
    assert t.state.event_at["ruins"] == "blockade"
    t.purse(0, gold=9)                                        # from now on the Blockade holds
    t.rejects(0, {"type": "recruit", "stack": "monk"}, "BLOCKADE")


@pytest.mark.parametrize("first", [0, 1])
def test_with_two_rewards_the_event_turns_up_after_the_last_whichever_the_player_takes_first(first):
    """A Domain's 'when you slay' power is a reward of the same slay (VP-4: the player orders them).
    Once one is taken, the other resolves by itself in the same command, and then the Event."""
    t = last_monster(EventsTable(), "hills", "hill_troll#1").give(0, "hunting_lodge")   # +1 Gold per slay
    t.to_actions()
    t.purse(0, strength=5)
    events = t.do(0, {"type": "slay", "stack": "hills"})
    assert not of(events, "EventRevealed") and len(t.state.pending) == 2
    assert all(p["then_reveal"] == "hills" for p in t.state.pending)
    t.rejects(0, {"type": "resolve", "reward": first, "choice": []}, "TABLE_OUTCOME_REQUIRED")
    events = t.do(0, {"type": "resolve", "reward": first, "choice": [], "revealed": ["ghost_ship"]})
    assert kinds(events) == ["RewardResolved", "Gained", "RewardResolved", "Gained", "EventRevealed", "TokensAdded"]
    assert not t.state.pending
    assert t.seat(0).gold == 3 and t.state.event_tokens["ghost_ship"] == {"gold": 1}


def test_with_the_servers_chance_the_event_comes_after_the_reward_too():
    t = last_monster(EventsTable(), "hills", "hill_troll#1")
    t.to_actions()
    t.purse(0, strength=5)
    events = R.decide(t.state, 0, {"type": "slay", "stack": "hills"}, ServerChance("00" * 32, 9))
    order = kinds(events)
    assert "EventRevealed" in order and order.index("RewardResolved") < order.index("EventRevealed")


def test_a_reward_refused_by_a_blockade_already_face_up_says_so():
    """VA-32: once the Blockade is up, a reward may not gain a rolled Citizen either; the refusal names
    the Blockade, not only the choices left."""
    t = EventsTable().event_at("blockade", "monk")
    t.state.monsters["ruins"][:] = ["wraith#1", "wraith#2"]
    t.to_actions(1, 2)                                        # 1, 2 and 3 rolled
    t.purse(0, strength=4, magic=2)
    t.do(0, {"type": "slay", "stack": "ruins"})
    refused = t.rejects(0, {"type": "resolve", "choice": ["mercenary"]}, "BLOCKADE")
    assert refused.ruling == "VA-32" and "Blockade" in refused.detail
    dear = t.rejects(0, {"type": "resolve", "choice": ["champion"]}, "CHOICE_NOT_ALLOWED")   # costs 4: never allowed
    # the refusal says why (outside review): the Wraith's reward is a Citizen of at most 2 Gold
    assert ": the Champion on top of that stack costs 4 Gold, more than the 2 Gold or less this power allows" \
        in dear.detail, dear.detail
    t.do(0, {"type": "resolve", "choice": ["archer"]})
    assert any(c.startswith("archer") for c in t.seat(0).citizens)


def test_the_last_domain_of_a_stack_gives_its_reward_before_the_event_is_turned_up():
    """Build a Domain ends with its rewards [BR p.10] as a slay does [BR p.9]."""
    t = EventsTable().give(0, "peasant")                      # a Worker for the Granary
    t.state.domains["domain_1"]["down"] = 0                   # the Granary is the last of its stack
    t.to_actions()
    t.purse(0, gold=4)
    events = t.do(0, {"type": "build", "stack": "domain_1", "revealed": ["ghost_ship"]})
    order = kinds(events)
    assert order.index("RewardResolved") < order.index("EventRevealed")
    assert t.seat(0).gold == 2 and t.state.event_tokens["ghost_ship"] == {"gold": 1}   # 4 paid, 3 gained, 1 given


# -- an action a reward grants is part of the action that granted it [BR p.15] ----------------

def granting(grant: str) -> dict:
    """The reference content with every Domain free and without roles (but Palace of the Dawn, whose
    cost and roles the rulebook prints: VA-36), and the Granary's reward an additional action of
    the kind `grant`."""
    content = copy.deepcopy(R.default_content)
    for domain in content["domains"]:
        if domain["name"] != "Palace of the Dawn":
            domain["cost"], domain["roles"] = 1, {}
        if domain["id"] == "granary":
            domain["immediate"] = {"may": {"action": grant}}
    return content


def test_an_event_waits_for_the_action_the_reward_granted():
    """[BR p.15] "Fulfilling the additional action is still a part of the Buy a Domain action": a
    Blockade turned up on the stack the Granary emptied comes after the recruit it granted, which
    may then take a Citizen whose number was rolled. An outside audit found it turned up between."""
    t = EventsTable(content=granting("recruit"))
    t.state.domains["domain_1"]["down"] = 0                   # the Granary is the last of its stack
    t.to_actions(1, 2)                                        # 1, 2 and 3 rolled
    t.purse(0, gold=5)
    events = t.do(0, {"type": "build", "stack": "domain_1"})
    assert not of(events, "EventRevealed") and t.state.pending[0]["then_reveal"] == "domain_1"
    events = t.do(0, {"type": "resolve", "choice": [True]})   # the recruit granted; nothing turned up yet
    assert kinds(events) == ["RewardResolved", "ActionGranted", "RevealPostponed"]
    assert t.state.reveals_waiting == ["domain_1"] and R.view(t.state, 0)["reveals_waiting"] == ["domain_1"]
    assert "revealed" in table_inputs(t.state, 0)["recruit"]
    events = t.do(0, {"type": "recruit", "stack": "mercenary", "revealed": ["blockade"]})
    order = kinds(events)
    assert order.index("CardGained") < order.index("RevealDue") < order.index("EventRevealed")
    assert t.state.event_at["domain_1"] == "blockade" and not t.state.reveals_waiting
    assert t.state.actions_left == 1                          # the granted recruit was not one of the two


def test_a_granted_action_that_lapses_lets_the_event_turn_up_at_once():
    t = EventsTable(content=granting("recruit"))
    t.state.domains["domain_1"]["down"] = 0
    t.to_actions(1, 2)
    t.purse(0, gold=1)                                        # the Granary costs it all: no recruit is affordable
    t.do(0, {"type": "build", "stack": "domain_1"})
    events = t.do(0, {"type": "resolve", "choice": [True], "revealed": ["ghost_ship"]})
    assert kinds(events)[:4] == ["RewardResolved", "ActionGranted", "RevealPostponed", "GrantLapsed"]
    assert of(events, "EventRevealed")[0]["card"] == "ghost_ship" and not t.state.reveals_waiting


def test_a_stack_a_reward_empties_is_turned_up_once_the_action_is_finished():
    """VP-53, VA-B6: the Wraith's reward takes the last Monk free; the Monster Event on that position
    comes once the slay is finished, after the Hunting Lodge's Gold, which the player takes second."""
    t = EventsTable().give(0, "hunting_lodge")
    del t.state.citizens["monk"][1:]
    t.state.monsters["ruins"][:] = ["wraith#1", "wraith#2"]
    t.to_actions(5, 6)                                        # nothing the Blockade could matter for
    t.purse(0, strength=4, magic=2)
    t.do(0, {"type": "slay", "stack": "ruins"})
    assert len(t.state.pending) == 2
    t.rejects(0, {"type": "resolve", "choice": ["monk"]}, "TABLE_OUTCOME_REQUIRED")   # the Event comes with it
    events = t.do(0, {"type": "resolve", "choice": ["monk"], "revealed": ["ghost_ship"]})   # the last Monk, free
    assert kinds(events) == ["RewardResolved", "CardGained", "RevealPostponed", "RewardResolved", "Gained",
                             "RevealDue", "EventRevealed", "TokensAdded"]
    assert t.seat(0).gold == 0 and t.state.event_tokens["ghost_ship"] == {"gold": 1}   # the Lodge's Gold, given
