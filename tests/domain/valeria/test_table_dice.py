"""VP-50: at a table, 'dice' goes with roll_dice alone. Any other command sent with dice is
refused, as a 'revealed' listing more than the command turned up is (a stored command must not
carry a roll that never happened), whoever sends it."""
from __future__ import annotations

import json
import random

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import Rejected
from domain.valeria import CRIMSON_SEAS as CS
from domain.valeria import RULESET as R
from tests.domain.test_table_reports_hidden import Recording, reported
from tests.playouts.harness import seed_for
from tests.playouts.test_valeria_playouts import NAMES, duke_of_valeria


@pytest.mark.parametrize("rs, options", [(R, None), (CS, None), (R, {"variant": "solo"})],
                         ids=["valeria", "crimson-seas", "solo"])
def test_dice_sent_with_a_command_that_rolls_nothing_is_refused_and_with_the_roll_accepted(rs, options):
    players = 1 if options else 3
    rng = random.Random(5)
    s = rs.initial_state()
    for e in rs.setup(NAMES[:players], options, None, ServerChance(seed_for(5), 0), None):
        s = rs.evolve(s, e)
    s = rs.load_state(json.loads(json.dumps(rs.dump_state(s))))
    s.chance_mode = "table"
    kinds: set = set()
    for step in range(400):
        if s.finished:
            break
        seat = rng.choice(rs.status(s).to_move)
        command = dict(duke_of_valeria(rng, rs.legal_commands(s, seat)))
        server = Recording(ServerChance(seed_for(5), step + 1))
        rs.decide(s, seat, command, server)
        body = reported(command, server.report)
        if command["type"] != "roll_dice":
            for chance in (TableChance("host"), TableChance("seat")):
                with pytest.raises(Rejected) as refused:
                    rs.decide(s, seat, {**body, "dice": [6, 6]}, chance)
                if "revealed" in body and chance.reporter == "seat":
                    assert refused.value.code == "TABLE_OUTCOME_FROM_HOST"   # TM-1 first
                else:
                    assert (refused.value.code, refused.value.ruling) == ("TABLE_OUTCOME_INVALID", "VP-50"), command
            kinds.add(command["type"])
        else:
            assert "dice" in body
        for e in rs.decide(s, seat, body, TableChance("host")):
            s = rs.evolve(s, e)
    assert {"announce_roll", "harvest"} <= kinds if options else {"keep_duke", "announce_roll", "harvest"} <= kinds, kinds
