"""League of Pirates (exactly 2 players), adjudicated from ../shared/rules/league-of-pirates.txt.

Every rule in the rulebook is enforced: the sealed league choice, the simultaneous Dice
Challenge (both seats throw independently), the nine actions, slots, traitors and the
plank, raids and rescues, Set Sail and the final scoring. Where the rulebook is silent
Parley rules as docs/rulings.md records (LP-A.., LP-P..); house rules are creation options.
The Skull/Cross set membership, the skill values on the coin backs, the skill-die faces and
the number of brig slots are not printed: they are content (content/schema.json), and the
default set is invented reference content, labelled as not the printed components.
Hidden information: see view.py; what a seat's dry run imagines of it, hidden.py.
"""
from __future__ import annotations

from .. import kit
from ..ruleset import Status
from . import hidden, legal, rules, state, view
from . import setup as _setup
from .commands import COMMAND_SCHEMAS


def result(r: dict) -> dict:
    """[Winning] places by total points; the tie goes to whoever Set Sail (kit.results)."""
    return kit.ranked(r, dict(enumerate(r["totals"])), {i: (t,) for i, t in enumerate(r["totals"])},
                      [t for t in r["tie_breaks"] if t != "total"])   # the stored list names the score too


def status(s: state.LeagueState) -> Status:
    if s.finished:
        return Status(finished=True, to_move=[], phase="finished", result=result(s.result) if s.result is not None else None)
    return Status(finished=False, to_move=rules.to_move(s), phase=s.phase)


RULESET = kit.ruleset(
    id=_setup.RULESET_ID,
    version=_setup.RULESET_VERSION,
    name="League of Pirates",
    min_players=2,
    max_players=2,
    summary="Two captains race to fill a ship with pirate coins. Each turn both roll a Dice Challenge "
            "(1-2-3 in order, then score the other two dice); the winner takes one action: press gang, "
            "recruit, resupply, turn a traitor, raid, enlist, rescue or set sail.",
    table_setup_schema=None,
    command_schemas=COMMAND_SCHEMAS,
    setup=_setup, state=state, rules=rules, legal=legal, view=view, status=status, hidden=hidden,
)
