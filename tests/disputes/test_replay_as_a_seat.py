"""A replay "as seat S" (POST /replays?seat=S, `parley replay --seat S`) shows the latest command
as S read it in /events and in its own export: what the table reported drawing face down stays
the host's (TM-3), a sealed choice its maker's."""
from __future__ import annotations

from disputes.replay import replay
from tests.disputes.conftest import KINDS
from tests.disputes.games import LEAGUE, export


def test_the_last_command_is_shown_as_the_seat_itself_reads_it(running_games):
    hidden = {}
    for kind in KINDS:
        game = running_games[kind]
        hosts = export(game, game.host)
        assert hosts["complete"]
        hidden[kind] = 0
        for seat in range(len(hosts["creation"]["seats"])):
            own = export(game, game.seat(seat))
            for command in own["commands"][::3] + own["commands"][-1:]:
                at = command["events"][0]["version"]
                shown = replay(hosts, at=at, seat=seat)["last_command"]
                assert shown == {"version": at, "seat": command["seat"], "body": command["body"]}, (kind, seat, at)
                hidden[kind] += bool(command.get("redacted"))
    # Some of those bodies were hidden from the seat (a table's draw, a sealed League): the
    # comparisons checked redaction, not only plain copies.
    assert hidden[(LEAGUE, "table")] > 0, hidden
    assert sum(n for k, n in hidden.items() if k[1] == "table") >= 3, hidden
