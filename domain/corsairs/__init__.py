"""Corsairs of Valeria (2-5 players), adjudicated from ../shared/rules/corsairs-of-valeria.txt.

Every rule in the rulebook is enforced, including all ten printed captain powers. Where the
rulebook is silent Parley rules as docs/rulings.md records (CV-A.., CV-P..); house rules that
differ are creation options. The track tiles, Start Island and the 11th captain are not
printed: they are content (content/schema.json); the default set is invented reference
content, labelled as not the printed components. The 11th captain has no text and is never
dealt. No information is hidden in this game.
"""
from __future__ import annotations

from .. import kit
from ..ruleset import Status
from . import legal, rules, state, view
from . import setup as _setup
from .commands import COMMAND_SCHEMAS


def result(r: dict) -> dict:
    """[Ending the Game] places by Treasure, then Silver, then Grog (kit.results)."""
    rows = {x["seat"]: x for x in r["standings"]}
    # the stored tie_breaks begin with the score itself ("treasure"); none when a rule named the winner
    return kit.ranked(r, {i: x["treasure"] for i, x in rows.items()},
                      {i: (x["treasure"], x["silver"], x["grog"]) for i, x in rows.items()}, r["tie_breaks"][1:])


def status(s: state.CorsairsState) -> Status:
    if s.finished:
        return Status(finished=True, to_move=[], phase="finished", result=result(s.result) if s.result is not None else None)
    if not s.players:
        return Status(finished=False)
    phase = {"roll": "A", "reroll": "B", "actions": "C"}.get(s.turn.phase, "D")
    return Status(finished=False, to_move=rules.to_move(s), phase=phase)


RULESET = kit.ruleset(
    id=_setup.RULESET_ID,
    version=_setup.RULESET_VERSION,
    name="Corsairs of Valeria",
    min_players=2,
    max_players=5,
    summary="Race to Skull Island with five dice: re-roll for Grog, collect Silver (5 make a Treasure), "
            "sail, fire cannons. First to 6 Treasure wins, or most Treasure when Skull Island is reached "
            "a second time.",
    table_setup_schema=_setup.TABLE_SETUP_SCHEMA,
    public_setup_fields=_setup.PUBLIC_SETUP_FIELDS,
    command_schemas=COMMAND_SCHEMAS,
    setup=_setup, state=state, rules=rules, legal=legal, view=view, status=status,
    hidden=None,  # nothing is hidden from a seat (view.py): a dry run needs no re-deal
)
