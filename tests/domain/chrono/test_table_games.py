"""Whole Chrono Corsairs games at a table: every draw, turned-up Anomaly and flipped token is
named by the table in the command that needs it, and the rules take nothing else on trust."""
from __future__ import annotations

import json
import random
import re

from domain.chance import TableChance
from domain.chrono import RULESET as R
from domain.ruleset import Rejected
from tests.domain.chrono.table import Table
from tests.playouts.test_chrono_playouts import Watch, captain


def candidates(s, field: str, rng: random.Random) -> list[str]:
    if field == "plans":
        pool = s.decks["stable"]["pool"] + s.decks["unstable"]["pool"]
    elif field == "anomaly":
        pool = list(s.anomaly_pool)
    elif field == "artifacts":
        pool = list(s.decks["artifact"]["pool"])
    else:
        shown = {t["id"] for t in s.tokens.values() if t["id"]}
        pool = [t for t in s.event_tokens if t not in shown]
    rng.shuffle(pool)
    return pool


def send_at_table(t: Table, seat: int, cmd: dict, rng: random.Random):
    """Add what the table turned up, one outcome at a time, as the rejections ask for it."""
    extra: dict[str, list] = {}
    tried: dict[str, int] = {}
    for _ in range(400):
        try:
            return t.do(seat, {**cmd, **extra})
        except Rejected as r:
            field = re.search(r"'(\w+)'", r.detail).group(1)
            pool = candidates(t.state, field, random.Random(len(extra.get(field, []))))
            pool = [x for x in pool if x not in extra.get(field, [])[:-1]]
            if r.code == "TABLE_OUTCOME_REQUIRED":
                extra.setdefault(field, []).append(pool[0])
                tried[field] = 0
            else:
                assert r.code == "TABLE_OUTCOME_INVALID", r
                tried[field] += 1
                extra[field][-1] = pool[tried[field]]
    raise AssertionError(cmd)


def test_whole_games_at_a_table_reach_final_scoring_and_replay():
    for game, players in enumerate((2, 3, 5)):
        rng = random.Random(game)
        t = Table(players)
        watch = Watch()
        for _ in range(6000):
            if t.state.finished:
                break
            seat = rng.choice(R.status(t.state).to_move)
            before = len(t.events)
            send_at_table(t, seat, captain(rng, R.legal_commands(t.state, seat)), rng)
            for e in t.events[before:]:
                watch(t.state, e)
        assert t.state.finished and t.state.result["winners"]
        replayed = R.initial_state()
        for e in json.loads(json.dumps(t.events)):
            replayed = R.evolve(replayed, e)
        assert R.dump_state(replayed) == R.dump_state(t.state)
        assert TableChance().reveal() is None
