"""Chrono Corsairs (2 to 5 players), adjudicated from ../shared/rules/chrono-corsairs.txt.

Every rule in the rulebook is enforced: setup (tiles and caves at random, face-down Event
tokens, the storm's start by player count), the six phases (CA-1): the storm and the top
Anomaly; drawing by cube positions and the sealed selection of one plan and its space,
revealed together, with the extra storm step for Unstable plans; the Loop in Flag order with
perform or forgo, one Artifact per turn, moves to adjacent spaces with officers carrying their
space's pirates step by step, Event tokens once per resolution, killed pirates in the water and
pirates lost to the storm back on the mat; Find Treasure by majority with 2nd to 4th places,
ties to the higher Flag, no volcano rewards before Expanding; Set Priority; Outfit Ship with
every purchase; Final Scoring. Where the rulebook is silent Parley rules as docs/rulings.md
records (CA-n from the rules notes, CP-n its own); house rules are creation options.
Plan cards, anomalies, tiles, caves, event tokens and artifacts are not printed: they are
content written in CCEL, an effect language run by one interpreter (effects.py); the default
set is invented reference content, labelled as such, with the one printed cave (Scrying Mirror)
exact. Hidden information: see view.py.
"""
from __future__ import annotations

from .. import kit
from ..ruleset import Status
from . import hidden, legal, rules, state, view
from . import setup as _setup
from .commands import COMMAND_SCHEMAS


def result(r: dict) -> dict:
    """[Final Scoring] places by Time Gems, ties to the higher Flag (kit.results)."""
    rows = {x["seat"]: x for x in r["standings"]}
    return kit.ranked(r, {i: x["total"] for i, x in rows.items()}, {i: (x["total"], -x["flag"]) for i, x in rows.items()},
                      [t for t in r["tie_breaks"] if t != "total"])   # the stored list names the score too


def status(s: state.ChronoState) -> Status:
    if s.finished:
        return Status(finished=True, to_move=[], phase="finished", result=result(s.result) if s.result is not None else None)
    if not s.seats:
        return Status(finished=False)
    return Status(finished=False, to_move=rules.to_move(s), phase="effect" if s.frames else s.phase)


RULESET = kit.ruleset(
    id=_setup.RULESET_ID,
    version=_setup.RULESET_VERSION,
    name="Chrono Corsairs",
    min_players=2,
    max_players=5,
    summary="Pirates caught in a time storm: each round everyone secretly adds one plan to their ship's "
            "day (Sunrise, Morning, Evening, Sunset), runs the loop in Flag order moving officers and crew "
            "across the island, then takes treasure by majority on every tile. Most Time Gems when the "
            "storm collapses wins.",
    table_setup_schema=_setup.TABLE_SETUP_SCHEMA,
    public_setup_fields=_setup.PUBLIC_SETUP_FIELDS,
    command_schemas=COMMAND_SCHEMAS,
    setup=_setup, state=state, rules=rules, legal=legal, view=view, status=status, hidden=hidden,
)
