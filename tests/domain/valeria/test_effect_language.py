"""The effect language (domain/valeria/effects.py), one construct at a time: what each one
offers the player and what it does, through the one engine that reads every card."""
from __future__ import annotations

import pytest

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
    # [BR p.19] "You may take less than 3 from a player if you wish" (VP-8): any amount from 0 up
    # to the most, which the pick without 'amount' takes
    assert got["[{'seat': 1, 'resource': 'gold', 'amount': 2}]"] == [("take", 1, "gold", 2)]
    assert got["[{'seat': 1, 'resource': 'gold', 'amount': 0}]"] == [("take", 1, "gold", 0)]
    assert "[{'seat': 1, 'resource': 'gold', 'amount': 4}]" not in got        # never more than the power's 3
    assert "[{'seat': 2, 'resource': 'magic', 'amount': 2}]" not in got       # nor than they hold
    amounts = {(1, "gold"): 3, (1, "magic"): 0, (2, "gold"): 0, (2, "magic"): 1}
    # the pick alone, and with 'amount' 0 up to the most, unless they hold none
    assert len(got) == sum(1 + (most + 1 if most else 0) for most in amounts.values())
    assert "[{'seat': 1, 'resource': 'magic', 'amount': 0}]" not in got


def test_take_from_with_nothing_to_take_still_resolves_by_itself():
    """One opponent, one resource, and they hold none: one way to resolve it, as before VP-8
    let the Thief take less (Valeria 1.2.0), so the Harvest resolves it without asking."""
    t = Table(players=2).purse(1, gold=0)
    assert len(opts(t, {"take_from": {"resources": ["gold"], "max": 3}})) == 1


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


def test_ongoing_discounts_and_rewards_after_slaying_in_the_order_the_player_chooses():
    """BR p.15: 'It is possible that two different powers can take effect at the same time. If this
    happens, you choose in which order you would like to trigger the powers.' (VP-4)"""
    from domain.valeria import RULESET as R
    t = Table(options={"monster_areas": ["hills", "ruins", "forest", "valley", "swamp"]}).give(0, "armory").give(0, "hunting_lodge")
    t.to_actions()
    t.on_top("goblin", "swamp")
    t.purse(0, strength=1)
    events = t.do(0, {"type": "slay", "stack": "swamp"})                # Strength 2 - 1
    assert not [e for e in events if e["type"] == "Gained"]             # two powers at once: the player orders them
    assert R.legal_commands(t.state, 0) == [{"type": "resolve", "choice": []}, {"type": "resolve", "choice": [], "reward": 1}]
    t.rejects(0, {"type": "resolve", "choice": [], "reward": 2}, "NO_SUCH_REWARD")
    events = t.do(0, {"type": "resolve", "choice": [], "reward": 1})     # the Hunting Lodge first
    assert [(e["source"], e["gained"]) for e in events if e["type"] == "Gained"] == [("hunting_lodge", {"gold": 1}),
                                                                                 (t.seat(0).victory[-1], {"gold": 1})]


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


# Discounts: one construct (content/schema.json $defs/ongoing.discount) for every price

def _seas(content_edit=None, **kw):
    import copy

    from domain.valeria import CRIMSON_SEAS as CS
    from tests.domain.valeria.table import SeasTable
    content = None
    if content_edit:
        content = copy.deepcopy(CS.default_content)
        content["id"] = "discount-test"
        for d in content["domains"]:
            if d["id"] in content_edit:
                d["ongoing"][0]["discount"] = content_edit[d["id"]]
    return SeasTable(content=content, **kw)


def _sails(t, island):
    from domain.valeria import CRIMSON_SEAS as CS
    return [c for c in CS.legal_commands(t.state, 0) if c["type"] == "sail" and c["island"] == island]


def test_a_goods_discount_lowers_each_token_bought_at_araby_never_below_zero():
    """Spice Wharf (invented): each Goods 1 Gold less. Slots 0 and 2 cost 5 + 1, not 6 + 2 (VA-11)."""
    t = _seas()
    t.to_actions()
    t.purse(0, gold=6)
    body = {"type": "sail", "island": "araby", "slots": [0, 2], "magic": 0}
    assert body not in _sails(t, "araby")                          # 8 Gold without it
    t.rejects(0, {**body, "revealed": ["spices#1", "spices#2"]}, "CANNOT_BUY")
    t.give(0, "spice_wharf")
    assert body in _sails(t, "araby")
    t.do(0, {**body, "revealed": ["spices#1", "spices#2"]})
    assert t.seat(0).gold == 0 and t.seat(0).goods == ["fabrics#1", "artifacts#1"]
    t = _seas({"spice_wharf": {"action": "goods", "amount": 3}}).give(0, "spice_wharf")
    t.to_actions()
    t.purse(0, gold=0)
    assert {"type": "sail", "island": "araby", "slots": [2], "magic": 0} in _sails(t, "araby")   # 2 - 3: free
    t.do(0, {"type": "sail", "island": "araby", "slots": [2], "revealed": ["spices#1"]})
    assert t.seat(0).goods == ["artifacts#1"]


def test_a_tome_discount_lowers_each_tome_bought_at_nae_aerie():
    """Scriptorium (invented): each Tome 1 Gold less; the bottom Tome costs 2, not 3."""
    t = _seas().give(0, "scriptorium")
    t.to_actions()
    t.purse(0, gold=2)
    assert {"type": "sail", "island": "nae_aerie", "slots": [2], "magic": 0} in _sails(t, "nae_aerie")
    assert not any(c.get("slots") == [1] for c in _sails(t, "nae_aerie"))     # 5 - 1 = 4 > 2
    t.do(0, {"type": "sail", "island": "nae_aerie", "slots": [2], "revealed": ["tome_gold#2"]})
    assert t.seat(0).tomes == ["tome_magic#1"] and t.seat(0).gold == 0


def test_a_noble_discount_ignores_the_plus_or_takes_an_amount_off_the_rescue():
    """Envoy's Hall (invented): the rescue costs 9, however many Nobles you have; an amount comes off 9 + n."""
    from domain.valeria.rules import rescue_cost
    t = _seas()
    t.seat(0).nobles = ["provider", "just"]
    assert rescue_cost(t.state, 0) == 11
    t.give(0, "envoys_hall")
    assert rescue_cost(t.state, 0) == 9
    t.to_actions()
    t.purse(0, magic=9)
    assert {"type": "sail", "island": "amarynth", "slot": 0, "resource": "magic"} in _sails(t, "amarynth")
    t.do(0, {"type": "sail", "island": "amarynth", "slot": 0, "resource": "magic", "revealed": ["marshal"]})
    assert t.seat(0).magic == 0 and t.seat(0).nobles[-1] == "augur"
    t = _seas({"envoys_hall": {"action": "noble", "amount": 2}}).give(0, "envoys_hall")
    t.seat(0).nobles = ["provider"]
    assert rescue_cost(t.state, 0) == 9 + 1 - 2


def test_ignoring_the_plus_when_recruiting_and_when_slaying():
    """Hiring Hall (invented): a second Peasant costs its base 2, not 2+1 [BR p.9]; Harpoon Works
    (invented): a '+' Monster costs its printed value however many you have slain [CS Monster Cards]."""
    from domain.valeria.rules import price
    t = _seas()
    assert price(t.state, 0, "recruit", "peasant")["amount"] == 3
    t.give(0, "hiring_hall")
    assert price(t.state, 0, "recruit", "peasant")["amount"] == 2
    plus = next(m for m in t.state.content["monsters"] if m.get("plus") and m["area"] in t.state.monsters)
    t.give(0, plus["id"], 2)
    stack = plus["area"]
    t.on_top(plus["id"], stack)
    dear = price(t.state, 0, "slay", stack)
    assert dear["amount"] + dear["magic"] == plus["strength"] + plus["magic"] + 2
    t.give(0, "harpoon_works")
    cheap = price(t.state, 0, "slay", stack)
    assert (cheap["amount"], cheap["magic"]) == (plus["strength"], plus["magic"])


def test_discount_content_is_checked():
    import copy

    import pytest

    from domain.chance import TableChance
    from domain.ruleset import InvalidCreation
    from domain.valeria import RULESET as R
    content = copy.deepcopy(R.default_content)
    content["id"] = "bad-discounts"
    content["domains"][0]["ongoing"] = [{"when": "always", "discount": {"action": "goods", "amount": 1}}]
    content["domains"][1]["ongoing"] = [{"when": "always", "discount": {"action": "build", "ignore_plus": True}}]
    content["domains"][2]["ongoing"] = [{"when": "always", "discount": {"action": "build", "amount": 1, "ignore_plus": True}}]
    with pytest.raises(InvalidCreation) as info:      # the schema: an amount or ignore_plus, not both
        R.setup(["A", "B"], None, content, TableChance(), None)
    assert any(p.startswith("content.domains.2.ongoing.0.discount") for p in info.value.problems)
    content["domains"][2]["ongoing"] = [{"when": "slay", "discount": {"action": "build", "amount": 1}}]
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B"], None, content, TableChance(), None)
    text = " ".join(info.value.problems)
    assert "crimson-seas ruleset" in text and "'+' to ignore" in text and "holds 'always'" in text


def test_the_reference_sets_use_every_construct_of_the_schema():
    """Every effect node, counter, ongoing power and discount the schema admits appears in the
    invented reference content (base or Crimson Seas), so each is exercised by the playouts."""
    from domain.valeria import CRIMSON_SEAS as CS
    from domain.valeria import RULESET as R
    from domain.valeria.setup import CONTENT_SCHEMA
    defs = CONTENT_SCHEMA["$defs"]
    seen = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                seen.add(k)
                if k == "when":
                    seen.add("when:" + v)
                if k == "discount":   # {action, amount | ignore_plus}: its 'action' is not the effect node
                    seen.update({"discount:" + v["action"]} | set(v) - {"action"})
                    continue
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    for content in (R.default_content, CS.default_content):
        walk(content)
    wanted = set(defs["effect"]["properties"]) | set(defs["counter"]["properties"]) | set(defs["ongoing"]["properties"])
    wanted |= {"discount:" + a for a in defs["ongoing"]["properties"]["discount"]["properties"]["action"]["enum"]}
    wanted |= {"ignore_plus", "amount", "by", "to", "pay"} | {"when:" + w for w in defs["ongoing"]["properties"]["when"]["enum"]}
    assert wanted - seen == set()


def test_an_additional_action_is_only_a_rewards_in_the_action_phase():
    """[BR p.15] the 'action' node: in a Harvest power it is refused at creation; Sail needs Crimson Seas."""
    import copy

    import pytest

    from domain.chance import TableChance
    from domain.ruleset import InvalidCreation
    from domain.valeria import RULESET as R
    content = copy.deepcopy(R.default_content)
    content["id"] = "bad-grants"
    content["citizens"][0]["on_turn"] = {"may": {"action": "slay"}}
    content["domains"][3]["immediate"] = {"action": "sail"}
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A", "B"], None, content, TableChance(), None)
    text = " ".join(info.value.problems)
    assert "content.citizens[0]: an additional action" in text and "Sail and Gain a Map" in text
    t = Table()
    assert opts(t, {"action": "slay"}) == [([], [])]                   # in the Harvest there is none to take
    t.to_actions()
    assert opts(t, {"action": "slay"}) == [([], [("grant", "slay")])]


def test_a_choice_whose_take_would_find_nothing_is_not_offered_beside_one_that_acts():
    """BR p.18: 'Bane Spider gives a reward of 3 Gold or you may immediately take a Knight from the
    Center Stacks. If there is no Knight available, then you must take the 3 Gold from the bank.'"""
    bane = {"choose": [{"gain": {"gold": 3}}, {"take_card": {"kind": "citizen", "name": "Knight"}}]}
    t = Table()
    t.to_actions()
    assert [c for c, _ in opts(t, bane)] == [[0], [1, "knight"]]      # by name: only the Knights' stack
    t.state.citizens["knight"].clear()
    assert opts(t, bane) == [([0], [("gain", {"gold": 3})])]
    alone = {"take_card": {"kind": "citizen", "name": "Knight"}}
    assert opts(t, alone) == [([], [])]                                  # nothing else to do: nothing (VP-6)


def test_custom_content_whose_power_could_offer_too_many_ways_is_refused_at_creation():
    """Every way to resolve a power is listed and matched, so nested choices multiply the work of
    every roll: content whose one power could offer more than MOST_WAYS is refused, naming it,
    for the players it would be played by; the reference content is far below (385 at most)."""
    import copy

    from domain.chance import ServerChance
    from domain.ruleset import InvalidCreation
    from domain.valeria import RULESET as R
    from domain.valeria.effects import MOST_WAYS
    from domain.valeria.setup import DEFAULT_CONTENT

    content = copy.deepcopy(DEFAULT_CONTENT)
    thief = next(i for i, c in enumerate(content["citizens"]) if c["id"] == "thief")
    greedy = {"take_from": {"resources": ["gold", "strength", "magic"], "max": 20}}
    content["citizens"][thief]["on_turn"] = {"all": [greedy, greedy]}       # 4 x 3 x 22, twice: 69,696 at 5
    names = ["Anne", "Ben", "Cleo", "Dev", "Eli"]
    with pytest.raises(InvalidCreation) as refused:
        R.setup(names, None, content, ServerChance("ab" * 16, 0), None)
    (problem,) = [p for p in refused.value.problems if "ways" in p]
    assert problem.startswith(f"content.citizens[{thief}].on_turn:") and f"{MOST_WAYS:,}" in problem
    # 1 x 3 x 22, twice: 4,356 at 2 players, within MOST_WAYS; but on six Thieves activated three
    # times a roll, more than MOST_WAYS_AT_ONCE could wait at once
    with pytest.raises(InvalidCreation) as refused:
        R.setup(names[:2], None, content, ServerChance("ab" * 16, 0), None)
    (problem,) = [p for p in refused.value.problems if "ways" in p]
    assert problem.startswith("content: its powers could offer") and "waiting at once with 2 players" in problem
    content["citizens"][thief]["on_turn"] = greedy                           # 1 x 3 x 22 = 66
    with pytest.raises(InvalidCreation) as refused:   # a Thief the rulebook does not print (VA-36), and only that
        R.setup(names[:2], None, content, ServerChance("ab" * 16, 0), None)
    assert [p.split(":")[0] for p in refused.value.problems] == [f"content.citizens[{thief}]"]
    for n in range(1, 6):   # the reference content, at every player count
        assert R.setup(names[:n], {"variant": "solo"} if n == 1 else None, None, ServerChance("ab" * 16, 0), None)


def test_a_harvest_naming_tomes_in_the_base_game_is_refused_there_are_none():
    """VA-22: Tomes are Crimson Seas tokens; a base game's harvest that names some is refused."""
    t = Table().give(1, "monk").purse(1, gold=1)
    t.roll(1, 3)
    monk = next(i for i in t.state.items if i["seat"] == 1 and i["source"].startswith("monk"))
    refused = t.rejects(1, {"type": "harvest", "item": monk["id"], "choice": [True], "tomes": {"gold": 1}}, "NO_TOMES")
    assert "no Tomes without Crimson Seas" in refused.detail
