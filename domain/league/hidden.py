"""League of Pirates: the game as one seat may imagine it, for a dry run (ruleset.redeal).

A seat's dry run is decided on this state (domain/dry_run.py), so everything the seat cannot
see (view.py, docs/rulings.md LP-P2) is re-dealt here from the fresh seed, and nothing hidden
is copied from the real state:

1. The other seat's sealed league. [Set Up] "Secretly choose the pirate league (color) you
   wish to play; then you and your opponent reveal your chosen Captain at the same time."
   Until both have chosen, a seat sees only that the other has chosen (`league_chosen`).
   Re-dealt: one of the three leagues, uniformly at random; any is a legal choice whatever
   the seat itself chose (LP-A3). The seat's own choice is kept, and a seat that has not
   chosen stays unchosen (that is shown). Nothing else depends on a league before both are
   revealed: Captains and bags are dealt by the reveal itself.
2. Which coins the other seat's blind draw produced. [Press Gang] "Pay 1 point to blindly
   pull one coin from your Homeport Bag"; [Recruit] "pull three coins ... choose one to keep
   ... Return the other two": the drawer alone sees them, the other seat a count (LP-A18,
   unless the house rule `reveal_drawn_coins` shows them). Re-dealt: the drawn coins and the
   drawer's bag are pooled and dealt again, as many drawn as were drawn (any coins of the bag
   could have come out), the rest back in the bag.
3. The contents of the other seat's Homeport Bag: its owner sees them, the other seat a
   count (LP-P2). A bag has no order ("blindly pull"): the state keeps it sorted and a draw
   is chosen by chance when it is made, so there is no hidden order to re-deal, and the
   server's future draws come from the dry run's fresh seed. Its composition, together with
   a hidden draw, is the complement of every coin the seat can see (both crews and Brigs,
   the plank, its own bag and draw): LP-P2, "their contents follow from the content, the
   revealed leagues and the public placements". So the bag is dealt from the pool of item 2
   and otherwise kept, in its sorted order.

Public, so kept as it is: the Dice Challenge (LP-A6: both seats throw on their own and
every throw is public the moment it is made; nothing is thrown sealed), raids and their
rolls (LP-P3), crews, Brigs, Traitors, points, the plank, and the bag each coin returns to
(`origin`, which follows from the revealed leagues and the content, LP-A14).

A spectator (seat None, which sends no commands) is treated as a seat that owns nothing:
both seats' secrets are re-dealt, each bag from its own pool.
"""
from __future__ import annotations

from .. import kit
from .state import LEAGUES, LeagueState


def redeal(state: LeagueState, seat, rng) -> LeagueState:
    """A clone of `state` with what `seat` cannot see re-dealt, drawing only rng.draw(n)."""
    s = state.clone()
    if not s.seats:
        return s
    others = [i for i in range(len(s.seats)) if i != seat]
    revealed = all(x.league is not None for x in s.seats) and s.phase != "leagues"
    if not revealed:
        for i in others:
            if s.seats[i].league is not None:
                s.seats[i].league = LEAGUES[rng.draw(len(LEAGUES))]
    p = s.pending
    if (p is not None and p.get("kind") == "draw" and p["seat"] in others
            and not s.options.get("reveal_drawn_coins")):   # a draw this seat does not see
        bag = s.seats[p["seat"]]
        drawn, rest = kit.deal_into(rng, list(p["drawn"]) + list(bag.bag), [len(p["drawn"]), len(bag.bag)])
        p["drawn"], bag.bag = drawn, sorted(rest)
    return s
