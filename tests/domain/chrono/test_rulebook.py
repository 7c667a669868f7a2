"""The rulebook's sentences, one test each, as given / when / then at a table (table chance),
for the rules test_phases.py does not already pin. Board: the reference layout of table.py
(Harbor beside E3, E4, E5; E1 Shipwreck Beach, E2 Palm Cove, E3 Tidepools, E4 Vine Tangle,
E5 Monkey Temple, E6 Parrot Grove, I1 Smoking Crater, I2 Lava Falls, I3 Heart of the Jungle;
caves CTL Scrying Mirror, CTR Smuggler's Den, CLO Bat Roost)."""
from __future__ import annotations

import pytest

from domain.chance import ServerChance
from domain.chrono import RULESET as R
from domain.chrono.state import HARBOR, MAT, WATER
from domain.ruleset import InvalidCreation
from tests.domain.chrono.table import Table, forgo_all, types


def plan_round(t, picks: dict[int, tuple[str, str]]):
    """Phase 2 for every seat: each draws its 1 Stable and 1 Unstable card (the pick among
    them) and selects the pick for the slot given."""
    free = {d: sorted(t.state.decks[d]["pool"]) for d in ("stable", "unstable")}
    for card, _ in picks.values():
        free["stable" if card[0] == "S" else "unstable"].remove(card)
    for i in list(t.state.flag):
        card, _ = picks[i]
        drawn = [card, free["unstable"].pop(0)] if card[0] == "S" else [free["stable"].pop(0), card]
        t.do(i, {"type": "draw_plans", "plans": drawn})
    for i, (card, slot) in picks.items():
        t.do(i, {"type": "select_plan", "card": card, "slot": slot})


def stable_round(t, slot="SUNSET"):
    cards = sorted(t.state.decks["stable"]["pool"])
    plan_round(t, {i: (cards[i], slot) for i in range(len(t.state.seats))})


def officer(a, b, officers=0, crew=0, seat=0):
    return {"type": "do_step", "owner": seat, "kind": "officer", "from": a, "to": b, "carry": {"officer": officers, "crew": crew}}


def to_outfit(t, order=None):
    """Phase 5 with the seats choosing positions in the order asked (default: as they stand)."""
    order = order or list(t.state.priority["order"])
    for _pos, _ in enumerate(order):
        seat = R.status(t.state).to_move[0]
        t.do(seat, {"type": "choose_flag", "position": order.index(seat)})
    assert t.state.phase == "outfit"


# -- Components & Setup ------------------------------------------------------------------------

def test_island_tiles_in_a_random_order_and_3_of_4_caves_with_a_random_side_up():
    """[Components & Setup] "3 Interior Island Tiles: place these in a random order on the 3
    indicated spots ... 4 Mysterious Cave Tiles: select 3 at random, and place them in the
    circular spots with a random side face up. Return the left over one to the box.\""""
    # given the table laid the interior tiles N3, N1, N2 and caves CV4, CV2, CV1 (B, A, B)
    t = Table(interior=["N3", "N1", "N2"], caves=["CV4", "CV2", "CV1"], sides=["B", "A", "B"])
    # then the board shows exactly that, and the fourth cave is in the box for all to see
    board = R.view(t.state, 1)["board"]
    assert [board[s]["tile"] for s in ("I1", "I2", "I3")] == ["N3", "N1", "N2"]
    assert [(board[s]["tile"], board[s]["side"]) for s in ("CTL", "CTR", "CLO")] == [("CV4", "B"), ("CV2", "A"), ("CV1", "B")]
    assert R.view(t.state, 0)["box_cave"] == "CV3"
    # when a table reports a layout that cannot be: a tile twice
    with pytest.raises(InvalidCreation):
        Table(interior=["N1", "N1", "N2"])


def test_the_decks_are_face_down_and_the_anomaly_deck_face_up():
    """[Components & Setup] "30 Stable Plan Cards: shuffle these and place them in a face-down
    deck ... 9 Anomaly Cards: shuffle these and place them in a face-UP deck ..., so that the
    top card of the deck is visible.\""""
    # given a new table (round 1's Ash Cloud resolved and discarded, Calm Waters turned up)
    t = Table()
    for seat in (0, 1, None):
        v = R.view(t.state, seat)
        # then every seat sees the Anomaly deck's top card, but only how many Plan cards there are
        assert v["anomaly_top"] == "AN6" and v["anomaly_discard"] == ["AN3"]
        assert v["deck_counts"] == {"stable": 30, "unstable": 19, "artifact": 16}
        assert "decks" not in v


def test_the_first_rounds_turn_order_is_set_at_random():
    """CA-7 (not printed; public sources: "Turn order for the first round is set randomly")."""
    # given a table that drew the Flags 2, 0, 1
    t = Table(3, flag=[2, 0, 1])
    # then seat 2 acts first: it draws its plans first
    assert t.state.flag == [2, 0, 1] and R.status(t.state).to_move == [2]
    # and an order that is not a permutation of the seats is refused
    with pytest.raises(InvalidCreation):
        Table(3, flag=[0, 0, 1])
    # on the server, the seed decides: different games, different orders
    orders = {tuple(R.view(_state(R.setup(list("ABC"), None, None, ServerChance(f"{g:064x}", 0), None)), 0)["flag"])
              for g in range(12)}
    assert len(orders) > 1


def _state(events):
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    return s


# -- Phase 1 -----------------------------------------------------------------------------------

def test_only_the_effect_next_to_the_markers_symbol_is_done_and_it_lasts_the_round():
    """[Phase 1] "read the effect printed next to the symbol corresponding to the Storm Stability
    marker's current position ... Do not perform the actions listed next to the other symbols."
    "Some Anomalies will have ... lasting effects or change the way the round is played.\""""
    # given Bounty (forgo pays 2 under Opening and Expanding, 3 under Rippling) on top, and the
    # marker on the last Expanding space when round 2 begins
    t = Table(anomaly=["AN3", "AN9"])
    stable_round(t)
    forgo_all(t)
    to_outfit(t)
    t.state.storm = 4
    t.do(0, {"type": "done_outfitting"})
    # when Phase 1 advances the marker into Rippling and Bounty resolves
    t.do(1, {"type": "done_outfitting", "anomaly": ["AN5"]})
    assert t.state.storm == 5 and t.state.anomaly_discard == ["AN3", "AN9"]
    # then forgoing a plan this round pays the Rippling amount, 3
    stable_round(t, "SUNRISE")
    t.do(0, {"type": "forgo_plan"})
    assert t.seat(0).doubloons == 3
    # and after the round it is gone again
    forgo_all(t)
    to_outfit(t)
    first, last = t.state.flag
    t.do(first, {"type": "done_outfitting"})
    t.do(last, {"type": "done_outfitting", "anomaly": ["AN1"]})   # round 3: Time Bleed takes nobody's gems
    assert t.state.round == 3 and "forgoReward" not in t.state.modifiers


# -- Phase 2 -----------------------------------------------------------------------------------

def test_several_unstable_plans_still_move_the_storm_one_space():
    """[Phase 2] "If ONE OR MORE players just flipped over an Unstable Plan, advance the Storm
    Stability marker one space. (It can only advance one space in this way, even if multiple
    players flipped over an Unstable Plan.)\""""
    # given three players on the second space, after Phase 1 on the third (index 2)
    t = Table(3, flag=[0, 1, 2])
    assert t.state.storm == 2
    # when all three flip an Unstable Plan
    plan_round(t, {0: ("U01", "SUNRISE"), 1: ("U02", "SUNRISE"), 2: ("U03", "SUNRISE")})
    # then the marker moves one space, not three
    assert t.state.storm == 3
    assert [e["reason"] for e in t.events if e["type"] == "StormAdvanced"] == ["destabilization", "unstable plan revealed"]


# -- Phase 3 -----------------------------------------------------------------------------------

def test_each_time_of_day_every_player_resolves_in_flag_order():
    """[Phase 3] "The player whose Flag marker is highest on the Flag track will resolve the
    card in their "Sunrise" space first, followed by the player whose Flag is second highest
    ... Then advance the Time marker to the "Morning" position ...\""""
    # given seat 1's Flag highest
    t = Table(flag=[1, 0])
    stable_round(t)
    # when the Loop runs
    forgo_all(t)
    # then Sunrise 1, 0; Morning 1, 0; Evening 1, 0; Sunset 1, 0
    turns = [(e["seat"], e["slot"]) for e in t.events if e["type"] == "TurnBegan"]
    assert turns == [(s, time) for time in ("SUNRISE", "MORNING", "EVENING", "SUNSET") for s in (1, 0)]
    assert [e["name"] for e in t.events if e["type"] == "TimeAdvanced"] == ["MORNING", "EVENING", "SUNSET"]


def test_one_artifact_before_the_plan_and_then_no_other():
    """[Phase 3] "You may choose to play exactly one Artifact card during each of your turns,
    either before or after you resolve (or don't resolve) your Plan.\""""
    # given seat 0 holds two Loot Sacks at its Sunrise turn
    t = Table()
    stable_round(t)
    t.seat(0).artifacts = ["AR15", "AR16"]
    t.state.decks["artifact"]["pool"] = [a for a in t.state.decks["artifact"]["pool"] if a not in ("AR15", "AR16")]
    # when it plays one before the plan
    t.do(0, {"type": "play_artifact", "artifact": "AR15"})
    t.do(0, {"type": "do_step"})
    assert t.seat(0).doubloons == 2 and t.state.turn["plan"] == "pending"
    # then it may not play the other, before or after
    assert {"type": "play_artifact", "artifact": "AR16"} not in R.legal_commands(t.state, 0)
    t.rejects(0, {"type": "play_artifact", "artifact": "AR16"}, "ONE_ARTIFACT_PER_TURN")
    t.rejects(0, {"type": "play_artifact", "artifact": "AR99"}, "NOT_IN_HAND")   # no card: not the per-turn limit
    t.do(0, {"type": "forgo_plan"})
    assert t.state.turn["seat"] == 1          # the turn ended by itself
    assert t.state.decks["artifact"]["bottom"] == ["AR15"]      # "discard ... to the bottom of the Artifact deck"


def test_a_plan_may_be_performed_in_part():
    """[Phase 3] "If you do perform the plan, you may choose to forgo parts of it.\""""
    # given Deckhands (move 2 Crew 1 space) in the Sunrise space
    t = Table()
    plan_round(t, {0: ("S11", "SUNRISE"), 1: ("S02", "SUNSET")})
    t.do(0, {"type": "perform_plan"})
    # when seat 0 moves one crew and forgoes the second move
    t.do(0, {"type": "do_step", "owner": 0, "kind": "crew", "from": HARBOR, "to": "E3"})
    t.do(0, {"type": "skip_step"})
    # then one crew moved, no Doubloon was collected, and the turn passed
    assert t.pieces(0) == {HARBOR: 4, "E3": 1, MAT: 6} and t.seat(0).doubloons == 0
    assert t.state.turn["seat"] == 1


def test_all_opposing_pirates_are_pushed_or_none():
    """[Phase 3] "if your Plan tells you to affect "all" of something, you may not choose to
    only affect some of that thing. For example, if you are told to push ALL opposing Pirates
    from a space, you may not choose to only push some of them.\""""
    # given Broadside (push all enemy pirates from your Officer's space) and, on E4, seat 0's
    # Officer with seat 1's Officer and 3 crew
    t = Table()
    plan_round(t, {0: ("U04", "SUNRISE"), 1: ("S02", "SUNSET")})
    t.place(0, "officer", HARBOR, "E4").place(1, "officer", HARBOR, "E4").place(1, "crew", HARBOR, "E4", 3)
    t.do(0, {"type": "perform_plan"})
    # then the only ways are "all of them to one adjacent space", or none
    legal = R.legal_commands(t.state, 0)
    assert {"type": "skip_step"} in legal
    assert all(set(c) in ({"type"}, {"type", "from", "to"}) for c in legal)
    refusal = t.rejects(0, {"type": "do_step", "owner": 1, "kind": "crew", "from": "E4", "to": "E3"}, "NOT_A_WAY")
    assert "move every pirate the card names together" in refusal.detail and "moveAll" not in refusal.detail
    assert '{"from": "E4", "to": "E5"}' in refusal.detail    # the ways open, as do_step takes them
    # when seat 0 pushes them to E5
    t.do(0, {"type": "do_step", "from": "E4", "to": "E5", "event_tokens": ["SR1"]})   # E5: a Sunrise back (Quiet)
    # then every one of them went
    assert t.pieces(1, "officer") == {HARBOR: 1, "E5": 1} and t.pieces(1)["E5"] == 3 and "E4" not in t.pieces(1)


def test_an_officer_moving_several_spaces_takes_different_companions_each_space():
    """[Phase 3] "If an Officer moves multiple spaces in the same turn, treat each space as a
    separate move - you may choose different Pirates to move with him for each space he moves.\""""
    # given Forced March (an Officer up to 2 spaces) at Sunrise
    t = Table()
    plan_round(t, {0: ("S09", "SUNRISE"), 1: ("S02", "SUNSET")})
    t.do(0, {"type": "perform_plan"})
    # when the Officer takes 3 crew into E4, then 1 of them on into I2
    t.do(0, officer(HARBOR, "E4", crew=3))
    assert {c["carry"]["crew"] for c in R.legal_commands(t.state, 0) if "carry" in c} == {0, 1, 2, 3}
    t.do(0, officer("E4", "I2", crew=1))
    # then 2 crew stayed on E4 and the Officer stands on I2 with 1
    assert t.pieces(0) == {HARBOR: 2, "E4": 2, "I2": 1, MAT: 6} and t.pieces(0, "officer") == {HARBOR: 1, "I2": 1}


def test_a_token_happens_once_even_when_several_pirates_move_in():
    """[Phase 3] "Each event token can only happen once each time a plan card resolves, even if
    multiple pirates move into the space.\""""
    # given the Sunrise plan moves an Officer, and E5's token has a Sunrise back
    t = Table()
    stable_round(t)
    t.do(0, {"type": "perform_plan"})
    # when the Officer carries 3 crew into E5 and the token is a Time Shard
    t.do(0, {**officer(HARBOR, "E5", crew=3), "event_tokens": ["SR5"]})
    t.do(0, {"type": "do_step"})
    # then it happened once: 1 Time Gem, not 4
    assert t.seat(0).gems == 1
    assert types(t.events).count("EventTokenTriggered") == 1


def test_a_face_up_token_happens_again_on_a_later_plan_and_is_never_flipped_back():
    """[Phase 3] "Do not flip it back face-down afterward - once an Event has been shown to
    occur at that time of day, players may freely use that information.\""""
    # given E5's Sunrise token flipped by seat 0 (Buried Chest)
    t = Table()
    stable_round(t)
    t.do(0, {"type": "perform_plan"})
    t.do(0, {**officer(HARBOR, "E5"), "event_tokens": ["SR4"]})
    t.do(0, {"type": "do_step"})
    # when seat 1 moves in on its own Sunrise plan: nothing is flipped, nothing to report
    t.do(1, {"type": "perform_plan"})
    assert R.table_inputs(t.state, 1) == {}
    t.do(1, officer(HARBOR, "E5", seat=1))
    # then the token happens for seat 1 too, still face up for everyone
    assert t.seat(1).doubloons == 2
    assert R.view(t.state, 0)["board"]["E5"]["token"] == {"back": "SUNRISE", "face_up": True, "token": "SR4", "name": "Buried Chest"}


# -- Phase 4 -----------------------------------------------------------------------------------

def test_caves_first_then_exterior_then_interior_and_a_cave_kill_changes_a_later_tile():
    """[Phase 4] "Resolve all the Mysterious Cave tiles first (one at a time) starting with the
    top left cave, then the top right, then the lower cave, then resolve all the Exterior Island
    tiles, then all the Interior Island tiles.\""""
    # given seat 0 alone in the Bat Roost (kill one enemy crew anywhere), and Tidepools (E3)
    # held 2 to 1 by seat 1
    t = Table()
    stable_round(t)
    t.place(0, "crew", HARBOR, "CLO").place(0, "crew", HARBOR, "E3").place(1, "crew", HARBOR, "E3", 2)
    forgo_all(t, until="treasure")
    # when the Bat Roost's winner kills one of seat 1's crew on Tidepools
    t.do(0, {"type": "do_step", "owner": 1, "kind": "crew", "at": "E3"})
    forgo_all(t)
    # then the tiles were taken in that order, and Tidepools, now tied 1 to 1, went to the higher Flag
    order = [e["spot"] for e in t.events if e["type"] == "TileEvaluated"]
    assert order == ["CTL", "CTR", "CLO", "E1", "E2", "E3", "E4", "E5", "E6", "I1", "I2", "I3"]
    tide = next(e for e in t.events if e["type"] == "TileEvaluated" and e["spot"] == "E3")
    assert tide["ranking"] == [0, 1] and tide["awarded"] == [{"seat": 0, "place": 1, "stage": "OPENING"}]
    # "After all tiles have been resolved, also move all Pirates that were killed back to the Harbor"
    assert WATER not in t.pieces(1)


def test_in_collapsing_four_places_take_collapsing_rippling_expanding_opening():
    """[Phase 4] "If the marker is currently in the Collapsing area, the player with the most
    Pirates on the tile will receive the rewards shown under the Collapsing symbol, 2nd receives
    what is under the Rippling symbol, 3rd gets what is under the Expanding symbol, and 4th gets
    what is shown under the Opening symbol.\""""
    # given four players on Shipwreck Beach (multi-place) with 4, 3, 2 and 1 crew, in Collapsing
    t, shipwreck = shipwreck_with_four_places()
    # then: C (+2 Time Gems +2 D), R (+1 T +2 D), E (+3 D), O (+2 D)
    assert [a["stage"] for a in shipwreck["awarded"]] == ["COLLAPSING", "RIPPLING", "EXPANDING", "OPENING"]
    assert [(x.gems, x.doubloons - 4) for x in t.state.seats] == [(2, 2), (1, 2), (0, 3), (0, 2)]


def shipwreck_with_four_places(options=None):
    """Shipwreck Beach (E1) evaluated in Collapsing with 4, 3, 2 and 1 crew of four players."""
    t = Table(4, options, flag=[0, 1, 2, 3])
    stable_round(t)
    t.state.storm = 8
    for seat, n in enumerate((4, 3, 2, 1)):
        t.place(seat, "crew", HARBOR, "E1", n)
    forgo_all(t)
    return t, next(e for e in t.events if e["type"] == "TileEvaluated" and e["spot"] == "E1")


def test_with_the_3_place_house_rule_the_4th_gets_nothing():
    """CA-10 option: the glossary's symbol shows 1st / 2nd / 3rd only."""
    _, shipwreck = shipwreck_with_four_places({"max_reward_places": 3})
    assert [a["place"] for a in shipwreck["awarded"]] == [1, 2, 3]


def test_a_volcano_pays_from_expanding_and_its_second_place_has_nothing_under_opening():
    """[Phase 4] "Note: Volcano tiles provide no rewards until the Storm Stability marker reaches
    at least the Expanding symbol." "If the Storm Stability marker is currently in the Expanding
    area, then the player with the most Pirates there will receive what is shown under the
    Expanding symbol, and the player with the second most will receive what is under the Opening symbol.\""""
    # given Lava Falls (I2, multi-place volcano) in Expanding, held 2 to 1
    t = Table()
    stable_round(t)
    t.state.storm = 3
    t.place(0, "crew", HARBOR, "I2", 2).place(1, "crew", HARBOR, "I2", 1)
    forgo_all(t)
    lava = next(e for e in t.events if e["type"] == "TileEvaluated" and e["spot"] == "I2")
    # then 1st takes Expanding (+1 Time Gem +1 D), 2nd the Opening column: nothing on a volcano
    assert lava["blocked"] is False and [a["stage"] for a in lava["awarded"]] == ["EXPANDING", "OPENING"]
    assert (t.seat(0).gems, t.seat(0).doubloons, t.seat(1).gems, t.seat(1).doubloons) == (1, 4 + 1, 0, 4)


# -- Phase 5, 6 and Final Scoring ----------------------------------------------------------------

def test_outfit_every_purchase_at_its_price_as_often_as_affordable():
    """[Phase 6] "You may pay 1 Doubloon: to move any 1 Plan card ... If there is another Plan
    card in the position you are moving it to, the other Plan card is swapped ... 2 Doubloons:
    to recruit a new Crew member ... 3 Doubloons: to gain 1 Time Gem. ... 5 Doubloons: to draw
    1 Artifact card from the top of the deck" "you may do the same type of purchase as many
    times as you would like, as long as you can afford it.\""""
    # given seat 0 with plans on Sunrise and Sunset and 17 Doubloons to spend
    t = Table()
    plan_round(t, {0: ("S05", "SUNRISE"), 1: ("S02", "SUNSET")})
    t.seat(0).mat["SUNSET"] = "S01"
    t.state.decks["stable"]["bottom"].remove("S01") if "S01" in t.state.decks["stable"]["bottom"] else \
        t.state.decks["stable"]["pool"].remove("S01")
    forgo_all(t)
    to_outfit(t, [0, 1])
    t.seat(0).doubloons = 17
    # when it swaps Sunset onto Sunrise, recruits, buys two Time Gems and an Artifact
    t.do(0, {"type": "purchase", "item": "move_plan", "from": "SUNSET", "to": "SUNRISE"})
    t.do(0, {"type": "purchase", "item": "recruit", "kind": "crew"})
    t.do(0, {"type": "purchase", "item": "time_gem"})
    t.do(0, {"type": "purchase", "item": "time_gem"})
    t.rejects(0, {"type": "purchase", "item": "artifact"}, "TABLE_OUTCOME_REQUIRED")
    t.do(0, {"type": "purchase", "item": "artifact", "artifacts": ["AR07"]})
    # then: the cards swapped, a crew left the mat for the Harbor, and 1+2+3+3+5 = 14 were paid
    assert t.seat(0).mat["SUNRISE"] == "S01" and t.seat(0).mat["SUNSET"] == "S05"
    assert t.pieces(0) == {HARBOR: 6, MAT: 5}
    assert (t.seat(0).gems, t.seat(0).artifacts, t.seat(0).doubloons) == (2, ["AR07"], 3)
    t.rejects(0, {"type": "purchase", "item": "artifact", "artifacts": ["AR08"]}, "CANNOT_AFFORD")
    # "After everyone has made their purchases, discard all the remaining Doubloons"
    t.do(0, {"type": "done_outfitting"})
    t.do(1, {"type": "done_outfitting", "anomaly": ["AN9"]})
    assert [x.doubloons for x in t.state.seats] == [0, 0] and t.seat(0).gems == 2


def test_a_final_tie_goes_to_the_higher_flag():
    """[Final Scoring] "The player with the most total Time Gems, wins! If there is a tie, the
    tied player whose Flag marker is highest on the Flag track wins the tie.\""""
    # given the last round, both players ending on 2 Time Gems (4 Doubloons each)
    t = Table()
    stable_round(t)
    t.state.storm = 8
    forgo_all(t)
    # when seat 1 takes the highest Flag in Phase 5
    t.do(0, {"type": "choose_flag", "position": 1})
    t.do(1, {"type": "choose_flag", "position": 0})
    t.do(1, {"type": "done_outfitting"})
    t.do(0, {"type": "done_outfitting"})
    # then the tie goes to seat 1
    assert [r["total"] for r in t.state.result["standings"]] == [2, 2]
    assert t.state.result["winners"] == [1] and t.state.result["tie_breaks"] == ["total", "flag"]


def test_final_scoring_converts_doubloons_two_for_one_rounding_down_and_reveals_artifacts():
    """[Final Scoring] "For every 2 Doubloons you have, gain 1 Time Gem." "Reveal all Artifact
    cards that are still in your hand – each one is worth a number of Time Gems equal to the
    value indicated in the corner of the card." [Phase 6] "Time Gems and Artifacts are not discarded\""""
    # given the last round: seat 0 holds an Hourglass Shard (3) and a Cursed Doubloon (0)
    t = Table()
    stable_round(t)
    t.state.storm = 8
    t.seat(0).artifacts = ["AR03", "AR11"]
    t.state.decks["artifact"]["pool"] = [a for a in t.state.decks["artifact"]["pool"] if a not in ("AR03", "AR11")]
    forgo_all(t)
    to_outfit(t, [0, 1])
    # when it ends on 1 Time Gem bought and 5 Doubloons (4 + 4 - 3)
    t.do(0, {"type": "purchase", "item": "time_gem"})
    t.seat(0).doubloons = 5
    t.do(0, {"type": "done_outfitting"})
    t.do(1, {"type": "done_outfitting"})
    # then 1 + 5 // 2 + 3 + 0 = 6, and the artifacts are shown to everyone
    row = t.state.result["standings"][0]
    assert (row["gems"], row["from_doubloons"], row["from_artifacts"], row["total"]) == (1, 2, 3, 6)
    ended = next(e for e in t.events if e["type"] == "GameEnded")
    assert R.redact(ended, 1)["standings"][0]["artifacts"] == ["AR03", "AR11"]


def test_with_no_artifacts_played_the_refusal_names_the_house_rule():
    """CA-21 `artifacts_per_turn: 0`: an Artifact in hand is refused for the house rule, not as a
    second Artifact of the turn."""
    t = Table(options={"artifacts_per_turn": 0})
    stable_round(t)
    t.seat(0).artifacts = ["AR15"]
    refusal = t.rejects(0, {"type": "play_artifact", "artifact": "AR15"}, "NO_ARTIFACTS_PLAYED")
    assert "artifacts_per_turn: 0" in refusal.detail and refusal.ruling == "CA-21"
    assert not [c for c in R.legal_commands(t.state, 0) if c["type"] == "play_artifact"]
