"""Los Tesoros del Rey Pirata (2 to 4 players), from ../shared/rules/tesoros-del-rey-pirata.txt.

Every rule in the rulebook is enforced: setup (Events under the Anchor, five cards each, three
Maps from the bottom, Ships on the Compass Rose), the four phases, the six actions, assigning
die values from hand, equipped card or deck, Fire Cannons and Challenge to Duel with the
defender's answer, Treason and Walk the Plank with one replacement value, the four
Equipment benefits, movement through the arrows, claiming and refreshing Maps, the Anchor
and its Events, the hand limit, the end and sudden death, and the three variants (creation
options). Where the rulebook is silent Parley rules as docs/rulings.md records (TA-n from
the rules notes, TP-n its own). The board, the die value of each card, the Maps and the
Victory Points are not printed: they are content (content/schema.json), and the default set
is invented reference content, labelled as not the printed components.
Hidden information: see view.py (and hidden.py for a dry run). Not modelled: the Blank Event cards' own effects (a blank
card in content reuses one of the five printed effects).
"""
from __future__ import annotations

from .. import kit
from ..ruleset import Status, Variant
from . import hidden, legal, rules, state, view
from . import setup as _setup
from .commands import COMMAND_SCHEMAS


def result(r: dict) -> dict:
    """[Victory and End of Game] places by Victory Points (kit.results); a tie at the top is
    broken by playing on in sudden death (TA-6)."""
    applied = ["sudden_death"] if r["reason"].startswith("sudden_death") else []
    return kit.ranked(r, dict(enumerate(r["totals"])), {i: (t,) for i, t in enumerate(r["totals"])},
                      applied + list(r["tie_breaks"]))


def status(s: state.TesorosState) -> Status:
    if s.finished:
        return Status(finished=True, to_move=[], phase="finished", result=result(s.result) if s.result is not None else None)
    if not s.seats:
        return Status(finished=False)
    phase = "scurvy" if s.scurvy is not None else s.pending["kind"] if s.pending is not None else s.phase
    return Status(finished=False, to_move=rules.to_move(s), phase=phase)


VARIANTS = (  # [Variants]: "The pact of the waves ... may be combined with the next two."
    Variant("The pact of the waves", kit.Section("Variants"), {"pact_of_the_waves": 4}, 2, 4,
            "The table decides how many Event cards are in the match (0 to all of the content's): a shorter game. "
            "Combines with either of the other two."),
    Variant("Scanning the horizon", kit.Section("Variants"), {"scanning_the_horizon": True}, 2, 4,
            "The next Event card lies face up; each Anchor triggers the revealed one. Not with Chaos on "
            "the high seas."),
    Variant("Chaos on the high seas", kit.Section("Variants"), {"chaos_on_the_high_seas": True}, 2, 4,
            "After dealing, the Event cards are shuffled into the Play deck and resolve when drawn. Not "
            "with Scanning the horizon."),
)

RULESET = kit.ruleset(
    id=_setup.RULESET_ID,
    version=_setup.RULESET_VERSION,
    name="Los Tesoros del Rey Pirata",
    min_players=2,
    max_players=4,
    summary="Pirate captains sail a board of islands, claim treasures with the right equipment, and steal "
            "cards and treasures with cannons, duels and treason; every die value is a card from your hand "
            "or the top of the deck. Most Victory Points when the last treasure is claimed or the last "
            "event runs wins.",
    table_setup_schema=_setup.TABLE_SETUP_SCHEMA,
    public_setup_fields=_setup.PUBLIC_SETUP_FIELDS,
    command_schemas=COMMAND_SCHEMAS,
    variants=VARIANTS,
    setup=_setup, state=state, rules=rules, legal=legal, view=view, status=status, hidden=hidden,
)
