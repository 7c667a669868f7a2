"""The games this process served last, kept between requests (GameCache).

Stored events never change, so a kept game brought up to date with the events stored since
equals the game loaded afresh. How a game is loaded, and how its newer events are read, is
the application's (Parley passes both in), so the cache knows nothing of the event store.
"""
from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from uuid import UUID

from service.game import Game, copy_game, project_game

DEFAULT_SIZE = 512  # games kept per process (PARLEY_GAME_CACHE_SIZE)

class _Kept:
    """One kept game: its lock, the game, and until when it counts as contested (another
    process stored events for it lately, so a command is decided only after catching up)."""

    __slots__ = ("lock", "game", "contested_until")

    def __init__(self, game: Game):
        self.lock = threading.Lock()
        self.game = game
        self.contested_until = 0.0


class GameCache:
    """The latest version of the games this process served last, kept between requests.

    Reading a game then costs one query for the events stored since it was cached (usually
    none), instead of a snapshot query, an events query and up to 100 events replayed. Stored
    events never change, so a cached game brought up to date equals a game loaded afresh
    (tests/api/test_game_cache.py). Callers get copies; the kept game changes only by stored
    events: those found by catching up, and those this process has just stored (`stored`).

    `peek` skips the catch-up query for a command, when no other process has stored events
    for the game in the last CONTESTED_SECONDS: the command is decided on the kept game, and
    its insert at the next version proves the game was current (a stale game's insert meets
    the events stored since and fails). Whatever a peeked game leads to other than a stored
    command is decided again on a caught-up game (service/commands.py).

    Size: PARLEY_GAME_CACHE_SIZE games per process (DEFAULT_SIZE, 512; 0 turns it off), of
    about 35 KiB each for a Corsairs game and at most about 200 KiB (a Chrono Corsairs game,
    with its own copy of the shipped content): 20 to 100 MB a worker when full. Every worker
    of a node may be sent any game, so each should hold every game its node is playing at
    once: with more active games than that, commands go to the games in turn and each one
    reloads its game from the store (docs/performance.md, "The game cache's size"). Games
    created with custom content are not kept."""

    CONTESTED_SECONDS = 30.0

    def __init__(self, size: int | None = None):
        self.size = size if size is not None else int(os.environ.get("PARLEY_GAME_CACHE_SIZE", str(DEFAULT_SIZE)))
        self._games: OrderedDict = OrderedDict()    # game id -> _Kept
        self._lock = threading.Lock()

    def _entry(self, game_id: UUID) -> _Kept | None:
        with self._lock:
            entry = self._games.get(game_id)
            if entry is not None:
                self._games.move_to_end(game_id)
            return entry

    def _keep(self, game_id: UUID, game: Game) -> None:
        with self._lock:
            if game_id in self._games:
                return  # another thread kept it meanwhile, perhaps at a later version
            self._games[game_id] = _Kept(copy_game(game))
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def get(self, game_id: UUID, load, events_after) -> Game:
        """The game brought up to date with every event stored for it (one query)."""
        entry = self._entry(game_id)
        if entry is None:
            game = load(game_id)
            if game.content is None:
                # Custom content may be as large as a request body (1 MiB of JSON, many MB in
                # memory): such games are loaded afresh each time rather than kept.
                self._keep(game_id, game)
            return game
        with entry.lock:
            try:
                before = entry.game.version
                entry.game = project_game(entry.game, events_after(game_id, before)) or entry.game
                if entry.game.version != before:
                    # Events this process stored are usually kept as stored (`stored`), so
                    # events found here are mostly another process's. (Not always: a thread of
                    # this process may have stored between our read and its `stored`; then
                    # the game is merely caught up first a while longer.)
                    entry.contested_until = time.monotonic() + self.CONTESTED_SECONDS
            except BaseException:
                with self._lock:
                    if self._games.get(game_id) is entry:
                        del self._games[game_id]
                raise
            return copy_game(entry.game)

    def peek(self, game_id: UUID, load, events_after) -> tuple[Game, bool]:
        """(game, caught_up): the kept game as it is, unless another process wrote to it
        lately or it is not kept; then as get() (caught_up True)."""
        entry = self._entry(game_id)
        if entry is not None and time.monotonic() >= entry.contested_until:
            with entry.lock:
                return copy_game(entry.game), False
        return self.get(game_id, load, events_after), True

    def stored(self, game: Game, before: int) -> None:
        """The game's events after version `before` were just stored by this process: keep
        the game at its new version if the kept one was at `before` (else leave it to
        catch up by query). The game itself is kept, not a copy: the caller (Parley._store)
        only reads it from then on, to answer, and every later caller gets a copy."""
        entry = self._entry(game.id)
        if entry is None:
            return
        with entry.lock:
            if entry.game.version == before:
                entry.game = game


__all__ = ["GameCache"]
