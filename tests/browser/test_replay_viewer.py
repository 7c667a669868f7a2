"""The replay viewer, in a real headless Chromium on a phone-sized screen."""
from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import threading
import zlib

import pytest
from werkzeug.serving import make_server

from service import create_app
from tests.fakes.http import create, progressing

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=390,844", "--virtual-time-budget=15000"]


@pytest.fixture
def served(tmp_path):
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs it (apt-get install chromium)")
        pytest.skip("needs Chromium (apt-get install chromium); CI installs it")
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}", tmp_path
    server.shutdown()
    app.extensions["parley"].close()


def chromium(*args: str, tmp) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp / 'profile'}", *args],
                          capture_output=True, text=True, timeout=120)


def png_pixels(path) -> tuple[int, int, set[bytes]]:
    """Width, height and the distinct RGB(A) pixel values of a PNG (no filtering undone:
    distinct raw rows are enough to tell a rendered page from a blank one)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = len(raw) // height
    rows = {raw[i * stride + 1:(i + 1) * stride] for i in range(height)}
    return width, height, rows


def test_a_finished_game_replays_in_the_viewer_on_a_phone_screen(served):
    app, base, tmp = served
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
    app, _, _ = served
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
