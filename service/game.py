"""The Game aggregate: one game's record in the event store, and how it is read back.

A game holds who sits where (by token hash), where chance comes from, and the rules' state;
its events are the creation record and every event the rules produced (disputes/chain.py
links them in a hash chain). The rules are not stored: a game is given its ruleset, by the id
it was created with, as it begins (GameMapper, when its first record is read from the store;
Parley.create_game, when it is created), and asks nothing else of the world.

The classes' topics are stored with every event and snapshot. They stay
`service.application:Game...`, where the aggregate lived before it moved here (TOPICS).
"""
from __future__ import annotations

import copy
import hashlib
import hmac
from typing import TYPE_CHECKING, Any, cast

from eventsourcing.domain import Aggregate, event
from eventsourcing.domain import Snapshot as BaseSnapshot
from eventsourcing.persistence import Mapper
from eventsourcing.utils import register_topic

from disputes import chain
from domain import chance as domain_chance
from service.seeds import SeedKeys, SeedUnavailable, is_sealed

# The keys under which a record read from the store carries the ruleset of its game and the
# keys that open its seed (GameMapper).
RULESET = "ruleset"
SEEDS = "seeds"

# The caller a spectator's token (or anyone, on a public game) reads as: what every seat may
# see, never a seat's secret; it sends nothing (docs/api.md, "Spectators").
SPECTATOR = "spectator"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Game(Aggregate):
    """One game: who sits where (by token hash), where chance comes from, and the rules' state.

    Every stored record carries a salt and a hash chaining it to the one before
    (disputes/chain.py); `head_hash` is the hash of the latest record.

    `idempotency` remembers each Idempotency-Key a command was accepted with (hashed with the
    caller, see service/commands.py): {key hash: {"request", "first", "last"}}. It is
    rebuilt from the events that carry the keys, so it survives restarts and every worker
    sees the same keys. Class version 2 added it; older snapshots are upcast with none.
    """

    class_version = 3

    if TYPE_CHECKING:  # not a stored field: set on a game by Parley.execute, the events it just stored
        stored_now: list

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        state["idempotency"] = {}

    @staticmethod
    def upcast_v2_v3(state: dict) -> None:
        state["spectator_token_hash"] = None
        state["public"] = False

    class Created(Aggregate.Created):
        """The creation record. Class version 2 added the spectator's token hash and whether
        the game is public; games created before have no spectator token and are not public.
        Class version 3 added `creation_retry`: for a game created with an Idempotency-Key, what
        a retry of that creation is answered with (Parley.create_game): the request's hash, the
        version the creation answered, and the tokens, sealed as seeds are (service/seeds.py).
        Games created before, or without a key, have none."""

        class_version = 3

        @staticmethod
        def upcast_v1_v2(state: dict) -> None:
            state["spectator_token_hash"] = None
            state["public"] = False

        @staticmethod
        def upcast_v2_v3(state: dict) -> None:
            state["creation_retry"] = None

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
        spectator_token_hash: str | None
        public: bool
        creation_retry: dict | None

        def apply(self, game: Game) -> None:
            # Read from the store, the record carries the ruleset it names (GameMapper); on
            # the live path the game is given its rules by Parley.create_game.
            ruleset = vars(self).get(RULESET)
            if ruleset is not None:
                game.begin(ruleset, vars(self).get(SEEDS))

    @event(Created)
    def __init__(self, ruleset_id: str, ruleset_version: str, seats: list,
                 seat_token_hashes: list, host_token_hash: str, chance_mode: str,
                 commitment: str | None, seed: str | None, options: dict | None,
                 content: dict | None, table_setup: dict | None,
                 salt: str | None = None, hash: str | None = None,
                 spectator_token_hash: str | None = None, public: bool = False,
                 creation_retry: dict | None = None):
        # creation_retry stays in the creation record only (Parley.replayed_creation reads it there)
        self.ruleset_id = ruleset_id
        self.ruleset_version = ruleset_version
        self.seats = seats
        self.seat_token_hashes = seat_token_hashes
        self.host_token_hash = host_token_hash
        self.spectator_token_hash = spectator_token_hash
        self.public = public
        self.chance_mode = chance_mode
        self.commitment = commitment
        self.seed = seed
        self.options = options
        self.content = content
        self.table_setup = table_setup
        self.head_hash = hash
        self.idempotency: dict[str, dict] = {}
        self.state: Any = None  # the rules' state: begin() sets it, from the ruleset the game is given

    def begin(self, ruleset, seeds=None) -> None:
        """Give the new game its rules, and the keys that open its seed (Created.apply, or
        Parley.create_game on the live path)."""
        self.ruleset = ruleset
        self.seeds = seeds
        self.state = ruleset.initial_state()

    def server_seed(self) -> str:
        """The server seed, opened (`seed` holds it sealed: service/seeds.py; or, stored before
        seeds were sealed, in the clear). SeedUnavailable without its key."""
        if self.seed is None:
            raise SeedUnavailable("a table-chance game has no server seed")
        if not is_sealed(self.seed):
            return self.seed
        if self.seeds is None:
            raise SeedUnavailable("this game was read without the keys that open its seed")
        return self.seeds.open(self.seed, self.commitment)

    def revealed_seed(self) -> str | None:
        """The seed of a finished game, which anyone may see: opened, or, its key lost, as the
        rules revealed it when the game ended (their state keeps it)."""
        try:
            return self.server_seed()
        except SeedUnavailable:
            return getattr(self.state, "seed", None)

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

    class Snapshot(BaseSnapshot):
        """The aggregate's fields, with the rules' state in the ruleset's own JSON form (the
        ruleset itself is not stored: read from the store, the snapshot carries it, GameMapper)."""

        @classmethod
        def take(cls, aggregate: Game) -> Game.Snapshot:  # type: ignore[override]  # only ever a Game
            snapshot = super().take(aggregate)
            state = dict(snapshot.state)
            state.pop("ruleset", None)
            state.pop("seeds", None)
            state.pop("stored_now", None)  # not a field: the events a command just stored
            state["state"] = aggregate.ruleset.dump_state(aggregate.state)
            object.__setattr__(snapshot, "state", state)
            return snapshot

        def mutate(self, _: None) -> Game:
            game = cast(Game, super().mutate(None))
            ruleset = vars(self).get(RULESET)
            if ruleset is None:
                raise LookupError(f"no ruleset {self.state['ruleset_id']!r} for game {self.originator_id}")
            game.ruleset = ruleset
            game.seeds = vars(self).get(SEEDS)
            game.state = ruleset.load_state(game.state)
            return game

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
        """The seat number, "host", "spectator" or None. Every hash is compared, in constant
        time."""
        digest = hash_token(token)
        found: int | str | None = None
        for seat, seat_hash in enumerate(self.seat_token_hashes):
            if hmac.compare_digest(digest, seat_hash):
                found = seat
        if hmac.compare_digest(digest, self.host_token_hash):
            found = "host"
        if self.spectator_token_hash is not None and hmac.compare_digest(digest, self.spectator_token_hash):
            found = SPECTATOR
        return found

    @property
    def status(self):
        return self.ruleset.status(self.state)

    def chance(self, reporter: str = "table") -> Any:
        """reporter: who sends table outcomes, "host" or "seat" (a seat may not report draws:
        docs/rulings.md TM-1); "table" accepts all, as when an export is verified."""
        if self.chance_mode == "server":
            return domain_chance.ServerChance(self.server_seed(), position=self.version)
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
    new.__dict__.pop("stored_now", None)  # the events another command stored
    clone = getattr(game.state, "clone", None)
    new.state = clone() if clone is not None else copy.deepcopy(game.state)
    new._pending_events = []
    return new


class IdempotencyKeyReused(Exception):
    """An Idempotency-Key already accepted with another body."""

    def __init__(self, version: int):
        super().__init__(f"key first used at version {version}")
        self.version = version


class GameMapper(Mapper):
    """The application's mapper: records are read as eventsourcing reads them, and the two
    that begin a game, its Created event and a snapshot, carry the ruleset they name (not
    stored; `rulesets` is the application's). A game folded from them, by any projector or
    by hand, has its rules; a ruleset the application does not serve leaves the record
    without one (the game list still reads it; loading that game fails)."""

    rulesets: dict = {}
    seeds: SeedKeys | None = None  # the application's

    def to_domain_event(self, stored_event):
        domain_event = super().to_domain_event(stored_event)
        if isinstance(domain_event, Game.Created):
            ruleset = self.rulesets.get(domain_event.ruleset_id)
        elif isinstance(domain_event, Game.Snapshot):
            ruleset = self.rulesets.get(domain_event.state.get("ruleset_id"))
        else:
            return domain_event
        if ruleset is not None:
            vars(domain_event)[RULESET] = ruleset
        vars(domain_event)[SEEDS] = self.seeds
        return domain_event


# The topics stored with every record stay those the aggregate had before it moved here
# (issue 14): every record stored before loads, and a build from before the move still reads
# what this one writes (a rollback, or old and new workers side by side). eventsourcing takes a
# class's topic from its TOPIC attribute; each is registered so that reading one never imports
# the old module.
TOPICS = {
    Game: "service.application:Game",
    Game.Created: "service.application:Game.Created",
    Game.Happened: "service.application:Game.Happened",
    Game.Snapshot: "service.application:Game.Snapshot",
}
for _cls, _topic in TOPICS.items():
    setattr(_cls, "TOPIC", _topic)  # noqa: B010 (a class attribute eventsourcing reads)
    register_topic(_topic, _cls)


__all__ = ["Game", "GameMapper", "IdempotencyKeyReused", "TOPICS", "copy_game", "hash_token", "project_game"]
