"""Random playouts of Los Tesoros del Rey Pirata in server-chance mode, 2 to 4 players and
the variants: invariants after every event, legal commands agreeing with decide, replay and
snapshot round trips."""
from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from domain.tesoros import RULESET as R
from domain.tesoros.rules import totals, vp
from tests.playouts.harness import check_replay, play

NAMES = ["Ana", "Diego", "Juan", "Marta"]


def captain(rng: random.Random, legal: list[dict], s=None) -> dict:
    """A Pirate who claims when it can, sails for the open Maps and fights now and then."""
    kinds = {c["type"] for c in legal}
    for wanted in ("claim_treasure", "take_treasure"):
        if wanted in kinds:
            return rng.choice([c for c in legal if c["type"] == wanted])
    if rng.random() < 0.25:
        return rng.choice(legal)
    pref = [c for c in legal if c["type"] in ("equip", "fire_cannons", "challenge_duel", "play_treason")]
    if pref and rng.random() < 0.3:
        return rng.choice(pref)
    if "move_ship" in kinds and s is not None:
        islands = {s.maps[m]["island"] for m in s.open_maps}
        there = [c for c in legal if c["type"] == "move_ship" and c["to"] in islands]
        if there:
            return rng.choice(there)
        return min((c for c in legal if c["type"] == "move_ship"),
                   key=lambda c: min(_from_island(s, i).get(c["to"], 99) for i in islands) if islands else 0)
    if "assign_move_die" in kinds:
        return rng.choice([c for c in legal if c["type"] == "assign_move_die"])
    draws = [c for c in legal if c["type"] == "draw_card"]
    if draws and rng.random() < 0.6:
        return rng.choice(draws)
    return rng.choice(legal)


_DIST: dict = {}


def _from_island(s, island: str) -> dict:
    if island not in _DIST:
        _DIST[island] = s.board.reach(island, 99)
    return _DIST[island]


def random_options(rng: random.Random) -> dict:
    opts = {}
    if rng.random() < 0.3:
        opts["pact_of_the_waves"] = rng.randrange(0, 6)
    if rng.random() < 0.25:
        opts["scanning_the_horizon"] = True
    if rng.random() < 0.25:
        opts["chaos_on_the_high_seas"] = True
    if rng.random() < 0.25:
        opts["first_player"] = "draw_off"
    opts["sudden_death_max_turns"] = rng.choice([5, 20])
    # [Variants] Scanning and Chaos are not combined (TP-13), nor played with no Event (TP-14): the
    # same draws as before, without what a creation now refuses
    if opts.get("scanning_the_horizon"):
        opts.pop("chaos_on_the_high_seas", None)
    if opts.get("pact_of_the_waves") == 0:
        opts.pop("scanning_the_horizon", None)
        opts.pop("chaos_on_the_high_seas", None)
    return opts


def candidates(rng: random.Random, s) -> list[dict]:
    cards = list(s.cards) + ["nope"]
    def card():
        return rng.choice(cards)
    def die():
        return rng.choice(cards + ["deck", "free5", "deck", "free5", 3])
    def seat():
        return rng.randrange(-1, 5)
    spaces = list(s.board.links)
    return [
        {"type": "draw_card"}, {"type": "draw_card", "from": rng.choice(["discard", "deck", "hand"])},
        {"type": "peek_deck"},
        {"type": "fire_cannons", "target": seat(), "die": die()},
        {"type": "challenge_duel", "target": seat(), "die": die()},
        {"type": "defend", "die": die()},
        {"type": "take_treasure", "map": rng.choice(list(s.maps) + ["x"])},
        {"type": "play_treason", "card": card(), "target": seat(), **({"replace": die()} if rng.random() < .5 else {})},
        {"type": "accept_treason"},
        {"type": "walk_the_plank", "card": card(), **({"replace": die()} if rng.random() < .5 else {})},
        {"type": "take_card", "card": card()},
        {"type": "equip", "card": card()},
        {"type": "claim_treasure", "map": rng.choice(list(s.maps)), "card": card()},
        {"type": "assign_move_die", "die": die()},
        {"type": "move_ship", "to": rng.choice(spaces)},
        {"type": "discard_card", "card": card()},
        {"type": "keep_cards", "cards": [card(), card()]},
        # Scurvy: two cards of each hand in the order not listed (the rules sort them)
        *[{"type": "keep_cards", "cards": sorted(seat_.hand[:2], reverse=True)} for seat_ in s.seats if len(seat_.hand) >= 2],
    ]


class Checker:
    """TI-1..TI-16 of the rules notes, after every event."""

    def __init__(self):
        self.turns = []

    def __call__(self, s, event: dict) -> None:
        if not s.seats or not s.content:
            return
        t = event["type"]
        if t in ("GameSetUp", "EventsPlacedUnderAnchor"):
            return
        places = Counter(s.deck + s.discard + ([s.deck_top] if s.deck_top else []))
        for x in s.seats:
            places.update(x.hand)
            if x.equipped:
                places[x.equipped] += 1
                assert s.cards[x.equipped]["kind"] == "equipment"                 # TI-7
            assert x.ship in s.board.links                                       # TI-11
        places.update(s.events_left + s.event_discard + s.events_out)
        if s.face_up_event:
            places[s.face_up_event] += 1
        if s.resolving:
            places[s.resolving] += 1
        every = list(s.cards) + list(s.events)
        assert sorted(places) == sorted(every) and max(places.values()) == 1, event  # TI-1, TI-2
        maps = Counter(s.map_deck + s.open_maps + [m for x in s.seats for m in x.treasures])
        assert sorted(maps) == sorted(s.maps) and max(maps.values()) == 1, event   # TI-4
        if t != "TreasureClaimed":  # the next Map is revealed by the following event
            assert len(s.open_maps) == min(3, len(s.open_maps) + len(s.map_deck))  # TI-5
        assert len({s.maps[m]["island"] for m in s.open_maps}) == len(s.open_maps)  # TI-6
        if not s.options["chaos_on_the_high_seas"]:
            assert not any(c in s.events for c in s.deck)                         # TI-3
        if t == "DieAssigned":                                                    # TI-9
            lo, hi = (1, 8) if event["bonus"] else (1, 7)
            assert lo <= event["value"] <= hi and (event["source"] != "free5" or event["value"] == 5)
        if t == "ShipMoved":                                                      # TI-12
            assert 1 <= event["steps"] <= s.move_value and event["to"] != s.turn_start
        if t == "TurnStarted":                                                    # TI-8, TI-13
            if self.turns:
                prev = self.turns[-1]
                assert event["seat"] == (prev + 1) % len(s.seats)
                assert len(s.seats[prev].hand) <= 8
            self.turns.append(event["seat"])
        if t == "DiscardReshuffled":                                              # TI-19
            assert not s.discard
        if t == "AttackResolved":
            assert event["success"] == (event["attack_value"] >= event["defence_value"])
        for i in range(len(s.seats)):                                             # TI-15
            assert vp(s, i) >= 0


def check_end(s) -> None:
    res = s.result
    t = totals(s)
    assert res["totals"] == t
    best = max(t)
    leaders = [i for i, v in enumerate(t) if v == best]
    assert res["winners"] == leaders
    if len(leaders) > 1:
        assert res["reason"] == "sudden_death_limit"                               # TI-16
    if res["reason"] == "last_treasure":
        assert not s.map_deck and not s.open_maps
    if res["reason"] == "last_event":
        assert not s.options["chaos_on_the_high_seas"] and len(s.event_discard) == s.events_in_play


def policy_for(state_ref):
    return lambda rng, legal: captain(rng, legal, state_ref[0])


def run(game_no: int, agreement: float = 0.0):
    rng = random.Random(-game_no)
    players = NAMES[:2 + game_no % 3]
    ref = [None]

    def at_rest(s):
        ref[0] = s

    checker = Checker()

    def after(s, e):
        ref[0] = s
        checker(s, e)

    s, events = play(R, game_no, players, random_options(rng), policy=lambda r, legal: captain(r, legal, ref[0]),
                     candidates=candidates if agreement else None, agreement=agreement,
                     after_event=after, at_rest=at_rest)
    return s, events


@pytest.mark.parametrize("batch", range(5))
def test_random_games_end_with_the_invariants_holding_after_every_event(batch):
    for game_no in range(batch * 40, batch * 40 + 40):
        s, events = run(game_no)
        check_end(s)
        assert hashlib.sha256(bytes.fromhex(s.seed)).hexdigest() == s.commitment
        if game_no % 5 == 0:
            check_replay(R, s, events)


@pytest.mark.parametrize("game_no", range(900, 906))
def test_legal_commands_agree_exactly_with_decide(game_no):
    s, events = run(game_no, agreement=0.15)
    check_end(s)
    check_replay(R, s, events)
