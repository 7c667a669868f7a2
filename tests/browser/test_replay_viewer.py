"""The replay viewer, in a real headless Chromium on a phone-sized screen."""
from __future__ import annotations

import copy
import json
import random
import subprocess

from tests.browser.conftest import CHROMIUM, FLAGS, png_pixels
from tests.disputes.games import TABLE_SETUP
from tests.fakes.http import create, progressing


def chromium(*args: str, tmp) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, *FLAGS, "--virtual-time-budget=15000",
                           f"--user-data-dir={tmp / 'profile'}", *args],
                          capture_output=True, text=True, timeout=120)


def test_a_finished_game_replays_in_the_viewer_on_a_phone_screen(served):
    app, base, tmp = served.app, served.base, served.tmp
    game = create(app.test_client(), "corsairs-of-valeria", players=("Kira", "David"))
    game.play_to_the_end(random.Random(4), prefer=progressing)
    url = f"{base}/viewer?game={game.id}&token={game.created['host_token']}"

    dom = chromium("--dump-dom", url, tmp=tmp).stdout
    assert '<section id="viewer">' in dom, dom[-2000:]     # loaded: no longer hidden
    assert "Kira, David" in dom and "winners:" in dom
    assert dom.count("<li ") > 20 and 'class="current"' in dom   # the timeline, the last version marked
    assert '"players"' in dom                                    # the state at that version

    shot = tmp / "viewer.png"
    chromium(f"--screenshot={shot}", url, tmp=tmp)
    width, height, rows = png_pixels(shot)
    assert (width, height) == (390, 844)
    assert len(rows) > 100  # text, dice and the state on the page, not a blank screen


def test_an_uploaded_export_is_replayed_by_the_server_at_any_version(served):
    app = served.app
    client = app.test_client()
    game = create(client, "corsairs-of-valeria", players=("Anne", "Ben", "Cat"))
    game.play_to_the_end(random.Random(2), prefer=progressing)
    export = client.get(f"/games/{game.id}/export", headers=game.host).get_json()
    response = client.post("/replays?at=2", json=export)
    assert response.status_code == 200, response.get_json()
    first = response.get_json()
    assert first["version"] == 2 and first["status"] == "active"
    last = client.post("/replays", json=export).get_json()
    assert last["status"] == "finished" and last["result"]["winners"]
    seat_view = client.post("/replays?at=5&seat=1", json=export).get_json()
    assert seat_view["viewer"] == 1
    assert client.post("/replays?at=999999", json=export).status_code == 422


# A crafted export cannot run script in the viewer (issue 13) ------------------------------

def markup(point: str) -> str:
    """HTML that, were the page ever to parse it, makes an image (a request for /pwned/<point>)
    whose error handler, were script allowed to run, records <point> in window.pwned. Short
    enough to pass the export format's own limits (a seat's name is at most 64 characters),
    so the viewer gets the export to show rather than a 400 MALFORMED_EXPORT."""
    return f"<img src=/pwned/{point} onerror=\"(window.pwned??=[]).push('{point}')\">"


POINTS = {"name", "body", "die", "event", "ruleset", "error"}


def crafted_exports(client) -> dict[str, tuple[dict, dict[str, str]]]:
    """Exports with markup wherever the viewer shows data from them, each with the text the
    page must then show: {element id: markup it contains as text}."""
    game = create(client, "corsairs-of-valeria", players=("Kira", "David"))
    export = client.get(f"/games/{game.id}/export", headers=game.host).get_json()
    replayable = copy.deepcopy(export)
    replayable["creation"]["seats"][0]["name"] = markup("name")
    after = export["version"]
    replayable["commands"].append({"seat": 0, "body": {"type": markup("body")}, "events": [
        {"version": after + 1, "event": {"type": "DiceRolled", "seat": 0, "dice": [markup("die"), "MAP"]}},
        {"version": after + 2, "event": {"type": markup("event")}}]})  # evolve ignores unknown types
    unknown_ruleset = copy.deepcopy(export)
    unknown_ruleset["creation"]["ruleset"] = markup("ruleset")     # shown, and quoted in the 422
    other_version = copy.deepcopy(export)
    other_version["creation"]["ruleset_version"] = markup("error")  # quoted in the 422 only
    # A refusal quotes a long value cut short (disputes/export.py): its opening tag, shown as
    # text, is enough to tell that it was not parsed.
    return {
        "replayable": (replayable, {"title": markup("name"), "timeline": markup("event"),
                                    "acted": markup("body"), "dice": markup("die")}),
        "unknown ruleset": (unknown_ruleset, {"title": markup("ruleset"), "error": markup("ruleset")[:30]}),
        "other ruleset version": (other_version, {"error": markup("error")[:30]}),
    }


# Run in every document before the page's own script: what the page's policy refused.
WATCH_VIOLATIONS = """window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.effectiveDirective));"""
# A viewer broken on purpose: every text it writes is parsed as HTML instead.
WRITE_HTML = """void Object.defineProperty(Node.prototype, "textContent", {configurable: true,
  get: Object.getOwnPropertyDescriptor(Node.prototype, "textContent").get,
  set(value) { this.innerHTML = value; }})"""
DONE = 'document.getElementById("error").textContent || document.getElementById("state").textContent'
# Every image loaded or failed (so any error handler has had its turn), then one more moment.
SETTLE = """Promise.all([...document.images].map((image) => image.complete ? null :
  new Promise((done) => { image.addEventListener("load", done); image.addEventListener("error", done); })))
  .then(() => new Promise((done) => setTimeout(done, 200)))"""
SHOWN = """Object.fromEntries(["title", "timeline", "acted", "dice", "error", "partial"]
  .map((id) => [id, document.getElementById(id).textContent]))"""


def replay_in_the_viewer(served, browser, export: dict, *, bypass_csp=False, write_html=False) -> dict:
    """Choose the export as a file in /viewer, as a user would, and tell what happened."""
    path = served.tmp / "export.json"
    path.write_text(json.dumps(export))
    served.hits.clear()
    page = browser.open(f"{served.base}/viewer", bypass_csp=bypass_csp, before_scripts=WATCH_VIOLATIONS)
    if write_html:
        page.evaluate(WRITE_HTML)
    page.choose_file("#file", path)
    page.wait_until(DONE)
    page.evaluate(SETTLE)
    return {"ran": page.evaluate("window.pwned || []"),
            "images": page.evaluate("document.images.length"),
            "requested": sum(n for p, n in served.hits.items() if p.startswith("/pwned/")),
            "violations": page.evaluate("window.violations"),
            "shown": page.evaluate(SHOWN)}


def test_an_export_that_hides_its_setup_is_explained_not_drawn(served, browser):
    """A seat's export of a running Tesoros table game hides the hands the table dealt, in its
    creation record: nothing replays, so the page says what to open instead rather than drawing
    an empty table."""
    client = served.app.test_client()
    game = create(client, "tesoros-del-rey-pirata", players=("Anne", "Ben"), chance="table",
                  setup=TABLE_SETUP["tesoros-del-rey-pirata"])
    mine = client.get(f"/games/{game.id}/export", headers=game.seat(0)).get_json()
    assert mine["creation"]["redacted"]
    seen = replay_in_the_viewer(served, browser, mine)
    assert "hides records from seat 0 (the game was still running), so it cannot be replayed" in \
        seen["shown"]["error"], seen

def test_a_crafted_export_shows_its_markup_as_text_and_runs_no_script(served, browser):
    for name, (export, shown) in crafted_exports(served.app.test_client()).items():
        seen = replay_in_the_viewer(served, browser, export)
        assert seen["ran"] == [], (name, seen)
        assert seen["images"] == 0 and seen["requested"] == 0, (name, seen)  # no element from data
        for element, text in shown.items():
            assert text in seen["shown"][element], (name, element, seen["shown"])
        # The viewer itself needs nothing its Content-Security-Policy forbids.
        assert seen["violations"] == [], (name, seen["violations"])


def test_the_check_would_catch_a_viewer_that_writes_markup_without_a_policy(served, browser):
    """The same exports in a viewer broken on purpose (no Content-Security-Policy, every text
    written as innerHTML): the markup runs at every point, so the test above would see it."""
    ran = set()
    for name, (export, _) in crafted_exports(served.app.test_client()).items():
        seen = replay_in_the_viewer(served, browser, export, bypass_csp=True, write_html=True)
        assert seen["requested"] > 0, (name, seen)
        ran |= set(seen["ran"])
    assert ran == POINTS


def test_the_policy_alone_stops_markup_that_got_into_the_page(served, browser):
    export, _ = crafted_exports(served.app.test_client())["replayable"]
    seen = replay_in_the_viewer(served, browser, export, write_html=True)
    assert seen["images"] > 0, seen                    # the markup became elements,
    assert seen["ran"] == [] and seen["requested"] == 0, seen  # that neither ran nor loaded:
    assert {"script-src-attr", "img-src"} <= set(seen["violations"]), seen  # the policy refused them


def test_a_seats_redacted_export_is_drawn_up_to_what_it_hides_and_the_timeline_takes_the_keyboard(served, browser):
    """A seat's export of a running League game hides the other seat's sealed choice: replay
    cannot fold that record, so the page draws the game up to the version before it and says
    what to open for the rest. A complete export draws whole, and each timeline entry can be
    reached and chosen from the keyboard."""
    client = served.app.test_client()
    game = create(client, "league-of-pirates", players=("Anne", "Ben"))
    chooser = game.view()["to_move"][0]
    assert game.send(game.legal(game.seat(chooser))[0], game.seat(chooser)).status_code == 200
    mine = client.get(f"/games/{game.id}/export", headers=game.seat(1 - chooser)).get_json()
    assert mine["commands"][0]["redacted"]
    first = mine["commands"][0]["events"][0]["version"]
    seen = replay_in_the_viewer(served, browser, mine)
    assert seen["shown"]["error"] == "", seen
    assert f"hides records from seat {1 - chooser} from version {first} on" in seen["shown"]["partial"], seen
    assert f"shown up to version {first - 1}" in seen["shown"]["partial"], seen
    page = browser.open(f"{served.base}/viewer")
    page.choose_file("#file", served.tmp / "export.json")   # the seat's export again
    page.wait_until(f'document.body.dataset.shown === "{first - 1}"')
    assert page.evaluate('document.getElementById("partial").hidden') is False
    assert page.evaluate('Number(document.getElementById("slider").max)') == first - 1
    assert page.evaluate('[...document.querySelectorAll("#timeline li")].map((li) => li.value)') == \
        list(range(2, first))
    path = served.tmp / "export.json"
    path.write_text(json.dumps(client.get(f"/games/{game.id}/export", headers=game.host).get_json()))
    page = browser.open(f"{served.base}/viewer")
    page.choose_file("#file", path)
    page.wait_until('document.body.dataset.shown === "3"')
    assert page.evaluate('document.getElementById("viewer").hidden') is False
    assert page.evaluate('document.getElementById("partial").hidden') is True   # nothing hidden: whole
    assert page.evaluate('[...document.querySelectorAll("#timeline li")].every((li) => li.tabIndex === 0)')
    page.evaluate('document.getElementById("v2").focus()')
    page.press("Enter", 13)
    page.wait_until('document.body.dataset.shown === "2"')
