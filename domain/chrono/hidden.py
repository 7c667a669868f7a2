"""Chrono Corsairs: the game as one seat may imagine it, for its dry runs (ruleset.redeal).

What a seat cannot see (view.py), and how it is re-dealt here from the fresh seed alone:

- The Plan cards another player drew. [Phase 2] "Draw the number of Stable Plan and Unstable
  Plan cards indicated by the position of the cubes on your Ship mat. Look at the cards you
  have drawn": the drawer alone looks; others see how many (drawn_count). The decks are
  face-down ([Components & Setup] "shuffle these and place them in a face-down deck"), so the
  unseen part of a deck (`pool`, a set: CP-1) holds no order, but its COMPOSITION is the
  complement of the hidden hands, and the cards put under it (`bottom`) went face-down.
  So for each Plan deck, every card of that deck that is not on a Ship mat and not in the
  seat's own hand is pooled (canonical order) and dealt again into: each other player's
  hand, as many of that deck as it holds (the number drawn from each deck is public: the
  cubes say how many, and each deck's count is shown before and after every draw, CA-17),
  the deck's unseen part (a set again, kept sorted) and the cards under it (in the dealt
  order). How many cards are under each deck is kept: it is public (every return and every
  draw is counted in the open, and a deck's unseen part is drawn first).
- The card and space another player selected. [Phase 2] "Hold the selected card out in front
  of you, face-down ... flip over your card at the same time as everyone else": others see
  only that a card is held out (selected: true). A player's selection is re-dealt as one of
  its re-dealt drawn cards and one of the four spaces, each uniformly (select_plan takes any
  drawn card and any space: CA-19); the seat's own selection is kept.
- The cards put back under a deck unselected. [Phase 2] "Discard all the other Plan cards
  ... face-down to the bottom of their respective decks": re-dealt with the rest, above.
  A card replaced on a mat also goes under face-down, in everyone's sight; a seat remembers
  its own discards too. The state does not record who saw what go under, and the view shows
  none of it, so all the cards under a deck are re-dealt (CP-16): the dry run is less
  precise for it, never told anything.
- Artifact hands. [Phase 3] "simply reveal the card from your hand"; [Final Scoring] "Reveal
  all Artifact cards that are still in your hand": until then others see a count. Every
  Artifact not in the seat's own hand and not in play (a played Artifact is revealed, and it
  stays named until it goes under the deck) is pooled and dealt again into the other hands
  (same sizes, kept sorted), the deck's unseen part and the cards under it (same sizes).
  "Discard the Artifact card face-down to the bottom of the Artifact deck": under it, as for
  the Plan decks (CP-16).
- Event tokens face down and those in the box. [Components & Setup] "without looking at it";
  [Phase 3] "If it is face down, flip the token face up": the state holds only their backs,
  and a face is drawn among the unseen ones when a token is first flipped (CP-1). Nothing
  to re-deal; a dry run with server chance draws that face from its fresh seed
  (domain/dry_run.py), never from the game's.
- The Anomaly deck is face-up ([Components & Setup] "a face-UP deck"): its top card and its
  discards are public, so what remains in it is too; the next card is drawn when it is turned
  up, from the fresh seed in a dry run. Nothing to re-deal.

Kept: everything the view shows (mats, pieces, counts, cubes, Flags, the storm, tokens turned
up, the Anomaly deck, the effect being resolved), the seat's own hand, selection and Artifacts,
and the Artifact in play. A finished game hides nothing: it is returned as a clone.
"""
from __future__ import annotations

from .. import kit
from .state import TIMES, ChronoState

PLAN_DECKS = ("stable", "unstable")


def redeal(state: ChronoState, seat, rng) -> ChronoState:
    """The state with everything `seat` cannot see re-dealt from rng (see the module docstring);
    `state` is not changed."""
    s = state.clone()
    if s.finished or not s.seats:
        return s
    others = [i for i in range(len(s.seats)) if i != seat]
    mine = s.seats[seat] if seat in range(len(s.seats)) else None
    _plans(s, others, mine, rng)
    for i in others:
        x = s.seats[i]
        if x.selected is not None:
            x.selected = {"card": x.drawn[rng.draw(len(x.drawn))], "slot": TIMES[rng.draw(len(TIMES))]}
    _artifacts(s, others, mine, rng)
    return s


def _plans(s: ChronoState, others: list[int], mine, rng) -> None:
    on_mats = {c for x in s.seats for c in x.mat.values() if c}
    own = set(mine.drawn) if mine else set()
    parts: dict[int, dict[str, list[str]]] = {i: {} for i in others}   # seat -> deck -> its cards
    for deck in PLAN_DECKS:
        unseen = [c for c, p in s.plans.items() if p["deck"] == deck and c not in on_mats and c not in own]
        pile = s.decks[deck]
        sizes = [sum(1 for c in s.seats[i].drawn if s.plans[c]["deck"] == deck) for i in others]
        dealt = kit.deal_into(rng, unseen, sizes + [len(pile["pool"]), len(pile["bottom"])])
        for i, hand in zip(others, dealt, strict=False):
            parts[i][deck] = hand
        pile["pool"], pile["bottom"] = sorted(dealt[-2]), dealt[-1]
    for i in others:
        # drawn as draw_plans deals them: the Stable cards first
        s.seats[i].drawn = parts[i]["stable"] + parts[i]["unstable"]


def _artifacts(s: ChronoState, others: list[int], mine, rng) -> None:
    own = set(mine.artifacts) if mine else set()
    unseen = [a for a in s.artifacts if a not in own and a != s.artifact_in_play]
    pile = s.decks["artifact"]
    sizes = [len(s.seats[i].artifacts) for i in others]
    dealt = kit.deal_into(rng, unseen, sizes + [len(pile["pool"]), len(pile["bottom"])])
    for i, hand in zip(others, dealt, strict=False):
        s.seats[i].artifacts = sorted(hand)
    pile["pool"], pile["bottom"] = sorted(dealt[-2]), dealt[-1]
