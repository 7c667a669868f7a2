"""The effect language (domain/valeria/effects.py), one construct at a time: what each one
offers the player and what it does, through the one engine that reads every card."""
from __future__ import annotations

from domain.valeria.effects import has_choice, options
from tests.domain.valeria.table import Table


def opts(t, effect, seat=0):
    return options(t.state, seat, effect)


def test_gain_takes_from_the_bank_and_counts_the_tableau():
    t = Table().give(0, "archer", 2).give(0, "granary")
    assert opts(t, {"gain": {"gold": 2, "vp": 1}}) == [([], [("gain", {"gold": 2, "vp": 1})])]
    per_soldier = {"gain": {"strength": {"count": {"citizens": {"role": "soldier"}}, "times": 2, "plus": 1}}}
    assert opts(t, per_soldier) == [([], [("gain", {"strength": 5})])]
    by_name = {"gain": {"gold": {"count": {"citizens": {"name": "Peasant"}}}}}   # the Starter counts by name
    assert opts(t, by_name)[0][1] == [("gain", {"gold": 1})]
    halved = {"gain": {"magic": {"count": {"domains": {}}, "div": 2}}}
    assert opts(t, halved)[0][1] == [("gain", {"magic": 0})]
    assert not has_choice(per_soldier)


def test_wild_is_one_resource_type_of_your_choice():
    t = Table()
    assert opts(t, {"wild": 2}) == [(["gold"], [("gain", {"gold": 2})]), (["strength"], [("gain", {"strength": 2})]),
                                   (["magic"], [("gain", {"magic": 2})])]


def test_all_does_each_in_order_and_choose_exactly_one():
    t = Table()
    both = opts(t, {"all": [{"gain": {"gold": 1}}, {"wild": 1}]})
    assert len(both) == 3 and both[0] == (["gold"], [("gain", {"gold": 1}), ("gain", {"gold": 1})])
    one = opts(t, {"choose": [{"gain": {"gold": 1}}, {"gain": {"magic": 1}}]})
    assert one == [([0], [("gain", {"gold": 1})]), ([1], [("gain", {"magic": 1})])]


def test_may_is_optional():
    t = Table()
    assert opts(t, {"may": {"gain": {"vp": 1}}}) == [([False], []), ([True], [("gain", {"vp": 1})])]


def test_an_exchange_is_optional_and_only_with_what_you_hold_so_far():
    t = Table().purse(0, gold=0)
    monk = {"exchange": {"pay": {"gold": 1}, "gain": {"gain": {"magic": 2}}}}
    assert opts(t, monk) == [([False], [])]
    t.purse(0, gold=1)
    assert opts(t, monk)[1] == ([True], [("pay", {"gold": 1}), ("gain", {"magic": 2})])
    t.purse(0, gold=0)
    after_gain = opts(t, {"all": [{"gain": {"gold": 1}}, monk]})   # spend what was just gained
    assert ([True], [("gain", {"gold": 1}), ("pay", {"gold": 1}), ("gain", {"magic": 2})]) in after_gain


def test_take_from_one_opponent_up_to_the_most_they_have():
    t = Table(players=3).purse(1, gold=5).purse(2, magic=1)
    got = dict((str(c), o) for c, o in opts(t, {"take_from": {"resources": ["gold", "magic"], "max": 3}}))
    assert got["[{'seat': 1, 'resource': 'gold'}]"] == [("take", 1, "gold", 3)]
    assert got["[{'seat': 2, 'resource': 'magic'}]"] == [("take", 2, "magic", 1)]
    assert len(got) == 4


def test_take_card_a_free_top_card_within_its_cost():
    t = Table()
    cheap = [c for c, _ in opts(t, {"take_card": {"kind": "citizen", "max_cost": 1}})]
    assert cheap == [["monk"], ["merchant"], ["archer"]]
    domains = [c for c, _ in opts(t, {"take_card": {"kind": "domain"}})]
    assert domains == [["domain_1"], ["domain_2"], ["domain_3"], ["domain_4"], ["domain_5"]]
    for pile in t.state.citizens.values():
        pile.clear()
    assert opts(t, {"take_card": {"kind": "citizen"}}) == [([], [])]   # nothing to take


def test_banish_removes_a_top_card_from_the_game_and_the_next_domain_is_revealed():
    t = Table().purse(0, strength=9, magic=3).give(0, "temple")
    assert [c for c, _ in opts(t, {"banish": "citizen"})][:2] == [["monk"], ["merchant"]]
    t.to_actions()
    t.on_top("lich", "ruins")
    t.purse(0, strength=9, magic=3)
    t.do(0, {"type": "slay", "stack": "ruins"})
    monk = t.state.citizens["monk"][-1]
    t.do(0, {"type": "resolve", "choice": [True, "monk"]})
    assert monk in t.state.banished and monk not in t.state.citizens["monk"]


def test_ongoing_discounts_and_rewards_after_slaying():
    t = Table(options={"monster_areas": ["hills", "ruins", "forest", "valley", "swamp"]}).give(0, "armory").give(0, "hunting_lodge")
    t.to_actions()
    t.on_top("goblin", "swamp")
    t.purse(0, strength=1)
    events = t.do(0, {"type": "slay", "stack": "swamp"})                # Strength 2 - 1
    gains = [e["gained"] for e in events if e["type"] == "Gained"]
    assert gains == [{"gold": 1}, {"gold": 1}]                          # the Goblin, then the Hunting Lodge


# Crimson Seas constructs, on a Crimson Seas table

def test_gain_a_map_only_as_many_as_the_bank_holds():
    from tests.domain.valeria.table import SeasTable
    t = SeasTable()
    assert opts(t, {"gain": {"map": 2}}) == [([], [("gain", {"map": 2})])]
    t.state.bank_maps = 1
    assert opts(t, {"gain": {"map": 2}}) == [([], [("gain", {"map": 1})])]


def test_take_island_a_face_up_token_or_noble_by_slot():
    from tests.domain.valeria.table import SeasTable
    t = SeasTable()
    assert [c for c, _ in opts(t, {"take_island": "goods"})] == [[0], [1], [2]]
    assert opts(t, {"take_island": "noble"})[1] == ([1], [("take_island", "amarynth", 1)])
    t.state.nae = [None, None, None]
    assert opts(t, {"take_island": "tome"}) == [([], [])]


def test_place_on_self_and_add_tokens_and_flip_and_offer():
    from tests.domain.valeria.table import SeasTable
    t = SeasTable().give(1, "thief").purse(0, gold=1)
    assert opts(t, {"place_on_self": "gold"}) == [([], [("place", None, "gold")])]
    t.purse(0, gold=0)
    assert opts(t, {"place_on_self": "gold"}) == [([], [])]
    lev = options(t.state, 0, {"add_tokens": {"resource": "strength", "cap": 1}}, self_card="leviathan")
    assert lev == [([], [("add_tokens", "leviathan", "strength", 1)])]
    thief = t.seat(1).citizens[-1]
    assert opts(t, {"flip": "citizen"}) == [([{"seat": 1, "card": thief}], [("flip", 1, thief)])]  # never a Starter
    t.purse(0, strength=1, magic=1)
    assert [c for c, _ in opts(t, {"offer_exekratys": 1})] == [["strength"], ["magic"]]
    assert has_choice({"take_island": "goods"}) and not has_choice({"add_tokens": {"resource": "strength", "cap": 1}})
