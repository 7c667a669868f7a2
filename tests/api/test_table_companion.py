"""Issue 17: a companion app at a physical table drives a table-chance game from the API alone.
The host's game view lists the face-down pools and the ids a report may name (TM-2); a seat's
and a spectator's never do. Every table input /legal-commands asks for says what it carries,
and a seat's token is told what each field the host reports carries (TM-1)."""
from __future__ import annotations

import hashlib
import random
import re
from uuid import UUID

import pytest

from domain.chance import ServerChance
from domain.registry import all_rulesets
from tests.disputes.games import TABLE_SETUP
from tests.domain.chrono.table import LAYOUT
from tests.domain.chrono.test_table_games import announced, turn_up
from tests.fakes.http import bearer, create, progressing
from tests.playouts.test_league_playouts import sailor

RULESET_IDS = sorted(all_rulesets())
PLAYERS = ("Kira", "David")


def _table_setup(ruleset_id: str) -> dict | None:
    """What two players' table states at creation: the game's own setups where it has one."""
    rs = all_rulesets()[ruleset_id]
    c = rs.default_content
    if ruleset_id == "tesoros-del-rey-pirata":
        cards = sorted(x["id"] for x in c["playCards"])
        return {"hands": [cards[:5], cards[5:10]], "maps": sorted(m["id"] for m in c["maps"])[:3]}
    if ruleset_id in ("valeria-card-kingdoms", "crimson-seas"):
        dukes = sorted(d["id"] for d in c["dukes"])
        setup = {"domains": sorted(d["id"] for d in c["domains"])[:5], "dukes": [dukes[:2], dukes[2:4]],
                 "first_player": 0}
        if ruleset_id == "crimson-seas":
            x = c["crimson_seas"]
            setup.update(araby=[f"{g}#1" for g in x["goods"]["types"][:3]],
                         nae_aerie=[f"tome_{r}#1" for r in list(x["tomes"]["counts"])[:3]],
                         amarynth=sorted(n["id"] for n in x["nobles"])[:3])
        return setup
    return TABLE_SETUP.get(ruleset_id) or (LAYOUT if ruleset_id == "chrono-corsairs" else None)


class Recording(ServerChance):
    """The server's chance, noting each outcome by the command field a table reports it in."""

    def __init__(self, seed: str, position: int):
        super().__init__(seed, position)
        self.told: dict = {}

    def _note(self, field: str, got: list) -> list:
        if "." in field:   # League's raid dice: rolls.skills, rolls.dice
            outer, inner = field.split(".")
            self.told.setdefault(outer, {}).setdefault(inner, []).extend(got)
        else:
            self.told.setdefault(field, []).extend(got)
        return got

    def roll(self, count, faces, supplied, field):
        return self._note(field, super().roll(count, faces, supplied, field))

    def pick(self, items, count, supplied, field, where=""):
        return self._note(field, super().pick(items, count, supplied, field, where))


def _described(spec: dict) -> bool:
    return isinstance(spec.get("description"), str) and len(spec["description"]) > 20


def table_game(client, ruleset_id: str):
    setup = _table_setup(ruleset_id)
    return create(client, ruleset_id, players=PLAYERS, chance="table", **({"setup": setup} if setup else {}))


def _listed(host: dict, where: str) -> list:
    """The ids of the host's list a by_command item names ("...: one of nameable.domains", "one of
    seats[1].victory")."""
    found = re.search(r"one of (nameable\.(\w+)|seats\[(\d+)\]\.victory)$", where)
    assert found, where
    return host["nameable"][found[2]] if found[2] else host["seats"][int(found[3])]["victory"]


def step(game, ruleset, rng: random.Random, choose=None) -> int:
    """One random legal command, sent as the host with what a table turned up: what the server
    would have drawn, reported in the command's table fields; each id reported is one the
    host's view offered (`nameable`; cards stolen from a hand, or a Monster taken from a
    Victory stack, are in sight in the host's `seats`). Returns how many reported ids were
    checked against the list their `by_command` item names."""
    parley = game.client.application.extensions["parley"]
    state = parley.get_game(UUID(game.id)).state
    seat = rng.choice(ruleset.status(state).to_move)
    legal = ruleset.legal_commands(state, seat)
    command = dict(choose(rng, legal) if choose else rng.choice(progressing(legal)))
    host = game.get("", game.host).get_json()["state"]
    itemised = 0
    if ruleset.id == "chrono-corsairs":
        # At a table a flipped Event token ends its command (CP-15), where the server's chance
        # goes on: the table turns up what table_inputs announces, from its physical decks.
        told = {name: turn_up(state, name, spec, rng)
                for name, spec in announced(ruleset.table_inputs(state, seat), command).items()}
    else:
        chance = Recording(hashlib.sha256(b"%d" % rng.randrange(10**9)).hexdigest(), 0)
        ruleset.decide(state, seat, command, chance)
        told = chance.told
        for field, spec in ruleset.table_inputs(state, seat).get(command["type"], {}).items():
            if "by_command" in spec:   # the count announced for this very command is what it takes
                rows = [r for r in spec["by_command"] if r["command"] == command]
                assert len(rows) <= 1 and (rows[0]["count"] if rows else 0) == len(told.get(field, [])), \
                    (command, rows, told)
                for where, x in zip(rows[0].get("items", []) if rows else [], told.get(field, []), strict=False):
                    assert x in _listed(host, where), (command, where, x)   # each item from the list it names
                    itemised += 1
                if rows and "items" in rows[0]:
                    assert len(rows[0]["items"]) == rows[0]["count"]
    nameable = {x for ids in host["nameable"].values() for x in ids}
    in_sight = {x for s in host.get("seats", []) for x in s.get("hand", []) + s.get("victory", [])}
    for field in ruleset.drawn_fields & set(told):
        for x in told[field]:   # the host's view offered each id the table reports
            assert x in nameable or (field in ("stolen", "revealed") and x in in_sight), (field, x)
    if told.get("drawn") and "play_deck" in host["nameable"]:   # Tesoros: the next card, from its own list (TP-16)
        assert told["drawn"][0] in host["nameable"]["play_deck"]
    response = game.send({**command, **told, "seat": seat})
    assert response.status_code == 200, (command, told, response.get_json())
    return itemised


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_host_view_lists_the_pools_and_a_seats_view_does_not(corsairs_client, ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    game = table_game(corsairs_client, ruleset_id)
    rng = random.Random(3)
    for _ in range(30):
        step(game, ruleset, rng)
    state = corsairs_client.application.extensions["parley"].get_game(UUID(game.id)).state
    host = game.get("", game.host).get_json()["state"]
    assert host["pools"] == ruleset.view(state, "arbiter")["pools"]
    assert set(host["nameable"]) <= set(host["pools"]) | {k for k in host["nameable"] if k.startswith("mixed_")} | \
        {"play_deck_after_anchor"} | {f"{pool}_under" for pool in host["pools"]}   # Tesoros: TP-16; Chrono: CP-18
    if ruleset_id != "corsairs-of-valeria":    # Corsairs rolls dice only: no face-down pool
        assert host["pools"]
    for seat in range(len(PLAYERS)):
        mine = game.get("", game.seat(seat)).get_json()["state"]
        assert "pools" not in mine and "nameable" not in mine


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_table_input_in_legal_commands_has_a_description(corsairs_client, ruleset_id):
    """For the host every field; for the seat to move its own fields, and a description of each
    field under host_reports."""
    ruleset = all_rulesets()[ruleset_id]
    game = table_game(corsairs_client, ruleset_id)
    parley = corsairs_client.application.extensions["parley"]
    rng = random.Random(17)
    asked = reported = 0
    for _ in range(60):
        state = parley.get_game(UUID(game.id)).state
        if ruleset.status(state).finished:
            break
        for entry in game.get("/legal-commands", game.host).get_json()["table_inputs"]:
            for kind, fields in entry["inputs"].items():
                for name, spec in fields.items():
                    assert _described(spec), (kind, name, spec)
                    asked += 1
        seat = ruleset.status(state).to_move[0]
        for entry in game.get("/legal-commands", game.seat(seat)).get_json()["table_inputs"]:
            assert all(_described(spec) for fields in entry["inputs"].values() for spec in fields.values())
            for kind, fields in entry.get("host_reports", {}).items():
                words = entry["host_report_descriptions"][kind]
                assert set(words) == set(fields)
                assert all(len(w) > 20 for w in words.values())
                reported += 1
        step(game, ruleset, rng)
    assert asked
    if ruleset.drawn_fields:
        assert reported, "no command that draws was met"


# Tesoros 27 and 28: Scurvy from under the Anchor discards cards from the hands, and the draw it
# interrupted takes one of them from the reshuffled pile (TP-16)
WHOLE_GAMES = [(r, seed) for r in RULESET_IDS if r != "corsairs-of-valeria" for seed in (1, 2, 3)] + \
    [("tesoros-del-rey-pirata", 27), ("tesoros-del-rey-pirata", 28)]


@pytest.mark.parametrize("ruleset_id, seed", WHOLE_GAMES)
def test_every_id_a_table_reports_was_nameable_to_the_end_of_the_game(corsairs_client, ruleset_id, seed):
    """Whole games, in which decks run out and are shuffled again: at every command, each id
    the table reports was offered by the host's view just before it (`step`). Tesoros's Play
    Deck runs out several times a game: its next draws come from the discard pile, shuffled
    onto the Anchor (TP-16)."""
    ruleset = all_rulesets()[ruleset_id]
    game = table_game(corsairs_client, ruleset_id)
    parley = corsairs_client.application.extensions["parley"]
    rng = random.Random(seed)
    choose = sailor if ruleset_id == "league-of-pirates" else None  # random League games seldom end
    itemised = 0
    for _ in range(1500):
        if ruleset.status(parley.get_game(UUID(game.id)).state).finished:
            break
        itemised += step(game, ruleset, rng, choose)
    assert ruleset.status(parley.get_game(UUID(game.id)).state).finished
    if ruleset_id in ("valeria-card-kingdoms", "crimson-seas"):   # by_command's items were checked
        assert itemised > 0
    if ruleset_id == "tesoros-del-rey-pirata":
        kinds = [getattr(e, "event", {}).get("type") for e in parley.stored_events(UUID(game.id))]
        assert "DiscardReshuffled" in kinds


@pytest.mark.parametrize("ruleset_id", ["tesoros-del-rey-pirata", "valeria-card-kingdoms", "crimson-seas"])
def test_only_the_hosts_table_inputs_carry_the_counts_of_draws(corsairs_client, ruleset_id):
    """The counts of what a command draws or turns up (Tesoros' `drawn` and `stolen`, Valeria's
    `revealed`) come from dry runs over the hidden pools: the host's alone (TM-1). A seat is told
    which fields the host reports and what each carries, never a count found from a pool; a
    spectator is told nothing."""
    ruleset = all_rulesets()[ruleset_id]
    game = table_game(corsairs_client, ruleset_id)
    rng = random.Random(4)
    for _ in range(80):
        host = game.get("/legal-commands", game.host).get_json()["table_inputs"]
        if any("by_command" in spec for entry in host for fields in entry["inputs"].values()
               for spec in fields.values()):
            break
        step(game, ruleset, rng)
    else:
        raise AssertionError("the host was never told a count")
    for auth in (game.seat(0), game.seat(1), bearer(game.created["spectator_token"])):
        answer = game.get("/legal-commands", auth)
        assert answer.status_code == 200
        assert "by_command" not in answer.get_data(as_text=True)
