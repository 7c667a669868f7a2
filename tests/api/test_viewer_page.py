"""The replay viewer's page runs only its own files, writes data only as text, and every
answer tells a browser not to guess types (the browser test shows a crafted export in it)."""
from __future__ import annotations

import fnmatch
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "service" / "static"
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.inline: list[str] = []     # what a policy without 'unsafe-inline' would refuse
        self.files: list[str] = []      # what the page loads from the service

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.inline += [f"{tag} {name}=" for name in attrs if name.startswith("on") or name == "style"]
        if tag == "style" or (tag == "script" and not attrs.get("src")):
            self.inline.append(tag)
        self.files += [attrs[a] for a in ("src", "href") if attrs.get(a)]


def page() -> Page:
    parsed = Page()
    parsed.feed((STATIC / "viewer.html").read_text())
    return parsed


def test_the_viewer_forbids_inline_script_and_needs_none(client):
    response = client.get("/viewer")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] == PAGE_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert page().inline == []


def imported(path: str) -> list[str]:
    """The modules a script imports (static `import ... from "./x.js"`), and theirs, as paths."""
    out = []
    source = (STATIC / path.removeprefix("/static/")).read_text()
    for relative in re.findall(r'^import [^;]*? from "(\./[^"]+)";', source, flags=re.M | re.S):
        target = str(Path(path).parent / relative.removeprefix("./"))
        out += [target, *imported(target)]
    return out


def test_the_viewer_files_are_served_and_packaged(client):
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    files = page().files
    assert sorted(files) == ["/static/viewer.css", "/static/viewer.js"]
    boards = sorted(set(imported("/static/viewer.js")))
    assert "/static/boards/svg.js" in boards and len(boards) == 6   # five rulesets' drawings and their helpers
    files += boards
    types = {".js": "text/javascript", ".css": "text/css"}
    for path in files:
        response = client.get(path)
        assert response.status_code == 200 and response.mimetype == types[Path(path).suffix], path
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert any(fnmatch.fnmatch(path.removeprefix("/"), glob) for glob in package_data), path
    assert any(fnmatch.fnmatch("static/viewer.html", glob) for glob in package_data)


def test_the_viewer_script_never_writes_markup():
    for path in [STATIC / "viewer.js", *sorted((STATIC / "boards").glob("*.js"))]:
        script = re.sub(r"^\s*//.*$", "", path.read_text(), flags=re.M)  # not comments
        assert not re.findall(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function"
                              r"|DOMParser|createContextualFragment", script), path


def test_data_answers_are_never_pages(client):
    for response in (client.get("/rulesets"), client.get("/games/nope"), client.get("/metrics")):
        assert response.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
