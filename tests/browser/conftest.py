"""What the browser tests share: a Chromium (Debian's `chromium`), a live test server for it,
and a way to tell a rendered PNG from a blank one."""
from __future__ import annotations

import os
import shutil
import struct
import threading
import zlib
from collections import Counter
from dataclasses import dataclass

import pytest
from werkzeug.serving import make_server

from service import create_app
from tests.browser.cdp import Chromium

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=390,844"]


@dataclass
class Served:
    app: object
    base: str
    tmp: object
    hits: Counter  # requests the test server answered, by path


@pytest.fixture
def served(tmp_path):
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs it (apt-get install chromium)")
        pytest.skip("needs Chromium (apt-get install chromium); CI installs it")
    app = create_app({"PERSISTENCE": {"PERSISTENCE_MODULE": "eventsourcing.popo"}})
    hits = Counter()

    def counting(environ, start_response):
        hits[environ["PATH_INFO"]] += 1
        return app(environ, start_response)

    server = make_server("127.0.0.1", 0, counting, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Served(app, f"http://127.0.0.1:{server.server_port}", tmp_path, hits)
    server.shutdown()
    app.extensions["parley"].close()


@pytest.fixture
def wide(served):
    """A desktop-sized Chromium, where the whole picture is laid out: one per test."""
    flags = [f for f in FLAGS if not f.startswith("--window-size")] + ["--window-size=1100,1300"]
    chromium = Chromium([CHROMIUM, *flags, f"--user-data-dir={served.tmp / 'wide-profile'}"])
    yield chromium
    chromium.close()


@pytest.fixture
def browser(served):
    chromium = Chromium([CHROMIUM, *FLAGS, f"--user-data-dir={served.tmp / 'devtools-profile'}"])
    yield chromium
    chromium.close()


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
