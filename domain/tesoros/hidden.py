"""Los Tesoros del Rey Pirata: the game as one Pirate may imagine it, for a dry run.

What a Pirate cannot see (view.py) is re-dealt from fresh randomness (domain/dry_run.py):

- the other Pirates' hands ([Setup] the cards are dealt face down; each hand is its owner's)
  and the Play Deck's face-down cards (its order is nobody's and the state holds none, but
  which cards are in it is the complement of the hidden hands): pooled, in a canonical
  order, and dealt again into hands of the same sizes and a deck of the same size;
- the card on top that a Lamps & Shovels look showed to others only ([Lamps & Shovels]
  "you may look at the top card of the Play Deck"): it goes into the pool too, and a card of
  the pool takes its place; a Pirate who looked at it keeps it where it is;
- the 2 cards another Pirate has already chosen to keep through Scurvy ([Event Cards:
  Scurvy], TA-27: chosen all at once, so sealed until every Pirate has chosen): chosen again
  at random from that Pirate's re-dealt hand.

Kept as they are: the Pirate's own hand; a hand it is looking at while it takes a card by
Mutiny ([Mutiny] the attacker looks at the target's hand); everything face up (the discard
pile, equipment, Treasures, Maps, Events turned up, ships). The Maps still in the Map Deck
are a public list in the log (drawn by chance when needed, in no stored order), so nothing
of them is re-dealt; so are the Event cards under the Anchor when every Event is in play.
With the pact of the waves leaving some out, which ones are in play is nobody's (TP-17): the
Events not yet turned up (under the Anchor, shuffled into the Play Deck with Chaos, or left
out) are re-dealt into the same counts. What a Pirate learned from the log that
the view no longer shows (a hand revealed by Rumors, a hand passed by Storm) is re-dealt
with the rest: the dry run is then less exact, never an oracle.
"""
from __future__ import annotations

from .. import kit
from .state import TesorosState


def redeal(state: TesorosState, seat: int, rng) -> TesorosState:
    s = state.clone()
    if not s.seats or s.finished:
        return s
    shown = {seat}
    p = s.pending
    if p is not None and p["kind"] == "take_card" and p["seat"] == seat:
        shown.add(p["from"])                    # [Mutiny] the attacker is looking at it
    others = [i for i in range(len(s.seats)) if i not in shown]
    hidden_top = [] if s.deck_top is None or seat in s.top_known_to else [s.deck_top]
    cards = [c for c in s.deck if c not in s.events]        # with Chaos, the deck holds Events too
    in_deck = [c for c in s.deck if c in s.events]
    pool = cards + [c for i in others for c in s.seats[i].hand] + hidden_top
    sizes = [len(cards), len(hidden_top)] + [len(s.seats[i].hand) for i in others]
    deck, top, *hands = kit.deal_into(rng, pool, sizes)
    if s.events_out:   # TP-17: which Events are in play, and which were left out, is nobody's
        in_deck, left, out = kit.deal_into(rng, in_deck + s.events_left + s.events_out,
                                           [len(in_deck), len(s.events_left), len(s.events_out)])
        s.events_left, s.events_out = sorted(left), sorted(out)
    s.deck = sorted(deck + in_deck)
    if hidden_top:
        s.deck_top = top[0]
    for i, hand in zip(others, hands, strict=False):
        s.seats[i].hand = sorted(hand)
    if s.scurvy is not None:
        for key in sorted(s.scurvy["kept"], key=int):
            if int(key) in others:
                s.scurvy["kept"][key] = sorted(kit.deal(rng, s.seats[int(key)].hand)[:len(s.scurvy["kept"][key])])
    return s
