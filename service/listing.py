"""The game list (GET /games): a projection of the events, stored beside them in the database.

One row per game (id, ruleset, players, created_at, version, finished, public) with `position`, the
order games were created in (the listing's cursor is a game id; rows are paged by its
position), and one row per (casefolded player name, position) for the player filter. The rows
are written by the recorder in the same transaction as the events they reflect (`Parley.save`
passes the `changes` of each insert to the recorder as its `listing` argument): a game whose
creation has returned is listed, a failed insert leaves neither events nor rows, and no
process replays the log or keeps the list in memory to answer.

The recorders (service/store.py for PostgreSQL, service/recorders.py for SQLite and memory)
each implement:

    insert_events(stored_events, listing=changes)     events and rows, one transaction
    select_games(Filters) -> list[Listed]             up to limit + 1 rows, in creation order
    select_versions(ids) -> {id: version}             the games' stored versions (live updates)
    select_events_after({id: version}) -> [StoredEvent]   their events after those versions, one query
    create_listing(backfill)                          once: the tables, filled from the events

Positions follow commit order: on PostgreSQL a game's row is inserted under a lock taken only
by creations, so that a client paging with `after` never misses a game created meanwhile (it
comes after every position already given out); on SQLite one writer at a time commits.

Databases written before the list was stored get its tables, filled from the stored events
(`Backfill`), when a process first starts with this code: in one transaction, one process at
a time, so that the rows appear all at once and exactly once (docs/architecture.md, "The game
list"). A list stored before it had `public` gets the column the same way, set from the stored
creations (`Backfill.public_ids`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from service.game import Game

GAMES = "parley_games"           # the listing's tables (SQLite and PostgreSQL)
PLAYERS = "parley_game_players"
LISTING = "listing"      # the keyword under which Parley.save hands the changes to the recorder
BATCH = 2000             # notifications read at a time by the backfill
ENDED = "GameEnded"      # domain/ruleset.py: a game ends with exactly one event of this type

# A change is a dict: {"id", "version", "finished"} for a game already listed, plus
# {"ruleset", "players", "names", "created_at", "public"} when this insert creates it ("names":
# the players' names casefolded, without repeats, for the player filter).
Change = dict[str, Any]


@dataclass
class Listed:
    """One game as the list shows it."""

    id: str
    ruleset: str
    players: list[str]
    created_at: str
    version: int
    finished: bool
    public: bool = False   # anyone may read it without a token ("public": true at creation)


@dataclass(frozen=True)
class Filters:
    """What GET /games asks for: None means any."""

    ruleset: str | None = None
    status: str | None = None          # "active" | "finished"
    player: str | None = None          # compared casefolded
    after: UUID | None = None          # the cursor: games created after this one
    limit: int = 50
    public: bool | None = None         # only games anyone may (True) or may not (False) read without a token
    newest_first: bool = False         # the latest created first (the cursor then goes back in time)

    @property
    def unmatchable(self) -> bool:
        """A NUL in a ruleset or a name matches no game (names cannot hold one: NAME_PATTERN,
        service/api/games.py), and PostgreSQL text cannot hold one to compare."""
        return any("\x00" in value for value in (self.ruleset, self.player) if value is not None)

    @property
    def finished(self) -> bool | None:
        return None if self.status is None else self.status == "finished"

    @property
    def name(self) -> str | None:
        return None if self.player is None else self.player.casefold()


def folded(players: Iterable[str]) -> list[str]:
    """The players' names as the player filter compares them (casefolded, each once)."""
    return list(dict.fromkeys(p.casefold() for p in players))


def changes(events: Iterable[Any]) -> list[Change]:
    """What one insert of these domain events changes in the list, one change per game."""
    found: dict[str, Change] = {}
    for event in events:
        game_id = str(event.originator_id)
        if isinstance(event, Game.Created):
            players = list(event.seats)
            found[game_id] = {"id": game_id, "version": event.originator_version, "finished": False,
                              "ruleset": event.ruleset_id, "players": players, "names": folded(players),
                              "created_at": event.timestamp.isoformat(),
                              "public": bool(getattr(event, "public", False))}
        elif isinstance(event, Game.Happened):
            change = found.setdefault(game_id, {"id": game_id, "version": 0, "finished": False})
            change["version"] = max(change["version"], event.originator_version)
            change["finished"] = change["finished"] or event.event.get("type") == ENDED
    return list(found.values())


def page(rows: Sequence[Listed], limit: int) -> tuple[list[Listed], str | None]:
    """The first `limit` rows, and the cursor of the next page (None on the last)."""
    shown = list(rows[:limit])
    return shown, (shown[-1].id if len(rows) > limit else None)


class Backfill:
    """The changes that list the games of stored notifications (for a database written before
    the list was stored). Only a game's Created event and events that may end it are decoded:
    every other event only moves its game's version, which its notification says."""

    def __init__(self, mapper):
        self.mapper = mapper

    def __call__(self, notifications: Sequence[Any]) -> list[Change]:
        found: dict[str, Change] = {}
        for notification in notifications:
            game_id = str(notification.originator_id)
            if notification.topic.endswith("Game.Created"):
                found.update((c["id"], c) for c in changes([self.mapper.to_domain_event(notification)]))
                continue
            change = found.setdefault(game_id, {"id": game_id, "version": 0, "finished": False})
            change["version"] = max(change["version"], notification.originator_version)
            if not change["finished"] and self._may_end(notification.state):
                event = self.mapper.to_domain_event(notification)
                change["finished"] = isinstance(event, Game.Happened) and event.event.get("type") == ENDED
        return list(found.values())

    def public_ids(self, notifications: Sequence[Any]) -> list[str]:
        """The public games among these notifications' creations (for a list stored before it
        had `public`: the column is added and set from the stored creations)."""
        return [c["id"] for n in notifications if n.topic.endswith("Game.Created")
                for c in changes([self.mapper.to_domain_event(n)]) if c["public"]]

    def _may_end(self, state: bytes) -> bool:
        # The record as the transcoder wrote it (after the cipher and compressor, if any).
        if self.mapper.cipher is not None:
            state = self.mapper.cipher.decrypt(state)
        if self.mapper.compressor is not None:
            state = self.mapper.compressor.decompress(state)
        return ENDED.encode() in state


class ListingSQL:
    """The listing's SELECT for some filters, on SQLite and PostgreSQL (`mark`: "?" or "%s").

    A player filter reads the (name, seq) index of the players table in creation order; the
    other filters have their own (ruleset, seq), (finished, seq) and (public, seq) indexes. An `after` that
    is no listed game gives no rows (Parley.list_games then refuses it)."""

    def __init__(self, games: str, players: str, mark: str):
        self.games, self.players, self.mark = games, players, mark
        self.statements: dict[tuple[bool, ...], str] = {}

    def select(self, filters: Filters, after: Any = None) -> tuple[str, list]:
        shape = (filters.name is not None, filters.ruleset is not None, filters.finished is not None,
                 filters.public is not None, filters.after is not None, filters.newest_first)
        statement = self.statements.get(shape)
        if statement is None:
            statement = self.statements[shape] = self._statement(*shape)
        params: list = [v for v in (filters.name, filters.ruleset, filters.finished, filters.public) if v is not None]
        if filters.after is not None:
            params.append(after if after is not None else filters.after)
        return statement, [*params, filters.limit + 1]

    def _statement(self, name: bool, ruleset: bool, finished: bool, public: bool, after: bool,
                   newest_first: bool) -> str:
        m = self.mark
        source, order = f"{self.games} g", "g.seq"
        if name:
            source = f"{self.players} p JOIN {self.games} g ON g.seq = p.seq"
            order = "p.seq"
        where = [f"p.name = {m}"] if name else []
        where += [f"g.ruleset = {m}"] if ruleset else []
        where += [f"g.finished = {m}"] if finished else []
        where += [f"g.public = {m}"] if public else []
        beyond = "<" if newest_first else ">"
        where += [f"{order} {beyond} (SELECT seq FROM {self.games} WHERE id = {m})"] if after else []
        condition = f" WHERE {' AND '.join(where)}" if where else ""
        # The same indexes serve both orders: read backwards for the newest first.
        return (f"SELECT g.id, g.ruleset, g.players, g.created_at, g.version, g.finished, g.public "
                f"FROM {source}{condition} ORDER BY {order}{' DESC' if newest_first else ''} LIMIT {m}")


def apply_in_memory(games: dict[str, Listed], names: dict[str, list[str]], batch: list[Change]) -> None:
    """Changes applied to an in-memory list (the POPO recorder's; `games` in creation order)."""
    for change in batch:
        row = games.get(change["id"])
        if "ruleset" in change and row is None:
            games[change["id"]] = Listed(change["id"], change["ruleset"], list(change["players"]),
                                         change["created_at"], change["version"], change["finished"],
                                         change.get("public", False))
            names[change["id"]] = list(change["names"])
        elif row is not None:
            row.version = max(row.version, change["version"])
            row.finished = row.finished or change["finished"]


def select_in_memory(games: dict[str, Listed], names: dict[str, list[str]], filters: Filters) -> list[Listed]:
    ids = list(reversed(games)) if filters.newest_first else list(games)
    rows: Iterable[Listed] = (games[i] for i in ids)
    if filters.after is not None:
        after = str(filters.after)
        rows = [games[i] for i in ids[ids.index(after) + 1:]] if after in games else []
    found = []
    for row in rows:
        if (filters.ruleset is None or row.ruleset == filters.ruleset) \
                and (filters.finished is None or row.finished == filters.finished) \
                and (filters.public is None or row.public == filters.public) \
                and (filters.name is None or filters.name in names[row.id]):
            found.append(Listed(**vars(row)))
            if len(found) > filters.limit:
                break
    return found


class BackfillFunction(Protocol):
    """What create_listing fills the list from (Backfill): the changes of stored notifications,
    and the public games among their creations."""

    def __call__(self, notifications: Sequence[Any]) -> list[Change]: ...

    def public_ids(self, notifications: Sequence[Any]) -> list[str]: ...


class ListingRecorder(Protocol):
    """What Parley asks of its application recorder beyond eventsourcing's (see above)."""

    def select_games(self, filters: Filters) -> list[Listed]: ...

    def select_versions(self, game_ids: list[str]) -> dict[str, int]: ...

    def select_events_after(self, after: dict[str, int]) -> list[Any]: ...

    def create_listing(self, backfill: BackfillFunction) -> None: ...
