"""Valeria: Card Kingdoms (and Crimson Seas): the game as one seat may imagine it, for a dry
run (ruleset.redeal).

A seat's dry run is decided on this state (domain/dry_run.py), so everything the seat cannot
see (view.py, docs/rulings.md VP-1, VP-11) is re-dealt here from the fresh seed, and nothing
hidden is copied from the real state:

1. The other players' Dukes. [BR p.5] "Shuffle all of the Duke cards together, then deal 2
   Dukes to each player. Each player selects 1 Duke for this game and returns the unchosen
   Duke to the box. Each player keeps their Duke secret from the other players until the end
   of the game." [BR p.15] "Your Duke is kept secret during the game." A seat sees the two
   dealt to it and the one it keeps; of every other player only whether it has kept one
   (`has_kept_duke`), and how many Dukes nobody holds (`dukes_unseen`). So the Dukes the seat
   cannot see (the other players' two dealt, or the one they kept, and `duke_pool`: those
   never dealt and those returned to the box) are pooled, put in canonical order and dealt
   again: two to each other player still choosing, one to each other player who has kept one
   (its sealed choice: the same as dealing it two and keeping either at random, the other
   going back to the box), the rest to the pool. The seat's own Dukes are kept. The Duke it
   returned is not kept apart: the state holds it in `duke_pool` with the others (the view no
   longer shows it), so a dry run may imagine it in another hand; that only makes the dry run
   less precise, never a leak. Nothing else depends on a Duke before the game is scored, so
   nothing else needs recomputing; a dry run of the command that ends the game scores the
   imagined Dukes (`GameEnded`).
2. The face-down Domains. [BR p.4] "Shuffle all of the Domains together. Deal 2 face-down
   cards to each position in the bottom row, then deal 1 face-up card to each position ...
   Return the unused Domains to the box." The state holds no order and no split between
   face down and boxed (VP-1): `domain_pool` is every Domain neither face up nor owned, the
   complement of what every seat sees, and a Domain is chosen from it only when one is turned
   face up. So there is nothing hidden in it to re-deal; it is put in canonical order, and
   the Domain a dry run turns up is drawn from the fresh seed (dry_run.py), never the game's.
3. With Crimson Seas, the Goods and Tome supplies, the Noble deck and the Monster Events on
   the Exhausted stack. [CS Game Setup] "Shuffle the Goods tokens face-down ... Leave the rest
   of the Goods tokens face-down next to the board as the supply", likewise the Tomes; "Shuffle
   the Noble cards ... Leave the rest of the Noble cards face-down"; [CS Monster Event Cards]
   "take 1 face-down Monster Event card per player and shuffle them together. Place the
   shuffled cards on top of the Exhausted stack ... Return other Exhausted and Monster Event
   cards to the box." As for the Domains (VP-1): sorted pools, each the complement of what is
   in sight (the Monster Events set out and those boxed are one pool, `events_on_top` of them
   counted face down), so they are put in canonical order and what a dry run turns up comes
   from the fresh seed.
   The Monster Events on the base game on their own (VP-43) are the same pool, set out by
   `MonsterEventsSetOut` instead of `IslandsLaidOut`.
4. The face-down Citizens of the Mixed Citizen Variant. [BR p.18] "Citizens that are face down
   are not public knowledge and may not be revealed until the Citizen directly above it has
   been taken by a player." The state holds a placeholder for each (VP-40), no identity and no
   order, and the Citizens not in sight are computed from what is in sight: nothing to re-deal.
   The Citizen a dry run turns up is drawn from the fresh seed.
5. A Monster taken at random from another player (VP-18, [BR p.19] "take a random Monster
   from any one player"): the Victory stacks are face up and the draw is the fresh seed's.
6. The Dark Lord (solo variant, VP-19). [BR p.16] "randomly place one Duke face down above the
   Monster stacks. This traitorous Duke is the Dark Lord"; [BR p.17] "reveal the face of the
   Dark Lord" only when the game is scored. The seat sees its two Dukes and counts; the Dark
   Lord is dealt again from the pool with the Dukes nobody holds (the one the seat returned
   among them: a dry run may imagine it as the Dark Lord, which VP-19 rules out; that is less
   precise, never a leak).

Public, so kept as they are: every tableau, Victory stack, purse, Map, Goods, Tome and Noble
(face up or flipped), the Center stacks (Monsters and Citizens are face up in a known order),
the face-up Domains, the Island Board, the Monster Events face up and their tokens, the cards
set aside, the counts of every pool, the dice, the Harvest items and pending rewards.
When the game is over every Duke is revealed [BR p.5 "until the end of the game"]: nothing
is hidden. A spectator (seat None, which sends no commands) owns nothing: every Duke is
re-dealt.
"""
from __future__ import annotations

from .. import kit
from .state import SoloState, ValeriaState

# Pools with no order and nothing hidden in their contents (2 and 3 above): canonical order.
ORDERLESS = ("domain_pool", "goods_supply", "tome_supply", "noble_deck", "event_pool")


def redeal(state: ValeriaState, seat, rng) -> ValeriaState:
    """A clone of `state` with what `seat` cannot see re-dealt, drawing only rng.draw(n)."""
    s = state.clone()
    if not s.seats or s.finished:
        return s
    for name in ORDERLESS:
        setattr(s, name, sorted(getattr(s, name)))
    others = [i for i in range(len(s.seats)) if i != seat]
    # 1. the Dukes the seat cannot see: each other player's offer or kept Duke, and the pool
    kept = [i for i in others if s.seats[i].duke is not None]
    solo = s if isinstance(s, SoloState) and s.dark_lord is not None else None
    dark = [solo.dark_lord] if solo is not None else []  # 6. the Dark Lord (solo)
    pool = list(s.duke_pool) + dark
    for i in others:
        duke = s.seats[i].duke
        pool += s.seats[i].offer + ([duke] if duke is not None else [])
    sizes = [len(s.seats[i].offer) for i in others] + [1] * len(kept) + [1] * len(dark) + [len(s.duke_pool)]
    piles = kit.deal_into(rng, pool, sizes)
    for i, pile in zip(others, piles, strict=False):
        s.seats[i].offer = sorted(pile)   # dealt offers are sorted [setup._setup]
    for i, pile in zip(kept, piles[len(others):], strict=False):
        s.seats[i].duke = pile[0]
    if solo is not None:
        solo.dark_lord = piles[-2][0]
    s.duke_pool = sorted(piles[-1])
    return s
