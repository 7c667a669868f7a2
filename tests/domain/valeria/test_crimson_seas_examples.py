"""The Crimson Seas rulebook's worked examples (../shared/rules/crimson-seas.txt) and its rules,
as given / when / then at a table. Card values are the examples' where the reference content
(invented) differs."""
from __future__ import annotations

import copy

import pytest

from domain.chance import TableChance
from domain.ruleset import InvalidCreation
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria.rules import moment, points
from tests.domain.valeria.table import SeasTable, of


def items_of(t, seat):
    return [i for i in t.state.items if i["seat"] == seat]


def test_the_coxswain_example_kira_takes_two_of_a_kind_and_a_map_david_a_map():
    """[CS Harvest Phase] 'Kira rolled a 3 and a 4. She has no Citizens with those Activation Numbers,
    so she activates her Coxswain and takes 2 matching Resources of her choice and 1 Map token.
    David also has no Citizens with those Activation Numbers, so he activates his Coxswain and
    takes 1 Map.'"""
    t = SeasTable()
    t.roll(3, 4)
    kira, david = items_of(t, 0), items_of(t, 1)
    assert [i["source"] for i in kira] == ["coxswain@0"] and [i["source"] for i in david] == ["coxswain@1"]
    maps = t.seat(0).maps, t.seat(1).maps
    t.do(0, {"type": "harvest", "item": kira[0]["id"], "choice": ["strength"]})
    t.do(1, {"type": "harvest", "item": david[0]["id"], "choice": [1]})
    assert t.seat(0).strength == 2 and t.seat(0).maps == maps[0] + 1 and t.seat(1).maps == maps[1] + 1


def test_the_coxswain_does_not_activate_twice_and_the_base_consolation_is_gone():
    """[CS Harvest Phase] 'The Coxswain does not activate two times if both conditions are met.' and
    'The following paragraph from the base game rules no longer applies ...'"""
    t = SeasTable()
    t.roll(5, 5)   # the Peasants activate (twice) and it is doubles: the Coxswain once
    assert [i["source"] for i in t.state.items if i["seat"] == 0].count("coxswain@0") == 1
    t2 = SeasTable()
    events = t2.roll(1, 2)
    assert all(i["source"] != "no_activation" for i in of(events, "CitizensActivated")[0]["items"])


def test_the_bryne_example_a_plus_monster_costs_one_more_per_copy_slain():
    """[CS Monster Cards] 'David wants to slay a Bryne with a Magic of 1 and Strength of 2+. He
    already has 2 Bryne in his Victory pile, so he pays 1 Magic and 4 Strength to the Bank to slay
    the Bryne.' (VA-23: the example's Strength 2+.)"""
    content = copy.deepcopy(CS.default_content)
    content["id"] = "bryne"
    kobold = next(m for m in content["monsters"] if m["id"] == "kobold")
    kobold.update(name="Bryne", strength=2, magic=1, plus=["strength"])
    t = SeasTable(content=content)
    t.give(0, "kobold", 2)
    t.to_actions()
    t.on_top("kobold", "hills")
    t.purse(0, strength=4, magic=1)
    events = t.do(0, {"type": "slay", "stack": "hills"})
    assert of(events, "CardGained")[0]["paid"] == {"strength": 4, "magic": 1}


def test_the_goods_example_three_artifacts_and_two_jewels_score_eleven():
    """[CS Goods Tokens] 'Kira has 3 Artifacts and 2 Jewels. At the end of the game, she gains 7
    Victory Points for the Artifacts and 4 for the Jewels for a total of 11 Victory Points.'"""
    t = SeasTable()
    t.seat(0).goods = ["artifacts#2", "artifacts#3", "artifacts#4", "jewels#2", "jewels#3"]
    for g in t.seat(0).goods:
        t.state.goods_supply.remove(g)
    assert points(t.state, 0)["goods"] == 11
    t.state.exhausted = ["a", "b", "c", "d"]                   # the end is met: play the round out
    for seat in (0, 1):
        t.to_actions()
        t.do(seat, {"type": "gain_resource", "resource": "gold"})
        t.do(seat, {"type": "gain_resource", "resource": "gold"})
    assert t.state.finished and t.state.result["points"][0]["goods"] == 11


def test_tomes_score_nothing_unless_the_content_gives_them_victory_points():
    """[CS Scoring] "The following scoring opportunities are added to the list: Total Victory
    Points from Goods ... Total Victory Points from rescued Nobles": not Tomes. The reference
    content gives them none; content may (crimson_seas.tomes.vp_each), as a table reading its
    Island Board would (VA-13)."""
    t = SeasTable()
    t.seat(0).tomes = ["tome_gold#2", "tome_magic#3"]
    t.seat(0).tomes_down = ["tome_strength#2"]
    assert points(t.state, 0)["tomes"] == 0
    cs = t.state.content["crimson_seas"]
    t.state.content = {**t.state.content, "crimson_seas": {**cs, "tomes": {**cs["tomes"], "vp_each": 1}}}
    assert points(t.state, 0)["tomes"] == 3


def test_the_first_tome_example_a_gold_tome_pays_the_gold():
    """[CS Tome Tokens] 'Kira wants to recruit her first Hydromancer with a cost of 1 Gold. She flips
    her Gold Tome token to pay the Gold cost and takes the Hydromancer into her tableau.' and 'After
    your End Phase (after handing dice to the next player), flip any face-down Tome tokens face-up.'
    (The reference Archer costs 1 Gold.)"""
    t = SeasTable().give(0, "tome_gold")
    t.to_actions()
    t.purse(0, gold=0)
    t.do(0, {"type": "recruit", "stack": "archer", "tomes": {"gold": 1}})
    assert t.seat(0).tomes == [] and t.seat(0).tomes_down == ["tome_gold#2"]
    events = t.do(0, {"type": "gain_resource", "resource": "gold"})
    assert [e["type"] for e in events][-3:] == ["TurnEnded", "TomesRestored", "TurnStarted"]
    assert t.seat(0).tomes == ["tome_gold#2"]


def test_the_second_tome_example_strength_tome_magic_tome_and_three_magic():
    """[CS Tome Tokens] 'Kira wants to slay a Dire Bear with a Strength of 5. She flips her Strength
    Tome token to pay for 1 Strength, then uses 1 Magic Tome token to augment the Strength.
    Finally, she uses 3 Magic tokens to augment her Strength for a toal of 5 Strength.' (The
    reference Hill Troll has Strength 5.)"""
    t = SeasTable().give(0, "tome_strength").give(0, "tome_magic")
    t.to_actions()
    t.on_top("hill_troll", "hills")          # Strength 5, no Magic, like the Dire Bear
    t.purse(0, strength=0, magic=3)
    # as the example counts it, 'magic' the 3 tokens alone: refused, saying that 'magic' counts the
    # Magic Tome too, and that a Strength Tome spent allows Magic to stand in (an audit was misled)
    refused = t.rejects(0, {"type": "slay", "stack": "hills", "magic": 3, "tomes": {"strength": 1, "magic": 1}},
                        "CANNOT_PAY")
    assert "a Magic Tome's included" in refused.detail and "or Strength Tome is spent" in refused.detail
    assert refused.ruling == "VA-11"
    events = t.do(0, {"type": "slay", "stack": "hills", "magic": 4, "tomes": {"strength": 1, "magic": 1}})
    assert of(events, "CardGained")[0]["paid"] == {"magic": 3, "tomes": ["tome_magic#2", "tome_strength#2"]}
    t.purse(0, strength=0, magic=9)
    t.on_top("hill_troll", "hills")
    refused = t.rejects(0, {"type": "slay", "stack": "hills", "magic": 4}, "CANNOT_PAY")   # no Strength at all
    assert "(each Tome named once, face up; " in refused.detail


def test_the_skeleton_army_example_flips_davids_citizen_before_the_harvest():
    """[CS Monster Event Cards, Roll Phase] 'Kira rolled a "3" and a "4". The Skeleton Army is in play.
    She flips David's Smuggler face-down in his tableau before the Harvest Phase, preventing David
    from activating the Smuggler's power.' (The reference Thief is on 7, like the Smuggler.)"""
    t = SeasTable().give(1, "thief").event_at("skeleton_army", "monk")
    t.roll(3, 4)
    assert [i["source"] for i in t.state.items] == ["skeleton_army"]      # before the Harvest
    thief = t.seat(1).citizens[-1]
    t.do(0, {"type": "harvest", "item": t.state.items[0]["id"], "choice": [True, {"seat": 1, "card": thief}]})
    assert thief in t.seat(1).flipped
    assert all(i["source"] != thief for i in t.state.items)


def test_sixes_feed_exekratys_one_token_each():
    """[CS Roll Phase] a 6, or a sum of 6: one token of your choice into Exekratys; 6-6 is two (VA-9)."""
    for dice, k in (((6, 1), 1), ((6, 6), 2), ((3, 3), 1), ((2, 4), 1), ((1, 2), 0)):
        t = SeasTable()
        t.purse(0, gold=5, magic=1)
        t.do(0, {"type": "roll_dice", "dice": list(dice)})
        t.do(0, {"type": "announce_roll"})
        while any(i["source"] == "exekratys" for i in t.state.items):
            item = next(i for i in t.state.items if i["source"] == "exekratys")
            offers = [i for i in t.state.items if i["source"] == "exekratys"]   # VA-18: either offering may go first
            assert R_legal(t) == [{"type": "harvest", "item": i["id"], "choice": c} for i in offers
                                  for c in (["gold"], ["magic"])] or t.seat(0).magic == 0
            t.do(0, {"type": "harvest", "item": item["id"], "choice": ["gold"]})
        assert t.state.exekratys["gold"] == 2 + k


def R_legal(t):
    return CS.legal_commands(t.state, 0)


def test_while_the_sixes_feed_exekratys_the_others_are_told_so_not_that_a_thief_acts():
    """[CS Roll Phase] the offerings come at the end of the Roll Phase, before any Citizen: another
    player who tries to harvest meanwhile is told that, under that section (the outside audit met
    'the Thief acts first' here, with no Thief in play)."""
    t = SeasTable()
    t.purse(0, gold=5, magic=1)   # a choice of token: the offerings wait for it
    t.do(0, {"type": "roll_dice", "dice": [6, 6]})
    t.do(0, {"type": "announce_roll"})
    refused = t.rejects(1, {"type": "harvest", "item": t.state.items[0]["id"], "choice": []}, "NOT_YOUR_DECISION")
    assert "Exekratys" in refused.detail and "Thief" not in refused.detail
    assert refused.rule == "CS Roll Phase"
    assert "Exekratys" in moment(t.state)


def test_sail_to_araby_buys_at_the_slot_prices_and_the_island_slides_down():
    """[CS Sail] 1 Map, the Gold beside each token (6/4/2 top to bottom), then refresh."""
    t = SeasTable()
    t.to_actions()
    t.purse(0, gold=8)
    maps = t.seat(0).maps
    events = t.do(0, {"type": "sail", "island": "araby", "slots": [0, 2], "revealed": ["spices#1", "spices#2"]})
    assert t.seat(0).goods == ["fabrics#1", "artifacts#1"] and t.seat(0).gold == 0 and t.seat(0).maps == maps - 1
    assert of(events, "IslandRefreshed")[0]["slots"] == ["spices#1", "spices#2", "jewels#1"]


def test_sail_to_exekratys_takes_every_token_of_one_type_and_amarynth_rescues_a_noble():
    t = SeasTable()
    t.to_actions()
    t.do(0, {"type": "sail", "island": "exekratys", "resource": "magic"})
    assert t.state.exekratys["magic"] == 0 and of(t.events, "ExekratysTaken")[-1]["amount"] == 2
    t.purse(0, strength=9)
    t.do(0, {"type": "sail", "island": "amarynth", "slot": 1, "resource": "strength", "revealed": ["marshal"]})
    assert t.seat(0).nobles == ["doom"] and t.state.amarynth == ["augur", "marshal", "saint"]


def test_a_noble_counts_for_a_domain_role_and_costs_one_more_per_noble():
    t = SeasTable()
    t.seat(0).nobles = ["provider"]
    from domain.valeria.rules import rescue_cost, roles_met
    assert roles_met(t.state, 0, "granary") and rescue_cost(t.state, 0) == 10


def test_a_monster_event_is_revealed_on_an_emptied_stack_and_replaced_from_the_bottom_when_slain():
    """[CS Action Phase] the top of the Exhausted stack; once slain, an Exhausted card from the bottom."""
    t = SeasTable()
    del t.state.citizens["monk"][1:]
    t.to_actions()
    t.purse(0, gold=9)
    events = t.do(0, {"type": "recruit", "stack": "monk", "revealed": ["leviathan"]})
    assert of(events, "EventRevealed") == [{"type": "EventRevealed", "stack": "monk", "card": "leviathan"}]
    assert "monk" in t.state.exhausted            # [CS End Phase] it counts as exhausted
    t.purse(0, strength=6, magic=16)
    assert t.state.event_tokens.get("leviathan") is None
    events = t.do(0, {"type": "slay", "stack": "monk"})
    assert of(events, "ExhaustedCardPlaced") and "leviathan" in t.seat(0).victory
    assert t.state.events_on_top == 1             # a new Event never replaces a slain one


def test_the_leviathan_grows_on_a_six_up_to_ten():
    t = SeasTable().event_at("leviathan", "monk")
    t.state.event_tokens["leviathan"] = {"strength": 9}
    t.purse(0, gold=5)   # one kind of token: the offerings to Exekratys need no decision
    for _ in range(2):
        t.state.phase, t.state.dice = "roll", None
        t.state.items = []
        t.do(t.state.active, {"type": "roll_dice", "dice": [6, 2]})
        t.do(t.state.active, {"type": "announce_roll"})
    assert t.state.event_tokens["leviathan"]["strength"] == 10


def test_crimson_seas_refuses_other_expansions_and_base_content():
    with pytest.raises(InvalidCreation) as info:
        CS.setup(["A", "B"], {"expansions": ["flames_and_frost"]}, None, TableChance(), None)
    assert any("flames_and_frost" in p for p in info.value.problems)
    from domain.valeria import RULESET as R
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B"], None, CS.default_content, TableChance(), None)
    assert any("crimson-seas" in p for p in info.value.problems)


@pytest.mark.parametrize("path, value, words", [
    (("starting_resources",), {"gold": 3, "strength": 0, "magic": 1}, "2 Gold tokens and 1 Magic"),
    (("crimson_seas", "exekratys_start"), {"gold": 2, "strength": 2, "magic": 3}, "2 Strength, 2 Magic, and 2 Gold"),
    (("crimson_seas", "maps"), {"total": 20, "per_player": 3}, "2 Map tokens"),
    (("crimson_seas", "maps"), {"total": 25, "per_player": 2}, "20 Map Tokens"),
    (("crimson_seas", "rescue"), {"base": 8, "per_noble": 1}, "9 of any 1 Resource type"),
    (("crimson_seas", "goods", "set_vp"), [0, 2, 4, 7, 12, 18, 24], "2, 4, 7, 12, 18, 25"),
    (("crimson_seas", "goods", "per_type"), 5, "24 Goods Tokens"),
    (("crimson_seas", "tomes", "counts"), {"gold": 7, "strength": 7, "magic": 7}, "24 Tome Tokens"),
    (("crimson_seas", "nobles"), copy.deepcopy(CS.default_content["crimson_seas"]["nobles"][:4]), "16 Noble Cards"),
])
def test_what_the_rulebooks_print_is_not_card_data_an_operator_may_change(path, value, words):
    """[BR p.5] 'Give each player 2 Gold tokens and 1 Magic token.' [CS Components, Game Setup,
    Sail, Goods Tokens]: the Island Board's printed numbers. Content that contradicts them is refused."""
    content = copy.deepcopy(CS.default_content)
    content["id"] = "contradicts-the-rulebook"
    at = content
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    with pytest.raises(InvalidCreation) as info:
        CS.setup(["A", "B"], None, content, TableChance(), None)
    assert any(words in p for p in info.value.problems), info.value.problems


def test_a_sail_to_amarynth_may_rescue_no_noble():
    """[CS Sail] 'Amarynth: you may rescue 1 Noble by paying 9 ...': the visit is made, the Map
    spent, and nothing is rescued nor refreshed (VA-10)."""
    t = SeasTable()
    t.to_actions()
    t.purse(0, gold=0, strength=0, magic=0)
    assert {"type": "sail", "island": "amarynth"} in R_legal(t)
    maps = t.seat(0).maps
    events = t.do(0, {"type": "sail", "island": "amarynth"})
    assert t.seat(0).maps == maps - 1 and t.seat(0).nobles == [] and t.state.amarynth == ["augur", "doom", "saint"]
    assert not of(events, "IslandRefreshed")
    t.rejects(0, {"type": "sail", "island": "amarynth", "slot": 0}, "NO_SUCH_NOBLE")   # a slot needs its resource


@pytest.mark.parametrize("players, options, words", [
    (1, None, "players: solo play is not defined with Crimson Seas"),
    (1, {"variant": "solo"}, "options.variant: solo play is not defined with Crimson Seas"),
    (2, {"variant": ["solo"]}, "options.variant: solo play is not defined with Crimson Seas"),
    (2, {"edition": "second"}, "the 'second' edition is not supported"),
    (2, {"variant": "solo"}, "options.variant: solo play is not defined with Crimson Seas"),
    (2, {"variant": ["mixed_citizens", "solo"]}, "options.variant: solo play is not defined with Crimson Seas"),
    (2, {"expansions": ["crimson_seas", "undead_samurai"]}, "['crimson_seas', 'undead_samurai'] cannot be added"),
])
def test_crimson_seas_refuses_solo_the_second_edition_variants_and_other_expansions_with_reasons(players, options, words):
    """[CS Monster Event Cards] 'These rules also apply to Expansion Pack #02 - Undead Samurai': not
    served (VA-34, VP-10), nor solo with the expansion (VA-4)."""
    with pytest.raises(InvalidCreation) as info:
        CS.setup(["Kira", "David"][:players], options, None, TableChance(), None)
    assert any(words in p for p in info.value.problems), info.value.problems
    content = copy.deepcopy(CS.default_content)
    content["id"] = "second-edition"
    content["edition"] = "second"
    with pytest.raises(InvalidCreation) as info:
        CS.setup(["Kira", "David"], None, content, TableChance(), None)
    assert any("'second' is not supported" in p for p in info.value.problems), info.value.problems


def test_a_flipped_citizen_is_inactive_but_scored_face_up():
    """[CS Skeleton Army] 'The card is inactive for the rest of the game. At the end of the game, the
    player flips the card face-up and counts it for end-game points as normal.' (VA-31)"""
    t = SeasTable().give(1, "cleric", 2)
    clerics = [c for c in t.seat(1).citizens if c.startswith("cleric")]
    t.seat(1).flipped = [clerics[0]]
    t.seat(1).nobles = ["saint"]                               # 2 VP per Holy icon
    from domain.valeria.rules import roles_met
    assert points(t.state, 1)["nobles"] == 2 * 3              # both Clerics and the Saint, face up to score
    t.seat(1).nobles = []
    assert not roles_met(t.state, 1, "moonwell")               # Moonwell needs 2 Holy: one Cleric is face down
    t.seat(1).flipped = []
    assert roles_met(t.state, 1, "moonwell")


@pytest.mark.parametrize("island, supply, command", [
    ("araby", "goods_supply", {"type": "sail", "island": "araby", "slots": [2]}),
    ("nae_aerie", "tome_supply", {"type": "sail", "island": "nae_aerie", "slots": [2]}),
    ("amarynth", "noble_deck", {"type": "sail", "island": "amarynth", "slot": 0, "resource": "gold"}),
])
def test_an_island_that_cannot_fill_its_three_slots_meets_the_end(island, supply, command):
    """[CS Ending the Game] 'Goods tokens must be replenished, but there are not enough tokens to
    fill in all 3 slots.' (and the same for Tomes and Nobles); played out to equal turns (VA-17)."""
    t = SeasTable()
    getattr(t.state, supply).clear()
    t.to_actions()
    t.purse(0, gold=9)
    events = t.do(0, command)
    assert of(events, "IslandRefreshed")[0]["failed"] and t.state.island_failed == [island]
    events = t.do(0, {"type": "gain_resource", "resource": "gold"})
    assert of(events, "TurnEnded")[0]["conditions"] == ["island_empty"] and not t.state.finished
    t.to_actions()
    t.do(1, {"type": "gain_resource", "resource": "gold"})
    events = t.do(1, {"type": "gain_resource", "resource": "gold"})
    assert of(events, "GameEnded") and "goods" in t.state.result["points"][0]


@pytest.mark.parametrize("island, supply, slots", [("araby", "goods_supply", "araby"), ("nae_aerie", "tome_supply", "nae")])
def test_a_short_supply_fills_the_cheapest_empty_slots_next_to_the_tokens_moved_down(island, supply, slots):
    """[CS Sail step 4] 'move Goods tokens down to cover up empty slots. (In this way, they become
    less expensive.) Draw new Goods tokens from the supply and place them face-up in any remaining
    empty slots.' With one token left to draw after buying the bottom two, the token left on the
    island moves to the bottom slot and the drawn one goes beside it: only the dearest slot stays
    empty (VA-2)."""
    t = SeasTable()
    top = getattr(t.state, slots)[0]
    left = getattr(t.state, supply)[:1]
    setattr(t.state, supply, list(left))
    t.to_actions()
    t.purse(0, gold=20)
    events = t.do(0, {"type": "sail", "island": island, "slots": [1, 2], "revealed": left})
    refreshed = of(events, "IslandRefreshed")[0]
    assert refreshed["slots"] == [None, left[0], top] and refreshed["drawn"] == left and refreshed["failed"]
    assert getattr(t.state, slots) == [None, left[0], top]


def test_the_resting_player_activates_no_coxswain():
    """[BR p.16] 'The Resting Player does not harvest Resources during the Active Player's turn.' (VA-4)"""
    t = SeasTable(players=5)
    events = t.roll(1, 2)
    assert t.state.resting == 4
    assert {i["seat"] for i in of(events, "CitizensActivated")[0]["items"]} == {0, 1, 2, 3}


def test_the_ghost_ship_takes_a_gold_when_revealed_and_every_roll_and_its_slayer_takes_them():
    """[CS Monster Event Card Clarifications] 'Ghost Ship: When revealed, and at the end of each
    player's Roll Phase, the Active Player must place 1 Gold from their supply onto the Ghost Ship.
    When a player slays this Monster they gain all the Gold tokens on the this card as their Reward.'"""
    t = SeasTable()
    del t.state.citizens["monk"][1:]
    t.to_actions()
    t.purse(0, gold=5)
    cost = t.state.card(t.state.citizens["monk"][-1])["cost"]
    t.do(0, {"type": "recruit", "stack": "monk", "revealed": ["ghost_ship"]})
    assert t.state.event_tokens["ghost_ship"] == {"gold": 1} and t.seat(0).gold == 5 - cost - 1
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    t.purse(1, gold=1)
    t.roll(1, 2)                                              # David's Roll Phase: his Gold goes on it
    assert t.state.event_tokens["ghost_ship"] == {"gold": 2} and t.seat(1).gold == 0
    t.harvest_all()
    t.purse(1, gold=0, strength=6, magic=6)
    events = t.do(1, {"type": "slay", "stack": "monk"})
    assert of(events, "Gained")[0]["gained"] == {"gold": 2} and "ghost_ship" not in t.state.event_tokens


def test_the_giants_banish_a_face_up_domain_and_the_next_is_revealed():
    """[CS Monster Event Card Clarifications] 'Giants of Ostendaar: When a "5" is rolled, the Active
    Player may Banish (remove from the game) 1 face-up Domain card from the Center Stacks. Reveal
    the next Domain by flipping it over if there is still a Domain card in the stack.'"""
    t = SeasTable().event_at("giants", "monk")
    t.roll(1, 4)                                              # the sum is 5
    item = next(i for i in t.state.items if i["source"] == "giants")
    events = t.do(0, {"type": "harvest", "item": item["id"], "choice": [True, "domain_1"], "revealed": ["moonwell"]})
    assert "granary" in t.state.banished and t.state.domains["domain_1"] == {"up": "moonwell", "down": 1}
    assert of(events, "DomainRevealed")


def test_the_flaming_devourer_banishes_a_citizen_on_a_four_once_on_doubles():
    """[CS Monster Event Card Clarifications] 'Flaming Devourer: When a "4" is rolled, the Active Player
    may Banish (remove from the game) 1 Citizen card from the Center Stacks.' [CS Activation
    Number] 'The card does not activate twice in the case of doubles.'"""
    t = SeasTable().event_at("devourer", "monk")
    t.roll(4, 4)
    assert [i["source"] for i in t.state.items].count("devourer") == 1
    item = next(i for i in t.state.items if i["source"] == "devourer")
    top = t.state.citizens["archer"][-1]
    t.do(0, {"type": "harvest", "item": item["id"], "choice": [True, "archer"]})
    assert top in t.state.banished


def test_the_pirate_blockade_keeps_the_rolled_citizens_from_being_gained():
    """[CS Monster Event Card Clarifications] 'Pirate Blockade: During the Action Phase, the values of
    each dice and the sum of both dice rolled during the Roll Phase may not be gained. This includes
    the Recruit a Citizen action, and any instances where a Monster or Domain card would allow a
    player to gain that Citizen.'"""
    t = SeasTable().event_at("blockade", "knight")
    t.to_actions(1, 2)                                        # 1, 2 and 3 are blockaded
    t.purse(0, gold=9)
    blockade = t.rejects(0, {"type": "recruit", "stack": "monk"}, "BLOCKADE")
    assert (blockade.rule, blockade.ruling) == ("CS Monster Event Card Clarifications: Pirate Blockade", "VA-32")
    legal = {c.get("stack") for c in CS.legal_commands(t.state, 0) if c["type"] == "recruit"}
    assert legal.isdisjoint({"monk", "merchant", "mercenary"}) and "archer" in legal
    t.on_top("wraith", "ruins")                               # its reward: a Citizen of 3 Gold or less
    t.purse(0, strength=4, magic=2)
    t.do(0, {"type": "slay", "stack": "ruins"})
    offered = {c["choice"][0] for c in CS.legal_commands(t.state, 0) if c["choice"]}
    assert offered and offered.isdisjoint({"monk", "merchant", "mercenary"})


def test_the_warden_lies_directly_above_the_boss_whatever_its_strength():
    """[CS New Monster Icons] 'During Setup, the Warden is placed above the Boss Monster (below all
    other Monsters) in its Monster Area stack, regardless of its Strength value.' (VA-25: 6 a stack,
    7 at five players)"""
    t = SeasTable()
    hills = [c.split("#")[0] for c in t.state.monsters["hills"]]      # bottom first
    assert hills == ["giant", "stone_warden", "hill_troll", "hill_troll", "kobold", "kobold"]
    assert len(SeasTable(players=5).state.monsters["hills"]) == 7


def test_the_end_of_roll_phase_steps_go_in_the_order_the_active_player_chooses():
    """[CS Roll Phase] the Exekratys offering and [CS Monster Event Cards] the Ghost Ship's Gold both
    come 'at the end of the Roll Phase'; BR p.15: 'you choose in which order you would like to
    trigger the powers' (VA-18). With 1 Gold and 1 Magic, Kira feeds the Ghost Ship first."""
    t = SeasTable().event_at("ghost_ship", "monk")
    t.purse(0, gold=1, magic=1)
    t.roll(6, 1)
    zero = [i for i in t.state.items if i.get("tier") == 0]
    assert sorted(i["source"] for i in zero) == ["exekratys", "ghost_ship"]
    ship = next(i for i in zero if i["source"] == "ghost_ship")
    assert {"type": "harvest", "item": ship["id"], "choice": []} in R_legal(t)
    t.do(0, {"type": "harvest", "item": ship["id"], "choice": []})
    assert t.state.event_tokens["ghost_ship"] == {"gold": 1} and t.seat(0).gold == 0
    assert t.state.exekratys["magic"] == 3 and t.seat(0).magic == 0      # only Magic left: it went by itself


def test_a_tome_never_pays_a_harvest_exchange_whose_gain_comes_from_the_bank():
    """[CS Tome Tokens] 'You may not use your Tome to take a Resource from the Bank.' David, off turn
    with no Gold but a Gold Tome, may not pay his Monk's exchange (1 Gold to gain 2 Magic) with it:
    the Monk's Magic would come from the Bank (VA-22). With a Gold token he may."""
    t = SeasTable().give(1, "monk").give(1, "tome_gold")
    t.purse(1, gold=0, magic=0)
    t.roll(1, 3)
    monk = next(i for i in t.state.items if i["seat"] == 1 and i["source"].startswith("monk"))
    legal = CS.legal_commands(t.state, 1)
    assert [c for c in legal if c.get("item") == monk["id"]] == [{"type": "harvest", "item": monk["id"], "choice": [False]}]
    refused = t.rejects(1, {"type": "harvest", "item": monk["id"], "choice": [True], "tomes": {"gold": 1}}, "TOME_FROM_BANK")
    assert "take a Resource from the Bank" in refused.detail and refused.ruling == "VA-22"
    # no Tome named ({}) is no Tome flipped: the exchange is then refused for want of a Gold token
    t.rejects(1, {"type": "harvest", "item": monk["id"], "choice": [True], "tomes": {}}, "CHOICE_NOT_ALLOWED")
    t.purse(1, gold=1, magic=0)
    t.do(1, {"type": "harvest", "item": monk["id"], "choice": [True]})
    assert t.seat(1).gold == 0 and t.seat(1).magic == 2 and t.seat(1).tomes == ["tome_gold#2"]


def test_a_table_setup_naming_goods_and_tomes_by_type_is_told_the_copy_ids_to_send():
    """Issue 17, item 4: before a game exists no host view lists ids, so the refusal and the
    setup schema say what a Goods or Tome id looks like (a black-box app sent 'fabrics', 'gold')."""
    with pytest.raises(InvalidCreation) as refused:
        SeasTable(araby=("fabrics", "jewels", "spices"), nae_aerie=("gold", "magic", "strength"))
    araby, nae = refused.value.problems
    assert araby.startswith("setup.araby: 'fabrics' cannot have been drawn from there (item 1: a copy id of the "
                            "Goods supply, '<type>#<k>' with k from 1 to 6, such as 'artifacts#1')")
    assert nae.startswith("setup.nae_aerie: 'gold' cannot have been drawn from there (item 1: a copy id of the "
                          "Tome supply, 'tome_<resource>#<k>', such as 'tome_gold#1')")
    described = CS.table_setup_schema["properties"]
    assert "'fabrics#1'" in described["araby"]["description"] and "'tome_gold#1'" in described["nae_aerie"]["description"]
    SeasTable(araby=("fabrics#2", "jewels#6", "spices#1"), nae_aerie=("tome_gold#8", "tome_magic#1", "tome_strength#3"))


def test_a_table_refilling_two_slots_is_asked_for_both_at_once():
    """docs/api.md section 7: a refusal's count is the whole list's. A Sail that buys two Goods
    turns two tokens up to refill Araby, and the first refusal says so (it said 1 before)."""
    t = SeasTable()
    t.to_actions()
    t.purse(0, gold=9)
    sail = {"type": "sail", "island": "araby", "slots": [1, 2]}
    for sent in ({}, {"revealed": []}):
        missing = t.rejects(0, {**sail, **sent}, "TABLE_OUTCOME_REQUIRED")
        assert "in order; 2 are needed (item 1: a Goods token refilling Araby" in missing.detail
    one = t.state.goods_supply[0]
    short = t.rejects(0, {**sail, "revealed": [one]}, "TABLE_OUTCOME_REQUIRED")
    assert "in order; 2 are needed (item 2: a Goods token refilling Araby" in short.detail
    by_type = t.rejects(0, {**sail, "revealed": [one.split("#")[0], t.state.goods_supply[1]]}, "TABLE_OUTCOME_INVALID")
    assert "by its copy id such as 'fabrics#2'" in by_type.detail   # a type is not a token: the copy id is
    events = t.do(0, {**sail, "revealed": [one, t.state.goods_supply[1]]})
    assert len(of(events, "IslandRefreshed")[0]["drawn"]) == 2


@pytest.mark.parametrize("players, options, words", [
    (6, None, "players: Crimson Seas is for 2 to 5 players, not 6 [BR p.4]"),
    (2, {"expansions": ["monster_events", "monster_events"]},
     "options.expansions: 'monster_events' listed more than once: name each expansion once "
     "[CS Monster Event Cards] (VP-43)"),
])
def test_too_many_players_and_an_expansion_named_twice_are_refused_for_what_they_are(players, options, words):
    with pytest.raises(InvalidCreation) as info:
        CS.setup(["A", "B", "C", "D", "E", "F"][:players], options, None, TableChance(), None)
    assert words in info.value.problems, info.value.problems


@pytest.mark.parametrize("kind, prices", [("goods", [2, 4, 6]), ("tomes", [7, 5, 5]), ("goods", [4, 4, 4])])
def test_island_prices_that_do_not_fall_toward_the_bottom_are_refused(kind, prices):
    """VA-2, [CS Sail] 'move Goods tokens down to cover up empty slots. (In this way, they become
    less expensive.)': each slot costs more than the one below it. Rising prices were accepted
    (outside review), and the refresh then made the tokens dearer."""
    content = copy.deepcopy(CS.default_content)
    content["crimson_seas"][kind]["prices"] = prices
    with pytest.raises(InvalidCreation) as refused:
        CS.setup(["A", "B"], None, content, TableChance(), None)
    (problem,) = [p for p in refused.value.problems if p.startswith(f"content.crimson_seas.{kind}.prices: ")]
    assert "less expensive" in problem and f"not {prices}" in problem and problem.endswith("[CS Sail] (VA-2)")
