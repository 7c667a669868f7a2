"""Hidden stays hidden on every endpoint: two games that differ only in what one seat cannot
see answer that seat's token identically everywhere it can ask.

What a seat can ask: its view now and at every stored version, the event log (paged, long-polled
and streamed), its legal
commands, its export, the replay of that export at every version as that seat, the
verification of that export, a dry run of every legal command and of commands naming hidden
things, and the refusal of any real command. A dry run draws fresh randomness, so the twins'
dry runs are compared for the same fresh seed (domain.chance.new_seed is fixed while they
are asked); the real games' seeds are equal in both twins (server chance) or there is none
(table chance).

The twins, per game with hidden information, in both chance modes where the rules allow:
- League of Pirates: one seat's sealed league (server and table);
- Chrono Corsairs: the Plan cards one seat drew (table), its sealed Plan selection (server);
- Los Tesoros del Rey Pirata: one seat's hand (table), also while Scurvy revealed in the
  draw-off waits for the choices (TA-30); which Events the pact of the waves
  left in play (table, with and without Chaos: TP-17); with server chance, the issue's
  example: hundreds of dry-run draws never show the real deck;
- Valeria and Crimson Seas: the Duke one seat kept, compared at many points of a random game
  played on alike (server chance; table games of Valeria are covered in the domain), and at a
  table the two Dukes dealt to one seat, while the setup laid out is shown (TM-4).
The domain-level tests (tests/domain/*/test_dry_run_hidden.py) cover many points of random
games for every ruleset; these prove that every endpoint is wired to what they check.
"""
from __future__ import annotations

import hashlib
import json
import random

import pytest

import domain.chance
from domain.registry import all_rulesets
from service import create_app
from tests.api.test_tokens_and_secrets import CHRONO, _normalised, chrono_pair, tesoros_pair
from tests.fakes.http import bearer, create
from tests.playouts.test_valeria_playouts import duke_of_valeria

GAME_SEED = hashlib.sha256(b"both twins' seed").hexdigest()
DRY_SEED = hashlib.sha256(b"the dry runs' seed").hexdigest()
LEAGUE, VALERIA, SEAS = "league-of-pirates", "valeria-card-kingdoms", "crimson-seas"


class Seeds:
    """domain.chance.new_seed, fixed: `game` while twins are created, `dry` while asked."""

    def __init__(self, monkeypatch):
        self.next = GAME_SEED
        monkeypatch.setattr(domain.chance, "new_seed", lambda: self.next)


@pytest.fixture
def seeds(monkeypatch):
    return Seeds(monkeypatch)


def everything(game, seat: int | str, probes: list[dict], seeds: Seeds, most: int | None = None) -> dict:
    """Every answer `seat`'s token gets from the game (nothing stored): by endpoint. The view
    at every version, or at `most` versions spread over a long game. `seat` may also be
    "spectator" (the spectator's token) or "anyone" (no token: the twins are public games)."""
    # No token at all: a header other than Authorization (an empty one means the host's to game.get).
    auth = {"spectator": bearer(game.created["spectator_token"]), "anyone": {"Accept": "application/json"}}.get(seat) \
        if isinstance(seat, str) else game.seat(seat)
    client = game.client
    seeds.next = DRY_SEED
    view = game.view(auth)
    export = game.get("/export", auth)
    versions = range(1, view["version"] + 1)
    commands = (game.legal(auth) if seat != "anyone" else []) + probes
    seen = {
        "view": view,
        "versions": [_answer(game.get(f"?version={v}", auth)) for v in (_spread(versions, most) if most else versions)],
        "events": game.all_events(auth),
        "stream": _streamed(game, auth, view["version"]),
        "long_poll": _answer(game.get("/events", auth, query_string={"after": view["version"], "wait": 0.05})),
        "legal_commands": _answer(game.get("/legal-commands", auth)),
        "export": _answer(export),
        "replays": [_answer(client.post(f"/replays?at={v}&seat={seat}", json=export.get_json()))
                    for v in _spread(versions)] if isinstance(seat, int) else [],
        "verification": _answer(client.post("/verifications", json=export.get_json())),
        "dry_runs": [_answer(client.post(f"/games/{game.id}/commands?dry_run=true", json=c, headers=auth))
                     for c in commands],
    }
    assert [entry for _, entry in seen["stream"][1]] == seen["events"]  # the same log, pushed
    return _normalised(seen, game.id)


def _streamed(game, auth: dict, last_version: int) -> list:
    """A stream's status and messages (each message's id and entry), read as an EventSource
    reads one, message by message as they come, and closed once it has sent the game's last
    version. The apps here end a stream after 0.2 s, so it is opened again with Last-Event-ID
    until then (on a slow machine one stream may end before it has sent a long log). A stream
    that is refused, or that twice in a row brings nothing new before the last version, is
    returned as it stands: the comparison with the events then fails, or the refusal is what
    is compared."""
    status, seen, last, idle = None, [], None, 0
    while idle < 2 and last != str(last_version):
        response = game.get("/stream", {**auth, "Last-Event-ID": last} if last else auth, buffered=False)
        status = status or response.status_code
        if response.status_code != 200:
            response.close()
            break
        new, unread = [], b""
        try:
            for chunk in response.response:   # bytes: a message is decoded once it is whole
                *whole, unread = (unread + chunk).split(b"\n\n")
                for message in (m.decode() for m in whole if m.startswith(b"id: ")):
                    new.append((message.split("\n")[0], json.loads(message.split("\ndata: ", 1)[1])))
                if new and new[-1][0] == f"id: {last_version}":
                    break
        finally:
            response.close()
        idle = 0 if new else idle + 1
        seen += new
        last = new[-1][0].removeprefix("id: ") if new else last
    return [status, seen]


def _spread(versions: range, most: int = 12) -> list[int]:
    """At most `most` versions, evenly spread, the first and the last among them (a replay
    folds the export from its start: every version of a long game would cost its square)."""
    if len(versions) <= most:
        return list(versions)
    step = (len(versions) - 1) / (most - 1)
    return sorted({versions[round(i * step)] for i in range(most)})


def _answer(response) -> list:
    return [response.status_code, response.get_json()]


def assert_same_everywhere(one, other, seat: int, probes: list[dict], seeds: Seeds, most: int | None = None) -> None:
    """The seat, and the spectator (its token, and no token at all: the twins are public
    games), who may see only what every seat may see, answered alike by both twins."""
    for who in (seat, "spectator", "anyone"):
        a, b = everything(one, who, probes, seeds, most), everything(other, who, probes, seeds, most)
        differ = [k for k in a if a[k] != b[k]]
        assert not differ, f"{who if isinstance(who, str) else f'seat {who}'} tells the twins apart through {differ}"
        if not isinstance(who, int):
            assert a["view"]["you"] == "spectator"
            expected = [200, {"commands": [], **({"table_inputs": []} if "table_inputs" in a["legal_commands"][1] else {})}] \
                if who == "spectator" else 401
            assert (a["legal_commands"] if who == "spectator" else a["legal_commands"][0]) == expected
            assert {status for status, _ in a["dry_runs"]} <= {401, 403}


def assert_same_refusals(one, other, seat: int, probes: list[dict]) -> None:
    """Real commands, in order, until one is accepted (the games then move on): each refusal
    is word for word the same in both twins, and neither accepts what the other refuses."""
    for probe in probes:
        a = one.send(probe, one.seat(seat))
        b = other.send(probe, other.seat(seat))
        assert (a.status_code == 200) == (b.status_code == 200), (probe, a.get_json(), b.get_json())
        if a.status_code == 200:
            return
        assert _normalised(a.get_json(), one.id) == _normalised(b.get_json(), other.id), probe


def imagined_draws(game, seat: int, command: dict, times: int, cards_of) -> set:
    """Every card `times` dry runs of `command` by `seat` show drawn (cards_of: an event as
    the seat sees it -> the cards it shows), each dry run with its own fresh seed."""
    drawn: set = set()
    for _ in range(times):
        answer = game.client.post(f"/games/{game.id}/commands?dry_run=true", json=command,
                                  headers=game.seat(seat))
        assert answer.status_code == 200, answer.get_json()
        for entry in answer.get_json()["events"]:
            drawn |= set(cards_of(entry["event"]))
    return drawn


def twins(client, seeds: Seeds, ruleset: str, chance: str, players=("Anne", "Ben"), **extra):
    seeds.next = GAME_SEED
    return [create(client, ruleset, players=players, chance=chance, public=True, **extra) for _ in range(2)]


# -- League of Pirates: a sealed league ---------------------------------------------------

LEAGUES = ["red", "blue", "yellow", "green"]


@pytest.mark.parametrize("chance", ["server", "table"])
def test_league_a_sealed_league_shows_nowhere_to_the_other_seat(corsairs_client, seeds, chance):
    """[Choose the League] "Secretly choose the pirate league ... then you and your opponent
    reveal your chosen Captain at the same time": Ben's dry run of his own choice, which
    would reveal both, answers the same whichever league Anne chose."""
    one, other = twins(corsairs_client, seeds, LEAGUE, chance)
    available = [c["league"] for c in one.legal(one.seat(0)) if c["type"] == "choose_league"]
    for game, league in ((one, available[0]), (other, available[-1])):
        assert game.send({"type": "choose_league", "league": league}, game.seat(0)).status_code == 200
    probes = [{"type": "choose_league", "league": x} for x in LEAGUES + ["purple"]] + [{"type": "throw_dice"}]
    assert_same_everywhere(one, other, 1, probes, seeds)
    assert_same_refusals(one, other, 1, [{"type": "choose_league", "league": "purple"}, {"type": "throw_dice"}])


# -- Chrono Corsairs: drawn Plans and a sealed selection ----------------------------------

def test_chrono_the_plans_another_seat_drew_show_nowhere(corsairs_client, seeds):
    """[Plan] the cards are drawn secretly: at a table, Diego drew S02 and U02 in one game and
    S30 and U19 in the other; Ana's every answer is the same."""
    one, other = chrono_pair(corsairs_client)
    probes = [{"type": t, **extra} for t in ("select_plan", "draw_plans")
              for extra in ({}, {"plan": "S02"}, {"plan": "S30"})]
    assert_same_everywhere(one, other, 0, probes, seeds)


def test_chrono_a_sealed_plan_selection_shows_nowhere(corsairs_client, seeds):
    """[Plan] "chosen secretly, then revealed together": with server chance and the same
    deal, Ben selects another of his Plans in each twin; Anne's answers are the same."""
    one, other = twins(corsairs_client, seeds, CHRONO, "server")
    for _ in range(12):
        to_move = one.view()["to_move"]
        if 1 in to_move and 0 in to_move:
            mine = one.legal(one.seat(1))
            if len({json.dumps(c, sort_keys=True) for c in mine}) > 1 and mine[0]["type"] == mine[-1]["type"]:
                break
        command = one.legal()[0]
        for game in (one, other):
            assert game.send(command).status_code == 200, command
    else:
        pytest.fail("no sealed choice with two options came up")
    choices = one.legal(one.seat(1))
    assert one.send(choices[0], one.seat(1)).status_code == 200
    assert other.send(choices[-1], other.seat(1)).status_code == 200
    assert_same_everywhere(one, other, 0, [choices[0], choices[-1]], seeds)


def test_chrono_server_dry_runs_of_a_draw_never_draw_from_the_real_deck(corsairs_client):
    """The issue's example: 400 dry runs of draw_plans by one seat revealed which two Plans the
    other drew. Now each dry run imagines the other seat's Plans afresh, so the Plans it
    really holds turn up among the imagined draws."""
    game = create(corsairs_client, CHRONO, players=("Anne", "Ben"))
    for _ in range(30):   # on to a moment where one seat holds drawn Plans and the other may draw
        seats = game.view()["state"]["seats"]
        pairs = [(holder, 1 - holder) for holder in (0, 1) if seats[holder]["drawn"]
                 and any(c["type"] == "draw_plans" for c in game.legal(game.seat(1 - holder)))]
        if pairs:
            holder, drawer = pairs[0]
            break
        assert game.send(game.legal()[0]).status_code == 200
    else:
        pytest.fail("no seat came to draw while the other held Plans")
    held = set(seats[holder]["drawn"])
    drawn = imagined_draws(game, drawer, {"type": "draw_plans"}, 150, lambda e: e["cards"] if
                           e["type"] == "PlansDrawn" and e["seat"] == drawer else [])
    assert held and held & drawn, (held, drawn)


# -- Los Tesoros del Rey Pirata: hands and the deck ---------------------------------------

def test_tesoros_another_hand_shows_nowhere(corsairs_client, seeds):
    (one, other), _ = tesoros_pair(corsairs_client)
    content = corsairs_client.get("/rulesets/tesoros-del-rey-pirata").get_json()["default_content"]
    cards = sorted(c["id"] for c in content["playCards"])
    probes = ([{"type": "draw_card"}, {"type": "defend", "die": "deck"}]
              + [{"type": t, "card": c} for t in ("take_card", "equip") for c in cards[::4]])
    assert_same_everywhere(one, other, 0, probes, seeds)
    for game in (one, other):
        assert game.send({"type": "draw_card", "seat": 0, "drawn": ["FAVOR-a"]}).status_code == 200
    assert_same_everywhere(one, other, 0, probes, seeds)
    assert_same_refusals(one, other, 0, [{"type": "take_card", "card": c} for c in cards[::4]]
                         + [{"type": "draw_card"}])


@pytest.mark.parametrize("chaos", [False, True])
def test_tesoros_which_events_the_pact_left_in_play_shows_nowhere(corsairs_client, seeds, chaos):
    """TP-17: two table games with the pact of the waves, alike but for which 3 Events are in
    play (with Chaos, shuffled into the Play Deck): no seat, spectator or anonymous reader tells
    them apart at any endpoint; the host does."""
    from tests.api.test_tokens_and_secrets import HAND_0, HAND_1, TESOROS_MAPS
    games = [create(corsairs_client, "tesoros-del-rey-pirata", players=("Ana", "Diego"), chance="table", public=True,
                    options={"pact_of_the_waves": 3, "chaos_on_the_high_seas": chaos},
                    setup={"hands": [HAND_0, HAND_1], "maps": TESOROS_MAPS, "events": events})
             for events in (["damned_lighthouse", "scurvy", "storm"], ["outrage", "rumors", "storm"])]
    one, other = games
    assert one.view()["state"]["events_out_of_game"] != other.view()["state"]["events_out_of_game"]
    probes = [{"type": "draw_card"}, {"type": "defend", "die": "deck"}]
    assert_same_everywhere(one, other, 0, probes, seeds)
    for game in games:
        assert game.send({"type": "draw_card", "seat": 0, "drawn": ["FAVOR-a"]}).status_code == 200
    assert_same_everywhere(one, other, 1, probes, seeds)


def test_tesoros_scurvy_in_the_draw_off_shows_no_other_hand_nor_its_choice(corsairs_client, seeds):
    """TA-30: with Chaos on the high seas, Scurvy revealed in the draw-off for the first player
    waits, before the first turn, for each Pirate's choice of the 2 cards to keep. Twins alike
    but for seat 1's hand: seat 0, the spectator and anyone tell them apart nowhere, while all
    wait and after seat 1 has chosen (its choice sealed until the last one resolves Scurvy)."""
    from tests.api.test_tokens_and_secrets import HAND_0, HAND_1, TESOROS_MAPS
    other_hand = ["SAB-3a", "MUT-3", "LS-3", "CS-4", "WTP-3a"]
    games = [create(corsairs_client, "tesoros-del-rey-pirata", players=("Ana", "Diego"), chance="table", public=True,
                    options={"first_player": "draw_off", "chaos_on_the_high_seas": True},
                    setup={"hands": [HAND_0, hand], "maps": TESOROS_MAPS, "draw_off": ["FAVOR-a", "scurvy"]})
             for hand in (HAND_1, other_hand)]
    one, other = games
    assert one.view()["phase"] == "scurvy" and one.view()["to_move"] == [0, 1]
    assert one.view()["state"]["seats"][1]["hand"] != other.view()["state"]["seats"][1]["hand"]  # the host tells
    probes = [{"type": "keep_cards", "cards": HAND_0[:2]}, {"type": "keep_cards", "cards": HAND_1[:2]},
              {"type": "keep_cards", "cards": other_hand[:2]}]
    assert_same_everywhere(one, other, 0, probes, seeds)
    for game, hand in ((one, HAND_1), (other, other_hand)):
        assert game.send({"type": "keep_cards", "seat": 1, "cards": hand[1:3]}).status_code == 200
    assert_same_everywhere(one, other, 0, probes, seeds)


def test_tesoros_server_dry_run_draws_never_show_the_real_deck(corsairs_client):
    """The issue's example: 200 to 400 dry-run draws showed all 32 cards of the real deck, so
    all cards minus those minus one's own hand was the opponent's hand. Now the cards in the
    opponent's hand turn up among the imagined draws like any others."""
    game = create(corsairs_client, "tesoros-del-rey-pirata", players=("Ana", "Diego"))
    theirs = set(game.view()["state"]["seats"][1]["hand"])
    drawn = imagined_draws(game, 0, {"type": "draw_card"}, 120, lambda e: [e["card"]] if
                           e["type"] == "CardDrawn" and "card" in e else [])
    assert theirs & drawn, (theirs, drawn)


# -- Valeria and Crimson Seas: the kept Duke, all game long -------------------------------

PRESELECTED = {"expansions": ["monster_events"], "monster_events_preselected": ["leviathan"]}   # VP-48


@pytest.mark.parametrize("ruleset, options", [(VALERIA, None), (SEAS, None), (VALERIA, PRESELECTED)],
                         ids=["valeria", "crimson-seas", "valeria-preselected-events"])
def test_valeria_a_kept_duke_shows_nowhere_at_any_point_of_a_game(seas_app, seeds, ruleset, options):
    """[BR p.15] "Your Duke is kept secret during the game": with the same deal, Anne keeps
    one Duke in one twin and the other in the other; the twins are then played on alike, and
    Ben's every answer is compared at points all through the game (with the Monster Events, one
    of them preselected, too: their draws and answers are compared alike)."""
    client = seas_app.test_client()
    one, other = twins(client, seeds, ruleset, "server", **({"options": options} if options else {}))
    offer = one.view(one.seat(0))["state"]["seats"][0]["duke_offer"]
    for game, duke in ((one, offer[0]), (other, offer[1])):
        assert game.send({"type": "keep_duke", "duke": duke}, game.seat(0)).status_code == 200
    rng = random.Random(3)
    compared = 0
    every = 30   # the base game of seed 3 ends at step 110, the Monster Events' sooner
    for step in range(200):
        if one.view()["status"] == "finished":
            break
        if step % every == 5:
            assert_same_everywhere(one, other, 1, [{"type": "keep_duke", "duke": offer[0]}], seeds, most=30)
            compared += 1
        command = duke_of_valeria(rng, one.legal())
        for game in (one, other):
            response = game.send(command)
            assert response.status_code == 200, (command, response.get_json())
    assert compared >= 3, (compared, step)
    if options:   # the preselected Event's draws were among what was compared
        assert any(e["event"]["type"] == "EventRevealed" for e in one.all_events(one.host))


@pytest.fixture
def seas_app():
    app = create_app({"RULESETS": all_rulesets(), "PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"},
                      "STREAM_SECONDS": 0.2})
    yield app
    app.extensions["parley"].close()


def test_valeria_the_dukes_a_table_dealt_show_nowhere_but_the_setup_laid_out_does(seas_app, seeds):
    """TM-4: a seat's and the spectator's copy of a table game's creation keeps what the table laid
    out in sight (the Domains, the first player) and not the Dukes dealt. Twin table games alike
    but for the two Dukes dealt to seat 0 answer seat 1, the spectator and anyone alike
    everywhere, the creation record among the events and the export; the host tells them apart."""
    client = seas_app.test_client()
    dukes = sorted(d["id"] for d in all_rulesets()[VALERIA].default_content["dukes"])
    domains = sorted(d["id"] for d in all_rulesets()[VALERIA].default_content["domains"])[:5]
    games = [create(client, VALERIA, players=("Anne", "Ben"), chance="table", public=True,
                    setup={"domains": domains, "dukes": [mine, dukes[2:4]], "first_player": 1})
             for mine in (dukes[:2], dukes[4:6])]
    one, other = games
    created = [game.all_events(game.seat(1))[0]["event"] for game in games]
    assert created[0]["table_setup"] == {"domains": domains, "first_player": 1} == created[1]["table_setup"]
    assert one.all_events()[0]["event"]["table_setup"] != other.all_events()[0]["event"]["table_setup"]  # the host tells
    assert_same_everywhere(one, other, 1, [{"type": "keep_duke", "duke": dukes[0]}], seeds)
