"""Crimson Seas' Monster Events on the base game, without the rest of the expansion
(options.expansions ["monster_events"]; [CS Monster Event Cards] 'The Monster Event cards can be
played independent from the rest of this expansion'), as given / when / then at a table.
Card values are the Crimson Seas reference content's (invented)."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import ARBITER, InvalidCreation
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from domain.valeria.rules import end_conditions, face_down_events, points, price
from tests.domain.valeria.table import SeasTable, Table, of

EVENTS = {"expansions": ["monster_events"]}
SIX = ["blockade", "devourer", "ghost_ship", "giants", "leviathan", "skeleton_army"]


class EventsTable(Table):
    """A base-game table with the Monster Events on their own."""

    def __init__(self, players=2, options=None, **kw):
        super().__init__(players, options={**EVENTS, **(options or {})}, **kw)

    event_at = SeasTable.event_at


def test_setup_puts_one_face_down_monster_event_per_player_on_the_exhausted_stack_and_nothing_else():
    """[CS Monster Event Cards, Setup] 'take 1 face-down Monster Event card per player and shuffle them
    together. Place the shuffled cards on top of the Exhausted stack' (VP-43: no island board,
    Coxswain, Maps or Sail)."""
    t = EventsTable(players=3)
    assert t.state.events_on_top == 3 and t.state.event_pool == SIX and t.state.exhausted_pile == 6
    assert not t.state.cs and t.state.events_on
    types = [e["type"] for e in t.events]
    assert "MonsterEventsSetOut" in types and "IslandsLaidOut" not in types
    assert all(not c.startswith("coxswain") for x in t.state.seats for c in x.citizens)
    view = R.view(t.state, 0)
    assert view["monster_events_face_down"] == 3 and view["monster_events"] == {}
    assert "islands" not in view and "bank_maps" not in view and "maps" not in view["seats"][0]
    events = t.roll(1, 2)                                     # [BR p.8] the base game's consolation stays
    assert any(i["source"] == "no_activation" for i in of(events, "CitizensActivated")[0]["items"])
    assert {c["type"] for c in R.legal_commands(t.state, 0)} <= {"harvest"}
    t.harvest_all()
    assert {c["type"] for c in R.legal_commands(t.state, 0)} <= {"slay", "recruit", "build", "gain_resource"}


def test_a_monster_event_turns_up_on_an_emptied_stack_counts_as_exhausted_and_a_bottom_card_replaces_it():
    """[CS Action Phase] 'adds an Exhausted card from the Exhausted stack ... After revealing a
    Monster Event card, place it face-up in the stack you exhausted.' 'replace the empty stack with
    1 of the Exhausted cards from the bottom'; [CS End Phase] 'still considered to be exhausted'."""
    t = EventsTable()
    del t.state.citizens["monk"][1:]
    t.to_actions()
    t.purse(0, gold=9)
    t.rejects(0, {"type": "recruit", "stack": "monk"}, "TABLE_OUTCOME_REQUIRED")
    assert "revealed" in R.table_inputs(t.state, 0)["recruit"]
    events = t.do(0, {"type": "recruit", "stack": "monk", "revealed": ["leviathan"]})
    assert of(events, "EventRevealed") == [{"type": "EventRevealed", "stack": "monk", "card": "leviathan"}]
    assert "monk" in t.state.exhausted and t.state.events_on_top == 1
    assert R.view(t.state, 1)["monster_events"] == {"monk": {"card": "leviathan", "tokens": {}}}
    t.purse(0, strength=6, magic=16)
    events = t.do(0, {"type": "slay", "stack": "monk"})
    assert of(events, "ExhaustedCardPlaced")[0]["bottom"] and "leviathan" in t.seat(0).victory
    assert t.state.events_on_top == 1                         # a new Event never replaces a slain one
    assert points(t.state, 0)["monsters"] == t.state.card("leviathan")["vp"]   # [CS End of Game]


def test_the_skeleton_army_example_without_the_island_board():
    """[CS Roll Phase] 'Kira rolled a "3" and a "4". The Skeleton Army is in play. She flips David's
    Smuggler face-down in his tableau before the Harvest Phase, preventing David from activating
    the Smuggler's power.' (The reference Thief is on 7, like the Smuggler.) Its reward, '4 Gold or a
    Tome' in the reference content, gives 4 Gold: there are no Tomes (VP-44)."""
    t = EventsTable().give(1, "thief").event_at("skeleton_army", "monk")
    t.roll(3, 4)
    assert [i["source"] for i in t.state.items] == ["skeleton_army"]      # before the Harvest
    thief = t.seat(1).citizens[-1]
    t.do(0, {"type": "harvest", "item": t.state.items[0]["id"], "choice": [True, {"seat": 1, "card": thief}]})
    assert thief in t.seat(1).flipped and R.view(t.state, 0)["seats"][1]["flipped"] == [thief]
    assert all(i["source"] != thief for i in t.state.items)
    t.harvest_all()
    t.purse(0, gold=0, strength=7, magic=5)
    events = t.do(0, {"type": "slay", "stack": "monk"})
    assert of(events, "RewardResolved")[0]["choice"] == [0] and t.seat(0).gold == 4


def test_the_pirate_blockade_blocks_the_rolled_citizens_and_its_reward_is_four_gold_without_maps():
    """[CS Pirate Blockade] 'the values of each dice and the sum ... may not be gained'; its reward in
    the reference content, '4 Gold or 2 Maps', is 4 Gold: there are no Maps (VP-44)."""
    t = EventsTable().event_at("blockade", "knight")
    t.to_actions(1, 2)
    t.purse(0, gold=9)
    t.rejects(0, {"type": "recruit", "stack": "monk"}, "BLOCKADE")
    t.purse(0, gold=0, strength=9, magic=3)
    events = t.do(0, {"type": "slay", "stack": "knight"})
    assert of(events, "Gained")[-1]["gained"] == {"gold": 4} and t.seat(0).maps == 0 and t.state.bank_maps == 0


def test_the_leviathan_grows_on_a_six_and_its_tokens_raise_its_cost_up_to_ten():
    """[CS Leviathan] 'When a "6" is rolled, add 1 Strength token from the Bank ... The maximum amount
    of Strength tokens aloud on this card is 10.' [CS Action Phase] the printed value plus the tokens."""
    t = EventsTable().event_at("leviathan", "monk")
    t.state.event_tokens["leviathan"] = {"strength": 9}
    for _ in range(2):
        t.state.phase, t.state.dice, t.state.items = "roll", None, []
        t.do(t.state.active, {"type": "roll_dice", "dice": [6, 2]})
        t.do(t.state.active, {"type": "announce_roll"})   # no Exekratys: no offering on a 6
    assert t.state.event_tokens["leviathan"]["strength"] == 10 and not t.state.exekratys
    assert price(t.state, 0, "slay", "monk")["amount"] == t.state.card("leviathan")["strength"] + 10


def test_the_ghost_ship_takes_a_gold_when_revealed_and_every_roll():
    """[CS Ghost Ship] 'When revealed, and at the end of each player's Roll Phase, the Active Player must
    place 1 Gold from their supply onto the Ghost Ship.'"""
    t = EventsTable()
    del t.state.citizens["monk"][1:]
    t.to_actions()
    t.purse(0, gold=5)
    t.do(0, {"type": "recruit", "stack": "monk", "revealed": ["ghost_ship"]})
    assert t.state.event_tokens["ghost_ship"] == {"gold": 1}
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    t.purse(1, gold=1)
    t.roll(1, 2)
    assert t.state.event_tokens["ghost_ship"] == {"gold": 2} and t.seat(1).gold == 0


def test_the_giants_and_the_flaming_devourer_banish_from_the_center():
    """[CS Giants] 'may Banish ... 1 face-up Domain card ... Reveal the next Domain'; [CS Flaming
    Devourer] 'may Banish ... 1 Citizen card from the Center Stacks', once on doubles."""
    t = EventsTable().event_at("giants", "monk").event_at("devourer", "hills")
    t.roll(1, 4)                                              # the sum is 5, a die 4
    giants = next(i for i in t.state.items if i["source"] == "giants")
    t.do(0, {"type": "harvest", "item": giants["id"], "choice": [True, "domain_1"], "revealed": ["moonwell"]})
    assert "granary" in t.state.banished and t.state.domains["domain_1"] == {"up": "moonwell", "down": 1}
    devourer = next(i for i in t.state.items if i["source"] == "devourer")
    top = t.state.citizens["archer"][-1]
    t.do(0, {"type": "harvest", "item": devourer["id"], "choice": [True, "archer"]})
    assert top in t.state.banished


def test_a_monster_event_position_counts_toward_the_exhausted_end():
    """[CS End Phase] 'If there is a Monster Event card in one of the Center Stacks, the stack is still
    considered to be exhausted for purposes of checking if end-game conditions have been met.'"""
    t = EventsTable().event_at("giants", "monk").event_at("devourer", "hills")
    t.state.exhausted += ["merchant", "archer"]
    assert "exhausted_stacks" in end_conditions(t.state)


def test_the_cards_come_from_the_content_or_the_crimson_seas_reference_content():
    """VP-43: custom content may carry its own 'monster_events'; without them the Crimson Seas
    reference content's are played."""
    content = copy.deepcopy(R.default_content)
    content["id"] = "own-events"
    content["monster_events"] = copy.deepcopy(CS.default_content["crimson_seas"]["monster_events"][:5])
    content["monster_events"][0]["id"] = "inferno"
    events = R.setup(["A", "B"], EVENTS, content, ServerChance("cd" * 32, 0), None)
    assert of(events, "MonsterEventsSetOut")[0]["event_pool"] == ["blockade", "ghost_ship", "giants", "inferno", "leviathan"]
    plain = R.setup(["A", "B"], EVENTS, None, ServerChance("cd" * 32, 0), None)
    assert plain[0]["content"]["monster_events"] == CS.default_content["crimson_seas"]["monster_events"]
    assert of(plain, "MonsterEventsSetOut")[0]["event_pool"] == SIX
    unused = R.setup(["A", "B"], None, content, ServerChance("cd" * 32, 0), None)   # carried, not played
    assert not of(unused, "MonsterEventsSetOut")


@pytest.mark.parametrize("change, words", [
    (lambda c: c["monster_events"][0].update(reward={"gain": {"map": 2}}), "needs the Crimson Seas island board"),
    (lambda c: c["monster_events"][1].update(on_roll={"take_island": "goods"}), "needs the Crimson Seas island board"),
    (lambda c: c["monster_events"][2].update(id=c["citizens"][0]["id"]), "every card id must be unique"),
    (lambda c: c["monster_events"][3].update(on_roll={"action": "build"}), "an additional action is granted only"),
])
def test_content_whose_monster_events_need_the_island_board_is_refused(change, words):
    """VP-44: an instruction or reward needing Maps, Goods, Tomes, Nobles, Exekratys or Sail, unless it
    is one branch of a choice with another."""
    content = copy.deepcopy(R.default_content)
    content["id"] = "events-needing-the-board"
    content["monster_events"] = copy.deepcopy(CS.default_content["crimson_seas"]["monster_events"])
    change(content)
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B"], EVENTS, content, TableChance(), None)
    assert any(words in p for p in info.value.problems), info.value.problems


def test_crimson_seas_content_carries_its_events_in_its_own_section_and_names_them_redundantly():
    """VP-43: on crimson-seas the Monster Events are in already: 'monster_events' changes nothing;
    a top-level 'monster_events' in Crimson Seas content is refused."""
    seed = ServerChance("ef" * 32, 0)
    plain = CS.setup(["A", "B"], None, None, seed, None)
    named = CS.setup(["A", "B"], {"expansions": ["crimson_seas", "monster_events"]}, None, ServerChance("ef" * 32, 0), None)
    assert [e for e in plain[1:]] == [e for e in named[1:]]
    content = copy.deepcopy(CS.default_content)
    content["id"] = "twice"
    content["monster_events"] = content["crimson_seas"]["monster_events"]
    with pytest.raises(InvalidCreation) as info:
        CS.setup(["A", "B"], None, content, TableChance(), None)
    assert any("carries its Monster Events in crimson_seas.monster_events" in p for p in info.value.problems)
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B"], {"expansions": ["monster_events", "monster_events"]}, None, TableChance(), None)
    assert any("listed more than once" in p for p in info.value.problems)


# -- [CS Monster Event Cards, Setup] 'you may preselect it' (VP-48) -------------------------------

def _set_out(options, players=3, seed="ab" * 32):
    events = R.setup(["A", "B", "C", "D", "E"][:players], {**EVENTS, **options}, None, ServerChance(seed, 0), None)
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    return s


def _turn_up_all(s, seed) -> list[str]:
    """Every face-down Monster Event turned up in turn by the server's draw, as the rules draw it."""
    chance, got = ServerChance(seed, 0), []
    while s.events_on_top:
        card = chance.pick(face_down_events(s, weighted=True), 1, None, "revealed")[0]
        got.append(card)
        s.event_pool.remove(card)
        s.events_on_top -= 1
    return got


def test_a_preselected_monster_event_is_always_among_those_set_out_and_the_rest_are_drawn_as_usual():
    """VP-48: 3 players set out 3 of the 6 Events; the Leviathan, preselected, turns up in every game,
    and the other two are any of the other five."""
    others = Counter()
    for k in range(120):
        got = _turn_up_all(_set_out({"monster_events_preselected": ["leviathan"]}), f"{k:064x}")
        assert len(got) == 3 and "leviathan" in got and len(set(got)) == 3
        others.update(x for x in got if x != "leviathan")
    assert set(others) == set(SIX) - {"leviathan"}
    plain = {x for k in range(60) for x in _turn_up_all(_set_out({}), f"{k:064x}")}
    assert plain == set(SIX)


def test_once_only_preselected_events_can_be_face_down_a_table_may_name_only_them():
    t = EventsTable(players=2, options={"monster_events_preselected": ["ghost_ship", "leviathan"]})
    assert sorted(face_down_events(t.state)) == ["ghost_ship", "leviathan"]   # 2 set out, both chosen
    assert R.view(t.state, ARBITER)["nameable"]["monster_events"] == ["ghost_ship", "leviathan"]
    del t.state.citizens["monk"][1:]
    t.to_actions()
    t.purse(0, gold=9)
    refused = t.rejects(0, {"type": "recruit", "stack": "monk", "revealed": ["giants"]}, "TABLE_OUTCOME_INVALID")
    assert "giants" in refused.detail
    t.do(0, {"type": "recruit", "stack": "monk", "revealed": ["leviathan"]})
    assert face_down_events(t.state) == ["ghost_ship"]
    t = EventsTable(players=3, options={"monster_events_preselected": ["leviathan"]})
    assert face_down_events(t.state) == SIX   # 3 set out, 1 chosen: any of the six may be next


@pytest.mark.parametrize("options, words", [
    ({"monster_events_preselected": ["kraken"]}, "['kraken'] are not among this game's Monster Events"),
    ({"monster_events_preselected": ["leviathan", "giants", "devourer"]}, "3 cannot be preselected"),
])
def test_preselected_monster_events_must_be_the_games_and_no_more_than_are_set_out(options, words):
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B"], {**EVENTS, **options}, None, ServerChance("cd" * 32, 0), None)
    assert any(words in p for p in info.value.problems), info.value.problems


def test_events_are_preselected_only_where_they_are_played_and_the_option_is_kept_only_when_sent():
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B"], {"monster_events_preselected": ["leviathan"]}, None, ServerChance("cd" * 32, 0), None)
    assert any("only where they are played" in p for p in info.value.problems)
    events = CS.setup(["A", "B"], {"monster_events_preselected": ["leviathan"]}, None, ServerChance("cd" * 32, 0), None)
    assert events[0]["options"]["monster_events_preselected"] == ["leviathan"]
    assert "monster_events_preselected" not in R.setup(["A", "B"], EVENTS, None, ServerChance("cd" * 32, 0), None)[0]["options"]
