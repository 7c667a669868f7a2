"""TP-16: the host's `nameable.play_deck` offers the discard pile's cards once the next command
can reach the Anchor, whose step 2 shuffles the discard pile onto it as the new Play Deck. How
near the Anchor that is rests on the most cards one command takes off the Play Deck (view.py's
MOST_CARDS_A_COMMAND_TAKES), which these games count."""
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
def test_the_discard_pile_is_offered_when_a_command_can_reach_the_anchor(left):
    events = R.setup(NAMES[:2], {}, None, ServerChance(seed_for(1), 0), None)
    s = R.initial_state()
    for e in events:
        s = R.evolve(s, e)
    s = s.clone()
    s.discard, s.deck = s.deck[left:], s.deck[:left]
    nameable = R.view(s, ARBITER)["nameable"]["play_deck"]
    if left < MOST_CARDS_A_COMMAND_TAKES:
        held = [c for x in s.seats for c in x.hand + ([x.equipped] if x.equipped else [])]
        assert held and nameable == sorted(s.deck + s.discard + held)
    else:
        assert nameable == sorted(s.deck)
    assert R.view(s, ARBITER)["pools"]["play_deck"] == {c: 1 for c in sorted(s.deck)}  # the pile is face up, no pool
