"""The Mixed Citizen Variant [BR p.18], its example and its rules, as given / when / then at a
table (table chance: the table says which Citizen it dealt face up and which it turned up).
The reference content (invented) has two types on 1 (Monk, Cleric) and on 9/10 (Alchemist,
Rogue), one type on each other number."""
from __future__ import annotations

import copy

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import InvalidCreation
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from domain.valeria.effects import options
from domain.valeria.rules import price
from domain.valeria.state import FACE_DOWN
from tests.domain.valeria.table import SeasTable, Table, of

MIXED = {"variant": "mixed_citizens"}
# the Citizen the table dealt face up on each stack, Activation 1 to 8, 9/10, 11/12
TOPS = ["cleric", "merchant", "mercenary", "archer", "peasant", "knight", "thief", "champion", "rogue", "miner"]
STACKS = ["mixed_1", "mixed_2", "mixed_3", "mixed_4", "mixed_5", "mixed_6", "mixed_7", "mixed_8", "mixed_9_10", "mixed_11_12"]


def mixed(players=4, tops=TOPS, **kw):
    return Table(players=players, options=MIXED, citizens=list(tops), **kw)


def test_the_rulebook_example_monks_and_clerics_form_the_activation_1_stack_four_down_one_up():
    """[BR p.18] 'You take all of the Monk cards and all of the Cleric cards and shuffle them
    together. You are playing a 4-player game of Valeria: Card Kingdoms, so you deal out 4 face
    down and then 1 face up to form the Activation number "1" stack.'"""
    t = mixed(players=4)
    assert list(t.state.citizens) == STACKS
    assert t.state.citizens["mixed_1"] == [FACE_DOWN] * 4 + ["cleric#1"]
    assert all(len(p) == 5 and p[:4] == [FACE_DOWN] * 4 for p in t.state.citizens.values())
    # 'Place the rest of the cards back in the box.' unseen: 12 Monks and Clerics, 1 up, 11 not in sight
    assert not any(c.split("#")[0] in ("monk", "cleric") for c in t.state.box)
    assert len(t.state.citizen_pool("mixed_1")) == 11 and "cleric#1" not in t.state.citizen_pool("mixed_1")


@pytest.mark.parametrize("players, down", [(2, 4), (3, 4), (4, 4), (5, 5)])
def test_four_face_down_below_five_players_five_at_five(players, down):
    """[BR p.18] 'Deal out 4 Citizens for a 4-player game or 5 Citizens for a 5-player game face
    down' (VP-41: 2 and 3 players deal 4, the standard stack's 5 cards [BR p.4])."""
    t = mixed(players=players)
    assert all(p == [FACE_DOWN] * down + [p[-1]] for p in t.state.citizens.values())


def test_a_face_down_citizen_is_revealed_when_the_one_above_is_taken_and_the_table_names_it():
    """[BR p.18] 'Citizens that are face down are not public knowledge and may not be revealed
    until the Citizen directly above it has been taken by a player.' (VP-40: the table names the
    Citizen it turned up, by type; the lowest copy not in sight stands for it.)"""
    t = mixed()
    t.to_actions()
    t.purse(0, gold=5)
    t.rejects(0, {"type": "recruit", "stack": "mixed_1"}, "TABLE_OUTCOME_REQUIRED")
    t.rejects(0, {"type": "recruit", "stack": "mixed_1", "revealed": ["miner"]}, "TABLE_OUTCOME_INVALID")
    t.rejects(0, {"type": "recruit", "stack": "mixed_1", "revealed": ["monk", "monk"]}, "TABLE_OUTCOME_INVALID")
    events = t.do(0, {"type": "recruit", "stack": "mixed_1", "revealed": ["monk"]})
    assert of(events, "CardGained")[0]["card"] == "cleric#1"
    assert of(events, "CitizenRevealed") == [{"type": "CitizenRevealed", "stack": "mixed_1", "card": "monk#1"}]
    assert t.state.citizens["mixed_1"] == [FACE_DOWN] * 3 + ["monk#1"]
    assert "revealed" in R.table_inputs(t.state, 0)["recruit"]


def test_only_the_host_reports_what_was_turned_up():
    """TM-1: at a table, a seat's token may not report a face-down card turned up."""
    t = mixed()
    t.to_actions()
    t.purse(0, gold=5)
    from domain.ruleset import Rejected
    with pytest.raises(Rejected) as info:
        R.decide(t.state, 0, {"type": "recruit", "stack": "mixed_1", "revealed": ["monk"]}, TableChance("seat"))
    assert info.value.code == "TABLE_OUTCOME_FROM_HOST"


def test_the_last_card_of_a_mixed_stack_exhausts_it():
    """[BR p.8] an emptied stack is exhausted; a mixed stack empties when its face-up Citizen is the last."""
    t = mixed()
    t.state.citizens["mixed_2"] = [t.state.citizens["mixed_2"][-1]]
    t.to_actions()
    t.purse(0, gold=5)
    events = t.do(0, {"type": "recruit", "stack": "mixed_2"})
    assert not of(events, "CitizenRevealed") and of(events, "StackExhausted")[0]["stack"] == "mixed_2"


def test_the_recruit_cost_rises_per_copy_of_that_citizen_not_per_card_of_its_stack():
    """[BR p.9] 'plus an additional 1 Gold for each copy of the same Citizen you have in your
    tableau'; [BR p.10] the names 'are also considered the Citizen type when referring to the "+"
    symbol' (VP-42): two Clerics owned raise a Cleric's price by 2, a Monk's of the same stack not."""
    t = mixed().give(0, "cleric", 2)
    cleric = t.state.card("cleric#1")["cost"]
    assert price(t.state, 0, "recruit", "mixed_1")["amount"] == cleric + 2
    t.to_actions()
    t.purse(0, gold=9)
    t.do(0, {"type": "recruit", "stack": "mixed_1", "revealed": ["monk"]})
    monk = t.state.card("monk#1")["cost"]
    assert price(t.state, 0, "recruit", "mixed_1")["amount"] == monk     # no Monk owned: no '+'


def test_a_citizen_taken_by_name_must_be_face_up_on_top():
    """[BR p.9] 'Select a Citizen that is on top of a stack.'; [BR p.18] Bane Spider: 'If there is no
    Knight available, then you must take the 3 Gold' (VP-42): Monks lie face down under the
    Cleric, yet no Monk is available."""
    t = mixed()
    assert t.state.citizen_pool("mixed_1")                                  # Monks not in sight
    effect = {"choose": [{"gain": {"gold": 3}}, {"take_card": {"kind": "citizen", "name": "Monk"}}]}
    assert [c for c, _ in options(t.state, 0, effect)] == [[0]]
    on_top = {"choose": [{"gain": {"gold": 3}}, {"take_card": {"kind": "citizen", "name": "Cleric"}}]}
    assert [c for c, _ in options(t.state, 0, on_top)] == [[0], [1, "mixed_1"]]


def test_a_returned_citizen_goes_back_on_the_stack_of_its_number():
    """[BR p.19] a Citizen 'back on top of its stack' (VP-17): in the variant, its Activation number's."""
    t = mixed().give(0, "alchemist")
    alchemist = t.seat(0).citizens[-1]
    assert t.state.home(alchemist) == "mixed_9_10"


def test_the_table_reports_the_face_up_citizens_and_only_in_the_variant():
    """[BR p.18] 'then deal 1 Citizen face up on top of the stack': at a table, 'setup.citizens'."""
    setup = {"domains": ["granary", "barracks", "chapel", "keep", "foxgrove"],
             "dukes": [["duke_ash", "duke_bran"], ["duke_cora", "duke_dara"]], "first_player": 0}
    cases = [(MIXED, setup, "setup.citizens: 'then deal 1 Citizen face up"),
             (MIXED, {**setup, "citizens": ["miner"] + TOPS[1:]},
              "setup.citizens.0: 'miner' cannot be on the Activation 1 stack, which shuffles together 'cleric' and "
              "'monk': name its type, or a copy id such as 'cleric#1' [BR p.18]"),
             (MIXED, {**setup, "citizens": ["miner#1"] + TOPS[1:]}, "setup.citizens.0: 'miner#1' cannot be on"),
             (MIXED, {**setup, "citizens": ["cleric#9"] + TOPS[1:]},
              "setup.citizens.0: there is no 'cleric#9': the cleric copies of the Activation 1 stack are cleric#1 to "
              "cleric#6"),
             (MIXED, {**setup, "citizens": ["Cleric"] + TOPS[1:]}, "name the Citizen by its id, 'cleric', not 'Cleric'"),
             (MIXED, {**setup, "citizens": ["Cleric#2"] + TOPS[1:]}, "by its id, 'cleric#2', not 'Cleric#2'"),
             (None, {**setup, "citizens": TOPS}, "only the Mixed Citizen Variant deals Citizens face up"),
             ({**MIXED, "citizen_types": TOPS}, {**setup, "citizens": TOPS}, "leave it null [BR p.18] (VP-41)"),
             ({"variant": ["mixed_citizens", "standard"]}, {**setup, "citizens": TOPS}, "'standard' is sent alone")]
    for opts, table, words in cases:
        with pytest.raises(InvalidCreation) as info:
            R.setup(["Anne", "Ben"], opts, None, TableChance(), table)
        assert any(words in p for p in info.value.problems), (words, info.value.problems)
    events = R.setup(["Anne", "Ben"], {"variant": ["mixed_citizens"]}, None, TableChance(), {**setup, "citizens": TOPS})
    assert of(events, "CenterLaidOut")[0]["citizens"]["mixed_9_10"][-1] == "rogue#1"


def test_the_server_deals_the_face_up_citizens_from_its_seed():
    """VP-40: served, the face-up Citizens are drawn from the seed; nothing else is dealt."""
    tops = set()
    for k in range(8):
        events = R.setup(["A", "B", "C"], MIXED, None, ServerChance(f"{k:02x}" * 32, 0), None)
        laid = of(events, "CenterLaidOut")[0]["citizens"]
        assert all(p[:-1] == [FACE_DOWN] * 4 and p[-1] != FACE_DOWN for p in laid.values())
        tops.add(laid["mixed_1"][-1].split("#")[0])
    assert tops == {"monk", "cleric"}


def test_a_type_whose_number_is_no_stacks_stays_in_the_box():
    """VP-41: custom content with a Citizen on 9 alone: no stack is its; the rest is mixed."""
    content = copy.deepcopy(R.default_content)
    content["id"] = "a-nine"
    content["citizens"].append({**copy.deepcopy(content["citizens"][0]), "id": "seer", "name": "Seer", "activation": [9]})
    t = Table(players=2, options=MIXED, content=content, citizens=TOPS)
    assert sum(1 for c in t.state.box if c.startswith("seer#")) == 6
    assert all(not c.startswith("seer#") for st in STACKS for c in t.state.citizen_pool(st))


def test_crimson_seas_plays_the_mixed_citizen_variant_too():
    """[CS New Icons] 'All other cards can be freely integrated with the base game' (R-CS-10, VP-45):
    the variant is played with the expansion, and the Flaming Devourer's banish turns up the next."""
    t = SeasTable(options=MIXED, citizens=TOPS)
    assert t.state.citizens["mixed_4"] == [FACE_DOWN] * 4 + ["archer#1"]
    t.event_at("devourer", "hills")
    t.roll(4, 4)
    item = next(i for i in t.state.items if i["source"] == "devourer")
    events = t.do(0, {"type": "harvest", "item": item["id"], "choice": [True, "mixed_4"], "revealed": ["archer"]})
    assert "archer#1" in t.state.banished and of(events, "CitizenRevealed")[0]["card"] == "archer#2"
    assert CS.setup(["A", "B"], {"variant": ["mixed_citizens"], "expansions": ["crimson_seas", "monster_events"]},
                    None, ServerChance("ab" * 32, 0), None)
