"""Every API test, with games stored in PostgreSQL (fixtures in this folder's conftest)."""
from tests.api.test_commands import *  # noqa: F401,F403
from tests.api.test_corsairs_over_http import *  # noqa: F401,F403
from tests.api.test_disputes_over_http import *  # noqa: F401,F403
from tests.api.test_event_log import *  # noqa: F401,F403
from tests.api.test_listing_games import *  # noqa: F401,F403
from tests.api.test_listing_store import *  # noqa: F401,F403
from tests.api.test_reading_games import *  # noqa: F401,F403
from tests.api.test_rulesets_and_creation import *  # noqa: F401,F403
from tests.api.test_storage import *  # noqa: F401,F403


def test_games_are_stored_in_the_pinned_parley_tables(app, client, postgres_schema):
    import psycopg

    from tests.fakes.http import create
    from tests.postgres.conftest import CONNINFO

    create(client)
    with psycopg.connect(**CONNINFO) as connection:
        tables = {row[0] for row in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (postgres_schema,))}
        assert {"parley_events", "parley_snapshots"} <= tables
        count = connection.execute(f'SELECT count(*) FROM "{postgres_schema}".parley_events').fetchone()[0]
        assert count == 5


def test_a_running_games_seed_is_in_no_row(app, client, postgres_schema):
    """The server seed is stored sealed (service/seeds.py): no event or snapshot row holds it."""
    from uuid import UUID

    import psycopg

    from tests.fakes.http import create
    from tests.postgres.conftest import CONNINFO

    game = create(client)
    for seat in (0, 1, 0, 1):  # snapshots too (every 4 events here)
        game.send({"type": "draw"}, game.seat(seat))
    assert game.view()["status"] == "active"
    seed = app.extensions["parley"].get_game(UUID(game.id)).server_seed()
    with psycopg.connect(**CONNINFO) as connection:
        rows = [bytes(state) for table in ("parley_events", "parley_snapshots") for (state,) in connection.execute(
            f'SELECT state FROM "{postgres_schema}".{table}').fetchall()]
    assert len(rows) > 5 and not any(seed.encode() in row for row in rows)
    assert any(b"sealed:1:" in row for row in rows)
