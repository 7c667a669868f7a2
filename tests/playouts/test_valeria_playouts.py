"""Random playouts of Valeria: Card Kingdoms in server-chance mode, 2 to 5 players: every card
in exactly one place and resources never negative after every event, legal commands agreeing
with decide, replay and snapshot round trips."""
from __future__ import annotations

import hashlib
import random
import jsonschema
import pytest

from domain.valeria import RULESET as R
from domain.valeria.rules import end_conditions, score
from tests.playouts.harness import check_replay, play

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli"]


_EVERY: dict = {}


def every_card(s) -> list[str]:
    key = (s.content_key, len(s.seats))
    if key not in _EVERY:
        _EVERY[key] = sorted(_every_card(s))
    return _EVERY[key]


def _every_card(s) -> list[str]:
    c = s.content
    n = len(s.seats)
    out = [f"{st['id']}@{i}" for i in range(n) for st in c["starters"]]
    out += [f"{x['id']}#{k}" for x in c["citizens"] for k in range(1, x["copies"] + 1)]
    out += [f"{m['id']}#{k}" for m in c["monsters"] for k in range(1, m["copies"] + m["five_player_copies"] + 1)]
    return out + [d["id"] for d in c["domains"]] + [d["id"] for d in c["dukes"]]


def places(s) -> list[str]:
    every = [c for pile in s.monsters.values() for c in pile] + [c for pile in s.citizens.values() for c in pile]
    every += [st["up"] for st in s.domains.values() if st["up"]] + s.domain_pool + s.duke_pool + s.box + s.banished
    for x in s.seats:
        every += x.citizens + x.domains + x.victory + x.offer + ([x.duke] if x.duke else [])
    return sorted(every)


class Checker:
    def __init__(self):
        self.turns = []

    def __call__(self, s, event: dict) -> None:
        if event["type"] in ("GameSetUp",):
            return
        assert places(s) == every_card(s), event                                          # one place each
        assert sum(st["down"] for st in s.domains.values()) <= len(s.domain_pool)
        assert s.exhausted_pile >= 0 and len(s.exhausted) >= 2 * len(s.seats) - s.exhausted_pile
        assert len(set(s.exhausted)) == len(s.exhausted)
        for x in s.seats:                                                                # never negative
            assert min(x.gold, x.strength, x.magic, x.vp) >= 0, (event, x)
        if event["type"] == "TurnStarted":
            if self.turns:
                assert event["seat"] == (self.turns[-1] + 1) % len(s.seats)
            self.turns.append(event["seat"])
        if s.dice is not None:
            assert all(1 <= v <= 6 for v in s.dice)
        assert s.actions_left >= 0


def candidates(rng: random.Random, s) -> list[dict]:
    stacks = list(s.monsters) + list(s.citizens) + list(s.domains) + ["nope"]
    picks = lambda: [rng.choice([0, 1, 2, True, False, "gold", "magic", {"seat": rng.randrange(5), "resource": "gold"},
                                 rng.choice(stacks)]) for _ in range(rng.randrange(3))]
    dukes = [d["id"] for d in s.content["dukes"]]
    domains = [d["id"] for d in s.content["domains"]]
    return [
        {"type": "keep_duke", "duke": rng.choice(dukes)},
        {"type": "roll_dice"}, {"type": "announce_roll"},
        {"type": "change_die", "domain": rng.choice(domains), "die": rng.randrange(2), "to": rng.randrange(1, 7)},
        {"type": "harvest", "item": rng.randrange(12), "choice": picks()},
        {"type": "resolve", "choice": picks()},
        {"type": "slay", "stack": rng.choice(stacks), "magic": rng.randrange(4)},
        {"type": "recruit", "stack": rng.choice(stacks), "magic": rng.randrange(4)},
        {"type": "build", "stack": rng.choice(stacks), "magic": rng.randrange(4)},
        {"type": "gain_resource", "resource": rng.choice(["gold", "strength", "magic", "vp"])},
    ]


def duke_of_valeria(rng: random.Random, legal: list[dict]) -> dict:
    """Prefers buying things to taking a resource, so games end."""
    buys = [c for c in legal if c["type"] in ("slay", "recruit", "build")]
    if buys and rng.random() < 0.85:
        return rng.choice(buys)
    return rng.choice(legal)


def check_end(s) -> None:
    res = s.result
    assert res == score(s)
    assert end_conditions(s) or s.end_triggered
    best = max(res["totals"])
    assert all(res["totals"][w] == best for w in res["winners"])
    assert all(x.duke in {d["id"] for d in s.content["dukes"]} for x in s.seats)


_VALIDATORS = {k: jsonschema.Draft202012Validator(v) for k, v in R.command_schemas.items()}


def schema_checked(rng: random.Random, legal: list[dict]) -> dict:
    """The service validates bodies against the command schemas before decide: they admit every legal command."""
    for c in legal:
        _VALIDATORS[c["type"]].validate(c)
    return duke_of_valeria(rng, legal)


def run(game_no: int, agreement: float = 0.0):
    rng = random.Random(-game_no)
    players = NAMES[:2 + game_no % 4]
    opts = {"duke_rounding": rng.choice(["per_type", "pooled"])}
    if rng.random() < 0.5:
        areas = ["hills", "ruins", "forest", "valley", "mountains", "swamp"]
        rng.shuffle(areas)
        opts["monster_areas"] = areas[:5]
    if rng.random() < 0.5:
        opts["citizen_types"] = ["monk", "merchant", "mercenary", "archer", "peasant", "knight", "thief", "champion",
                                 "rogue", "miner"]
    return play(R, game_no, players, opts, policy=schema_checked if agreement else duke_of_valeria, candidates=candidates if agreement else None,
                agreement=agreement, after_event=Checker())


@pytest.mark.parametrize("batch", range(4))
def test_random_games_end_with_every_card_in_one_place_and_no_resource_below_zero(batch):
    for game_no in range(batch * 30, batch * 30 + 30):
        s, events = run(game_no)
        check_end(s)
        assert hashlib.sha256(bytes.fromhex(s.seed)).hexdigest() == s.commitment
        if game_no % 10 == 0:
            check_replay(R, s, events)


@pytest.mark.parametrize("game_no", range(900, 904))
def test_legal_commands_agree_exactly_with_decide(game_no):
    s, events = run(game_no, agreement=0.2)
    check_end(s)
    check_replay(R, s, events)
