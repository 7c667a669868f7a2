"""Los Tesoros del Rey Pirata hides each hand from the other Pirates, the order of the Play
Deck from everybody, a card drawn from the deck, the cards stolen by Fire Cannons, and the
hand a Mutiny shows and the card it takes (the two Pirates concerned alone).

Re-dealing those hidden cards must leave everything another seat is shown byte-identical:
its view, the events and commands as redacted for it, its legal commands, its table inputs
and the words of every rejection it can provoke."""
import json

from domain.chance import TableChance
from domain.ruleset import Rejected
from domain.tesoros import RULESET as R
from tests.domain.tesoros.table import CARDS, Table

A = ["MUT-4", "SAB-5", "MS-2", "CP-3", "LS-2"]
B = ["WTP-1a", "SAB-1", "CS-2", "MS-3", "CP-2"]
C_ONE = ["MUT-2a", "WTP-5", "CS-4", "LS-4", "MS-4"]
C_OTHER = ["SAB-2", "WTP-2a", "CS-5", "LS-5", "MS-5"]


def probes(state):
    """Every kind of command, with every card, map and seat the game knows."""
    out = [{"type": t} for t in R.command_schemas]
    for card in CARDS + ["deck", "free5"]:
        out += [{"type": "defend", "die": card}, {"type": "take_card", "card": card},
                {"type": "discard_card", "card": card}, {"type": "equip", "card": card},
                {"type": "keep_cards", "cards": [card, "MUT-3"]}, {"type": "walk_the_plank", "card": card},
                {"type": "assign_move_die", "die": card}, {"type": "claim_treasure", "map": "MAP-tortuga", "card": card}]
        out += [{"type": t, "target": target, "die": card} for t in ("fire_cannons", "challenge_duel") for target in (0, 2)]
        out += [{"type": "play_treason", "card": card, "target": 2}, {"type": "play_treason", "card": "SAB-1",
                                                                     "target": 0, "replace": card}]
    out += [{"type": "take_treasure", "map": m} for m in state.maps]
    out += [{"type": "move_ship", "to": to} for to in ("6,5", "tortuga", "0,0")]
    return out


def seen_by(table, seat, redact=R.redact, view=R.view):
    errors = []
    for cmd in probes(table.state):
        try:
            R.decide(table.state, seat, cmd, TableChance())
            errors.append("accepted")
        except Rejected as r:
            errors.append([r.code, r.rule, r.detail, r.ruling])
    return json.dumps({"view": view(table.state, seat),
                       "events": [redact(e, seat) for e in table.events],
                       "commands": [R.redact_command(c["command"], c["actor"], seat) for c in table.commands],
                       "legal": R.legal_commands(table.state, seat),
                       "table_inputs": R.table_inputs(table.state, seat),
                       "errors": errors}, sort_keys=True)


def play_both(checkpoint):
    """The same game twice, C's hand and the deck re-dealt; A's hidden draws differ too."""
    one = Table(names=("A", "B", "C"), hands=[A, B, C_ONE])
    other = Table(names=("A", "B", "C"), hands=[A, B, C_OTHER])
    both = (one, other)
    checkpoint(one, other)

    def step(seat, command, **hidden):
        for t, i in zip(both, (0, 1), strict=False):
            t.do(seat, {**command, **{k: v[i] for k, v in hidden.items()}})
        checkpoint(one, other)

    step("A", {"type": "draw_card"}, drawn=(["SAB-2"], ["MUT-2a"]))                # a card drawn unseen
    step("A", {"type": "fire_cannons", "target": 2, "die": "SAB-5"})
    step("C", {"type": "defend", "die": "deck", "drawn": ["SIREN-a"]},              # the die is shown: public
         stolen=(["CS-4", "WTP-5"], ["CS-5", "WTP-2a"]))                            # the steal is not
    step("A", {"type": "assign_move_die", "die": "MS-2"})
    step("A", {"type": "move_ship", "to": "6,4"})
    step("A", {"type": "play_treason", "card": "MUT-4", "target": 2})
    step("C", {"type": "accept_treason"})                                           # C's hand shown to A alone
    step("A", {"type": "take_card"}, card=("LS-4", "LS-5"))
    step("B", {"type": "draw_card", "drawn": ["FAVOR-a"]})
    return one, other


def test_another_seat_and_a_spectator_see_the_same_whatever_the_hidden_cards():
    def same_for_b_and_spectator(one, other):
        assert seen_by(one, 1) == seen_by(other, 1)
        assert seen_by(one, None) == seen_by(other, None)

    one, other = play_both(same_for_b_and_spectator)
    assert seen_by(one, 2) != seen_by(other, 2)  # C knows its own hand
    assert seen_by(one, 0) != seen_by(other, 0)  # A saw what it drew, stole and took


def test_the_mutiny_attacker_sees_the_targets_hand_while_choosing_and_nobody_else_does():
    seen = {}

    def at_mutiny(one, other):
        if one.state.pending and one.state.pending["kind"] == "take_card":
            seen["a"] = R.view(one.state, 0)["pending"]["hand"]
            seen["b"] = R.view(one.state, 1)["pending"]
            seen["legal"] = R.legal_commands(one.state, 0)

    play_both(at_mutiny)
    assert seen["a"] == sorted(["MUT-2a", "LS-4", "MS-4"]) and "hand" not in seen["b"]
    assert [c["card"] for c in seen["legal"]] == seen["a"]


def test_without_redaction_the_re_deal_shows():
    """The test above has teeth: leave the events or the view unredacted and the seats differ."""
    def leaky_events(one, other):
        if len(one.events) > len(Table(names=("A", "B", "C")).events):
            assert seen_by(one, 1, redact=lambda e, v: e) != seen_by(other, 1, redact=lambda e, v: e)

    def leaky_view(one, other):
        assert seen_by(one, 1, view=lambda s, v: R.view(s, 2)) != seen_by(other, 1, view=lambda s, v: R.view(s, 2))

    play_both(leaky_events)
    play_both(leaky_view)


def _pact(events, **options):
    return Table(names=("A", "B", "C"), hands=[A, B, C_ONE], options={"pact_of_the_waves": 3, **options},
                 events=events)


def test_with_the_pact_of_the_waves_which_events_are_in_play_is_nobodys():
    """TP-17: the pact leaves some Event cards out, face down; which ones are in play is seen by
    no seat and no spectator (only how many), under the Anchor or, with Chaos, in the Play Deck.
    The arbiter (the table's device) sees them."""
    for options in ({}, {"chaos_on_the_high_seas": True}):
        one = _pact(["damned_lighthouse", "scurvy", "storm"], **options)
        other = _pact(["outrage", "rumors", "storm"], **options)
        for t in (one, other):
            t.do("A", {"type": "draw_card", "drawn": ["SAB-2"]})
        for seat in (0, 1, 2, None):
            assert seen_by(one, seat) == seen_by(other, seat), (options, seat)
        assert R.view(one.state, "arbiter") != R.view(other.state, "arbiter")
        assert R.view(one.state, 0)["events_out_of_game_count"] == 2
        assert R.view(one.state, "arbiter")["events_out_of_game"] == ["outrage", "rumors"]
        # the teeth: unredacted, the setup's events tell the two games apart
        assert seen_by(one, 1, redact=lambda e, v: e) != seen_by(other, 1, redact=lambda e, v: e)


def test_with_every_event_in_play_the_list_under_the_anchor_stays_public():
    t = Table(names=("A", "B", "C"), hands=[A, B, C_ONE])
    (placed,) = [R.redact(e, 1) for e in t.events if e["type"] == "EventsPlacedUnderAnchor"]
    assert placed["events"] == sorted(e["id"] for e in R.default_content["events"]) and placed["out_of_game"] == []
