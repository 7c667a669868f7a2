"""League of Pirates hides the league chosen until both have chosen, and which coins a blind
draw produced (the drawer's alone). Re-dealing those hidden parts must leave everything the
other seat is shown byte-identical: its view, the events and commands as redacted for it,
its legal commands, and the words of every rejection it can provoke."""
import json

from domain.chance import TableChance
from domain.league import RULESET as R
from domain.ruleset import ARBITER, Rejected
from tests.domain.league.table import Table


def probes(state):
    """Every kind of command, with every coin id the game knows."""
    out = [{"type": t} for t in R.command_schemas]
    for coin in state.coins:
        out += [{"type": "place_coin", "coin": coin, "slot": "mate1"}, {"type": "turn_coin", "coin": coin},
                {"type": "raid", "target": coin, "raider": coin}, {"type": "enlist", "coin": coin, "slot": "mate1"},
                {"type": "choose_rescue_defender", "coin": coin}, {"type": "defend_raid", "with": coin}]
    out += [{"type": "choose_league", "league": c} for c in ("blue", "red", "yellow")]
    return out


def seen_by(table, seat):
    errors = []
    for cmd in probes(table.state):
        try:
            R.decide(table.state, seat, cmd, TableChance())
            errors.append("accepted")
        except Rejected as r:
            errors.append([r.code, r.rule, r.detail, r.ruling])
    commands = [R.redact_command(e["command"], e["actor"], seat) for e in table.commands]
    return json.dumps({"view": R.view(table.state, seat),
                       "events": [R.redact(e, seat) for e in table.events],
                       "commands": commands,
                       "legal": R.legal_commands(table.state, seat),
                       "table_inputs": R.table_inputs(table.state, seat),
                       "errors": errors}, sort_keys=True)


class Logged(Table):
    def __init__(self, *a, **k):
        self.commands = []
        super().__init__(*a, **k)

    def do(self, seat, command):
        self.commands.append({"actor": seat, "command": command})
        return super().do(seat, command)


def test_a_sealed_league_is_invisible_to_the_other_seat_until_both_have_chosen():
    a, b = Logged(leagues=None), Logged(leagues=None)
    a.do(0, {"type": "choose_league", "league": "blue"})
    b.do(0, {"type": "choose_league", "league": "yellow"})
    assert seen_by(a, 1) == seen_by(b, 1)
    assert seen_by(a, None) == seen_by(b, None)
    assert seen_by(a, 0) != seen_by(b, 0)  # the chooser does see their own choice
    a.do(1, {"type": "choose_league", "league": "red"})
    b.do(1, {"type": "choose_league", "league": "red"})
    assert R.view(a.state, 1)["seats"][0]["league"] == "blue"  # revealed together


def test_coins_drawn_and_returned_are_the_drawers_secret():
    a, b = Logged(), Logged()
    for t in (a, b):
        t.win_challenge(0)
    bag = a.state.seats[0].bag
    a.do(0, {"type": "recruit", "coins": bag[:3]})
    b.do(0, {"type": "recruit", "coins": bag[3:6]})
    assert seen_by(a, 1) == seen_by(b, 1)
    assert seen_by(a, None) == seen_by(b, None)
    assert seen_by(a, 0) != seen_by(b, 0)
    assert R.view(a.state, ARBITER) != R.view(b.state, ARBITER)
    a.do(0, {"type": "return_coins"})
    b.do(0, {"type": "return_coins"})
    assert seen_by(a, 1) == seen_by(b, 1)


def test_a_placed_coin_becomes_public_and_the_others_drawn_stay_secret():
    a, b = Logged(), Logged()
    for t in (a, b):
        t.win_challenge(0)
    bag = a.state.seats[0].bag
    mate = next(c for c in bag if a.state.coins[c]["role"] == "mate")
    others = [c for c in bag if c != mate]
    a.do(0, {"type": "recruit", "coins": [mate, others[0], others[1]]})
    b.do(0, {"type": "recruit", "coins": [others[5], mate, others[7]]})
    a.do(0, {"type": "place_coin", "coin": mate, "slot": "mate2"})
    b.do(0, {"type": "place_coin", "coin": mate, "slot": "mate2"})
    assert seen_by(a, 1) == seen_by(b, 1)
    assert R.view(a.state, 1)["seats"][0]["crew"]["mate2"]["id"] == mate
    assert "bag" not in R.view(a.state, 1)["seats"][0] and "bag" in R.view(a.state, 0)["seats"][0]
