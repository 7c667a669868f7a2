"""TP-16: the host's `nameable.play_deck` is what the next card off the Play Deck may be, and
`nameable.play_deck_after_anchor` what the cards after the Anchor may be, when the next command
can go past it: the Anchor's step 2 shuffles the discard pile (and what hands and equipped slots
lose to it first) onto it as the new Play Deck. How near the Anchor that is rests on the most
cards one command takes off the Play Deck (view.py's MOST_CARDS_A_COMMAND_TAKES), which these
games count."""
from __future__ import annotations

import random

import pytest

from domain.chance import ServerChance
from domain.ruleset import ARBITER
from domain.tesoros import RULESET as R
from domain.tesoros.view import MOST_CARDS_A_COMMAND_TAKES
from tests.playouts.harness import seed_for

NAMES = ["Ana", "Diego", "Juan", "Marta"]


def taken_off_the_deck(events: list[dict]) -> int:
    """Cards that end a draw taken off the Play Deck by one command: drawn, looked at (Lamps &
    Shovels), or turned up for a die value (an Event card drawn with Chaos ends none)."""
    return sum(1 for e in events
               if (e["type"] == "CardDrawn" and e["from"] == "deck") or e["type"] == "DeckPeeked"
               or (e["type"] == "DieAssigned" and e["source"] == "deck"))


def games():
    for game in range(24):
        options = {"chaos_on_the_high_seas": game % 3 == 1, "scanning_the_horizon": game % 3 == 2}
        yield game, 2 + game % 3, options


def test_no_command_takes_more_cards_than_the_listing_allows_for():
    most, commands = 0, 0
    for game, players, options in games():
        rng, seed = random.Random(game), seed_for(game)
        events = R.setup(NAMES[:players], options, None, ServerChance(seed, 0), None)
        state = R.initial_state()
        for e in events:
            state = R.evolve(state, e)
        for _ in range(3000):
            status = R.status(state)
            if status.finished:
                break
            seat = rng.choice(status.to_move)
            new = R.decide(state, seat, rng.choice(R.legal_commands(state, seat)), ServerChance(seed, len(events)))
            most = max(most, taken_off_the_deck(new))
            for e in new:
                state = R.evolve(state, e)
            events += new
            commands += 1
    assert commands > 5000
    assert most == MOST_CARDS_A_COMMAND_TAKES  # reached, and never passed


@pytest.mark.parametrize("left", [0, 1, 2])
def test_the_reshuffled_pile_is_offered_for_the_cards_a_command_takes_after_the_anchor(left):
    """The next card comes off the deck while it has one; with one left, a command that takes
    two goes on past the Anchor: `play_deck_after_anchor` lists what the pile may hold then, the
    discard pile and what hands and equipped slots may lose to it first."""
    events = R.setup(NAMES[:2], {}, None, ServerChance(seed_for(1), 0), None)
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    s = s.clone()
    s.discard, s.deck = s.deck[left:], s.deck[:left]
    host = R.view(s, ARBITER)
    held = [c for x in s.seats for c in x.hand + ([x.equipped] if x.equipped else [])]
    assert held and s.discard
    if left == 0:   # the Anchor comes first
        assert host["nameable"]["play_deck"] == sorted(s.discard + held)
    else:
        assert host["nameable"]["play_deck"] == sorted(s.deck)
    if 0 < left < MOST_CARDS_A_COMMAND_TAKES:
        assert host["nameable"]["play_deck_after_anchor"] == sorted(s.discard + held)
    else:
        assert "play_deck_after_anchor" not in host["nameable"]
    assert host["pools"]["play_deck"] == {c: 1 for c in sorted(s.deck)}  # the pile is face up, no pool
