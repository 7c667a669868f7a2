"""service/live.py's hub on its own: who waits, what wakes them, what is kept."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from service.live import KEPT, Hub


@dataclass
class Stored:
    originator_version: int


class Store:
    """The versions the poller reads; `down` makes reading fail."""

    def __init__(self):
        self.versions: dict[str, int] = {}
        self.down = False
        self.asked: list[list[str]] = []

    def __call__(self, ids: list[str]) -> dict[str, int]:
        self.asked.append(sorted(ids))
        if self.down:
            raise ConnectionError("the store is down")
        return {i: self.versions[i] for i in ids if i in self.versions}


def test_a_version_stored_elsewhere_wakes_the_waiter_through_the_poll():
    store = Store()
    hub = Hub(store, poll_seconds=0.05)
    store.versions["g"] = 3
    with hub.watching("g", 3) as watch:
        woke = {}
        waiter = threading.Thread(target=lambda: woke.setdefault("at", hub.wait(watch, 3, 5)))
        waiter.start()
        time.sleep(0.2)
        assert "at" not in woke  # nothing new: still waiting
        store.versions["g"] = 4
        waiter.join(2)
        assert woke == {"at": True} and watch.version == 4
    assert hub.watched == 0
    hub.close()


def test_events_stored_here_wake_at_once_and_are_kept_for_every_waiter():
    hub = Hub(Store(), poll_seconds=60)  # the poll never comes: only the ring
    fetched = []
    with hub.watching("g", 2) as watch:
        hub.stored("g", [Stored(3), Stored(4)])
        assert hub.wait(watch, 2, 0.01)
        events = hub.events_after(watch, 2, lambda after: fetched.append(after) or [])
        assert [e.originator_version for e in events] == [3, 4] and fetched == []  # from what was kept
        assert [e.originator_version for e in hub.events_after(watch, 3, lambda a: [])] == [4]
    hub.close()


def test_a_wait_with_nothing_new_times_out():
    hub = Hub(Store(), poll_seconds=0.05)
    with hub.watching("g", 5) as watch:
        started = time.monotonic()
        assert hub.wait(watch, 5, 0.2) is False
        assert time.monotonic() - started >= 0.2
    hub.close()


def test_the_poll_asks_for_every_watched_game_at_once_and_stops_when_nobody_waits():
    store = Store()
    hub = Hub(store, poll_seconds=0.05)
    with hub.watching("a", 1), hub.watching("b", 1), hub.watching("b", 1):
        time.sleep(0.3)
    assert store.asked and all(ids == ["a", "b"] for ids in store.asked)
    time.sleep(0.2)
    asked = len(store.asked)
    time.sleep(0.3)
    assert len(store.asked) <= asked + 1  # the poller stopped with the last waiter
    hub.close()


def test_a_store_that_is_down_leaves_the_waiters_waiting_and_the_poller_alive():
    store = Store()
    store.versions["g"] = 1
    store.down = True
    hub = Hub(store, poll_seconds=0.05)
    with hub.watching("g", 1) as watch:
        assert hub.wait(watch, 1, 0.3) is False
        store.down = False
        store.versions["g"] = 2
        assert hub.wait(watch, 1, 2) is True
    hub.close()


def test_only_the_latest_events_and_their_renderings_are_kept():
    hub = Hub(Store(), poll_seconds=60)
    with hub.watching("g", 0) as watch:
        for version in range(1, KEPT + 50):
            hub.stored("g", [Stored(version)])
            watch.rendered[(version, 0)] = f"message {version}"
        assert len(watch.recent) == KEPT and min(watch.recent) == 50
        assert {v for v, _ in watch.rendered} == set(watch.recent)
        assert watch.since(10) is None  # not all kept: a waiter that far behind reads the store
    hub.close()


def test_the_poller_reads_the_moved_games_events_once_for_all_their_waiters():
    store = Store()
    store.versions.update({"a": 2, "b": 5})
    asked: list[dict] = []

    def events_since(after: dict[str, int]) -> dict[str, list]:
        asked.append(dict(after))
        return {key: [Stored(v) for v in range(version + 1, store.versions[key] + 1)] for key, version in after.items()}

    hub = Hub(store, poll_seconds=0.05, events_since=events_since)
    with hub.watching("a", 2) as a, hub.watching("b", 5) as b:
        store.versions.update({"a": 4, "b": 6})
        assert hub.wait(a, 2, 2) and hub.wait(b, 5, 2)
        read_again = []
        assert [e.originator_version for e in hub.events_after(a, 2, read_again.append)] == [3, 4]
        assert [e.originator_version for e in hub.events_after(b, 5, read_again.append)] == [6]
        assert read_again == []  # nobody read the store on their own
    assert {"a": 2, "b": 5} in asked
    hub.close()


def test_when_reading_the_moved_events_fails_the_waiters_read_them_themselves():
    store = Store()
    store.versions["a"] = 1

    def broken(after):
        raise ConnectionError("gone")

    hub = Hub(store, poll_seconds=0.05, events_since=broken)
    with hub.watching("a", 1) as a:
        store.versions["a"] = 2
        assert hub.wait(a, 1, 2)
        assert [e.originator_version for e in hub.events_after(a, 1, lambda after: [Stored(2)])] == [2]
    hub.close()


def test_draining_wakes_every_waiter_and_no_one_waits_after():
    hub = Hub(Store(), poll_seconds=60)
    with hub.watching("g", 3) as g, hub.watching("h", 7) as h:
        woke: dict[str, bool] = {}
        waiters = [threading.Thread(target=lambda w=w, n=n, v=v: woke.setdefault(n, hub.wait(w, v, 30)))
                   for w, n, v in ((g, "g", 3), (h, "h", 7))]
        for waiter in waiters:
            waiter.start()
        time.sleep(0.1)
        assert woke == {} and not hub.draining
        hub.drain()
        for waiter in waiters:
            waiter.join(5)
        assert woke == {"g": False, "h": False}  # woken, with nothing new
        assert hub.draining
        started = time.monotonic()
        assert hub.wait(g, 3, 30) is False and time.monotonic() - started < 5  # does not wait
        hub.stored("g", [Stored(4)])
        assert hub.wait(g, 3, 30) is True  # what was stored is still told
    hub.close()
