"""Whole Chrono Corsairs games at a table, driven by table_inputs() alone: before each command
the driver asks what the table must report, the "table" (this test, which knows the physical
decks) turns up exactly that, and decide() must accept it; one outcome fewer must be refused
TABLE_OUTCOME_REQUIRED and one more TABLE_OUTCOME_INVALID. Invariants hold after every event."""
from __future__ import annotations

import json
import random

import pytest

from domain.chance import TableChance
from domain.chrono import RULESET as R
from domain.chrono.legal import DESCRIPTIONS
from domain.chrono.rules import TABLE_FIELDS
from domain.ruleset import Rejected
from tests.domain.chrono.table import Table
from tests.playouts.test_chrono_playouts import Watch, captain


def announced(inputs: dict, cmd: dict) -> dict:
    """field -> spec that table_inputs() announces for this very command."""
    out = {}
    for field, spec in inputs.get(cmd["type"], {}).items():
        if isinstance(spec["count"], int):
            out[field] = spec
            continue
        assert spec["count"] == "depends on the command"
        rows = [r for r in spec["by_command"] if r["command"] == cmd]
        assert len(rows) <= 1
        if rows:
            out[field] = rows[0]
    return out


def _off_the_top(deck: dict, count: int, rng: random.Random) -> list[str]:
    """count cards off a physical deck: its unseen part, shuffled; then the cards the players put
    under it, in an order of their own, not the one they went under in (CP-18)."""
    return (rng.sample(sorted(deck["pool"]), len(deck["pool"])) + rng.sample(deck["bottom"], len(deck["bottom"])))[:count]


def turn_up(s, field: str, spec: dict, rng: random.Random) -> list[str]:
    """What a physical table turns up: the decks are only known to the table (this test)."""
    if field == "plans":
        out = _off_the_top(s.decks["stable"], spec["stable"], rng) + _off_the_top(s.decks["unstable"], spec["unstable"], rng)
        assert len(out) == spec["count"]
        return out
    if field == "artifacts":
        return _off_the_top(s.decks["artifact"], spec["count"], rng)
    if field == "anomaly":
        return rng.sample(sorted(s.anomaly_pool), spec["count"])
    shown = {t["id"] for t in s.tokens.values() if t["id"]}
    out = []
    for back in spec["backs"]:
        out.append(rng.choice(sorted(t for t, x in s.event_tokens.items()
                                     if x["back"] == back and t not in shown and t not in out)))
    assert len(out) == spec["count"]
    return out


def rejected(t: Table, seat: int, cmd: dict) -> str:
    try:
        R.decide(t.state, seat, cmd, TableChance())
    except Rejected as r:
        return r.code
    return "accepted"


def play_at_table(players: int, game: int, probe: float = 0.1) -> tuple[Table, dict]:
    rng = random.Random(game)
    flag = list(range(players))
    rng.shuffle(flag)
    t = Table(players, flag=flag)
    watch = Watch()
    seen = {f: 0 for f in TABLE_FIELDS} | {"several seats": 0}
    for _ in range(8000):
        if t.state.finished:
            return t, seen
        seat = rng.choice(R.status(t.state).to_move)
        for other in range(players):
            if other != seat and other not in R.status(t.state).to_move:
                assert R.table_inputs(t.state, other) == {}
        cmd = captain(rng, R.legal_commands(t.state, seat))
        needs = announced(R.table_inputs(t.state, seat), cmd)
        full = dict(cmd)
        for field, spec in needs.items():
            full[field] = turn_up(t.state, field, spec, rng)
            seen[field] += 1
        if rng.random() < probe:
            for field in TABLE_FIELDS:
                if full.get(field):
                    assert rejected(t, seat, {**full, field: full[field][:-1]}) == "TABLE_OUTCOME_REQUIRED", (cmd, field)
                    assert rejected(t, seat, {**full, field: full[field] + full[field][:1]}) == "TABLE_OUTCOME_INVALID"
                else:
                    assert rejected(t, seat, {**full, field: ["AN1"]}) == "TABLE_OUTCOME_INVALID", (cmd, field)
        new = R.decide(t.state, seat, full, TableChance())     # whatever was announced is what decide requires
        if "artifacts" in needs:   # each Artifact reported went to the seat announced at its place
            assert [(e["seat"], e["artifact"]) for e in new if e["type"] == "ArtifactDrawn"] == \
                list(zip(needs["artifacts"]["for_seats"], full["artifacts"], strict=True)), (cmd, needs)
            seen["several seats"] += len(set(needs["artifacts"]["for_seats"])) > 1
        t.commands.append({"actor": seat, "command": full})
        for e in new:
            t.state = R.evolve(t.state, e)
            t.events.append(e)
            watch(t.state, e)
    raise AssertionError(f"game {game} did not finish")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_games_driven_by_table_inputs_alone_reach_final_scoring_and_replay(players):
    seen = {f: 0 for f in TABLE_FIELDS} | {"several seats": 0}
    for game in range(3):
        t, counts = play_at_table(players, 100 * players + game)
        assert t.state.finished and t.state.result["winners"]
        for f in seen:
            seen[f] += counts[f]
        replayed = R.initial_state()
        for e in json.loads(json.dumps(t.events)):
            replayed = R.evolve(replayed, e)
        assert R.dump_state(replayed) == R.dump_state(t.state)
    several = seen.pop("several seats")   # one command handing Artifacts to several seats: met with 4 and 5
    assert all(seen.values()), seen       # every chance point of the game was reported on the way
    assert several or players < 4


def test_a_flip_at_a_table_ends_the_command_so_what_follows_is_announced_next():
    """An Ancient Relic draws an Artifact, a Quiet token does not: the table learns which only
    by flipping, so the flip is the command's last outcome and the resolver's do_step says the rest."""
    t = Table()
    from tests.domain.chrono.table import first_round
    first_round(t)
    t.do(0, {"type": "perform_plan"})
    inputs = R.table_inputs(t.state, 0)
    to_e5 = {"type": "do_step", "owner": 0, "kind": "officer", "from": "HARBOR", "to": "E5", "carry": {"officer": 0, "crew": 0}}
    assert announced(inputs, to_e5) == {"event_tokens": {"command": to_e5, "count": 1, "what": TABLE_FIELDS["event_tokens"],
                                                         "description": DESCRIPTIONS["event_tokens"], "backs": ["SUNRISE"]}}
    to_e3 = {**to_e5, "to": "E3"}
    assert announced(inputs, to_e3) == {}
    t.do(0, {**to_e5, "event_tokens": ["SR6"]})        # Ancient Relic
    assert R.table_inputs(t.state, 0) == {"do_step": {"artifacts": {"count": 1, "what": TABLE_FIELDS["artifacts"],
                                                                    "description": DESCRIPTIONS["artifacts"],
                                                                    "for_seats": [0]}}}
    t.rejects(0, {"type": "do_step"}, "TABLE_OUTCOME_REQUIRED")
    t.do(0, {"type": "do_step", "artifacts": ["AR11"]})
    assert t.seat(0).artifacts == ["AR11"]


def test_the_table_states_the_second_anomaly_only_when_round_1s_needs_nobody():
    from domain.ruleset import InvalidCreation
    with pytest.raises(InvalidCreation) as info:
        Table(anomaly=["AN1", "AN2"])         # Riptide asks each player first: AN2 is not turned up yet
    assert "setup.anomaly" in info.value.problems[0]
    assert ("AN1 waits for a decision in round 1, so no card after it is turned up yet; send 1 card, not 2"
            in info.value.problems[0])
    with pytest.raises(InvalidCreation) as info:
        Table(anomaly=["AN3"])                # Ash Cloud under Opening needs nobody: the next card shows at once
    # the whole list's count, not the draft's, and which card made it so
    assert ("AN3 resolves in round 1 without anyone's decision, so the next card of the Anomaly deck is turned "
            "up too; send 2 cards, not 1" in info.value.problems[0])
    assert Table(anomaly=["AN1"]).state.anomaly_top == "AN1"


def test_a_report_refused_names_its_item_and_where_the_host_view_lists_it():
    """Issue 17, item 4: the refusal says which item and what it is taken from, and where the
    host's view lists the ids it may name; a seat's token is told nothing of it (TM-1)."""
    t = Table()
    from tests.domain.chrono.table import first_round
    first_round(t)
    with pytest.raises(Rejected) as drew_nothing:   # a seat's report on a command that turns nothing up
        R.decide(t.state, 0, {"type": "perform_plan", "artifacts": ["AR11"]}, TableChance("seat"))
    assert drew_nothing.value.code == "TABLE_OUTCOME_FROM_HOST"
    t.do(0, {"type": "perform_plan"})
    to_e5 = {"type": "do_step", "owner": 0, "kind": "officer", "from": "HARBOR", "to": "E5", "carry": {"officer": 0, "crew": 0}}
    sunrise = "a face-down Event token with the SUNRISE back: one of nameable.event_tokens_sunrise"
    assert t.rejects(0, to_e5, "TABLE_OUTCOME_REQUIRED").detail.endswith(f"1 is needed (item 1: {sunrise}).")
    wrong = t.rejects(0, {**to_e5, "event_tokens": ["AN1"]}, "TABLE_OUTCOME_INVALID")
    assert wrong.detail == f"'event_tokens': 'AN1' cannot have been drawn from there (item 1: {sunrise})."
    assert "SR6" in R.view(t.state, "arbiter")["nameable"]["event_tokens_sunrise"]
    with pytest.raises(Rejected) as seats:   # TM-1: the host's to report, and no count
        R.decide(t.state, 0, to_e5, TableChance("seat"))
    assert seats.value.code == "TABLE_OUTCOME_FROM_HOST" and "needed" not in seats.value.detail
    t.do(0, {**to_e5, "event_tokens": ["SR6"]})        # Ancient Relic: an Artifact next
    wrong = t.rejects(0, {"type": "do_step", "artifacts": ["SR6"]}, "TABLE_OUTCOME_INVALID")
    assert wrong.detail.endswith("(item 1: the Artifact deck: one of nameable.artifacts).")


def test_a_report_missing_its_plans_names_the_count_of_the_whole_list():
    """docs/api.md section 7: the count is the whole list's. draw_plans turns up a Stable and an
    Unstable Plan: with none reported the refusal asks for 2 (as table_inputs says), naming item 1;
    with the Stable one alone, still 2, naming item 2 and its deck."""
    t = Table()
    seat = t.state.flag[0]
    counts = R.table_inputs(t.state, seat)["draw_plans"]["plans"]
    none = t.rejects(seat, {"type": "draw_plans"}, "TABLE_OUTCOME_REQUIRED")
    assert "; 2 are needed (item 1: the Stable Plan deck: one of nameable.stable_plans)." in none.detail, none.detail
    one = t.rejects(seat, {"type": "draw_plans", "plans": ["S01"]}, "TABLE_OUTCOME_REQUIRED")
    assert "; 2 are needed (item 2: the Unstable Plan deck: one of nameable.unstable_plans)." in one.detail, one.detail
    assert (counts["count"], counts["stable"], counts["unstable"]) == (2, 1, 1)


def test_a_table_names_the_plan_it_drew_from_under_a_deck_in_whatever_order_the_cards_lie():
    """CP-18: once a deck's unseen part is drawn, the next cards come from under it. At a table they
    lie in the order the players put them there, not CA-18's: the table reports the one it drew,
    from the host's nameable.unstable_plans_under, and table_inputs counts it (the audit's game:
    a 5-player table met an empty Unstable deck in round 4, and Parley dealt a card of its own)."""
    t = Table()
    seat = t.state.flag[0]
    deck = t.state.decks["unstable"]
    under = sorted(deck["pool"])[:3]
    deck["pool"], deck["bottom"] = [], list(under)   # arrange: the unseen part drawn, three cards under it
    counts = R.table_inputs(t.state, seat)["draw_plans"]["plans"]
    assert (counts["count"], counts["stable"], counts["unstable"]) == (2, 1, 1)
    host = R.view(t.state, "arbiter")
    assert host["nameable"]["unstable_plans_under"] == under and host["nameable"]["unstable_plans"] == []
    assert host["pools"]["unstable_plans"] == dict.fromkeys(under, 1)
    stable = sorted(t.state.decks["stable"]["pool"])[0]
    missing = t.rejects(seat, {"type": "draw_plans", "plans": [stable]}, "TABLE_OUTCOME_REQUIRED")
    assert missing.detail.endswith("(item 2: the cards under the Unstable Plan deck, its unseen part drawn: one of "
                                   "nameable.unstable_plans_under).")
    t.rejects(seat, {"type": "draw_plans", "plans": [stable, stable]}, "TABLE_OUTCOME_INVALID")
    t.do(seat, {"type": "draw_plans", "plans": [stable, under[-1]]})   # the last to go under, drawn first
    assert t.seat(seat).drawn == [stable, under[-1]] and t.state.decks["unstable"]["bottom"] == under[:-1]
