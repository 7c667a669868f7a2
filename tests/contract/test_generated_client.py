"""A client generated from the served contract works (issue 17): openapi-python-client (pinned in
the test extras) generates one from GET /openapi.json without skipping anything, and a whole game
of every ruleset is played through its typed functions and models alone, over real HTTP."""
from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

import pytest
import requests
import yaml
from werkzeug.serving import make_server

from service import create_app
from tests.api.test_tesoros_over_http import SHORT, pirate
from tests.fakes.http import progressing
from tests.playouts.test_chrono_playouts import captain
from tests.playouts.test_league_playouts import sailor
from tests.playouts.test_valeria_playouts import duke_of_valeria

CONFIG = Path(__file__).with_name("openapi-python-client.yaml")
PACKAGE = "parley_client"


@pytest.fixture(scope="session")
def served():
    """The app on a free loopback port, on the in-memory store."""
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    app.extensions["parley"].close()


@dataclass
class Generated:
    contract: dict        # the served contract the client was generated from
    output: str           # what the generator printed
    root: Path            # the generated package's directory
    package: object       # the imported package


def generate(source: list[str], out: Path) -> tuple[int, str]:
    """Run the pinned generator as docs/api.md says: its exit code and all it printed."""
    run = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", *source,
                          "--output-path", str(out), "--config", str(CONFIG)],
                         capture_output=True, text=True, timeout=300)
    return run.returncode, run.stdout + run.stderr


def warnings(output: str) -> list[str]:
    """What the generator said past its "Generating ..." line: it warns there, and still exits
    0, when it leaves out an endpoint, a response or a model it cannot type."""
    return [line for line in output.splitlines() if line.strip() and not line.startswith("Generating ")]


@pytest.fixture(scope="session")
def generated(served, tmp_path_factory) -> Iterator[Generated]:
    """A client generated once per session from the running server's contract."""
    out = tmp_path_factory.mktemp("client") / "parley-client"
    url = f"{served}/openapi.json"
    code, output = generate(["--url", url], out)
    assert code == 0, f"openapi-python-client failed on the served contract:\n{output}"
    contract = requests.get(url, timeout=30).json()
    sys.path.insert(0, str(out))
    try:
        yield Generated(contract, output, out / PACKAGE, importlib.import_module(PACKAGE))
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def operations(contract: dict):
    for path, methods in contract["paths"].items():
        for method, operation in methods.items():
            if method != "parameters":
                yield path, method, operation


# -- The contract stays generator-friendly -------------------------------------------------------


def test_the_generator_reads_the_whole_contract_without_a_warning(generated):
    assert warnings(generated.output) == [], generated.output


def test_the_warning_check_would_catch_a_model_left_out(tmp_path):
    """An array without items (as the result's tie_breaks once was) costs the model using it,
    and every response that returns it; the generator still exits 0."""
    broken = {"openapi": "3.0.2", "info": {"title": "Broken", "version": "1"},
              "paths": {"/result": {"get": {"operationId": "getResult", "responses": {"200": {
                  "description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Result"}}}}}}}},
              "components": {"schemas": {"Result": {"type": "object", "properties": {"tie_breaks": {"type": "array"}}}}}}
    (tmp_path / "broken.yaml").write_text(yaml.safe_dump(broken))
    code, output = generate(["--path", str(tmp_path / "broken.yaml")], tmp_path / "out")
    assert code == 0 and any("Result" in line for line in warnings(output)), output


def test_every_operation_and_every_documented_response_is_in_the_client(generated):
    missing = []
    for path, method, operation in operations(generated.contract):
        tag, name = operation["tags"][0], snake(operation["operationId"])
        module = generated.root / "api" / tag / f"{name}.py"
        if not module.exists():
            missing.append(f"{method.upper()} {path}: no {module.relative_to(generated.root)}")
            continue
        source = module.read_text()
        missing += [f"{method.upper()} {path}: response {status} is not parsed" for status in operation["responses"]
                    if f"response.status_code == {status}" not in source]
        assert callable(importlib.import_module(f"{PACKAGE}.api.{tag}.{name}").sync_detailed)
    assert not missing, "\n".join(missing)


def test_every_schema_of_the_contract_is_a_model_of_its_own_name(generated):
    models = importlib.import_module(f"{PACKAGE}.models")
    assert [n for n in generated.contract["components"]["schemas"] if not hasattr(models, n)] == []


# -- Whole games through the generated client ----------------------------------------------------


@dataclass(frozen=True)
class Table:
    players: tuple[str, ...]
    policy: Callable[[random.Random, list[dict]], dict]   # picks one of the legal commands
    most_commands: int
    options: dict | None = None


# The policies the playouts and the API tests already use to finish games in reasonable time
# (League and Chrono random playouts rarely end; Corsairs' optional re-rolls only lengthen it).
TABLES = {
    # Each run's server seed differs: of 300 such Corsairs games played in the domain (2026-12-04),
    # the median took 257 commands, the longest 3,261 (one past 3,000, which failed a suite run).
    "corsairs-of-valeria": Table(("Kira", "David"), lambda rng, legal: rng.choice(progressing(legal)), 10000),
    "league-of-pirates": Table(("Anne", "Ben"), sailor, 6000),
    "tesoros-del-rey-pirata": Table(("Ana", "Diego", "Juan"), pirate, 3000, options=SHORT),
    "chrono-corsairs": Table(("Anne", "Ben", "Cy"), captain, 3000),
    "valeria-card-kingdoms": Table(("Anne", "Ben"), duke_of_valeria, 4000),
    "crimson-seas": Table(("Kira", "David"), duke_of_valeria, 5000),
}


def test_every_served_ruleset_is_played_here(generated):
    assert set(generated.contract["components"]["schemas"]["CreateGame"]["properties"]["ruleset"]["enum"]) == set(TABLES)


def answer(response, *expected: type):
    """The parsed body of a generated function's Response, which must be one of `expected`."""
    assert isinstance(response.parsed, expected), (response.status_code, response.content[:2000])
    return response.parsed


class Play:
    """Clients and models of the generated package, against the served app."""

    def __init__(self, pc, base: str):
        self.pc, self.base = pc, base
        self.m = importlib.import_module(f"{PACKAGE}.models")

    def anonymous(self):
        return self.pc.Client(base_url=self.base, raise_on_unexpected_status=True)

    def as_(self, token: str):
        return self.pc.AuthenticatedClient(base_url=self.base, token=token, raise_on_unexpected_status=True)

    def create(self, ruleset: str, table: Table):
        from parley_client.api.games import create_game
        body = self.m.CreateGame(ruleset=self.m.CreateGameRuleset(ruleset),
                                 players=[self.m.Player(name=name) for name in table.players],
                                 chance=self.m.CreateGameChance.SERVER)
        if table.options is not None:
            body.options = self.m.CreateGameOptionsType0.from_dict(table.options)
        with self.anonymous() as client:
            response = create_game.sync_detailed(client=client, body=body)
        assert response.status_code == HTTPStatus.CREATED and response.headers["Location"]
        return answer(response, self.m.CreatedGame)


def test_the_creation_answer_gives_a_token_for_each_seat_and_one_for_the_host(served, generated):
    from parley_client.api.games import get_game
    play = Play(generated.package, served)
    created = play.create("corsairs-of-valeria", TABLES["corsairs-of-valeria"])
    assert [(s.seat, s.name) for s in created.seats] == [(0, "Kira"), (1, "David")]
    tokens = [s.token for s in created.seats] + [created.host_token]
    assert len(set(tokens)) == 3 and all(tokens)
    assert created.chance.mode == play.m.ChanceMode.SERVER and re.fullmatch("[0-9a-f]{64}", created.chance.commitment)
    for seat in created.seats:
        with play.as_(seat.token) as client:
            assert answer(get_game.sync_detailed(created.id, client=client), play.m.GameView).you == seat.seat
    with play.as_(created.host_token) as client:
        assert answer(get_game.sync_detailed(created.id, client=client), play.m.GameView).you == play.m.GameViewYouType1.HOST


def test_a_refused_command_is_a_problem_the_client_parses(served, generated):
    from parley_client.api.commands import send_command
    from parley_client.api.games import get_game
    from parley_client.api.legal_commands import list_legal_commands
    play = Play(generated.package, served)
    created = play.create("corsairs-of-valeria", TABLES["corsairs-of-valeria"])
    with play.as_(created.host_token) as host:
        view = answer(get_game.sync_detailed(created.id, client=host), play.m.GameView)
    waiting = next(s.seat for s in created.seats if s.seat not in view.to_move)
    with play.as_(created.seats[1 - waiting].token) as mover:
        theirs = answer(list_legal_commands.sync_detailed(created.id, client=mover), play.m.LegalCommands).commands[0]
    with play.as_(created.seats[waiting].token) as client:
        response = send_command.sync_detailed(created.id, client=client, body=play.m.Command.from_dict(theirs.to_dict()))
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert response.headers["Content-Type"].startswith("application/problem+json")
    problem = answer(response, play.m.Problem)
    assert problem.status == 422 and problem.code and problem.detail and isinstance(problem.section, str)
    with play.as_("not-a-token") as stranger:
        refused = get_game.sync_detailed(created.id, client=stranger)
    assert refused.status_code == HTTPStatus.UNAUTHORIZED and answer(refused, play.m.Problem).status == 401
    with play.as_(created.host_token) as host:
        assert answer(get_game.sync_detailed(created.id, client=host), play.m.GameView).version == created.version


@pytest.mark.parametrize("ruleset", list(TABLES))
def test_a_whole_game_is_played_through_the_generated_client(served, generated, ruleset):
    from parley_client.api.commands import send_command
    from parley_client.api.events import list_events, stream_events
    from parley_client.api.exports import export_game
    from parley_client.api.games import get_game
    from parley_client.api.legal_commands import list_legal_commands
    from parley_client.api.verifications import verify_export
    play, table, rng = Play(generated.package, served), TABLES[ruleset], random.Random(17)
    m = play.m
    created = play.create(ruleset, table)
    version, sent = created.version, 0
    with play.as_(created.host_token) as host:
        while True:
            legal = answer(list_legal_commands.sync_detailed(created.id, client=host), m.LegalCommands).commands
            if not legal:
                break
            if sent == table.most_commands:
                pytest.fail(f"{ruleset}: no end after {sent} commands through the generated client (version {version})")
            chosen = table.policy(rng, [c.to_dict() for c in legal])
            response = send_command.sync_detailed(created.id, client=host, body=m.Command.from_dict(chosen),
                                                  if_match=f'"{version}"')
            if not isinstance(response.parsed, m.CommandResult):
                pytest.fail(f"{ruleset}: {chosen} was refused: {response.status_code} {response.content[:2000]!r}")
            assert response.parsed.version > version and response.parsed.events
            version, sent = response.parsed.version, sent + 1

        events, after = [], 0
        while after is not None:
            page = answer(list_events.sync_detailed(created.id, client=host, after=after, limit=50), m.EventPage)
            events += page.events
            after = page.next_
        exported = answer(export_game.sync_detailed(created.id, client=host), m.Export)
        # The finished game's stream: every event once, then its end (the body, read whole, as text).
        streamed = stream_events.sync_detailed(created.id, client=host, after=0)
        assert streamed.status_code == HTTPStatus.OK and isinstance(streamed.parsed, str), streamed
        ids = [int(line[4:]) for line in streamed.parsed.splitlines() if line.startswith("id: ")]

    with play.as_(created.seats[1].token) as seat:
        final = answer(get_game.sync_detailed(created.id, client=seat), m.GameView)
    assert final.status == m.GameViewStatus.FINISHED and final.version == version
    result = final.result
    assert isinstance(result, m.GameViewResultType0) and result.winners and result.reason
    assert sorted(r.seat for r in result.ranking) == list(range(len(table.players)))
    assert [r.seat for r in result.ranking if r.rank == 1] == result.winners
    assert {r.name for r in result.ranking} == set(table.players)
    assert isinstance(final.chance.seed, str)  # revealed at the end

    assert [e.version for e in events] == list(range(1, version + 1)) == ids
    assert events[0].event.to_dict()["type"] and len({e.hash_ for e in events}) == version

    assert exported.status == m.ExportStatus.FINISHED and exported.version == version and exported.seed
    assert len(exported.commands) == sent and exported.head_hash == events[-1].hash_
    # The export goes back through the client's own model of an export document, and the
    # server re-adjudicates it: nothing was lost on the way through the generated models.
    document = m.ExportDocument.from_dict(exported.to_dict())
    with play.anonymous() as client:
        verification = answer(verify_export.sync_detailed(client=client, body=document), m.Verification)
    assert verification.valid and verification.version == version, verification.to_dict()
    assert verification.divergence is None
    # A tampered export: the divergence reaches the app as the contract's Divergence, typed.
    tampered = exported.to_dict()
    tampered["commands"][0]["events"][0]["salt"] = "0" * 32  # the event no longer hashes as chained
    with play.anonymous() as client:
        verification = answer(verify_export.sync_detailed(client=client, body=m.ExportDocument.from_dict(tampered)),
                              m.Verification)
    assert not verification.valid and isinstance(verification.divergence, m.Divergence), verification.to_dict()
    assert verification.divergence.check and verification.divergence.version >= 1
