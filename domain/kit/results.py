"""One result shape for every game (issue 17): who won, and every seat's place.

Each game ends with its own GameEnded event (stored forever, so never reshaped); its status()
reads that event's result into this shape with `ranked`, giving the game's order of merit:

    reason      why the game ended (the game's own word, spaces as underscores)
    winners     the winning seats
    ranking     one entry per seat, {seat, rank, score}: rank 1 for the winner or winners,
                then places by the game's own order (its score, then its tie-breaks), equal
                places sharing a rank ("1, 2, 2, 4"); the service adds each seat's name
    tie_breaks  the tie-breaks the rulebook applied to decide the winners among the seats
                with the best score, in order, each one word of the game's (`silver`,
                `flag`, `set_sail`, `fewest_cards_in_tableau`, `sudden_death`), and `shared`
                (or the game's own word for it) when seats still tied share the win; empty
                when one seat had the best score alone, or a rule named the winner
    details     everything else the game reports (its scoring sheet)

The game's older keys (standings, totals, breakdown...) stay beside these for one version,
deprecated (docs/api.md)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SHAPE = ("reason", "winners", "ranking", "tie_breaks", "details")


def ranked(result: Mapping[str, Any], scores: Mapping[int, Any], merit: Mapping[int, Sequence],
           tie_breaks: Sequence[str]) -> dict:
    """`result` in the shape above. scores: each seat's score as the game counts it; merit:
    each seat's order of merit, compared as tuples, higher first (score, then the tie-breaks
    the game applies; a rank is shared only by seats equal in all of them); tie_breaks: those
    applied to decide the winners, read by the game from its GameEnded event (whose own
    `tie_breaks`, stored as it was, may name the score itself or carry more)."""
    winners = list(result["winners"])
    others = [s for s in scores if s not in winners]
    ranking = [{"seat": s, "rank": 1, "score": scores[s]} for s in sorted(winners)]
    for seat in sorted(others, key=lambda s: (_descending(merit[s]), s)):
        better = sum(1 for o in others if tuple(merit[o]) > tuple(merit[seat]))
        ranking.append({"seat": seat, "rank": len(winners) + better + 1, "score": scores[seat]})
    details = {k: v for k, v in result.items() if k not in SHAPE}
    # One word, as every game's (Chrono Corsairs' stored event says "storm collapsed": the event
    # stays as stored, since verification re-decides it; its result says "storm_collapsed").
    reason = "_".join(str(result["reason"]).split())
    return {**details, "reason": reason, "winners": winners, "ranking": ranking,
            "tie_breaks": list(tie_breaks), "details": details}


def _descending(key: Sequence) -> tuple:
    return tuple(-x for x in key)


def named(result: dict | None, names: Sequence[str]) -> dict | None:
    """The result as a caller reads it: each ranking entry with its seat's name."""
    if not result or "ranking" not in result:
        return result
    return {**result, "ranking": [{"seat": r["seat"], "name": names[r["seat"]],
                                   "rank": r["rank"], "score": r["score"]} for r in result["ranking"]]}
