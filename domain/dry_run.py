"""A dry run: what a command would produce, decided on what the caller may know.

A dry run stores nothing, but its answer is still an answer. Decided on the real state it
would be an oracle: another seat's hand, a sealed choice or the contents of the deck would
show in the events and the view it answers, and a seat could dry-run until it knew them
(style guide, "Traps"). So a seat's dry run is decided on the game as that seat may imagine
it: the ruleset re-deals everything the seat cannot see from fresh randomness
(ruleset.redeal), and server chance draws from that fresh seed too, never from the game's
own (whose future draws are as secret as a hand). The answer then depends only on what the
seat can see and on the fresh seed: byte for byte the same whatever the hidden parts are,
for the same fresh seed (docs/rulings.md DR-1; tests/domain/<game>/test_dry_run_hidden.py,
tests/api/test_hidden_everywhere.py).

The host (the table's device, the arbiter) sees everything: its dry run is decided on the
real state, with a fresh seed for server chance all the same (the game's seed would show the
host the next roll before anyone commits to it, and a game-ending event would reveal it).
"""
from __future__ import annotations

from typing import Any

from .chance import ServerChance
from .ruleset import ARBITER


class ThrowawayChance(ServerChance):
    """A dry run's server chance: drawn from its fresh seed, which the event that would end
    the game does not reveal. That seed is not the game's, so a client checking the seed it
    is shown against the game's commitment would meet a mismatch; the ending event of a dry
    run shows no seed, as a table game's does not (docs/rulings.md DR-1)."""

    def reveal(self) -> None:  # type: ignore[override]
        return None


def imagined(ruleset, state, viewer, chance, seed: str, position: int) -> tuple[Any, Any]:
    """(state, chance) to decide a dry run of `viewer`'s (a seat, or ARBITER for the host) on.

    seed: fresh randomness (64 hex digits) drawn by the caller for this dry run alone;
    position: the game's version (as ServerChance counts it). `chance` is the game's own
    source: a table game keeps it (a seat still may not report draws, docs/rulings.md TM-1);
    a server game draws from the fresh seed, after the re-deal's own draws."""
    rng = ThrowawayChance(seed, position)
    if viewer != ARBITER:
        state = ruleset.redeal(state, viewer, rng)
    if chance.mode == "server":
        chance = rng
    return state, chance
