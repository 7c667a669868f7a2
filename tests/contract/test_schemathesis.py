"""Schemathesis drives the API from its own OpenAPI document: every check, stateless and stateful."""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, Phase, settings

from domain.registry import all_rulesets
from service import create_app
from service.application import Parley
from tests.fakes import hoard

RULESETS = {**all_rulesets(), hoard.RULESET.id: hoard.RULESET}
POPO = {"PERSISTENCE_MODULE": "eventsourcing.popo"}

app = create_app({"RULESETS": RULESETS, "PERSISTENCE": POPO})
schema = schemathesis.openapi.from_wsgi("/openapi.json", app)

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
                database=None)


@schema.parametrize()
@settings(max_examples=40, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],
          **SETTINGS)
def test_every_operation_answers_as_its_contract_says(case):
    case.call_and_validate()


class GameScenarios(schema.as_state_machine()):
    def setup(self):
        # Each scenario starts from an empty event store, so scenarios stay independent.
        app.extensions["parley"] = Parley(RULESETS, env=POPO)
        self.issued: set[str] = set()

    def before_call(self, case):
        super().before_call(case)
        # A token a link carried from POST /games is a real credential, not one schemathesis made
        # up: marked as given, ignored_auth then checks that the same request without it, and
        # with a wrong one, is refused (it took a link's token for a generated one, and failed
        # whenever a random command happened to be legal). scripts/schemathesis_hooks.py does
        # the same for the command line, where no scenario sees the tokens issued.
        if (case.headers or {}).get("Authorization", "").removeprefix("Bearer ") in self.issued:
            case._has_explicit_auth = True

    def after_call(self, response, case):
        super().after_call(response, case)
        if case.operation.label == "POST /games" and response.status_code == 201:
            body = response.json()
            self.issued |= {body["host_token"], body["spectator_token"], *(s["token"] for s in body["seats"])}


TestGameScenarios = GameScenarios.TestCase
TestGameScenarios.settings = settings(max_examples=100, stateful_step_count=10, **SETTINGS)
