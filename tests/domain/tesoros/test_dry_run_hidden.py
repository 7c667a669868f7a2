"""Los Tesoros del Rey Pirata: a dry run answers nothing a Pirate could not know without it.

At many points of random games, for every Pirate, a twin of the game with what that Pirate
cannot see changed (a card of another hand swapped with one of the deck, a card looked at by
somebody else swapped, another Pirate's sealed Scurvy choice changed) must answer that
Pirate exactly the same: view, legal commands, refusals and every dry run, in both chance
modes (tests/playouts/leaks.py). The twins are made here, not by hidden.redeal."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import ARBITER
from domain.tesoros import RULESET as R
from domain.tesoros.hidden import redeal
from tests.domain.tesoros.table import CARDS, Table
from tests.playouts import leaks
from tests.playouts.harness import play
from tests.playouts.test_tesoros_playouts import NAMES, captain


def twin(state, seat: int, rng: random.Random, changes: int = 3):
    """The game with a few things `seat` cannot see changed, or None when it sees nothing
    hidden."""
    t = state
    for _ in range(changes):
        t = _change_one(t, seat, rng) or t
    return None if t is state else t


def _change_one(state, seat: int, rng: random.Random):
    t = state.clone()
    p = t.pending
    looked_at = p["from"] if p is not None and p["kind"] == "take_card" and p["seat"] == seat else None
    others = [i for i in range(len(t.seats)) if i not in (seat, looked_at) and t.seats[i].hand]
    choices = []
    if others and t.deck:
        choices.append("hand_and_deck")
    if len(others) > 1:
        choices.append("two_hands")
    if t.deck_top is not None and seat not in t.top_known_to and t.deck:
        choices.append("top")
    if t.scurvy and any(str(i) in t.scurvy["kept"] for i in others):
        choices.append("scurvy")
    if not choices:
        return None
    what = rng.choice(choices)
    if what == "hand_and_deck":
        i = rng.choice(others)
        a, b = rng.choice(t.seats[i].hand), rng.choice(t.deck)
        if a == b:
            return None
        t.seats[i].hand = sorted([c for c in t.seats[i].hand if c != a] + [b])
        t.deck = sorted([c for c in t.deck if c != b] + [a])
        if t.scurvy and a in t.scurvy["kept"].get(str(i), []):
            t.scurvy["kept"][str(i)] = sorted(c if c != a else b for c in t.scurvy["kept"][str(i)])
    elif what == "two_hands":
        i, j = rng.sample(others, 2)
        a, b = rng.choice(t.seats[i].hand), rng.choice(t.seats[j].hand)
        t.seats[i].hand = sorted([c for c in t.seats[i].hand if c != a] + [b])
        t.seats[j].hand = sorted([c for c in t.seats[j].hand if c != b] + [a])
        if t.scurvy:
            for k, (x, y) in ((i, (a, b)), (j, (b, a))):
                if str(k) in t.scurvy["kept"]:
                    t.scurvy["kept"][str(k)] = sorted(y if c == x else c for c in t.scurvy["kept"][str(k)])
    elif what == "top":
        b = rng.choice(t.deck)
        t.deck = sorted([c for c in t.deck if c != b] + [t.deck_top])
        t.deck_top = b
    else:
        i = rng.choice([i for i in others if str(i) in t.scurvy["kept"]])
        t.scurvy["kept"][str(i)] = sorted(rng.sample(t.seats[i].hand, 2))
    return t


def probes(state) -> list[dict]:
    """Commands naming every card somebody else may hold, and each hidden kind of choice."""
    out = [{"type": t} for t in R.command_schemas]
    for card in CARDS[::5] + ["deck"]:
        out += [{"type": "defend", "die": card}, {"type": "take_card", "card": card},
                {"type": "discard_card", "card": card}, {"type": "equip", "card": card},
                {"type": "assign_move_die", "die": card}, {"type": "walk_the_plank", "card": card}]
    for i in range(len(state.seats)):
        out += [{"type": "fire_cannons", "target": i, "die": "deck"}, {"type": "play_treason", "card": "MUT-4", "target": i}]
    return out


def checkpoints(game_no: int, players: int, every: int, limit: int):
    """(state, seat, rng) at every `every`-th command of a random game."""
    rng = random.Random(game_no * 7919)
    found = []
    count = [0]

    def at_rest(state):
        count[0] += 1
        if count[0] % every == 0 and len(found) < limit and not state.finished:
            found.append(state.clone())

    play(R, game_no, NAMES[:players], None, policy=lambda r, legal: captain(r, legal), at_rest=at_rest,
         max_commands=every * limit + 1, to_the_end=False)
    return found, rng


@pytest.mark.parametrize("game_no,players", [(1, 2), (2, 3), (3, 4), (4, 3)])
def test_a_twin_with_other_hidden_cards_answers_every_pirate_the_same(game_no, players):
    states, rng = checkpoints(game_no, players, every=9, limit=8)
    compared = 0
    for state in states:
        for seat in range(players):
            other = twin(state, seat, rng)
            if other is None:
                continue
            for mode in ("server", "table"):
                leaks.assert_same_for(R, state, other, seat, probes(state), mode, seeds=leaks.SEEDS[:2])
            compared += 1
    assert compared >= 8


def test_without_the_re_deal_a_dry_run_shows_the_hidden_cards():
    """The comparison has teeth: a dry run decided on the real state tells twins apart."""
    told_apart = 0
    states, rng = checkpoints(5, 3, every=4, limit=15)
    for state in states:
        for seat in range(3):
            other = twin(state, seat, rng, changes=6)
            if other is None:
                continue
            one = leaks.seen_by(R, state, seat, probes(state), "server", seeds=leaks.SEEDS[:1], redeal=leaks.no_redeal)
            two = leaks.seen_by(R, other, seat, probes(state), "server", seeds=leaks.SEEDS[:1], redeal=leaks.no_redeal)
            told_apart += one != two
    assert told_apart >= 3


# -- the examples, at a table ----------------------------------------------------

def test_drawing_in_a_dry_run_never_draws_from_the_real_deck():
    """[Draw Phase] the card drawn is the deck's secret: 60 dry-run draws by Ana show cards of
    a deck that is re-dealt each time, so Diego's hand cannot be worked out from them."""
    one = Table(names=("Ana", "Diego"), hands=[["MUT-4", "SAB-5", "MS-2", "CP-3", "LS-2"],
                                              ["WTP-1a", "SAB-1", "CS-2", "MS-3", "CP-2"]])
    other = Table(names=("Ana", "Diego"), hands=[["MUT-4", "SAB-5", "MS-2", "CP-3", "LS-2"],
                                                ["SAB-2", "WTP-2a", "CS-5", "LS-5", "MS-5"]])
    seen = {}
    for name, table in (("one", one), ("other", other)):
        drawn = set()
        for i in range(60):
            seed = hashlib.sha256(b"a dry run's own seed %d" % i).hexdigest()
            answer = leaks.dry_run(R, table.state, 0, {"type": "draw_card"}, seed, "server")
            drawn |= {e["card"] for e in answer["events"] if e["type"] == "CardDrawn"}
        seen[name] = drawn
    # Diego's real cards turn up in the imagined draws as often as any others...
    assert {"WTP-1a", "SAB-1"} & seen["one"]
    # ... and the same seeds draw the same cards whatever Diego really holds.
    assert seen["one"] == seen["other"]


def test_a_card_looked_at_with_lamps_and_shovels_stays_its_lookers_secret():
    """[Lamps & Shovels] "you may look at the top card of the Play Deck": the card Ana looked
    at is hers alone; Diego's dry run of a defence from the deck shows some other card for
    the same seed, whatever Ana saw, in both chance modes."""
    def looked(card):
        t = Table(names=("Ana", "Diego"), hands={0: ["MUT-4", "SAB-5", "MS-2", "CP-3", "LS-2"],
                                                1: ["WTP-1a", "SAB-1", "CS-2", "MS-3", "CP-2"]}).equip_now(0, "LS-2")
        t.state.discard.append("FAVOR-a")
        t.state.deck.remove("FAVOR-a")
        t.do("Ana", {"type": "peek_deck", "drawn": [card]})
        t.do("Ana", {"type": "draw_card", "from": "discard"})
        t.do("Ana", {"type": "fire_cannons", "target": 1, "die": "SAB-5"})
        return t
    a, b = looked("CS-4"), looked("WTP-5")
    assert a.state.deck_top == "CS-4" and b.state.deck_top == "WTP-5"
    for mode in ("server", "table"):
        leaks.assert_same_for(R, a.state, b.state, 1, [{"type": "defend", "die": "deck"}], mode)
    imagined = [redeal(a.state, 1, ServerChance(seed, 9)).deck_top for seed in leaks.SEEDS]
    assert len(set(imagined)) > 1                           # re-dealt for Diego ...
    assert redeal(a.state, 0, ServerChance(leaks.SEEDS[0], 9)).deck_top == "CS-4"   # ... not for Ana


# -- the re-deal itself --------------------------------------------------------------------

def test_the_re_deal_keeps_what_the_pirate_sees_and_varies_the_rest():
    states, rng = checkpoints(6, 3, every=6, limit=10)
    for state in states:
        before = json.dumps(R.dump_state(state), sort_keys=True)
        for seat in range(3):
            dealt = [redeal(state, seat, ServerChance(seed, 3)) for seed in leaks.SEEDS]
            again = redeal(state, seat, ServerChance(leaks.SEEDS[0], 3))
            assert R.dump_state(again) == R.dump_state(dealt[0])
            for d in dealt:
                assert R.view(d, seat) == R.view(state, seat)
                assert R.legal_commands(d, seat) == R.legal_commands(state, seat)
                assert R.table_inputs(d, seat) == R.table_inputs(state, seat)
                for cmd in R.legal_commands(state, seat):
                    R.decide(d, seat, cmd, ServerChance(leaks.SEEDS[1], 4))
                    if "drawn" not in json.dumps(R.table_inputs(state, seat)):
                        try:
                            R.decide(d, seat, cmd, TableChance("seat"))
                        except Exception as error:  # a refusal is fine; a crash is not
                            assert type(error).__name__ == "Rejected", error
            other = twin(state, seat, rng)
            if other is not None:
                assert R.dump_state(redeal(other, seat, ServerChance(leaks.SEEDS[2], 3))) == \
                    R.dump_state(redeal(state, seat, ServerChance(leaks.SEEDS[2], 3)))
            hidden = {json.dumps([[x.hand for i, x in enumerate(d.seats) if i != seat], d.deck]) for d in dealt}
            if any(x.hand for i, x in enumerate(state.seats) if i != seat) and state.deck:
                assert len(hidden) > 1
        assert json.dumps(R.dump_state(state), sort_keys=True) == before


def test_the_cards_another_pirate_keeps_through_scurvy_stay_sealed():
    """[Event Cards: Scurvy] each Pirate keeps 2 cards, all at once (TA-27): once Diego has
    chosen, Ana's dry run of her own choice (which ends the Scurvy and discards the rest)
    answers the same whichever 2 Diego kept, in both chance modes."""
    from tests.domain.tesoros.test_rules import empty_deck

    def kept(cards):
        t = empty_deck(Table(names=("Ana", "Diego", "Juan")))
        t.p(2).hand[:] = t.p(2).hand[:2]
        t.do("Ana", {"type": "draw_card", "events": ["scurvy"]})
        t.do("Diego", {"type": "keep_cards", "cards": cards(t.p(1).hand)})
        return t
    a, b = kept(lambda hand: hand[:2]), kept(lambda hand: hand[-2:])
    assert a.state.scurvy["kept"] != b.state.scurvy["kept"]
    mine = [{"type": "keep_cards", "cards": a.p(0).hand[:2]}, {"type": "keep_cards", "cards": a.p(0).hand[1:3]}]
    for mode in ("server", "table"):
        leaks.assert_same_for(R, a.state, b.state, 0, mine, mode)


class _SpectatorSeesAll:
    """A planted leak: the spectator is shown the arbiter's view (every hand, the deck)."""

    def __init__(self, ruleset):
        self._ruleset = ruleset

    def __getattr__(self, name):
        return getattr(self._ruleset, name)

    def view(self, state, viewer):
        return self._ruleset.view(state, ARBITER if viewer is None else viewer)


def test_the_spectator_comparison_has_teeth_too():
    """assert_same_for compares the spectator's view of every twin (a spectator sees only what
    every seat may see): a spectator shown the arbiter's view is caught, on the same twins the
    real rules pass."""
    states, rng = checkpoints(2, 3, every=9, limit=4)
    caught = 0
    for state in states:
        for seat in range(3):
            other = twin(state, seat, rng)
            if other is None:
                continue
            leaks.assert_same_for(R, state, other, seat, [], "server", seeds=leaks.SEEDS[:1])
            with pytest.raises(AssertionError, match="a spectator can tell"):
                leaks.assert_same_for(_SpectatorSeesAll(R), state, other, seat, [], "server", seeds=leaks.SEEDS[:1])
            caught += 1
    assert caught >= 4


def test_with_the_pact_of_the_waves_a_dry_run_imagines_which_events_are_in_play():
    """TP-17: the Events not yet turned up are re-dealt between the Anchor (or, with Chaos, the
    Play Deck) and those left out, in the same counts; a twin with other Events in play imagines
    the same; the Pirate's view is unchanged."""
    for options in ({}, {"chaos_on_the_high_seas": True}):
        games = [Table(names=("A", "B", "C"), options={"pact_of_the_waves": 3, **options}, events=events)
                 for events in (["damned_lighthouse", "scurvy", "storm"], ["outrage", "rumors", "storm"])]
        state = games[0].state
        dealt = [redeal(state, 1, ServerChance(seed, 3)) for seed in leaks.SEEDS]
        for d in dealt:
            assert R.view(d, 1) == R.view(state, 1)
            assert len(d.events_out) == 2 and sorted(d.events_left + d.events_out + [
                c for c in d.deck if c in d.events]) == sorted(e["id"] for e in R.default_content["events"])
            assert not any(c in d.events for x in d.seats for c in x.hand)   # Events never land in a hand
        assert len({tuple(d.events_out) for d in dealt}) > 1, options
        assert R.dump_state(redeal(games[1].state, 1, ServerChance(leaks.SEEDS[0], 3))) == \
            R.dump_state(dealt[0])
