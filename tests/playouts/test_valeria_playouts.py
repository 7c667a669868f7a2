"""Random playouts of Valeria: Card Kingdoms (88 games) and Crimson Seas (48) in server-chance mode, 2 to 5
players: every card and token in exactly one place and resources never negative after every event, legal commands agreeing
with decide, replay and snapshot round trips."""
from __future__ import annotations

import hashlib
import random

import jsonschema
import pytest

from domain.valeria import CRIMSON_SEAS as CS
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
    out += [d["id"] for d in c["domains"]] + [d["id"] for d in c["dukes"]]
    if "crimson_seas" in c:
        x = c["crimson_seas"]
        out += [f"{x['coxswain']['id']}@{i}" for i in range(n)] + [nb["id"] for nb in x["nobles"]]
        out += [e["id"] for e in x["monster_events"]]
        out += [f"{g}#{k}" for g in x["goods"]["types"] for k in range(1, x["goods"]["per_type"] + 1)]
        out += [f"tome_{r}#{k}" for r, cnt in x["tomes"]["counts"].items() for k in range(1, cnt + 1)]
    return out


def places(s) -> list[str]:
    every = [c for pile in s.monsters.values() for c in pile] + [c for pile in s.citizens.values() for c in pile]
    every += [st["up"] for st in s.domains.values() if st["up"]] + s.domain_pool + s.duke_pool + s.box + s.banished
    for x in s.seats:
        every += x.citizens + x.domains + x.victory + x.offer + ([x.duke] if x.duke else [])
        every += x.goods + x.tomes + x.tomes_down + x.nobles
    every += [c for c in s.araby + s.nae + s.amarynth if c] + s.goods_supply + s.tome_supply + s.noble_deck
    every += s.event_pool + list(s.event_at.values())
    if s.solo:  # [BR p.16-17] the Dark Lord and what his Monsters captured
        every += [s.dark_lord] + s.captured
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
        assert set(s.exhausted_cards) <= set(s.exhausted) and len(s.exhausted_cards) == 2 * len(s.seats) - s.exhausted_pile
        assert s.end_triggered == bool(end_conditions(s)) or event["type"] != "TurnEnded"    # checked every turn
        for x in s.seats:                                                                # never negative
            assert min(x.gold, x.strength, x.magic, x.vp, x.maps) >= 0, (event, x)
            assert set(x.flipped) <= set(x.citizens)
        if s.cs:
            x = s.content["crimson_seas"]
            assert s.bank_maps >= 0 and s.bank_maps + sum(p.maps for p in s.seats) == x["maps"]["total"]  # Maps kept
            assert min(s.exekratys.values()) >= 0
            assert 0 <= s.events_on_top <= len(s.event_pool)
            assert all(tok.get("strength", 0) <= 10 for tok in s.event_tokens.values())           # the Leviathan cap
            assert set(s.event_at) <= set(s.exhausted)                                   # [CS End Phase]
        if event["type"] == "TurnStarted":
            if self.turns:
                assert event["seat"] == (self.turns[-1] + 1) % len(s.seats)
            self.turns.append(event["seat"])
        if s.dice is not None:
            assert all(1 <= v <= 6 for v in s.dice)
        assert s.actions_left >= 0


def candidates(rng: random.Random, s) -> list[dict]:
    stacks = list(s.monsters) + list(s.citizens) + list(s.domains) + ["nope"]
    def picks():
        return [rng.choice([0, 1, 2, True, False, "gold", "magic", {"seat": rng.randrange(5), "resource": "gold"},
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
        {"type": "gain_map"},
        {"type": "sail", "island": rng.choice(["araby", "nae_aerie", "exekratys", "amarynth", "x"]),
         "slots": rng.sample([0, 1, 2], rng.randrange(3)), "slot": rng.randrange(4),
         "resource": rng.choice(["gold", "strength", "magic"]), "magic": rng.randrange(3)},
        {"type": "sail", "island": "araby", "slots": [rng.randrange(3)], "tomes": {"gold": rng.randrange(3)}},
        {"type": "slay", "stack": rng.choice(stacks), "magic": rng.randrange(3), "tomes": {"strength": 1}},
        {"type": "harvest", "item": rng.randrange(12), "choice": picks(), "tomes": {rng.choice(["gold", "magic"]): 1}},
        {"type": "change_die", "domain": rng.choice(domains), "die": rng.randrange(2), "to": rng.randrange(1, 7),
         "tomes": {"gold": rng.randrange(3)}},
    ]


def duke_of_valeria(rng: random.Random, legal: list[dict]) -> dict:
    """Prefers buying things to taking a resource, so games end."""
    buys = [c for c in legal if c["type"] in ("slay", "recruit", "build", "sail")]
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


def schema_checker(ruleset):
    """The service validates bodies against the command schemas before decide: they admit every legal command."""
    validators = {k: jsonschema.Draft202012Validator(v) for k, v in ruleset.command_schemas.items()}

    def policy(rng: random.Random, legal: list[dict]) -> dict:
        for c in legal:
            validators[c["type"]].validate(c)
        return duke_of_valeria(rng, legal)
    return policy


def run(game_no: int, agreement: float = 0.0, ruleset=R):
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
    return play(ruleset, game_no, players, opts, policy=(schema_checker(ruleset) if agreement else duke_of_valeria), candidates=candidates if agreement else None,
                agreement=agreement, after_event=Checker())


@pytest.mark.parametrize("batch", range(8))
def test_random_games_end_with_every_card_in_one_place_and_no_resource_below_zero(batch):
    for game_no in range(batch * 25, batch * 25 + 25):
        s, events = run(game_no)
        check_end(s)
        assert hashlib.sha256(bytes.fromhex(s.seed)).hexdigest() == s.commitment
        if game_no % 10 == 0:
            check_replay(R, s, events)


@pytest.mark.parametrize("game_no", range(900, 903))
def test_legal_commands_agree_exactly_with_decide(game_no):
    s, events = run(game_no, agreement=0.2)
    check_end(s)
    check_replay(R, s, events)


@pytest.mark.parametrize("batch", range(8))
def test_crimson_seas_games_end_with_every_card_and_token_in_one_place(batch):
    for game_no in range(batch * 25, batch * 25 + 25):
        s, events = run(game_no, ruleset=CS)
        check_end(s)
        if game_no % 10 == 0:
            check_replay(CS, s, events)


@pytest.mark.parametrize("game_no", range(950, 952))
def test_crimson_seas_legal_commands_agree_exactly_with_decide(game_no):
    s, events = run(game_no, agreement=0.04, ruleset=CS)   # its legal lists are long: each listed command is decided
    check_end(s)
    check_replay(CS, s, events)
