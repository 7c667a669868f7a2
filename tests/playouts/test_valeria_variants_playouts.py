"""Random playouts of the two printed Valeria variants Parley plays beyond the standard game, in
server-chance mode, 2 to 5 players, to their end: the Mixed Citizen Variant [BR p.18] (in both
rulesets) and Crimson Seas' Monster Events on the base game on their own [CS Monster Event Cards]
(options.expansions ["monster_events"]), alone and together.

After every event: every card in exactly one place, a mixed stack's face-down Citizens counted
among those not in sight (VP-40: the state names none of them); resources never negative; the
Monster Events' invariants as with Crimson Seas; no Map, Goods, Tome, Noble or Exekratys token
ever appears without the island board (VP-44). Legal commands agree with decide; replay and
snapshot round trips give the same state."""
from __future__ import annotations

import random

import pytest

from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from domain.valeria.state import FACE_DOWN, MIXED
from tests.playouts.harness import check_replay, play
from tests.playouts.test_valeria_playouts import (
    NAMES,
    Checker,
    candidates,
    check_end,
    duke_of_valeria,
    every_card,
    places,
    schema_checker,
)

MIXED_ONLY = {"variant": "mixed_citizens"}
EVENTS_ONLY = {"expansions": ["monster_events"]}
BOTH = {"variant": ["mixed_citizens"], "expansions": ["monster_events"]}


def unseen(s) -> list[str]:
    """The Citizens no one sees: those of every mixed stack's Activation number not in sight."""
    return [c for st in s.citizens if st.startswith(MIXED) for c in s.citizen_pool(st)]


def every_card_played(s) -> list[str]:
    """Every card of the game: the standard list, and the Monster Events played on their own."""
    return sorted(every_card(s) + [e["id"] for e in s.content.get("monster_events", [])])


class VariantChecker(Checker):
    def __call__(self, s, event: dict) -> None:
        if event["type"] == "GameSetUp":
            return
        if not any(st.startswith(MIXED) for st in s.citizens) and "monster_events" not in s.content:
            return super().__call__(s, event)
        seen = [c for c in places(s) if c != FACE_DOWN]
        assert sorted(seen + unseen(s)) == every_card_played(s), event          # one place each
        for st, pile in s.citizens.items():
            down = pile.count(FACE_DOWN)
            assert pile[:down] == [FACE_DOWN] * down, (st, pile)                # face down under the face-up
            if st.startswith(MIXED):
                assert down <= len(s.citizen_pool(st)), (st, pile)
                taking = event["type"] in ("CardGained", "CardBanished") and event.get("stack") == st
                assert not pile or pile[-1] != FACE_DOWN or taking, (st, pile)  # turned up at once
                for c in pile[down:]:
                    slot = "_".join(map(str, s.card(c)["activation"]))
                    assert st == MIXED + slot, (st, c)                          # one Activation number a stack
        if s.events_on:
            assert 0 <= s.events_on_top <= len(s.event_pool)
            assert all(tok.get("strength", 0) <= 10 for tok in s.event_tokens.values())   # the Leviathan cap
            assert set(s.event_at) <= set(s.exhausted)                                    # [CS End Phase]
        if not s.cs:                                                                      # VP-44
            assert s.bank_maps == 0 and not s.exekratys
            assert all(x.maps == 0 and not x.goods and not x.tomes and not x.nobles for x in s.seats)
        else:                                                                             # Maps kept
            x = s.content["crimson_seas"]
            assert s.bank_maps >= 0 and s.bank_maps + sum(p.maps for p in s.seats) == x["maps"]["total"]
            assert min(s.exekratys.values()) >= 0
        self._common(s, event)

    def _common(self, s, event) -> None:
        """The standard invariants that do not count cards (Checker's, less its card count)."""
        assert s.exhausted_pile >= 0 and len(set(s.exhausted)) == len(s.exhausted)
        assert set(s.exhausted_cards) <= set(s.exhausted) and len(s.exhausted_cards) == 2 * len(s.seats) - s.exhausted_pile
        for x in s.seats:
            assert min(x.gold, x.strength, x.magic, x.vp, x.maps) >= 0, (event, x)
            assert set(x.flipped) <= set(x.citizens)
        if event["type"] == "TurnStarted":
            if self.turns:
                assert event["seat"] == (self.turns[-1] + 1) % len(s.seats)
            self.turns.append(event["seat"])
        assert s.actions_left >= 0


def run(game_no: int, options: dict, ruleset=R, agreement: float = 0.0):
    rng = random.Random(-game_no)
    players = NAMES[:2 + game_no % 4]
    opts = {**options, "duke_rounding": rng.choice(["per_type", "pooled"])}
    policy = schema_checker(ruleset) if agreement else duke_of_valeria
    return play(ruleset, game_no, players, opts, policy=policy, candidates=candidates if agreement else None,
                agreement=agreement, after_event=VariantChecker())


def finished(s, events) -> None:
    check_end(s)
    assert s.finished and events[-1]["type"] == "GameEnded"


@pytest.mark.parametrize("batch", range(3))
def test_mixed_citizen_games_end_with_every_card_in_one_place(batch):
    revealed = 0
    for game_no in range(batch * 12, batch * 12 + 12):
        s, events = run(game_no, MIXED_ONLY)
        finished(s, events)
        revealed += sum(1 for e in events if e["type"] == "CitizenRevealed")
        if game_no % 4 == 0:
            check_replay(R, s, events)
    assert revealed > 20          # the face-down Citizens are turned up as the stacks go


@pytest.mark.parametrize("batch", range(3))
def test_monster_events_on_the_base_game_end_with_every_card_in_one_place(batch):
    slain = 0
    for game_no in range(batch * 12, batch * 12 + 12):
        s, events = run(game_no, EVENTS_ONLY)
        finished(s, events)
        slain += sum(1 for x in s.seats for m in x.victory if s.card(m).get("event"))
        if game_no % 4 == 0:
            check_replay(R, s, events)
    assert slain > 0              # Monster Events are revealed and slain


@pytest.mark.parametrize("batch", range(2))
def test_both_variants_together_and_mixed_citizens_with_crimson_seas(batch):
    for game_no in range(batch * 8, batch * 8 + 8):
        s, events = run(game_no, BOTH)
        finished(s, events)
        s, events = run(game_no, MIXED_ONLY, ruleset=CS)
        finished(s, events)
        if game_no % 4 == 0:
            check_replay(CS, s, events)


@pytest.mark.parametrize("game_no, options, ruleset", [(910, BOTH, R), (911, MIXED_ONLY, R), (912, EVENTS_ONLY, R),
                                                       (913, MIXED_ONLY, CS)])
def test_legal_commands_agree_exactly_with_decide_in_the_variants(game_no, options, ruleset):
    s, events = run(game_no, options, ruleset=ruleset, agreement=0.1 if ruleset is R else 0.03)
    finished(s, events)
    check_replay(ruleset, s, events)
