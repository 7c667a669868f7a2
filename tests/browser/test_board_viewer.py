"""The replay viewer draws the table (issue 18): for each ruleset a random game, opened with a
seat's token in a real headless Chromium, drawn as <svg class="board"> at several versions.

Each check compares the picture with what the API answered for the same token at the same
version, so a drawing that lost its ships, stacks or hands fails. A PNG of each board is kept
in $PARLEY_ARTEFACTS (default build/artefacts, ignored by git).
"""
from __future__ import annotations

import copy
import json
import os
import pathlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from tests.browser.conftest import png_pixels
from tests.disputes.games import rechain
from tests.fakes.http import create, progressing

ROOT = pathlib.Path(__file__).resolve().parents[2]


def artefacts() -> pathlib.Path:
    where = pathlib.Path(os.environ.get("PARLEY_ARTEFACTS") or ROOT / "build" / "artefacts")
    where.mkdir(parents=True, exist_ok=True)
    return where


def pieces_with(prefix: str) -> str:
    return f'svg.board .piece[data-key^="{prefix}"]'


# What each ruleset's picture must hold, from the seat's view (state) and the content -------

def corsairs_pieces(s: dict, content: dict) -> dict[str, int]:
    tracks = {t["id"]: t for t in content["tracks"]}
    islands = sum(len(tracks[slot["tile"]]["sides"][slot["side"]].get("lines", [])) for slot in s["track"]["slots"])
    return {".piece.ship": len(s["players"]), ".piece.space": sum(len(r) for r in s["track"]["rows"]),
            ".piece.tile": len(s["track"]["slots"]), ".piece.hazard": len(s["track"]["hazards"]),
            ".piece.island": islands, ".piece.die": len(s["turn"]["dice"]), ".piece.captain": len(s["players"]),
            ".piece.skull-island": 1}


def corsairs_moved(a: dict, b: dict) -> set[str]:
    keys = set()
    for p, q in zip(a["players"], b["players"], strict=True):
        keys |= {f"ship-{q['seat']}"} if p["position"] != q["position"] else set()
        keys |= {f"{r}-{q['seat']}" for r in ("silver", "grog", "treasure") if p[r] != q[r]}
    return keys


def league_pieces(s: dict, content: dict) -> dict[str, int]:
    crew = [c for x in s["seats"] for c in x["crew"].values()]
    brig = [c for x in s["seats"] for c in x["brig"]]
    challenge = s["challenge"]["players"] if s["challenge"] else []
    return {".piece.ship": len(s["seats"]), ".piece.slot": len(crew), ".piece.brig": len(brig),
            pieces_with("coin-"): sum(c is not None for c in crew),
            pieces_with("brig-coin-"): sum(c is not None for c in brig),
            ".piece.coin.traitor": sum(bool(c and c["traitor"]) for c in crew + brig
                                       + ((s["pending"] or {}).get("drawn") or [])),
            ".piece.die": sum(len(p["dice"]) for p in challenge), pieces_with("points-"): len(s["seats"])}


def league_moved(a: dict, b: dict) -> set[str]:
    keys = set()
    for x, y in zip(a["seats"], b["seats"], strict=True):
        keys |= {f"points-{y['seat']}"} if x["points"] != y["points"] else set()
        keys |= {f"bag-{y['seat']}"} if x["bag_count"] != y["bag_count"] else set()
        keys |= {f"coin-{y['seat']}-{slot}" for slot, c in y["crew"].items()
                 if c is not None and (x["crew"][slot] or {}).get("id") != c["id"]}
    return keys


def league_hidden(s: dict, you: int) -> dict[str, int]:
    # A seat's own Homeport Bag is listed; the other's is a count.
    return {pieces_with(f"bag-{x['seat']}") + '[aria-label*="contents hidden"]': int(x["seat"] != you)
            for x in s["seats"]}


def tesoros_pieces(s: dict, content: dict) -> dict[str, int]:
    board = content["board"]
    return {".piece.ship": len(s["seats"]), ".piece.island": len(board["islands"]),
            ".piece.arrow": sum(len(i["arrows"]) for i in board["islands"]),
            ".piece.treasure-token": len(s["open_maps"]), ".piece.map": len(s["open_maps"]),
            "svg.board rect.cell": board["width"] * board["height"] - sum(len(i["cells"]) for i in board["islands"])}


def tesoros_moved(a: dict, b: dict) -> set[str]:
    keys = set()
    for x, y in zip(a["seats"], b["seats"], strict=True):
        keys |= {f"ship-{y['seat']}"} if x["ship"] != y["ship"] else set()
        keys |= {f"treasures-{y['seat']}"} if x["treasures"] != y["treasures"] else set()
    return keys


def tesoros_hidden(s: dict, you: int) -> dict[str, int]:
    out = {}
    for x in s["seats"]:
        mine = x["seat"] == you
        assert ("hand" in x) == mine  # the API shows a hand to its owner only
        out[f'.card.face-up[data-seat="{x["seat"]}"]'] = x["hand_count"] if mine else 0
        out[f'.card.back[data-seat="{x["seat"]}"]'] = 0 if mine else x["hand_count"]
    return out


def chrono_pieces(s: dict, content: dict) -> dict[str, int]:
    crews = sum(1 for x in s["seats"] for kind in ("officer", "crew") for spot, n in x["pieces"].get(kind, {}).items()
                if n and spot in s["board"])
    return {".piece.tile": len(s["board"]), ".piece.token": len(s["board"]), ".piece.flag": len(s["flag"]),
            ".piece.harbor": len(s["seats"]), ".piece.mat": sum(len(x["mat"]) for x in s["seats"]),
            ".piece.officer, svg.board .piece.crew": crews, ".piece.storm": 1}


def chrono_moved(a: dict, b: dict) -> set[str]:
    keys = set()
    for x, y in zip(a["seats"], b["seats"], strict=True):
        keys |= {f"{r}-{y['seat']}" for r, k in (("doubloons", "doubloons"), ("gems", "time_gems")) if x[k] != y[k]}
        for kind in ("officer", "crew"):
            keys |= {f"{kind}-{y['seat']}-{spot}" for spot, n in y["pieces"].get(kind, {}).items()
                     if n and spot in b["board"] and x["pieces"].get(kind, {}).get(spot) != n}
    return keys


def chrono_hidden(s: dict, you: int) -> dict[str, int]:
    out = {}
    over = s.get("result") is not None   # [Final Scoring] reveals every Artifact left in a hand
    for x in s["seats"]:
        mine = x["seat"] == you
        assert ("drawn" in x) == mine and ("artifacts" in x) == (mine or over)
        out[f'.plan.face-up[data-seat="{x["seat"]}"]'] = x["drawn_count"] if mine else 0
        out[f'.plan.back[data-seat="{x["seat"]}"]'] = 0 if mine else x["drawn_count"]
        out[f'.plan.sealed[data-seat="{x["seat"]}"]'] = int(x["selected"])
        out[f'.artifact.face-up[data-seat="{x["seat"]}"]'] = x["artifact_count"] if mine or over else 0
        out[f'.artifact.back[data-seat="{x["seat"]}"]'] = 0 if mine or over else x["artifact_count"]
    return out


def valeria_pieces(s: dict, content: dict) -> dict[str, int]:
    out = {".piece.stack": len(s["monster_stacks"]) + len(s["citizen_stacks"]) + len(s["domain_stacks"]),
           ".piece.die": len(s["dice"] or []), pieces_with("gold-"): len(s["seats"])}
    if "islands" in s:
        out[".piece.island"] = 4
        out[".piece.goods"] = len(s["seats"])
    return out


def valeria_moved(a: dict, b: dict) -> set[str]:
    keys = set()
    for x, y in zip(a["seats"], b["seats"], strict=True):
        keys |= {f"{r}-{y['seat']}" for r in ("gold", "strength", "magic") if x[r] != y[r]}
    keys |= {f"citizens-{k}" for k, v in b["citizen_stacks"].items() if a["citizen_stacks"].get(k) != v}
    keys |= {f"monsters-{k}" for k, v in b["monster_stacks"].items() if a["monster_stacks"].get(k) != v}
    return keys


def valeria_hidden(s: dict, you: int) -> dict[str, int]:
    out = {}
    for x in s["seats"]:
        shown = x.get("duke") is not None
        assert shown or x["seat"] != you or not x["has_kept_duke"]
        duke = pieces_with(f"duke-{x['seat']}")
        out[duke + ".face-up"] = int(shown)
        out[duke + ".back"] = int(not shown and x["has_kept_duke"])
    return out


@dataclass
class Case:
    ruleset: str
    pieces: Callable[[dict, dict], dict[str, int]]
    moved: Callable[[dict, dict], set[str]]
    hidden: Callable[[dict, int], dict[str, int]] = lambda s, you: {}
    players: tuple = ("Anne", "Ben", "Cat")
    finish: bool = True      # play to the end; else `commands` random commands
    commands: int = 0
    seed: int = 1
    extra: dict = field(default_factory=dict)
    name: str = ""

    @property
    def id(self) -> str:
        return self.name or self.ruleset


def wider_tesoros_board() -> dict:
    """The reference content on a 15 x 15 board, every island one square further in: the
    picture must follow the content, not the reference set."""
    content = json.loads((ROOT / "domain" / "tesoros" / "content" / "reference.json").read_text())
    content["id"] = "tesoros-wider-board"
    board = content["board"]
    board.update(width=15, height=15, compassRose=[7, 7])
    for island in board["islands"]:
        island["cells"] = [[x + 1, y + 1] for x, y in island["cells"]]
        island["arrows"] = [[x + 1, y + 1] for x, y in island["arrows"]]
    return content


CASES = [
    Case("corsairs-of-valeria", corsairs_pieces, corsairs_moved),
    Case("league-of-pirates", league_pieces, league_moved, league_hidden, players=("Anne", "Ben"),
         finish=False, commands=120),
    Case("tesoros-del-rey-pirata", tesoros_pieces, tesoros_moved, tesoros_hidden),
    Case("tesoros-del-rey-pirata", tesoros_pieces, tesoros_moved, tesoros_hidden, players=("Anne", "Ben"),
         finish=False, commands=60, extra={"content": wider_tesoros_board()}, name="tesoros-custom-board"),
    Case("chrono-corsairs", chrono_pieces, chrono_moved, chrono_hidden),
    Case("valeria-card-kingdoms", valeria_pieces, valeria_moved, valeria_hidden),
    Case("crimson-seas", valeria_pieces, valeria_moved, valeria_hidden),
    # one seat against the Dark Lord, who is no seat: the result box names him beside the ranking
    Case("valeria-card-kingdoms", valeria_pieces, valeria_moved, valeria_hidden, players=("Anne",),
         extra={"options": {"variant": "solo"}}, name="valeria-solo"),
]


def play(game, case: Case) -> None:
    rng = random.Random(case.seed)
    if case.finish:
        game.play_to_the_end(rng, prefer=progressing)
        return
    for _ in range(case.commands):
        commands = game.legal()
        if not commands:
            break
        response = game.send(rng.choice(progressing(commands)))
        assert response.status_code == 200, response.get_json()


def show_version(page, version: int) -> None:
    page.evaluate(f"""(() => {{ const s = document.getElementById("slider"); s.value = {version};
                       s.dispatchEvent(new Event("input")); }})()""")
    page.wait_until(f'document.body.dataset.shown === "{version}" && !!document.querySelector("svg.board")')


def count(page, selector: str) -> int:
    if not selector.startswith("svg.board"):
        selector = "svg.board " + selector
    return page.evaluate(f"document.querySelectorAll({json.dumps(selector)}).length")


EVERY_PIECE_HAS_WORDS = """[...document.querySelectorAll("svg.board .piece")].filter((p) =>
  !(p.getAttribute("role") === "img" && p.getAttribute("aria-label") &&
    p.querySelector(":scope > title") && p.querySelector(":scope > title").textContent.trim())).length"""
CHANGED = '[...document.querySelectorAll("svg.board .piece.changed")].map((p) => p.dataset.key)'


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_viewer_draws_the_table_as_a_seat_sees_it(served, wide, case):
    client = served.app.test_client()
    game = create(client, case.ruleset, players=case.players, **case.extra)
    play(game, case)
    you = 0
    token = game.created["seats"][you]["token"]
    export = client.get(f"/games/{game.id}/export", headers=game.seat(you)).get_json()
    content = export["setup"][0]["event"]["content"]
    last = export["version"]

    def seen(version: int) -> dict:
        return game.get(f"?version={version}", game.seat(you)).get_json()

    # A version where something drawn changed: the latest of the last 80 (seat's views).
    moved_at, moved = None, set()
    after = seen(last)
    for version in range(last, max(5, last - 80), -1):
        before = seen(version - 1)
        moved = case.moved(before["state"], after["state"])
        if moved:
            moved_at = version
            break
        after = before
    assert moved_at is not None, "no drawn change in the last 80 versions"

    page = wide.open(f"{served.base}/viewer?game={game.id}&token={token}", console=True)
    page.wait_until(f'document.body.dataset.shown === "{last}" && !!document.querySelector("svg.board")')
    assert page.evaluate(f'document.querySelector("svg.board").classList.contains({json.dumps(case.ruleset)})')
    assert case.players[you] in page.evaluate('document.getElementById("perspective").textContent')

    for version in sorted({5, last // 2, moved_at, last}):
        show_version(page, version)
        view = seen(version)
        assert page.evaluate(EVERY_PIECE_HAS_WORDS) == 0, version
        expected = {**case.pieces(view["state"], content), **case.hidden(view["state"], you)}
        drawn = {selector: count(page, selector) for selector in expected}
        assert drawn == expected, (version, view["state"])
        if case.ruleset == "corsairs-of-valeria" and view["status"] == "finished":   # no phase runs once it is over
            words = page.evaluate('document.querySelector("svg.board").textContent')
            assert "The last turn" in words and "phase" not in words, words
        if version == moved_at:
            marked = set(page.evaluate(CHANGED))
            assert moved <= marked, (version, moved, marked)
            assert page.evaluate('getComputedStyle(document.querySelector("svg.board .piece.changed")).filter') != "none"

    # ← and → step through versions.
    show_version(page, last // 2)
    page.evaluate("document.activeElement.blur()")
    page.press("ArrowLeft", 37)
    page.wait_until(f'document.body.dataset.shown === "{last // 2 - 1}"')
    page.press("ArrowRight", 39)
    page.press("ArrowRight", 39)
    page.wait_until(f'document.body.dataset.shown === "{last // 2 + 1}"')
    assert page.evaluate('document.getElementById("slider").value') == str(last // 2 + 1)

    # The result with names and ranks; the badge; the export link.
    show_version(page, last)
    final = seen(last)
    page.wait_until('!document.getElementById("badge").classList.contains("pending")')
    verdict = page.evaluate('document.getElementById("badge").dataset.verdict')
    if final["status"] == "finished":
        ranking = final["result"]["ranking"]
        shown = page.evaluate('[...document.querySelectorAll("#result li.rank")].map((li) => [li.dataset.rank, li.textContent])')
        assert [int(rank) for rank, _ in shown] == [r["rank"] for r in ranking]
        assert all(r["name"] in words for r, (_, words) in zip(ranking, shown, strict=True))
        status = page.evaluate('document.getElementById("status").textContent')
        assert "winners: " + (", ".join(case.players[w] for w in final["result"]["winners"]) or "none") in status
        lord = page.evaluate('[...document.querySelectorAll("#result li.opponent")].map((li) => li.textContent)')
        solo = final["result"]["details"].get("solo")
        points = (final["result"]["details"].get("dark_lord") or {}).get("points")   # only when he was scored
        shown_points = "" if points is None else f" — {points['total'] if isinstance(points, dict) else points}"
        assert lord == ([f"The Dark Lord{shown_points}"
                         f" (the solo game: {'won by Anne' if solo == 'won' else 'the Dark Lord wins' if solo == 'lost' else solo})"]
                        if solo else []), lord
        assert verdict == "valid"   # the seat's export of a finished game is complete, with the seed
    else:
        assert page.evaluate('document.getElementById("result-box").hidden')
        assert verdict == "incomplete"   # a seat's export of a running game withholds the rest
    link = page.evaluate('[document.getElementById("export-link").href, document.getElementById("export-link").download]')
    assert link[0].startswith("blob:") and link[1].endswith(".json")

    shot = artefacts() / f"{case.id}.png"
    page.screenshot(shot, "#board")
    width, height, rows = png_pixels(shot)
    assert width > 300 and height > 200 and len(rows) > 50, (width, height, len(rows))
    assert page.console_errors() == []


def test_a_tampered_export_is_shown_divergent_at_the_version_where_the_stories_part(served, browser):
    client = served.app.test_client()
    game = create(client, "corsairs-of-valeria", players=("Anne", "Ben"))
    game.play_to_the_end(random.Random(3), prefer=progressing)
    export = client.get(f"/games/{game.id}/export", headers=game.host).get_json()
    forged = copy.deepcopy(export)
    # A roll rewritten in the middle of the game, every hash recomputed: only the rules can tell.
    rolls = [e for c in forged["commands"] for e in c["events"] if e["event"]["type"] == "DiceRolled"]
    roll = rolls[len(rolls) // 2]
    roll["event"]["dice"] = ["SKULL"] * len(roll["event"]["dice"])
    rechain(forged)
    forged["head_hash"] = forged["commands"][-1]["events"][-1]["hash"]
    report = client.post("/verifications", json=forged).get_json()
    assert report["divergence"]["version"] == roll["version"], report

    for document, words in ((export, "valid"), (forged, f"divergent at version {roll['version']}")):
        path = served.tmp / "export.json"
        path.write_text(json.dumps(document))
        page = browser.open(f"{served.base}/viewer", console=True)
        page.choose_file("#file", path)
        page.wait_until('!!document.querySelector("svg.board") && '
                        '!document.getElementById("badge").classList.contains("pending")')
        assert words in page.evaluate('document.getElementById("badge").textContent')
        assert page.evaluate('document.getElementById("divergence").hidden') == (document is export)
        assert page.console_errors() == []
    recorded = json.loads(page.evaluate('document.getElementById("divergence-recorded").textContent'))
    assert recorded == report["divergence"]["recorded"] and recorded != report["divergence"]["expected"]
    page.evaluate('document.getElementById("divergence-go").click()')
    page.wait_until(f'document.body.dataset.shown === "{roll["version"]}"')
    dice = page.evaluate('[...document.querySelectorAll("svg.board .piece.die")].map((d) => d.getAttribute("aria-label"))')
    assert dice and all("SKULL" in d for d in dice)   # the picture shows what the export claims


def test_an_export_file_is_drawn_as_the_chosen_seat_sees_it(served, browser):
    client = served.app.test_client()
    game = create(client, "tesoros-del-rey-pirata")
    rng = random.Random(5)
    for _ in range(40):
        assert game.send(rng.choice(game.legal())).status_code == 200
    export = client.get(f"/games/{game.id}/export", headers=game.host).get_json()
    path = served.tmp / "export.json"
    path.write_text(json.dumps(export))
    page = browser.open(f"{served.base}/viewer", console=True)
    page.choose_file("#file", path)
    page.wait_until('!!document.querySelector("svg.board")')
    hands = [x["hand_count"] for x in game.view()["state"]["seats"]]
    assert count(page, ".card.face-up") == sum(hands)          # the arbiter sees every hand
    page.evaluate("""(() => { const s = document.getElementById("seat"); s.value = "1";
                     s.dispatchEvent(new Event("change")); })()""")
    page.wait_until('document.getElementById("perspective").textContent.includes("seat 1")')
    page.wait_until('!!document.querySelector("svg.board")')
    assert count(page, '.card.face-up[data-seat="1"]') == hands[1]
    assert count(page, ".card.face-up") == hands[1]
    assert count(page, ".card.back") == sum(hands) - hands[1]
    assert page.console_errors() == []


def test_a_public_game_is_drawn_without_a_token_as_its_spectator_sees_it(served, browser):
    """Anyone may open a public game (`/viewer?game=<id>`, no token): the picture is the
    spectator's, every hand a back, none face up."""
    client = served.app.test_client()
    game = create(client, "tesoros-del-rey-pirata", public=True)
    rng = random.Random(6)
    for _ in range(20):
        assert game.send(rng.choice(game.legal())).status_code == 200
    page = browser.open(f"{served.base}/viewer?game={game.id}", console=True)
    page.wait_until('!!document.querySelector("svg.board")')
    assert "spectator" in page.evaluate('document.getElementById("perspective").textContent')
    hands = [x["hand_count"] for x in game.view()["state"]["seats"]]
    assert count(page, ".card.face-up") == 0
    assert count(page, ".card.back") == sum(hands) > 0
    # Every island's name is drawn whole, in lines of its own (it was cut after eight letters).
    islands = json.loads((ROOT / "domain" / "tesoros" / "content" / "reference.json").read_text())["board"]["islands"]
    drawn = dict(page.evaluate("""[...document.querySelectorAll("svg.board .piece.island")].map((p) =>
        [p.dataset.key, [...p.querySelectorAll("text")].map((t) => t.textContent).join(" ")])"""))
    assert drawn == {f"island-{i['id']}": i["name"] for i in islands}
    assert page.console_errors() == []
    private = create(client, "tesoros-del-rey-pirata")
    page = browser.open(f"{served.base}/viewer?game={private.id}", console=True)
    page.wait_until('document.getElementById("error") && document.getElementById("error").textContent !== ""')


def test_the_console_check_would_catch_an_error(served, browser):
    page = browser.open(f"{served.base}/viewer", console=True)
    assert page.console_errors() == []
    page.evaluate('console.error("drawn wrong"); setTimeout(() => { throw new Error("late"); }, 0); 0')
    page.wait_until("new Promise((done) => setTimeout(() => done(true), 50))")
    errors = page.console_errors()
    assert errors[0] == "drawn wrong" and "late" in errors[1]


def test_what_changed_names_status_lines_and_what_is_no_longer_drawn(served, browser):
    """'What changed' covers the status lines (here Valeria's awaiting line, a piece like any
    other) and says in words what the version before drew and this one does not (the dice,
    once cleared)."""
    client = served.app.test_client()
    game = create(client, "valeria-card-kingdoms")
    rng = random.Random(8)
    views = [game.view()]
    cleared = None
    for _ in range(200):
        assert game.send(rng.choice(progressing(game.legal()))).status_code == 200
        views.append(game.get("", game.seat(0)).get_json())
        if views[-2]["state"]["dice"] and not views[-1]["state"]["dice"]:
            cleared = views[-1]
            break
    assert cleared is not None, "no version cleared the dice within 200 commands"
    version, before = cleared["version"], game.get(f"?version={cleared['version'] - 1}", game.seat(0)).get_json()
    assert before["state"]["dice"], before["state"]
    page = browser.open(f"{served.base}/viewer?game={game.id}&token={game.created['seats'][0]['token']}", console=True)
    page.wait_until('!!document.querySelector("svg.board")')
    show_version(page, version)
    words = page.evaluate('document.getElementById("changes").textContent')
    assert "Gone: " in words and f"die 1: {before['state']['dice'][0]}" in words, words
    if before["state"]["awaiting"] != cleared["state"]["awaiting"]:
        assert "awaiting" in page.evaluate(CHANGED)
    assert page.console_errors() == []
