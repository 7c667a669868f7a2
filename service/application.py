"""The event-sourced application: one Game aggregate per game; load -> decide -> save.

Rules live in domain/: this module only asks a ruleset what happens (setup, decide) and
stores the answer. Outcomes of chance are chosen in decide(), before any event is triggered,
so replaying stored events never rolls again.

Persistence comes from the environment (eventsourcing's PERSISTENCE_MODULE and friends, any
of them optionally prefixed PARLEY_). Without any, games go to an SQLite file under ./var/.
"""
from __future__ import annotations

import copy
import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, Snapshot, event
from eventsourcing.persistence import IntegrityError, InternalError

from disputes import chain
from domain import adjudication
from domain import chance as domain_chance
from domain.adjudication import SERVICE_RULE, json_safe
from domain.ruleset import ARBITER

# Rulesets by id, so stored events can find their rules when they are replayed. Each
# Parley application registers the rulesets it serves (ids are unique across games).
_RULESETS: dict[str, Any] = {}


def ruleset_for(ruleset_id: str):
    return _RULESETS[ruleset_id]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Game(Aggregate):
    """One game: who sits where (by token hash), where chance comes from, and the rules' state.

    Every stored record carries a salt and a hash chaining it to the one before
    (disputes/chain.py); `head_hash` is the hash of the latest record.

    `idempotency` remembers each Idempotency-Key a command was accepted with (hashed with the
    caller, see service/api/commands.py): {key hash: {"request", "first", "last"}}. It is
    rebuilt from the events that carry the keys, so it survives restarts and every worker
    sees the same keys. Class version 2 added it; older snapshots are upcast with none.
    """

    class_version = 2

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        state["idempotency"] = {}

    class Created(Aggregate.Created):
        ruleset_id: str
        ruleset_version: str
        seats: list
        seat_token_hashes: list
        host_token_hash: str
        chance_mode: str
        commitment: str | None
        seed: str | None
        options: dict | None
        content: dict | None
        table_setup: dict | None
        salt: str | None
        hash: str | None

    @event(Created)
    def __init__(self, ruleset_id: str, ruleset_version: str, seats: list,
                 seat_token_hashes: list, host_token_hash: str, chance_mode: str,
                 commitment: str | None, seed: str | None, options: dict | None,
                 content: dict | None, table_setup: dict | None,
                 salt: str | None = None, hash: str | None = None):
        self.ruleset_id = ruleset_id
        self.ruleset_version = ruleset_version
        self.seats = seats
        self.seat_token_hashes = seat_token_hashes
        self.host_token_hash = host_token_hash
        self.chance_mode = chance_mode
        self.commitment = commitment
        self.seed = seed
        self.options = options
        self.content = content
        self.table_setup = table_setup
        self.head_hash = hash
        self.idempotency = {}
        self.state = ruleset_for(ruleset_id).initial_state()

    class Happened(Aggregate.Event):
        """One event the rules produced; the first of a command's batch carries the command.

        `hash` chains it to the record before (disputes/chain.py); events stored before the
        chain existed read back with salt and hash None.

        `idempotency` (class version 2) is on the first event of a command sent with an
        Idempotency-Key: {"key": hash of caller and key, "request": hash of the body,
        "events": events in the batch}. It is not part of the hash chain nor of exports: it
        says how the command arrived, not what the rules did.
        """

        class_version = 2

        event: dict
        command: dict | None
        salt: str | None = None
        hash: str | None = None
        idempotency: dict | None = None

        @staticmethod
        def upcast_v1_v2(state: dict) -> None:
            state["idempotency"] = None

        def apply(self, game: Game) -> None:
            game.state = game.ruleset.evolve(game.state, self.event)
            game.head_hash = self.hash
            if self.idempotency:
                first = self.originator_version
                game.idempotency[self.idempotency["key"]] = {
                    "request": self.idempotency["request"], "first": first,
                    "last": first + self.idempotency["events"] - 1}

    class Snapshot(Snapshot):
        """The aggregate's fields, with the rules' state in the ruleset's own JSON form."""

        @classmethod
        def take(cls, aggregate: Game) -> Game.Snapshot:
            snapshot = super().take(aggregate)
            state = dict(snapshot.state)
            state["state"] = aggregate.ruleset.dump_state(aggregate.state)
            object.__setattr__(snapshot, "state", state)
            return snapshot

        def mutate(self, _: None) -> Game:
            game = super().mutate(None)
            game.state = game.ruleset.load_state(game.state)
            return game

    @property
    def ruleset(self):
        return ruleset_for(self.ruleset_id)

    def record(self, events: list[dict], command: dict | None,
               idempotency: tuple[str, str] | None = None) -> None:
        """Trigger one Happened per event; the first carries the command (and the key)."""
        for i, domain_event in enumerate(events):
            carried = command if i == 0 else None
            salt = chain.new_salt()
            link = chain.event_hash(self.head_hash, self.version + 1, salt, domain_event, carried)
            key = None
            if i == 0 and idempotency is not None:
                key = {"key": idempotency[0], "request": idempotency[1], "events": len(events)}
            self.trigger_event(self.Happened, event=domain_event, command=carried,
                               salt=salt, hash=link, idempotency=key)

    def earlier_result(self, key: str, request: str) -> dict | None:
        """The versions a command accepted with this key produced, or None if it is new.

        Raises IdempotencyKeyReused when the key came with another request body."""
        known = self.idempotency.get(key)
        if known is None:
            return None
        if not hmac.compare_digest(known["request"], request):
            raise IdempotencyKeyReused(known["first"] - 1)
        return known

    def creation_content(self) -> dict:
        return chain.creation_content(self.ruleset_id, self.ruleset_version, self.seats,
                                      self.options, self.content, self.table_setup,
                                      self.chance_mode, self.commitment)

    # Reading the game -------------------------------------------------------------

    def seat_for_token(self, token: str) -> int | str | None:
        """The seat number, "host", or None. Every hash is compared, in constant time."""
        digest = hash_token(token)
        found: int | str | None = None
        for seat, seat_hash in enumerate(self.seat_token_hashes):
            if hmac.compare_digest(digest, seat_hash):
                found = seat
        if hmac.compare_digest(digest, self.host_token_hash):
            found = "host"
        return found

    @property
    def status(self):
        return self.ruleset.status(self.state)

    def chance(self, reporter: str = "table") -> Any:
        """reporter: who sends table outcomes, "host" or "seat" (a seat may not report draws:
        docs/rulings.md TM-1); "table" accepts all, as when an export is verified."""
        if self.chance_mode == "server":
            return domain_chance.ServerChance(self.seed, position=self.version)
        return domain_chance.TableChance(reporter)


def project_game(game: Game | None, stored_events) -> Game | None:
    """Fold stored events into a game (eventsourcing's default projector spends most of a
    replay in a per-event Protocol isinstance check; our events all know how to mutate)."""
    for stored in stored_events:
        game = stored.mutate(game)
    return game


def copy_game(game: Game) -> Game:
    """A copy of a game that shares nothing a command changes: the rules' state is cloned
    (state.clone(), the copy decide() drafts on, where the state has one; else deepcopy);
    pending events are not carried over."""
    new = object.__new__(type(game))
    new.__dict__.update(game.__dict__)
    new.idempotency = dict(game.idempotency)  # a command's key is kept only once it is stored
    clone = getattr(game.state, "clone", None)
    new.state = clone() if clone is not None else copy.deepcopy(game.state)
    new._pending_events = []
    return new


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
    command is decided again on a caught-up game (service/api/commands.py).

    Size: PARLEY_GAME_CACHE_SIZE games per process (0 turns it off), of at most about
    200 KiB each (a Chrono Corsairs game, with its own copy of the shipped content); games
    created with custom content are not kept."""

    CONTESTED_SECONDS = 30.0

    def __init__(self, size: int | None = None):
        self.size = size if size is not None else int(os.environ.get("PARLEY_GAME_CACHE_SIZE", "64"))
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
                entry.game = project_game(entry.game, events_after(game_id, before))
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
        catch up by query)."""
        entry = self._entry(game.id)
        if entry is None:
            return
        with entry.lock:
            if entry.game.version == before:
                entry.game = copy_game(game)


class GameNotFound(Exception):
    pass


class IdempotencyKeyReused(Exception):
    """An Idempotency-Key already accepted with another body."""

    def __init__(self, version: int):
        super().__init__(f"key first used at version {version}")
        self.version = version


class VersionMismatch(Exception):
    """The client expected another version than the stored one."""

    def __init__(self, expected: int, actual: int):
        super().__init__(f"expected version {expected}, game is at {actual}")
        self.expected = expected
        self.actual = actual


@dataclass
class NewGame:
    game: Game
    seat_tokens: list[str]
    host_token: str


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
        if snapshot_interval is not None:
            self.snapshotting_intervals = {Game: snapshot_interval}
        self.rulesets = dict(rulesets)
        _RULESETS.update(self.rulesets)
        for attempt in range(5):
            try:
                super().__init__(env=env)
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

    # Commands ---------------------------------------------------------------------

    def create_game(self, ruleset_id: str, players: list[str], chance_mode: str,
                    options: dict | None = None, content: dict | None = None,
                    table_setup: dict | None = None) -> NewGame:
        ruleset = self.rulesets[ruleset_id]
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
        options, content, table_setup = json_safe(options), json_safe(content), json_safe(table_setup)
        salt = chain.new_salt()
        creation = chain.creation_content(ruleset.id, ruleset.version, list(players), options,
                                          content, table_setup, chance_mode, commitment)
        game = Game(
            ruleset_id=ruleset.id, ruleset_version=ruleset.version, seats=list(players),
            seat_token_hashes=[hash_token(t) for t in seat_tokens],
            host_token_hash=hash_token(host_token), chance_mode=chance_mode,
            commitment=commitment, seed=seed, options=options, content=content,
            table_setup=table_setup, salt=salt, hash=chain.creation_hash(salt, creation),
        )
        game.record(setup_events, command=None)
        self.save(game)
        return NewGame(game, seat_tokens, host_token)

    def execute(self, game_id: UUID, seat: int, command: dict,
                expected_version: int | None = None, game: Game | None = None,
                dry_run: bool = False, reporter: str = "table",
                idempotency: tuple[str, str] | None = None) -> tuple[Game, int]:
        """Decide and store one command. Returns the game and its version before the command.

        `game` may be the aggregate the caller just loaded (it is then not loaded again).
        Raises Rejected (nothing stored), VersionMismatch, or eventsourcing's IntegrityError
        when another command was stored first.

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
        if expected_version is not None and expected_version != game.version:
            raise VersionMismatch(expected_version, game.version)
        before = game.version
        chance = game.chance(reporter)
        if dry_run:
            viewer = seat if reporter == "seat" else ARBITER
            game.state, events = adjudication.dry_run(game.ruleset, game.state, seat, command, chance, viewer=viewer,
                                                      seed=domain_chance.new_seed(), position=game.version)
        else:
            events = adjudication.adjudicate(game.ruleset, game.state, seat, command, chance)
        game.record(events, command={"seat": seat, "body": json_safe(command)},
                    idempotency=None if dry_run else idempotency)
        if not dry_run:
            try:
                recordings = self.save(game)
            except IntegrityError:
                if not self._stored_as_recorded(game):
                    raise
                # The insert was retried after a lost connection (service/store.py) and its
                # first attempt had committed: these are our events, not another command's.
                game.stored_now = self.stored_events(game.id, after=before,
                                                     limit=game.version - before)
                return game, before
            self._games.stored(game, before)
            # The events just stored, for the answer: reading them back costs a query.
            game.stored_now = [recording.domain_event for recording in recordings
                               if recording.domain_event.originator_id == game.id]
        return game, before

    def _stored_as_recorded(self, game: Game) -> bool:
        """Is the record stored at the game's version the one this game recorded? Each record
        has a fresh random salt in its hash, so an equal hash means the same record."""
        stored = self.stored_events(game.id, after=game.version - 1, limit=1)
        return bool(stored) and stored[0].hash is not None and stored[0].hash == game.head_hash

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
        return list(self.events.get(originator_id=game_id, gt=after, limit=limit))

    def replay(self, game_id: UUID) -> Game:
        """The game rebuilt from every stored event, ignoring snapshots."""
        game = project_game(None, self.events.get(originator_id=game_id))
        if game is None:
            raise GameNotFound(str(game_id))
        return game


__all__ = ["SERVICE_RULE", "Game", "GameNotFound", "IdempotencyKeyReused", "NewGame", "Parley", "VersionMismatch",
           "hash_token", "json_safe", "ruleset_for"]
