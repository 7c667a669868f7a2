"""The Solo Variant [BR p.16-18] at a table, given / when / then, from the rulebook's words.

The reference layout (VP-20): columns 1-5 are the Monster stacks hills, ruins, forest, valley,
mountains; the Citizen stacks monk/knight, merchant/thief, mercenary/champion, archer/alchemist,
peasant/miner; the Domain stacks domain_1..domain_5."""
from __future__ import annotations

import re

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import ARBITER, InvalidCreation
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from domain.valeria.solo import columns, dark_lord_points
from domain.valeria.state import FACE_DOWN
from tests.domain.valeria.table import Table, of

SOLO = {"variant": "solo"}
SETUP = {"domains": ["granary", "barracks", "chapel", "palace_of_the_dawn", "foxgrove"], "dukes": [["duke_ash", "duke_bran"]],
         "first_player": 0, "dark_lord": "duke_dara"}
PROBLEM = re.compile(r"^[a-z_.]+: .+ \[(BR|CS) [^\]]+\]( \((VA|VP)-[A-Z0-9]+\))?$")


class SoloTable(Table):
    def __init__(self, dark_lord="duke_dara", **kw):
        """dark_lord None: the table placed it unseen and does not say which it is (VP-55)."""
        super().__init__(players=1, options=kw.pop("options", SOLO), **({"dark_lord": dark_lord} if dark_lord else {}),
                         **kw)

    def empty(self, *stacks):
        """Arrange: Center stacks emptied into the box (and marked exhausted, as the rules would)."""
        s = self.state
        for st in stacks:
            if st in s.domains:
                s.box += [c for c in [s.domains[st]["up"]] if c]
                s.domains[st] = {"up": None, "down": 0}
            else:
                pile = s.monsters.get(st) if st in s.monsters else s.citizens[st]
                s.box += pile
                pile.clear()
            if st not in s.exhausted:
                s.exhausted.append(st)
        return self

    def leave(self, stack, n):
        """Arrange: only the top n cards of a Citizen or Monster stack left in it."""
        pile = self.state.monsters.get(stack) if stack in self.state.monsters else self.state.citizens[stack]
        self.state.box += pile[:-n]
        del pile[:-n]
        return self

    def end_actions(self, **extra):
        """The two actions, each taking a Gold: the Monsters Phase follows."""
        self.do(0, {"type": "gain_resource", "resource": "gold"})
        return self.do(0, {"type": "gain_resource", "resource": "gold", **extra})

    def legal(self):
        return R.legal_commands(self.state, 0)


# ---------------------------------------------------------------- creation and setup

def test_setup_places_the_dark_lord_face_down_and_uses_the_two_to_four_player_setup():
    """[BR p.16] 'After you select your Duke card, randomly place one Duke face down above the Monster
    stacks. This traitorous Duke is the Dark Lord.' VP-19: one of the Dukes not dealt, reported by the
    table; VP-21: the 2-4 player setup, 2 Exhausted cards."""
    t = SoloTable(keep=False)
    placed = of(t.events, "DarkLordPlaced")
    assert placed == [{"type": "DarkLordPlaced", "duke": "duke_dara"}]
    s = t.state
    assert s.dark_lord == "duke_dara" and "duke_dara" not in s.duke_pool and s.seats[0].offer == ["duke_ash", "duke_bran"]
    assert all(len(p) == 5 for p in s.monsters.values()) and all(len(p) == 5 for p in s.citizens.values())
    assert all(st["down"] == 2 for st in s.domains.values()) and s.exhausted_pile == 2
    assert R.redact(placed[0], 0) == {"type": "DarkLordPlaced"} and R.redact(placed[0], ARBITER) == placed[0]
    assert R.view(s, 0)["dark_lord"]["duke"] is None and R.view(s, ARBITER)["dark_lord"]["duke"] == "duke_dara"
    assert s.phase == "dukes"
    t.do(0, {"type": "keep_duke", "duke": "duke_bran"})     # [BR p.5] keep 1 of the 2 dealt
    assert t.state.phase == "roll" and t.state.active == 0 and t.state.seats[0].duke == "duke_bran"


def test_the_columns_follow_the_center_grid():
    """VP-20 [BR p.4] 'a grid of four rows by five columns'; the Citizens 'in sequential order in the
    middle two rows' (first game: Cleric, Merchant, Mercenary, Archer, Peasant over Knight, Rogue,
    Champion, Paladin, Butcher)."""
    cols = columns(SoloTable().state)
    assert [c["monster"] for c in cols] == ["hills", "ruins", "forest", "valley", "mountains"]
    assert [c["citizens"] for c in cols] == [["monk", "knight"], ["merchant", "thief"], ["mercenary", "champion"],
                                             ["archer", "alchemist"], ["peasant", "miner"]]
    assert [c["domain"] for c in cols] == [f"domain_{k}" for k in range(1, 6)]


def test_a_server_game_draws_the_dark_lord_from_the_dukes_not_dealt():
    for k in range(8):
        events = R.setup(["Solo"], {"variant": ["solo"]}, None, ServerChance(f"{k:064x}", 0), None)
        dealt = events[3]["offers"][0]
        dark = of(events, "DarkLordPlaced")[0]["duke"]
        assert dark not in dealt and dark not in events[3]["pool"]


@pytest.mark.parametrize("ruleset, players, options, setup, field", [
    (R, 1, None, None, "players: one player plays the solo variant against the Dark Lord: send options.variant 'solo'"),
    (R, 1, {"variant": "standard"}, None, "players: one player plays the solo variant"),
    (R, 2, SOLO, None, "options.variant: the solo variant is for one player, not 2"),
    (R, 3, {"variant": ["solo"]}, None, "options.variant: the solo variant is for one player, not 3"),
    (R, 1, {"variant": "mixed_citizens"}, None, "players: one player plays the solo variant"),
    (R, 1, {"variant": ["standard", "solo"]}, None, "options.variant: 'standard' is sent alone"),
    (R, 1, {"variant": "dark"}, None, "options.variant: 'dark' is not a variant"),
    (R, 2, None, {**SETUP, "dukes": [["duke_ash", "duke_bran"], ["duke_cora", "duke_eld"]]},
     "setup.dark_lord: only the solo variant has a Dark Lord"),
    (R, 1, {**SOLO, "expansions": ["monster_events"]}, None,
     "options.expansions: solo play is not defined with Crimson Seas' Monster Events"),
    (R, 2, {"solo_vp_tokens": True}, None, "options.solo_vp_tokens: only the Solo Variant scores against the Dark Lord"),
    (CS, 2, {"solo_vp_tokens": True}, None, "options.solo_vp_tokens: only the Solo Variant scores against the Dark Lord"),
    (CS, 1, SOLO, None, "options.variant: solo play is not defined with Crimson Seas"),
    (CS, 1, None, None, "players: solo play is not defined with Crimson Seas"),
])
def test_creation_problems_name_the_option_in_a_players_words_with_the_rulebook(ruleset, players, options, setup, field):
    with pytest.raises(InvalidCreation) as info:
        ruleset.setup(["A", "B", "C"][:players], options, None, TableChance(), setup or {**SETUP, "dukes": SETUP["dukes"] * players})
    assert any(p.startswith(field) for p in info.value.problems), info.value.problems
    assert all(PROBLEM.match(p) for p in info.value.problems if p.startswith(field.split(":")[0])), info.value.problems


def test_the_table_must_report_a_dark_lord_that_was_not_dealt():
    """VP-19: the unchosen Duke goes 'to the box' [BR p.5]; the Dark Lord is one of the others."""
    for dealt in ("duke_ash", "duke_bran"):
        with pytest.raises(InvalidCreation) as info:
            R.setup(["A"], SOLO, None, TableChance(), {**SETUP, "dark_lord": dealt})
        assert info.value.problems == ["setup.dark_lord: the Dark Lord is one of the Dukes not dealt to you [BR p.5, p.16] "
                                       "(VP-19)"]
    with pytest.raises(InvalidCreation) as info:
        R.setup(["A"], SOLO, None, TableChance(), {**SETUP, "dark_lord": "duke_nobody"})
    assert "setup.dark_lord" in str(info.value.problems)


def test_crimson_seas_keeps_two_to_five_players():
    assert (R.min_players, CS.min_players) == (1, 2)


# ---------------------------------------------------------------- a round

def test_a_round_roll_harvest_left_actions_monsters_second_harvest_right_and_end():
    """[BR p.16-17] Roll Phase: 'you will roll the dice at the start of each new round'; Harvest from the
    LEFT side; Action Phase; Monsters Phase; Second Harvest from the RIGHT side; End Phase: 'pick up
    the dice to start the next round'."""
    t = SoloTable().give(0, "merchant").purse(0)
    t.do(0, {"type": "roll_dice", "dice": [2, 3]})
    events = t.do(0, {"type": "announce_roll"})
    # [BR p.16] LEFT side: the Merchant's on-turn choice waits; the Starter Peasant (5) pays its Gold
    merchant = t.state.items[0]["id"]
    assert t.legal() == [{"type": "harvest", "item": merchant, "choice": [0]}, {"type": "harvest", "item": merchant, "choice": [1]}]
    t.do(0, {"type": "harvest", "item": merchant, "choice": [1]})   # 1 Magic
    assert (t.seat(0).gold, t.seat(0).magic) == (1, 1) and t.state.phase == "action"
    t.do(0, {"type": "gain_resource", "resource": "strength"})
    events = t.do(0, {"type": "gain_resource", "resource": "strength"})
    assert of(events, "MonstersPhaseBegan")[0]["attacks"] == [{"die": 0, "value": 2}, {"die": 1, "value": 3}]
    assert t.state.phase == "monsters" and R.status(t.state).to_move == [0]
    # both columns have two full Citizen stacks: the choice is the player's, die by die
    assert t.legal() == [{"type": "activate_monster", "die": 0, "citizen": "merchant"},
                         {"type": "activate_monster", "die": 0, "citizen": "thief"},
                         {"type": "activate_monster", "die": 1, "citizen": "mercenary"},
                         {"type": "activate_monster", "die": 1, "citizen": "champion"}]
    t.do(0, {"type": "activate_monster", "die": 1, "citizen": "champion"})
    events = t.do(0, {"type": "activate_monster", "die": 0, "citizen": "thief"})
    assert [c.split("#")[0] for c in t.state.captured] == ["champion", "thief"]
    # [BR p.17] RIGHT side: the Merchant's and the Peasant's off-turn Gold; then the next round
    assert [i["source"].split("#")[0].split("@")[0] for i in of(events, "SecondHarvestBegan")[0]["items"]] == \
        ["starter_peasant", "merchant"]
    assert (t.seat(0).gold, t.seat(0).strength) == (3, 2)
    assert of(events, "TurnEnded") and of(events, "TurnStarted")[0] | {} == {"type": "TurnStarted", "seat": 0, "turn": 2,
                                                                           "resting": None}
    assert t.state.phase == "roll"


def test_take_from_a_single_player_takes_from_the_bank():
    """[BR p.16] 'If a card instructs you to take from a single player, you take from the Bank
    instead.' (VP-24): the Thief's 3 Gold or Magic, chosen by resource."""
    t = SoloTable().give(0, "thief").purse(0)
    t.roll(3, 4)
    thief = next(i for i in t.state.items if i["first"])
    assert [c["choice"] for c in t.legal()] == [["gold"], ["magic"]]
    t.rejects(0, {"type": "harvest", "item": thief["id"], "choice": [{"seat": 1, "resource": "gold"}]}, "CHOICE_NOT_ALLOWED")
    t.do(0, {"type": "harvest", "item": thief["id"], "choice": ["magic"]})
    assert t.seat(0).magic == 3


def build_magpie_roost(t: SoloTable) -> list:
    """Arrange the Magpie Roost (the reference Purloiner's Perch) face up on domain_1; build it."""
    t.state.domain_pool.remove("magpie_roost")
    t.state.domain_pool.append(t.state.domains["domain_1"]["up"])
    t.state.domains["domain_1"]["up"] = "magpie_roost"
    t.to_actions(1, 2)
    t.purse(0, gold=6)
    return t.do(0, {"type": "build", "stack": "domain_1", "revealed": ["shrine"]})


def test_take_a_monster_takes_the_top_of_the_leftmost_monster_stack_without_its_reward():
    """[BR p.16] 'If the card instructs you to take a Monster, then you take the top card on the leftmost
    Monster stack.' (VP-24) The Magpie Roost (the reference Purloiner's Perch), hills emptied."""
    t = SoloTable().give(0, "thief").empty("hills")
    events = build_magpie_roost(t)
    taken = [e for e in of(events, "CardGained") if e["how"] == "free"]
    assert taken[0]["stack"] == "ruins" and taken[0]["card"].startswith("skeleton")
    assert t.seat(0).victory == [taken[0]["card"]] and t.seat(0).gold == 0
    assert [e["source"] for e in of(events, "RewardAwaited")] == ["magpie_roost"]   # the Skeleton's reward is not taken


def test_taking_the_last_monster_into_the_victory_stack_wins_as_slaying_it_would():
    """[BR p.17] 'The game ends immediately if you have slain all of the Monsters'; [BR p.19] a Monster
    Purloiner's Perch takes 'goes into your Victory stack', where slain Monsters go, without its
    Rewards. Taken last, it leaves no Monster to attack: the win, not five exhausted stacks (VP-25)."""
    t = SoloTable().give(0, "thief").empty("hills", "forest", "valley", "mountains").leave("ruins", 1)
    events = build_magpie_roost(t)
    while not of(events, "GameEnded"):
        events = t.do(0, t.legal()[0])
    ended = of(events, "GameEnded")[0]
    assert ended["result"]["reason"] == "all_monsters_slain" and ended["result"]["solo"] == "won"
    assert all(not pile for pile in t.state.monsters.values()) and t.seat(0).victory


# ---------------------------------------------------------------- the Monsters Phase

def test_each_die_activates_the_monster_stack_in_its_position():
    """[BR p.17] 'rolling a 1 activates the first (leftmost) Monster stack ... The sum of both dice does
    not activate that Monster stack.' Knight and Mercenary stacks emptied: no choice left, so each
    activation resolves by itself (VP-22)."""
    t = SoloTable().empty("knight", "mercenary")
    t.to_actions(1, 3)
    events = t.end_actions()
    activated = of(events, "MonsterActivated")
    assert [(e["die"], e["stack"], e["column"]) for e in activated] == [(0, "hills", 1), (1, "forest", 3)]
    assert [e["card"].split("#")[0] for e in of(events, "CardCaptured")] == ["monk", "champion"]
    assert t.state.phase == "second_harvest"   # nothing to choose: on to the Second Harvest


def test_doubles_activate_the_stack_twice():
    """[BR p.17] 'In the case of doubles, that Monster stack is activated twice.' (VP-22)"""
    t = SoloTable().empty("knight")
    t.to_actions(1, 1)
    events = t.end_actions()
    assert [(e["die"], e["stack"]) for e in of(events, "MonsterActivated")] == [(0, "hills"), (1, "hills")]
    assert len(t.state.citizens["monk"]) == 3 and len(t.state.captured) == 2


def test_a_six_activates_a_stack_of_your_choice_never_an_exhausted_one():
    """[BR p.17] 'In the case of 6, a Monster stack of your choice is activated. You may not choose an
    Exhausted Monster stack.' The choice is a command, `activate_monster.stack` (VP-22)."""
    t = SoloTable().empty("hills", "thief", "champion", "alchemist")
    t.to_actions(6, 1)
    events = t.end_actions()
    assert of(events, "MonsterNotActivated")[0] | {} == {"type": "MonsterNotActivated", "die": 1, "value": 1, "stack": "hills"}
    assert t.legal() == [{"type": "activate_monster", "die": 0, **f} for f in (
        {"stack": "ruins"}, {"stack": "forest"}, {"stack": "valley"}, {"stack": "mountains", "citizen": "peasant"},
        {"stack": "mountains", "citizen": "miner"})]
    t.rejects(0, {"type": "activate_monster", "die": 0, "stack": "hills"}, "STACK_EXHAUSTED")
    t.rejects(0, {"type": "activate_monster", "die": 0}, "ACTIVATION_NOT_ALLOWED")
    t.rejects(0, {"type": "activate_monster", "die": 1, "stack": "ruins"}, "NO_SUCH_DIE")
    t.rejects(0, {"type": "activate_monster", "die": 0, "stack": "ruins", "citizen": "thief"}, "ACTIVATION_NOT_ALLOWED")
    events = t.do(0, {"type": "activate_monster", "die": 0, "stack": "valley"})
    assert of(events, "MonsterActivated")[0]["column"] == 4 and of(events, "CardCaptured")[0]["stack"] == "archer"


def test_a_refused_activation_says_what_its_die_names():
    """[BR p.17] 'rolling a 1 activates the first (leftmost) Monster stack': a refusal for a die
    showing 1 speaks of column 1, and of a 6's choice only for a die showing 6 (outside review)."""
    t = SoloTable()
    t.to_actions(1, 3)
    t.end_actions()
    refused = t.rejects(0, {"type": "activate_monster", "die": 0, "citizen": "mercenary"}, "ACTIVATION_NOT_ALLOWED")
    assert refused.detail.startswith("Die 0 shows a 1: it activates the Monster stack of column 1;"), refused.detail
    assert "6" not in refused.detail.split(";")[0] and '{"citizen": "monk"}' in refused.detail
    t = SoloTable().empty("hills", "thief", "champion", "alchemist")
    t.to_actions(6, 1)
    t.end_actions()
    refused = t.rejects(0, {"type": "activate_monster", "die": 0}, "ACTIVATION_NOT_ALLOWED")
    assert refused.detail.startswith("Die 0 shows a 6: it names the Monster stack of your choice ('stack');")


def test_a_double_six_names_a_stack_for_each_die_the_same_or_another():
    """VP-51: [BR p.17] 'In the case of 6, a Monster stack of your choice is activated', for each
    die: 6-6 is two choices, not one stack twice."""
    t = SoloTable()
    t.to_actions(6, 6)
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    first = [c for c in t.legal() if c["die"] == 0]
    assert {c["stack"] for c in first} == {"hills", "ruins", "forest", "valley", "mountains"}
    t.do(0, next(c for c in first if c["stack"] == "ruins"))
    second = t.legal()
    assert {c["die"] for c in second} == {1}
    assert {c["stack"] for c in second} == {"hills", "ruins", "forest", "valley", "mountains"}
    events = t.do(0, next(c for c in second if c["stack"] == "forest"))
    assert [e["column"] for e in of(events, "MonsterActivated")] == [3]


def test_a_six_in_a_column_with_two_citizen_stacks_names_both():
    """VP-22: the stack a 6 activates and the Citizen stack it takes from, in one command."""
    t = SoloTable().empty("hills", "ruins", "forest", "valley")
    t.to_actions(6, 5)
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    assert t.legal() == [{"type": "activate_monster", "die": d, **f} for d, f in
                         ((0, {"stack": "mountains", "citizen": "peasant"}), (0, {"stack": "mountains", "citizen": "miner"}),
                          (1, {"citizen": "peasant"}), (1, {"citizen": "miner"}))]


def test_an_exhausted_rolled_stack_activates_nothing():
    """[BR p.17] 'If a rolled stack is exhausted, a Monster stack is not activated for that die.'"""
    t = SoloTable().empty("hills", "valley")
    t.to_actions(1, 4)
    events = t.end_actions()
    assert [e["stack"] for e in of(events, "MonsterNotActivated")] == ["hills", "valley"]
    assert not of(events, "MonsterActivated") and not t.state.captured and t.state.phase == "roll"


def test_a_citizen_then_the_domain_is_captured_and_the_next_domain_turned_up():
    """[BR p.17] 'you remove a card from one of the two Citizen stacks in that Monster stack's column
    ... If both Citizen stacks are empty, you must remove a Domain card from that column.' The emptied
    Monk stack takes an Exhausted card; the captured Granary's stack turns its next Domain up, which
    the table reports with the command that ends the Action Phase."""
    t = SoloTable().empty("knight").leave("monk", 1)
    t.to_actions(1, 1)
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    t.rejects(0, {"type": "gain_resource", "resource": "gold"}, "TABLE_OUTCOME_REQUIRED")
    assert "revealed" in R.table_inputs(t.state, 0)["gain_resource"]
    events = t.do(0, {"type": "gain_resource", "resource": "gold", "revealed": ["shrine"]})
    assert [e["card"].split("#")[0] for e in of(events, "CardCaptured")] == ["monk", "granary"]
    assert of(events, "StackExhausted")[0]["stack"] == "monk"
    assert of(events, "DomainRevealed")[0] | {} == {"type": "DomainRevealed", "stack": "domain_1", "card": "shrine"}
    assert t.state.captured[1] == "granary" and t.state.domains["domain_1"]["up"] == "shrine"


def test_a_monster_attacking_an_empty_column_loses_the_game_at_once():
    """[BR p.17] 'If you cannot remove a card from that column because all of the stacks in the column
    are exhausted' ... 'The game ends immediately if a Monster attacks and there are no Citizen or Domain
    cards in that column... You have lost the game.'" The Dark Lord is not a seat: no winner (VP-27)."""
    t = SoloTable().empty("monk", "knight", "domain_1")
    t.to_actions(1, 2)
    events = t.end_actions()
    ended = of(events, "GameEnded")[0]
    assert events[-1] is ended and not of(events, "SecondHarvestBegan")
    assert ended["result"]["reason"] == "column_overrun" and ended["result"]["solo"] == "lost"
    assert ended["result"]["winners"] == [] and ended["dark_lord"] == "duke_dara" and "points" not in ended["result"]["dark_lord"]
    assert R.status(t.state).result["ranking"][0]["rank"] == 2   # the Dark Lord, not a seat, first (VP-27)
    assert R.status(t.state).finished and R.view(t.state, 0)["dark_lord"]["duke"] == "duke_dara"   # revealed


# ---------------------------------------------------------------- the Second Harvest

def test_the_second_harvest_uses_the_right_side_of_citizens_recruited_this_turn():
    """[BR p.17] 'Harvest all Resources from the RIGHT side of all of your activated Citizens, including
    Citizens you just recruited during this turn's Action Phase.' A Monk recruited this turn: its
    off-turn exchange (1 Gold for 2 Magic) waits for the player."""
    t = SoloTable().empty("knight", "merchant")   # the Monster activations take without a choice
    t.to_actions(1, 2)
    t.purse(0, gold=2)
    t.do(0, {"type": "recruit", "stack": "monk"})
    events = t.do(0, {"type": "gain_resource", "resource": "gold"})
    items = of(events, "SecondHarvestBegan")[0]["items"]
    assert [i["source"].split("#")[0] for i in items] == ["monk"] and items[0]["effect"] == {
        "exchange": {"pay": {"gold": 1}, "gain": {"gain": {"magic": 2}}}}
    assert t.state.phase == "second_harvest"
    t.rejects(0, {"type": "harvest", "item": 0, "choice": [0]}, "CHOICE_NOT_ALLOWED")
    t.do(0, {"type": "harvest", "item": 0, "choice": [True]})
    assert (t.seat(0).gold, t.seat(0).magic) == (1, 2) and t.state.phase == "roll"


def test_no_citizen_activated_in_the_second_harvest_takes_any_one_resource():
    """VP-23: the Second Harvest 'functions like the other players Harvesting' [BR p.17]; [BR p.8] 'If
    the dice roll did not activate any of a player's Citizens, then that player may take any one Resource
    from the bank regardless of whether they are the Active player or not.'"""
    t = SoloTable().empty("knight", "merchant")
    t.to_actions(1, 2)
    t.purse(0)
    t.end_actions()
    assert [i["source"] for i in t.state.items] == ["no_activation"]
    t.do(0, {"type": "harvest", "item": 0, "choice": ["strength"]})
    assert (t.seat(0).gold, t.seat(0).strength) == (2, 1) and t.state.phase == "roll"


# ---------------------------------------------------------------- the endings

def test_slaying_every_monster_wins_at_once():
    """[BR p.17] 'The game ends immediately if you have slain all of the Monsters... You have won the
    game.' Before the second action; although the five Monster stacks are exhausted too (VP-25). The
    result (VP-27)."""
    t = SoloTable().empty("ruins", "forest", "valley", "mountains").leave("hills", 1)
    t.to_actions(1, 2)
    t.purse(0, strength=1)
    events = t.do(0, {"type": "slay", "stack": "hills"})
    ended = of(events, "GameEnded")[0]
    points = {"monsters": 0, "domains": 0, "duke": 0, "total": 0}   # the Kobold's 1 VP token is not on the solo list
    assert ended["result"] | {} == {"winners": [0], "reason": "all_monsters_slain", "solo": "won", "standings": [0],
                                    "tie_breaks": [], "dark_lord": {"duke": "duke_dara"}, "totals": [0],
                                    "points": [points], "cards": [4]}
    assert t.state.actions_left == 1 and R.status(t.state).result["solo"] == "won"
    assert R.status(t.state).result["ranking"] == [{"seat": 0, "rank": 1, "score": 0}]


def five_stacks(vp: int, options: dict = SOLO):
    """Four Citizen stacks exhausted and a lone Merchant: recruiting it exhausts a fifth stack. The
    Dark Lord (the Duke of Dara: 2 VP per Holy icon, 2 per Boss) has captured two Monks and the
    Moonwell; no Monster was slain (hills 9, ruins 11, forest 10, valley 13, mountains 15 VP)."""
    t = SoloTable(options=options).empty("thief", "champion", "alchemist", "miner").leave("merchant", 1)
    t.state.captured += [t._take("monk"), t._take("monk"), t._take("moonwell")]
    t.to_actions(1, 2)
    t.purse(0, gold=1, vp=vp)   # Duke of Ash: 3 per Domain, 1 per 3 of each resource: 0 after paying
    return t, t.do(0, {"type": "recruit", "stack": "merchant"})


def test_five_exhausted_stacks_score_your_monsters_domains_and_duke_not_your_tokens():
    """[BR p.17] 'Total your score as follows: Total Victory Points on all of your slain Monsters.
    Total Victory Points on all of your built Domains. Total Victory Points based on the instructions
    at the bottom of your Duke card.' The base game's fourth line, 'Victory Point tokens in your
    possession' [BR p.8], is not on it: 80 tokens score nothing against the Dark Lord's 79 (VP-26)."""
    t, events = five_stacks(80)
    result = of(events, "GameEnded")[0]["result"]
    assert result["points"] == [{"monsters": 0, "domains": 0, "duke": 0, "total": 0}]
    assert (result["solo"], result["winners"], result["totals"]) == ("lost", [], [0])
    assert result["dark_lord"]["points"]["total"] == 79
    assert R.status(t.state).result["ranking"] == [{"seat": 0, "rank": 2, "score": 0}]


@pytest.mark.parametrize("vp, outcome, winners", [(80, "won", [0]), (78, "lost", []), (79, "draw", [])])
def test_five_exhausted_stacks_score_against_the_dark_lord(vp, outcome, winners):
    """[BR p.17] 'The game ends immediately if five card stacks are exhausted.' The Dark Lord: 'Total
    Victory Points on all surviving Monsters', 'on all Domains captured', and his Duke 'as applied to
    the surviving Monsters, the captured Citizens and the captured Domains': 58 + 3 + (2 x 4 Holy
    icons + 2 x 5 Bosses) = 79. 'If the Dark Lord's score is higher than your score... You have lost';
    'If your score is higher ... You have won'; equal: a draw (VP-26). Here the table counts its
    Victory Point tokens too (the option solo_vp_tokens), as the base game does [BR p.8]."""
    t, events = five_stacks(vp, {**SOLO, "solo_vp_tokens": True})
    result = of(events, "GameEnded")[0]["result"]
    assert result["reason"] == "exhausted_stacks" and t.state.actions_left == 1
    assert result["dark_lord"] == {"duke": "duke_dara", "points": {"monsters": 58, "domains": 3, "duke": 18, "total": 79}}
    assert result["points"] == [{"monsters": 0, "domains": 0, "tokens": vp, "duke": 0, "total": vp}]
    assert (result["solo"], result["winners"], result["totals"]) == (outcome, winners, [vp])
    shaped = R.status(t.state).result
    assert shaped["ranking"] == [{"seat": 0, "rank": 1 if winners else 2, "score": vp}] and shaped["details"]["solo"] == outcome
    assert dark_lord_points(t.state)["total"] == 79


def test_a_dark_lord_placed_unseen_is_named_when_it_is_turned_up_to_be_scored():
    """VP-55: [BR p.16] the Dark Lord is placed face down, so a table need not name it at setup;
    [BR p.17] 'After counting your points, reveal the face of the Dark Lord': the command that
    ends the game on the fifth exhausted stack reports it, last in 'revealed', from the Dukes
    nobody holds. The same position as five_stacks(79), so the same 79 for the Duke of Dara."""
    t = SoloTable(dark_lord=None, options={**SOLO, "solo_vp_tokens": True})
    t.empty("thief", "champion", "alchemist", "miner").leave("merchant", 1)
    assert of(t.events, "DarkLordPlaced") == [{"type": "DarkLordPlaced", "unnamed": True}]
    assert R.redact(of(t.events, "DarkLordPlaced")[0], 0) == {"type": "DarkLordPlaced", "unnamed": True}
    host = R.view(t.state, ARBITER)
    assert host["dark_lord"]["duke"] is None and "duke_dara" in host["nameable"]["dark_lord"]
    assert host["nameable"]["dark_lord"] == sorted(set(t.state.duke_pool) - {"duke_bran"})
    # dealt to the player: the one kept, and the one given back to the box [BR p.5] (an outside
    # review named the given-back Duke, which had joined the pool the names were read from)
    assert not {"duke_ash", "duke_bran"} & set(host["nameable"]["dark_lord"])
    assert "duke_bran" in t.state.duke_pool
    t.state.captured += [t._take("monk"), t._take("monk"), t._take("moonwell")]
    t.to_actions(1, 2)
    t.purse(0, gold=1, vp=80)
    recruit = {"type": "recruit", "stack": "merchant"}
    (row,) = [r for r in R.table_inputs(t.state, 0)["recruit"]["revealed"]["by_command"]
              if r["command"]["stack"] == "merchant"]
    assert row["count"] == 1 and "nameable.dark_lord" in row["items"][0]
    asked = t.rejects(0, recruit, "TABLE_OUTCOME_REQUIRED")
    assert "nameable.dark_lord" in asked.detail
    for dealt in ("duke_ash", "duke_bran"):   # kept, and given back: neither can be the Dark Lord
        t.rejects(0, {**recruit, "revealed": [dealt]}, "TABLE_OUTCOME_INVALID")
    events = t.do(0, {**recruit, "revealed": ["duke_dara"]})
    assert [e["type"] for e in events[-2:]] == ["DarkLordRevealed", "GameEnded"]
    result = of(events, "GameEnded")[0]["result"]
    assert result["dark_lord"] == {"duke": "duke_dara", "points": {"monsters": 58, "domains": 3, "duke": 18, "total": 79}}
    assert (result["solo"], result["totals"]) == ("won", [80])
    seat = R.initial_state()   # the seat's copy of the log (its Duke pool a count) replays to the end too
    for e in t.events:
        seat = R.evolve(seat, R.redact(e, 0))
    assert seat.dark_lord == "duke_dara" and seat.finished


def test_a_dark_lord_placed_unseen_is_not_asked_for_where_it_scores_nothing():
    """VP-55: slaying every Monster wins outright [BR p.17]; the Dark Lord is not scored, so the
    table is not asked to turn it up, and the result names no Duke for him."""
    t = SoloTable(dark_lord=None).empty("ruins", "forest", "valley", "mountains").leave("hills", 1)
    t.to_actions(1, 2)
    t.purse(0, strength=1)
    ended = of(t.do(0, {"type": "slay", "stack": "hills"}), "GameEnded")[0]
    assert ended["result"]["solo"] == "won" and ended["result"]["dark_lord"] == {"duke": None}
    assert "dark_lord" not in R.view(t.state, ARBITER)["nameable"]   # nothing left to report


def test_the_five_stacks_ending_may_come_in_the_monsters_phase():
    t = SoloTable().empty("thief", "champion", "alchemist", "miner").leave("monk", 1)
    t.to_actions(1, 2)
    t.end_actions()     # die 1: the Ruins take a Merchant by themselves (the Thief stack is empty)
    assert t.state.phase == "monsters" and len(t.state.exhausted) == 4
    t.do(0, {"type": "activate_monster", "die": 0, "citizen": "monk"})
    assert t.state.finished and t.state.result["reason"] == "exhausted_stacks"
    assert [e["type"] for e in t.events[-4:]] == ["MonsterActivated", "CardCaptured", "StackExhausted", "GameEnded"]


# ---------------------------------------------------------------- with the Mixed Citizen Variant

SOLO_MIXED = {"variant": ["solo", "mixed_citizens"]}
MIXED_TOPS = ["cleric", "merchant", "mercenary", "archer", "peasant", "knight", "thief", "champion", "rogue", "miner"]


def test_solo_with_mixed_citizens_deals_four_down_and_one_up_and_the_columns_follow_the_numbers():
    """VP-49: both variants' rules apply ('All other standard rules apply', [BR p.16] and [BR p.18]): each
    mixed stack is 4 face down and 1 face up, as below 5 players (VP-41), and the columns take the mixed
    stacks in activation order, as they take the standard ones (VP-20)."""
    t = SoloTable(options=SOLO_MIXED, citizens=list(MIXED_TOPS))
    s = t.state
    assert [p[:-1] for p in s.citizens.values()] == [[FACE_DOWN] * 4] * 10
    assert [p[-1].split("#")[0] for p in s.citizens.values()] == MIXED_TOPS
    assert [c["citizens"] for c in columns(s)] == [["mixed_1", "mixed_6"], ["mixed_2", "mixed_7"],
                                                   ["mixed_3", "mixed_8"], ["mixed_4", "mixed_9_10"],
                                                   ["mixed_5", "mixed_11_12"]]
    assert s.dark_lord == "duke_dara"


def test_a_monster_captures_the_face_up_citizen_of_a_mixed_stack_and_the_table_turns_up_the_next():
    """VP-49: [BR p.17] 'you remove a card from one of the two Citizen stacks in that Monster stack's
    column' takes the face-up Citizen; [BR p.18] the one below it is then turned up, which the table
    reports (VP-40). The captured Citizen is in sight beside the Dark Lord: never again in the stack's
    pool of Citizens not in sight, nor a name the table may report."""
    t = SoloTable(options=SOLO_MIXED, citizens=list(MIXED_TOPS)).leave("mixed_6", 0)
    t.state.citizens["mixed_6"].clear()
    t.state.exhausted.append("mixed_6")
    t.to_actions(1, 1)      # doubles: the first column's Monster stack attacks twice
    t.do(0, {"type": "gain_resource", "resource": "gold"})
    refused = t.rejects(0, {"type": "gain_resource", "resource": "gold"}, "TABLE_OUTCOME_REQUIRED")
    assert "revealed" in refused.detail
    t.rejects(0, {"type": "gain_resource", "resource": "gold", "revealed": ["miner", "monk"]}, "TABLE_OUTCOME_INVALID")
    events = t.do(0, {"type": "gain_resource", "resource": "gold", "revealed": ["monk", "cleric"]})
    assert [e["card"] for e in of(events, "CardCaptured")] == ["cleric#1", "monk#1"]
    assert [e["card"] for e in of(events, "CitizenRevealed")] == ["monk#1", "cleric#2"]
    s = t.state
    assert s.captured[:2] == ["cleric#1", "monk#1"] and s.citizens["mixed_1"][-1] == "cleric#2"
    assert s.citizens["mixed_1"] == [FACE_DOWN, FACE_DOWN, "cleric#2"]
    # 12 Monks and Clerics: 3 in sight (2 captured, 1 face up), 9 not (2 face down, 7 in the box)
    assert not {"cleric#1", "monk#1", "cleric#2"} & set(s.citizen_pool("mixed_1")) and len(s.citizen_pool("mixed_1")) == 9
