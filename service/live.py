"""Live updates: the streams (GET /games/{id}/stream) and long polls (GET /games/{id}/events
?wait=) of a process wait here for a game's next stored events.

One Hub per process (Parley.live). A process learns that a game moved on in two ways:

- **Its own commands ring at once**: Parley._store hands the hub the events it just stored.
- **Every other process's are found by polling the game list**: one poller per process asks
  the stored game list (service/listing.py, written in the same transaction as the events)
  for the version of every game someone in this process waits on: one indexed query every
  PARLEY_LIVE_POLL_SECONDS (0.5 s), and only while someone waits; then one more query reads
  the new events of every game that moved on, for their waiters to share. So an event stored by
  another worker or another node reaches every open stream within about that interval, on
  SQLite and on PostgreSQL alike, with no broker to run. The cost does not grow with the
  number of streams: a poll asks for all watched games at once.

  PostgreSQL's LISTEN/NOTIFY would ring sooner, but a transaction that sends NOTIFY takes a
  database-wide lock at commit, which would serialize every command of every node again
  (issue 16 took the insert's table lock away for that reason; docs/scaling.md).

Waiting costs no thread: under gunicorn's gevent worker (service/serving.py) the threading
primitives used here are gevent's (monkey-patched), so a waiting stream is a parked greenlet,
and the poller is one greenlet. Under a threaded server they are ordinary threads.

Stopping: when its worker is told to stop (gunicorn's SIGTERM: a deploy, a restart, a scale
down), `drain()` ends every stream of the process at once, cleanly (the client's EventSource
reconnects, to another worker, with Last-Event-ID, and misses nothing), and answers every long
poll now. Without it a worker waited out gunicorn's graceful timeout for its streams and was
then killed, cutting them off mid-response.

Fan-out: a game's waiters share one `Watch`. The events they need are fetched once per change
and kept (the last KEPT versions), with each kind of reader's rendering of them (`rendered`,
filled by the caller), so a thousand streams on one game cost one query and one rendering per
kind of reader (each seat, the host, the spectator) per event, not a thousand.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

POLL_SECONDS = float(os.environ.get("PARLEY_LIVE_POLL_SECONDS", "0.5"))
KEPT = 32  # the latest stored events kept per watched game, for its waiters to share

log = logging.getLogger(__name__)


class Watch:
    """One game that someone in this process is waiting on."""

    def __init__(self, game_id: str, version: int):
        self.game_id = game_id
        self.version = version          # the latest stored version this process knows of
        self.waiters = 0
        self.changed = threading.Condition()
        self.fetching = threading.Lock()    # one fetch from the store at a time, shared by all
        self.recent: dict[int, Any] = {}    # version -> stored event
        self.rendered: dict[tuple, Any] = {}  # (version, reader) -> a rendering, for the callers

    def since(self, after: int) -> list | None:
        """The stored events after `after`, up to the latest version known, if all are kept."""
        if after >= self.version:
            return []
        wanted = range(after + 1, self.version + 1)
        if all(v in self.recent for v in wanted):
            return [self.recent[v] for v in wanted]
        return None

    def keep(self, events: list) -> None:
        """Remember these stored events (call with `changed` held)."""
        for event in events:
            self.recent[event.originator_version] = event
            self.version = max(self.version, event.originator_version)
        if len(self.recent) > KEPT:
            oldest = sorted(self.recent)[:len(self.recent) - KEPT]
            for version in oldest:
                del self.recent[version]
            gone = set(oldest)
            for key in [k for k in self.rendered if k[0] in gone]:
                del self.rendered[key]


class Hub:
    """Who in this process waits for which game, and how they are woken (see the module)."""

    def __init__(self, versions: Callable[[list[str]], dict[str, int]], poll_seconds: float = POLL_SECONDS,
                 events_since: Callable[[dict[str, int]], dict[str, list]] | None = None):
        self._versions = versions
        self._events_since = events_since
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._watches: dict[str, Watch] = {}
        self._poller: threading.Thread | None = None
        self._closed = False
        self._draining = False
        self._streams = 0

    @property
    def watched(self) -> int:
        return len(self._watches)

    @property
    def streams(self) -> int:
        """The streams open in this process now (their count is bounded by the caller)."""
        return self._streams

    @property
    def draining(self) -> bool:
        """This process is stopping: streams end, long polls answer, at once."""
        return self._draining

    def drain(self) -> None:
        """This process is stopping: wake every waiter, and wait no more (see the module)."""
        self._draining = True
        with self._lock:
            watches = list(self._watches.values())
        for watch in watches:
            with watch.changed:
                watch.changed.notify_all()

    @contextmanager
    def streaming(self) -> Iterator[None]:
        with self._lock:
            self._streams += 1
        try:
            yield
        finally:
            with self._lock:
                self._streams -= 1

    @contextmanager
    def watching(self, game_id: Any, version: int) -> Iterator[Watch]:
        """Wait on this game for as long as the block lasts. `version`: a version the game is
        stored at (as read from the store, never a client's word: every waiter trusts it)."""
        key = str(game_id)
        with self._lock:
            watch = self._watches.get(key)
            if watch is None:
                watch = self._watches[key] = Watch(key, version)
            elif version > watch.version:
                with watch.changed:
                    watch.version = version
                    watch.changed.notify_all()
            watch.waiters += 1
            if self._poller is None and not self._closed:
                self._poller = threading.Thread(target=self._poll, name="parley-live-poller", daemon=True)
                self._poller.start()
        try:
            yield watch
        finally:
            with self._lock:
                watch.waiters -= 1
                if watch.waiters == 0 and self._watches.get(key) is watch:
                    del self._watches[key]

    def stored(self, game_id: Any, events: list) -> None:
        """This process just stored these events of the game: its waiters here learn it now."""
        watch = self._watches.get(str(game_id))
        if watch is None or not events:
            return
        with watch.changed:
            watch.keep(events)
            watch.changed.notify_all()

    def wait(self, watch: Watch, after: int, timeout: float) -> bool:
        """Until a stored version after `after` is known (True), or `timeout` seconds pass or
        the process drains (False)."""
        deadline = time.monotonic() + timeout
        with watch.changed:
            while watch.version <= after:
                if self._draining:
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                watch.changed.wait(left)
        return True

    def events_after(self, watch: Watch, after: int, fetch: Callable[[int], list]) -> list:
        """The stored events after `after` (fetch(after) reads a page of them from the store):
        from what the watch keeps when it holds them all, else fetched once for every waiter."""
        with watch.fetching:
            kept = watch.since(after)
            if kept is not None:
                return kept
            events = fetch(after)
            with watch.changed:
                watch.keep(events)
            return events

    def close(self) -> None:
        self._closed = True

    def _fetch_moved(self, watches: dict[str, Watch], versions: dict[str, int]) -> None:
        """The new events of every game that moved on, read in one query and kept for its
        waiters (else the first waiter of each game reads them: one query per game)."""
        moved = {key: watches[key].version for key, version in versions.items()
                 if key in watches and version > watches[key].version}
        if not moved or self._events_since is None:
            return
        try:
            found = self._events_since(moved)
        except Exception:  # the waiters read the store themselves, as without this
            log.warning("live updates: cannot read the moved games' events", exc_info=True)
            return
        for key, events in found.items():
            watch = watches[key]
            with watch.changed:
                if events and events[0].originator_version == moved[key] + 1:  # contiguous with what is known
                    watch.keep(events)
                watch.changed.notify_all()

    def _poll(self) -> None:
        failing = False
        while not self._closed:
            time.sleep(self.poll_seconds)
            with self._lock:
                watches = dict(self._watches)
                if not watches:
                    self._poller = None
                    return
            try:
                versions = self._versions(list(watches))
            except Exception:  # the store is down: the streams wait on, heartbeats keep them open
                if not failing:  # once per outage, not twice a second
                    log.warning("live updates: cannot read the games' versions; retrying", exc_info=True)
                failing = True
                continue
            if failing:
                log.warning("live updates: reading the games' versions again")
                failing = False
            self._fetch_moved(watches, versions)
            for key, version in versions.items():
                watch = watches.get(key)
                if watch is not None and version > watch.version:
                    with watch.changed:
                        watch.version = max(watch.version, version)
                        watch.changed.notify_all()
        with self._lock:
            self._poller = None
