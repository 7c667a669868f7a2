"""The event-sourced application: one Game aggregate per game; load -> decide -> save.

Rules live in domain/: the application asks a ruleset what happens (setup, and a command's
adjudication, domain/adjudication.py) and stores the answer. Outcomes of chance are chosen
in decide(), before any event is triggered, so replaying stored events never rolls again.

Parley holds what a process needs around the store: the rulesets it serves (given to each
game as it is read, service/game.py GameMapper), its GameCache (service/cache.py), and the store's
configuration. The game list is a projection the recorders store with the events
(service/listing.py): every save hands them its changes. Persistence comes from the
environment (eventsourcing's PERSISTENCE_MODULE and friends, any of them optionally prefixed
PARLEY_). Without any, games go to an SQLite file under ./var/.
"""
from __future__ import annotations

import datetime
import hmac
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass
from typing import cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import (
    EventStore,
    IntegrityError,
    InterfaceError,
    InternalError,
    OperationalError,
    PersistenceError,
)

from disputes import chain
from domain import adjudication
from domain import chance as domain_chance
from domain.adjudication import json_safe
from domain.ruleset import ARBITER
from service import listing
from service.cache import GameCache
from service.game import Game, GameMapper, hash_token, project_game
from service.listing import Filters, Listed, ListingRecorder
from service.live import Hub
from service.seeds import SeedKeys

log = logging.getLogger("parley.store")

# The largest version a store holds: a version is a bigint in PostgreSQL, an INTEGER in SQLite.
LAST_VERSION = 2**63 - 1


class GameNotFound(Exception):
    pass


class UnknownCursor(Exception):
    """A game list's `after` that names no game: no page follows it."""


@dataclass
class NewGame:
    game: Game
    seat_tokens: list[str]
    host_token: str
    spectator_token: str
    replayed: bool = False   # the answer to a retry of an earlier creation (CreationRetry)


@dataclass(frozen=True)
class CreationRetry:
    """A creation's Idempotency-Key (as sent) and its request's hash (SHA-256 of the body's
    canonical JSON): the same key and body answer the first creation, tokens included."""

    key: str
    request: str


def creation_ids(seeds: SeedKeys, retry: CreationRetry) -> list[UUID]:
    """The ids a creation with this key may have made its game under: one for each seed key,
    the sealing key's first (new games take it). The id is the key's HMAC under a server
    secret, not a public hash: the game list shows ids to anyone, and an id computed from the
    key alone would let them test guesses of a weak key offline, then fetch its tokens. So a
    retry reaches the game from any node (they share the keys), two nodes creating it at once
    meet on the event store's uniqueness, and an id says nothing of its key."""
    return [UUID(bytes=digest[:16], version=4)
            for digest in seeds.digests(b"parley creation key\n" + retry.key.encode())]


class CreationKeyReused(Exception):
    """An Idempotency-Key already used to create a game with another request body."""


class CreationKeyExpired(Exception):
    """An Idempotency-Key whose game was created longer ago than CREATION_RETRY_WINDOW."""


# How long a creation's key answers its retries: long enough for any client's retry, short
# enough that a key leaked later (a log, a script) no longer hands out the game's tokens.
CREATION_RETRY_WINDOW = datetime.timedelta(hours=24)


DEFAULT_ENV = {
    "PERSISTENCE_MODULE": "eventsourcing.sqlite",
    "SQLITE_DBNAME": os.path.join("var", "parley.sqlite"),
    "POSTGRES_CONNECT_TIMEOUT": "3",
    "POSTGRES_PASSWORD": "",
}


class Parley(Application):
    """Creates games and executes commands; every read loads the same aggregate."""

    name = "parley"  # pins the table names (parley_events, parley_snapshots)
    env = DEFAULT_ENV
    snapshotting_intervals = {Game: 100}
    snapshotting_projectors = {Game: project_game}

    def __init__(self, rulesets: dict, env: dict | None = None,
                 snapshot_interval: int | None = None):
        self._games = GameCache()
        # Streams and long polls wait here for games' next events (service/live.py).
        self.live = Hub(lambda ids: cast(ListingRecorder, self.recorder).select_versions(ids),
                        events_since=self._events_since)
        if snapshot_interval is not None:
            self.snapshotting_intervals = {Game: snapshot_interval}  # type: ignore[misc]  # this app's
        self.rulesets = dict(rulesets)
        for attempt in range(5):
            try:
                super().__init__(env=env)
                # The game list's tables, filled from the games stored before they existed
                # (once per database; service/listing.py).
                cast(ListingRecorder, self.recorder).create_listing(listing.Backfill(self.mapper))
                return
            except (IntegrityError, InternalError):
                # Several gunicorn workers starting on an empty database race to create the
                # same tables; Postgres refuses all but one (a duplicate, or "tuple
                # concurrently updated"). Parley's PostgreSQL recorders take a lock for it
                # (service/store.py), but not with a pool of one connection: retry.
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    def construct_env(self, name, env=None):
        # Class defaults < os.environ < explicit env, as eventsourcing merges them.
        result = super().construct_env(name, env)
        if result.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
            from service import store

            result["PERSISTENCE_MODULE"] = store.TOPIC  # the same, failing fast (store.py)
        if result.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
            dbname = result.get("SQLITE_DBNAME") or ""
            if dbname and ":memory:" not in dbname and not dbname.startswith("file:"):
                os.makedirs(os.path.dirname(os.path.abspath(dbname)), exist_ok=True)
        return result

    def construct_factory(self, env):
        """eventsourcing's factory for the configured store, with recorders that write the game
        list with the events (SQLite and memory: service/recorders.py; PostgreSQL: store.py)."""
        from service import recorders

        module = env.get("PERSISTENCE_MODULE") or "eventsourcing.popo"
        if module == "eventsourcing.sqlite":
            return recorders.ListingSQLiteFactory(env)
        if module == "eventsourcing.popo":
            return recorders.ListingPOPOFactory(env)
        factory = super().construct_factory(env)
        if not hasattr(factory.application_recorder_class, "select_games"):
            raise ValueError(f"PERSISTENCE_MODULE {module!r}: Parley stores games in eventsourcing.sqlite, "
                             "eventsourcing.postgres or eventsourcing.popo (its game list needs their recorders)")
        return factory

    def save(self, *games: Game, **kwargs):  # type: ignore[override]  # Parley saves games only
        """The games' pending events stored (and snapshots taken, _take_snapshots), as
        eventsourcing's save does, which checks each object it is given against two runtime
        Protocols (a tenth of a command's storing): Parley saves only its own games."""
        processing_event: ProcessingEvent = ProcessingEvent()
        for game in games:
            processing_event.events.extend(game.collect_events())
            processing_event.aggregates[game.id] = game
        processing_event.saved_kwargs.update(kwargs)
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # the library's deprecated hook, as its save calls it
        return recordings

    def _take_snapshots(self, processing_event) -> None:
        """A snapshot whenever a save's events reach a multiple of `snapshotting_intervals[Game]`,
        taken from the game in hand at the version it was saved at (the command's last event),
        not at the multiple itself after loading the game again from the store, as eventsourcing
        does: a command whose events cross the multiple (a tenth of Corsairs' snapshots, more in
        the card games) cost a snapshot query, an events query and the events replayed. A
        snapshot at any version serves every read at or after it, so reading a past version
        replays at most the interval plus one command's events. The game in hand is the game
        that loading would give: its state was folded from the same events
        (tests/api/test_storage.py compares the two)."""
        interval = self.snapshotting_intervals.get(Game) if self.snapshots is not None else None
        if not interval:
            return
        due = {event.originator_id for event in processing_event.events if not event.originator_version % interval}
        for game_id in due:
            game = processing_event.aggregates.get(game_id)
            if game is not None:
                try:
                    cast(EventStore, self.snapshots).put([Game.Snapshot.take(game)])
                except PersistenceError as error:
                    # The events are stored: the command happened, and its answer says so. A
                    # snapshot only spares reads a replay; without it the game is read from
                    # the one before. A store full, read-only or away for a moment is a warning;
                    # anything else (a snapshots table gone or unlike Parley's) is an error.
                    level = logging.WARNING if isinstance(error, (OperationalError, InterfaceError)) else logging.ERROR
                    log.log(level, "snapshot of game %s at version %s not stored: %r", game_id, game.version, error)

    def _record(self, processing_event):
        # The game list's changes go into the same insert as the events (service/listing.py).
        processing_event.saved_kwargs.setdefault(listing.LISTING, listing.changes(processing_event.events))
        return super()._record(processing_event)

    def construct_mapper(self) -> GameMapper:
        """Records are read with the rulesets this application serves (service/game.py)."""
        mapper = cast(GameMapper, self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=GameMapper))
        mapper.rulesets = self.rulesets
        # Seeds are sealed with keys held outside the store (service/seeds.py).
        self.seeds = SeedKeys.from_environment(self.env)
        mapper.seeds = self.seeds
        return mapper

    # Commands ---------------------------------------------------------------------

    def create_game(self, ruleset_id: str, players: list[str], chance_mode: str,
                    options: dict | None = None, content: dict | None = None,
                    table_setup: dict | None = None, public: bool = False,
                    retry: CreationRetry | None = None) -> NewGame:
        """A new game and its tokens. With `retry`, a creation already made with that key and
        request is answered instead (replayed: nothing is created again; CreationKeyReused with
        another request); else the game gets the key's id, and what a retry is answered with
        (the request's hash, the version answered, the tokens sealed) goes into its creation record."""
        if retry is not None:
            earlier = self.replayed_creation(retry)
            if earlier is not None:
                return earlier
        ruleset = self.rulesets[ruleset_id]
        chance: domain_chance.ServerChance | domain_chance.TableChance
        commitment: str | None
        if chance_mode == "server":
            seed = domain_chance.new_seed()
            chance = domain_chance.ServerChance(seed, 0)
            commitment = chance.commitment
        else:
            seed, commitment = None, None
            chance = domain_chance.TableChance()
        # Decide first (setup may raise InvalidCreation or Rejected); store afterwards.
        setup_events = json_safe(ruleset.setup(list(players), options, content, chance, table_setup))
        seat_tokens = [secrets.token_urlsafe(32) for _ in players]
        host_token = secrets.token_urlsafe(32)
        spectator_token = secrets.token_urlsafe(32)
        options, content, table_setup = json_safe(options), json_safe(content), json_safe(table_setup)
        salt = chain.new_salt()
        creation = chain.creation_content(ruleset.id, ruleset.version, list(players), options,
                                          content, table_setup, chance_mode, commitment)
        fields = dict(
            ruleset_id=ruleset.id, ruleset_version=ruleset.version, seats=list(players),
            seat_token_hashes=[hash_token(t) for t in seat_tokens],
            host_token_hash=hash_token(host_token), chance_mode=chance_mode,
            commitment=commitment, seed=None if seed is None or commitment is None else self.seeds.seal(seed, commitment),
            options=options, content=content,
            table_setup=table_setup, salt=salt, hash=chain.creation_hash(salt, creation),
            spectator_token_hash=hash_token(spectator_token), public=public,
        )
        if retry is None:
            game = Game(**fields)
        else:
            game_id = creation_ids(self.seeds, retry)[0]
            tokens = json.dumps({"seats": seat_tokens, "host": host_token, "spectator": spectator_token})
            fields["creation_retry"] = {"request": retry.request, "version": 1 + len(setup_events),
                                        "tokens": self.seeds.seal(tokens, f"creation:{game_id}")}
            game = Game._create(Game.Created, id=game_id, **fields)
        game.begin(ruleset, self.seeds)
        game.record(setup_events, command=None)
        earlier = self._store_creation(game, retry)
        return earlier or NewGame(game, seat_tokens, host_token, spectator_token)

    def _store_creation(self, game: Game, retry: CreationRetry | None) -> NewGame | None:
        """Save a new game; None once it is stored, or the game another request with the same
        key stored first (another node, at once), answered as its replay."""
        try:
            self.save(game)
        except IntegrityError:
            if self._stored_as_recorded(game):
                # The insert was retried after a lost connection (service/store.py) and its
                # first attempt had committed: this game is the one this request made.
                return None
            earlier = self.replayed_creation(retry) if retry is not None else None
            if earlier is None:
                raise
            return earlier
        return None

    def replayed_creation(self, retry: CreationRetry) -> NewGame | None:
        """The game a creation with this key made (under any of the seed keys), at the version its
        answer showed, with its tokens; None if there is none. CreationKeyReused when it was
        made from another request (or without a key, which no game with this id can have been);
        CreationKeyExpired past CREATION_RETRY_WINDOW."""
        for game_id in creation_ids(self.seeds, retry):
            stored = self.stored_events(game_id, limit=1)
            if not stored:
                continue
            record = getattr(stored[0], "creation_retry", None)
            if record is None or not hmac.compare_digest(record["request"], retry.request):
                raise CreationKeyReused(str(game_id))
            if datetime.datetime.now(datetime.UTC) - stored[0].timestamp > CREATION_RETRY_WINDOW:
                raise CreationKeyExpired(str(game_id))
            tokens = json.loads(self.seeds.open(record["tokens"], f"creation:{game_id}"))
            game = self._load_game(game_id, version=record["version"])
            return NewGame(game, tokens["seats"], tokens["host"], tokens["spectator"], replayed=True)
        return None

    def execute(self, game_id: UUID, seat: int, command: dict, game: Game | None = None,
                dry_run: bool = False, reporter: str = "table",
                idempotency: tuple[str, str] | None = None) -> tuple[Game, int]:
        """Adjudicate (domain/adjudication.py: the game is not finished, then the rules'
        decide) and store one admitted command. Returns the game and its version before it.

        `game` may be the aggregate the caller just loaded (it is then not loaded again).
        Raises Rejected (nothing stored), or eventsourcing's IntegrityError when another
        command was stored first. The caller checks everything else first: the seat, the
        command's admission, the version it expects (service/commands.py).

        `idempotency` is (key hash, request hash): stored with the command's first event so a
        retry can be answered with this result (Game.earlier_result); the caller checks it.

        The events stored are left on the returned game as `stored_now`.
        A dry run decides and applies the command but stores nothing; the new events stay
        pending on the returned game (game.collect_events()). It is decided on the game as
        the caller may imagine it (domain/dry_run.py): for a seat's token (reporter "seat"),
        everything that seat cannot see re-dealt from a fresh seed; server chance draws from
        that fresh seed, never the game's. The returned game then holds that imagined state.
        """
        if game is None:
            game = self.get_game(game_id)
        before = game.version
        if dry_run:
            # A dry run never draws from the game's seed (domain/dry_run.py), so it is not opened:
            # a server game's dry run is answered even where its seed cannot be (SEED_UNAVAILABLE).
            chance = (domain_chance.ServerChance(domain_chance.new_seed(), position=game.version)
                      if game.chance_mode == "server" else game.chance(reporter))
            viewer = seat if reporter == "seat" else ARBITER
            game.state, events = adjudication.dry_run(game.ruleset, game.state, seat, command, chance, viewer=viewer,
                                                      fresh_seed=domain_chance.new_seed, position=game.version)
            game.record(events, command={"seat": seat, "body": json_safe(command)})
            return game, before
        chance = game.chance(reporter)
        events = adjudication.adjudicate(game.ruleset, game.state, seat, command, chance)
        game.record(events, command={"seat": seat, "body": json_safe(command)}, idempotency=idempotency)
        self._store(game, before)
        return game, before

    def _store(self, game: Game, before: int) -> None:
        """Save the game's new events, and leave them on it as `stored_now`."""
        try:
            recordings = self.save(game)
        except IntegrityError:
            if not self._stored_as_recorded(game):
                raise
            # The insert was retried after a lost connection (service/store.py) and its
            # first attempt had committed: these are our events, not another command's.
            game.stored_now = self.stored_events(game.id, after=before, limit=game.version - before)
            self.live.stored(game.id, game.stored_now)
            return
        # The events just stored, for the answer: reading them back costs a query.
        game.stored_now = [recording.domain_event for recording in recordings
                           if recording.domain_event.originator_id == game.id]
        self._games.stored(game, before)  # kept as it is: from here on it is only read
        self.live.stored(game.id, game.stored_now)

    def _stored_as_recorded(self, game: Game) -> bool:
        """Is the record stored at the game's version the one this game recorded? Each record
        has a fresh random salt in its hash, so an equal hash means the same record."""
        stored = self.stored_events(game.id, after=game.version - 1, limit=1)
        return bool(stored) and stored[0].hash is not None and stored[0].hash == game.head_hash

    def close(self) -> None:
        self.live.close()
        super().close()

    # Reads ------------------------------------------------------------------------

    def get_game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game at its latest version (or at `version`), a copy the caller may change.

        The latest version comes from this process's cache of games, brought up to date with
        the events stored since (by any process) in one query; a past version, or a game not
        in the cache, is loaded from its last snapshot and the events after it."""
        if version is None and self._games.size:
            return self._games.get(game_id, self._load_game, self._events_after)
        return self._load_game(game_id, version)

    def game_for_command(self, game_id: UUID) -> tuple[Game, bool]:
        """(game, caught_up): the game to decide a command on. Without the catch-up query when
        this process holds the game and no other process wrote to it lately (GameCache.peek):
        then caught_up is False, and only a stored command proves the game was current."""
        if self._games.size:
            return self._games.peek(game_id, self._load_game, self._events_after)
        return self._load_game(game_id), True

    def _load_game(self, game_id: UUID, version: int | None = None) -> Game:
        try:
            return self.repository.get(game_id, version=version, projector_func=project_game)
        except AggregateNotFoundError:
            raise GameNotFound(str(game_id)) from None

    def _events_after(self, game_id: UUID, version: int):
        return self.events.get(originator_id=game_id, gt=version)

    def stored_events(self, game_id: UUID, after: int = 0, limit: int | None = None) -> list:
        if after >= LAST_VERSION:  # none is stored after it (and SQLite takes no larger parameter)
            return []
        return list(self.events.get(originator_id=game_id, gt=after, limit=limit))

    def _events_since(self, after: dict[str, int]) -> dict[str, list]:
        """The stored events of these games after the version given for each, by game id (one
        query: service/live.py's poller)."""
        found: dict[str, list] = {}
        for stored in cast(ListingRecorder, self.recorder).select_events_after(after):
            found.setdefault(str(stored.originator_id), []).append(self.mapper.to_domain_event(stored))
        return found

    def replay(self, game_id: UUID) -> Game:
        """The game rebuilt from every stored event, ignoring snapshots."""
        game = project_game(None, self.events.get(originator_id=game_id))
        if game is None:
            raise GameNotFound(str(game_id))
        return game

    def list_games(self, filters: Filters) -> tuple[list[Listed], str | None]:
        """A page of the game list (service/listing.py), as stored with every insert before
        this call, and the cursor of the next page (None on the last)."""
        recorder = cast(ListingRecorder, self.recorder)
        rows, cursor = ([], None) if filters.unmatchable else listing.page(recorder.select_games(filters), filters.limit)
        # An empty page after a cursor is the end of the list only if the cursor is a game (the
        # last one): a well-formed cursor that names no game is refused, not answered as the end.
        if not rows and filters.after is not None and not recorder.select_versions([str(filters.after)]):
            raise UnknownCursor(str(filters.after))
        return rows, cursor


def prepare_store() -> None:
    """Open the store the environment configures, as a worker would, and close it: its tables
    are created and, on a database from before the stored game list, the list is filled from
    every stored event (service/listing.py). gunicorn's master runs this before any worker
    boots (deploy/gunicorn.conf.py)."""
    from domain.registry import all_rulesets

    Parley(all_rulesets()).close()


__all__ = ["GameNotFound", "NewGame", "Parley", "UnknownCursor", "prepare_store"]
