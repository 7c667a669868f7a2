"""The viewer's own state, from an outside review: an answer asked for one reader and arriving
after "seen by" changed is never shown as another's; a load that fails leaves no earlier game on
screen; five Chrono flags fit the picture; Valeria's two Exhausted numbers are told apart."""
from __future__ import annotations

import json
import random

from tests.fakes.http import create, progressing

# Answers to the arbiter's replays (no seat) come 0.8 s late; a seat's at once.
SLOW_ARBITER = """(() => { const real = window.fetch;
  window.fetch = (url, options) => String(url).startsWith("/replays") && !String(url).includes("seat=")
    ? new Promise((done) => setTimeout(done, 800)).then(() => real(url, options)) : real(url, options);
  return true; })()"""


def _played(served, ruleset: str, seed: int, commands: int):
    """A two-seat game played `commands` random commands in, and the host's export of it."""
    client = served.app.test_client()
    game = create(client, ruleset, players=("Anne", "Ben"))
    rng = random.Random(seed)
    for _ in range(commands):
        assert game.send(rng.choice(progressing(game.legal()))).status_code == 200
    return client, game, client.get(f"/games/{game.id}/export", headers=game.host).get_json()


def _show(page, version: int) -> None:
    page.evaluate(f"""(() => {{ const s = document.getElementById("slider"); s.value = {version};
                       s.dispatchEvent(new Event("input")); }})()""")


def test_an_answer_asked_for_the_arbiter_and_arriving_after_seen_by_changed_is_never_shown_as_the_seats(served,
                                                                                                       browser):
    client, game, export = _played(served, "tesoros-del-rey-pirata", 4, 30)
    path = served.tmp / "export.json"
    path.write_text(json.dumps(export))
    page = browser.open(f"{served.base}/viewer", console=True)
    page.choose_file("#file", path)
    last = export["version"]
    page.wait_until(f'document.body.dataset.shown === "{last}" && !!document.querySelector("svg.board")')
    assert page.evaluate(SLOW_ARBITER)
    _show(page, last - 2)   # the arbiter's answers for last - 2 and last - 3 are on their way...
    page.evaluate("""(() => { const s = document.getElementById("seat"); s.value = "1";
                     s.dispatchEvent(new Event("change")); })()""")   # ...when seat 1 is chosen
    page.wait_until(f'document.body.dataset.shown === "{last - 2}" && '
                    'document.getElementById("perspective").textContent.includes("seat 1")')
    page.wait_until("new Promise((done) => setTimeout(() => done(true), 1500))")   # the late answers land
    _show(page, last - 1)
    page.wait_until(f'document.body.dataset.shown === "{last - 1}"')
    _show(page, last - 2)
    page.wait_until(f'document.body.dataset.shown === "{last - 2}"')
    assert "seat 1" in page.evaluate('document.getElementById("perspective").textContent')
    hands = [s["hand_count"] for s in client.post(f"/replays?at={last - 2}", json=export).get_json()["state"]["seats"]]
    assert page.evaluate('document.querySelectorAll("svg.board .card.face-up").length') == hands[1]
    assert page.console_errors() == []


def test_a_load_that_fails_leaves_no_earlier_game_on_screen(served, browser):
    client = served.app.test_client()
    game = create(client, "corsairs-of-valeria", players=("Anne", "Ben"))
    token = game.created["seats"][0]["token"]
    page = browser.open(f"{served.base}/viewer?game={game.id}&token={token}", console=True)
    page.wait_until('!!document.querySelector("svg.board") && !document.getElementById("viewer").hidden')
    page.evaluate("""(() => { document.getElementById("token").value = "not-a-token";
                     document.getElementById("load").click(); })()""")
    page.wait_until('document.getElementById("error").textContent !== ""')
    assert page.evaluate('document.getElementById("viewer").hidden')
    # The same when the request itself fails (the network, an answer that is not JSON).
    page = browser.open(f"{served.base}/viewer?game={game.id}&token={token}", console=True)
    page.wait_until('!!document.querySelector("svg.board") && !document.getElementById("viewer").hidden')
    page.evaluate("""(() => { window.fetch = () => Promise.reject(new Error("offline"));
                     document.getElementById("load").click(); })()""")
    page.wait_until('document.getElementById("error").textContent.includes("offline")')
    assert page.evaluate('document.getElementById("viewer").hidden')


def test_five_chrono_flags_fit_the_picture_and_valerias_exhausted_numbers_are_apart(served, wide):
    client = served.app.test_client()
    chrono = create(client, "chrono-corsairs", players=("Anne", "Ben", "Cleo", "Dan", "Eve"))
    token = chrono.created["seats"][0]["token"]
    page = wide.open(f"{served.base}/viewer?game={chrono.id}&token={token}", console=True)
    page.wait_until('!!document.querySelector("svg.board")')
    edges = page.evaluate("""(() => { const svg = document.querySelector("svg.board");
      const width = svg.viewBox.baseVal.width;
      return [width, ...[...svg.querySelectorAll(".piece.flag")].map((f) => { const b = f.getBBox(); return b.x + b.width; })]; })()""")
    width, flags = edges[0], edges[1:]
    assert len(flags) == 5 and max(flags) <= width, edges

    valeria = create(client, "valeria-card-kingdoms", players=("Anne", "Ben"))
    token = valeria.created["seats"][0]["token"]
    page = wide.open(f"{served.base}/viewer?game={valeria.id}&token={token}", console=True)
    page.wait_until('!!document.querySelector("svg.board")')
    state = valeria.get("", valeria.seat(0)).get_json()["state"]
    labels = page.evaluate("""[...document.querySelectorAll('svg.board .piece[data-key^="exhausted"]')]
      .map((p) => p.getAttribute("aria-label"))""")
    assert sorted(labels) == sorted([f"Exhausted cards left: {state['exhausted_stack']}",
                                     f"exhausted stacks: {len(state['exhausted_positions'])}"]), labels
    assert state["exhausted_stack"] != len(state["exhausted_positions"])   # the two numbers differ here


def test_a_card_leaving_a_hand_outlines_none_of_the_backs_that_stay(served, browser):
    """Backs were labelled 'card k of N': one card played changed N, so every back left in the
    hand was outlined as changed (found by the viewer review)."""
    _, game, _ = _played(served, "tesoros-del-rey-pirata", 8, 40)
    spectator = {"Authorization": f"Bearer {game.created['spectator_token']}"}

    def hands(version: int) -> list:
        return [s["hand_count"] for s in game.get(f"?version={version}", spectator).get_json()["state"]["seats"]]

    last = game.view()["version"]
    found = None
    for version in range(last, 3, -1):   # the latest version where one card left a hand of two or more
        now, before = hands(version), hands(version - 1)
        seat = next((i for i in (0, 1) if now[i] == before[i] - 1 and now[i] >= 1), None)
        if seat is not None:
            found = (version, seat)
            break
    assert found is not None, "no card left a hand in 40 commands"
    version, seat = found
    page = browser.open(f"{served.base}/viewer?game={game.id}&token={game.created['spectator_token']}", console=True)
    page.wait_until('!!document.querySelector("svg.board")')
    _show(page, version)   # "what changed" compares it with the version before
    page.wait_until(f'document.body.dataset.shown === "{version}"')
    backs = page.evaluate(f'document.querySelectorAll(\'svg.board [data-key^="hand-{seat}-"]\').length')
    changed = page.evaluate('[...document.querySelectorAll("svg.board .piece.changed")].map((p) => p.dataset.key)')
    assert backs >= 1 and not [k for k in changed if k.startswith(f"hand-{seat}-")], (backs, changed)
    assert page.console_errors() == []


def test_who_acted_is_the_command_by_token_as_by_export_file(served, browser):
    """By token the page named the event at the version as if it were the command ('Gained
    (version 14)'); by export file, the replay's command ('announce_roll (version 11)')."""
    client, game, export = _played(served, "valeria-card-kingdoms", 2, 12)
    last = export["version"]
    acted = client.post(f"/replays?at={last}", json=export).get_json()["last_command"]
    names = ("Anne", "Ben")
    expected = f"{names[acted['seat']]}: {acted['body']['type']} (version {acted['version']})"
    assert acted["version"] < last or len(export["commands"][-1]["events"]) == 1
    page = browser.open(f"{served.base}/viewer?game={game.id}&token={game.created['host_token']}", console=True)
    page.wait_until(f'document.body.dataset.shown === "{last}"')
    assert page.evaluate('document.getElementById("acted").textContent') == expected
    assert page.console_errors() == []
