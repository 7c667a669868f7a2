"""The list of games, kept consistent with the event store by following its notification log.

Every stored event has a place in the application's notification log (one sequence for the
whole store, on SQLite, PostgreSQL and in memory alike). Before it answers, a listing reads
every notification past the last one it has seen and folds it into the index, so a game
whose creation was stored before the request is always listed, and a game that was never
stored never is. Each process keeps its own copy (several gunicorn workers each catch up
from the same log: each Parley application holds one, Parley.index); nothing here writes
to the store.

PostgreSQL inserts take a table lock, so notification ids are assigned in commit order;
an id can be skipped (a rolled-back insert) but never filled in later.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

from service.game import Game

BATCH = 500


@dataclass
class Row:
    id: str
    ruleset: str
    players: list[str]
    created_at: str
    version: int = 1
    finished: bool = False


@dataclass
class GameIndex:
    rows: dict = field(default_factory=dict)       # game id -> Row, in creation order
    position: int = 0                              # last notification id folded in
    lock: threading.Lock = field(default_factory=threading.Lock)

    def catch_up(self, app) -> None:
        """Fold in every notification of `app`'s store past the last one folded in."""
        with self.lock:
            while True:
                batch = app.recorder.select_notifications(start=self.position + 1, limit=BATCH)
                if not batch:
                    return
                for notification in batch:
                    event = app.mapper.to_domain_event(notification)
                    game_id = str(event.originator_id)
                    if isinstance(event, Game.Created):
                        self.rows[game_id] = Row(id=game_id, ruleset=event.ruleset_id, players=list(event.seats),
                                                 created_at=event.timestamp.isoformat())
                    elif isinstance(event, Game.Happened) and game_id in self.rows:
                        row = self.rows[game_id]
                        row.version = event.originator_version
                        # domain/ruleset.py: a game ends with exactly one GameEnded event
                        if event.event.get("type") == "GameEnded":
                            row.finished = True
                    self.position = notification.id

    def select(self, ruleset: str | None, status: str | None, player: str | None,
               after: str | None, limit: int) -> tuple[list[Row], str | None]:
        """Games in creation order after the cursor (a game id), filtered; and the next cursor."""
        rows = list(self.rows.values())
        if after is not None:
            ids = [r.id for r in rows]
            rows = rows[ids.index(after) + 1:] if after in ids else []
        wanted = [r for r in rows
                  if (ruleset is None or r.ruleset == ruleset)
                  and (status is None or (status == "finished") == r.finished)
                  and (player is None or any(player.casefold() == p.casefold() for p in r.players))]
        page = wanted[:limit]
        return page, (page[-1].id if len(wanted) > limit else None)
