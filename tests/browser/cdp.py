"""A small Chrome DevTools Protocol client over --remote-debugging-pipe, with no dependency:
enough to open a page, hand a file to an <input type=file> and ask the page what happened.

Chromium reads commands from its fd 3 and writes replies and events to its fd 4, each message
one JSON object ended by a NUL byte (a flat session per page: Target.attachToTarget flatten).
"""
from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import signal
import time


class DevToolsError(Exception):
    pass


class Chromium:
    def __init__(self, argv: list[str], timeout: float = 30):
        """argv[0]: the path of the Chromium executable."""
        commands_read, commands_write = os.pipe()
        replies_read, replies_write = os.pipe()
        # posix_spawn moves Chromium's ends to its fds 3 and 4 (no preexec_fn: the test
        # server's thread is running); both first off 3 and 4, so one move cannot undo the other.
        commands_read, replies_write = _above_4(commands_read), _above_4(replies_write)
        self.pid = os.posix_spawn(argv[0], [*argv, "--remote-debugging-pipe"], os.environ, file_actions=[
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_DUP2, commands_read, 3),
            (os.POSIX_SPAWN_DUP2, replies_write, 4)])
        os.close(commands_read)
        os.close(replies_write)
        self._out, self._in = commands_write, replies_read
        self._buffer = b""
        self._last_id = 0
        self.timeout = timeout
        self.events: list[dict] = []

    def send(self, method: str, session: str | None = None, **params) -> dict:
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._out, data):]
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise DevToolsError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_for_event(self, method: str, session: str | None = None) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._receive(deadline))

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("Chromium did not answer in time")
            if select.select([self._in], [], [], remaining)[0]:
                chunk = os.read(self._in, 1 << 16)
                if not chunk:
                    raise DevToolsError("Chromium closed the DevTools pipe")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url: str, *, bypass_csp: bool = False, before_scripts: str = "",
             console: bool = False) -> Page:
        """A new tab at url, loaded. bypass_csp: as if the page sent no Content-Security-Policy.
        before_scripts: script run in every document before the page's own. console: record
        the console and uncaught errors from the start (Page.console_errors)."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = Page(self, session)
        page.send("Page.enable")
        if console:
            page.send("Runtime.enable")
            page.send("Log.enable")
        if bypass_csp:
            page.send("Page.setBypassCSP", enabled=True)
        if before_scripts:
            page.send("Page.addScriptToEvaluateOnNewDocument", source=before_scripts)
        page.send("Page.navigate", url=url)
        self.wait_for_event("Page.loadEventFired", session)
        return page

    def close(self) -> None:
        with contextlib.suppress(DevToolsError, TimeoutError, OSError):
            self.send("Browser.close")
        deadline = time.monotonic() + 10
        while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                break
            time.sleep(0.05)
        os.close(self._out)
        os.close(self._in)


def _above_4(fd: int) -> int:
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Page:
    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session

    def send(self, method: str, **params) -> dict:
        return self.browser.send(method, self.session, **params)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise DevToolsError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise TimeoutError(f"never true in the page: {expression}")
            time.sleep(0.05)

    def console_errors(self) -> list[str]:
        """What the page logged as an error so far: console.error, uncaught exceptions and the
        browser's own error entries (a failed load, a refused script), as text."""
        self.evaluate("0")  # every event sent before this answer is now in browser.events
        errors = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                errors.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                errors.append(f"{entry.get('text')} {entry.get('url', '')}".strip())
        return errors

    def press(self, key: str, code: int) -> None:
        """A key pressed and released, as from the keyboard (key: "ArrowLeft"; code: 37)."""
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code,
                      nativeVirtualKeyCode=code)

    def screenshot(self, path, selector: str | None = None) -> None:
        """A PNG of the page (or of one element, scrolled into view) written to path."""
        params: dict = {"format": "png"}
        if selector is not None:
            box = self.evaluate(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
                e.scrollIntoView(); const r = e.getBoundingClientRect();
                return {{x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}}; }})()""")
            params.update(clip={**box, "scale": 1}, captureBeyondViewport=True)
        data = self.send("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def choose_file(self, selector: str, path) -> None:
        """As if the user chose this file in the file input (input and change events fire)."""
        found = self.send("Runtime.evaluate", expression=f"document.querySelector({json.dumps(selector)})")
        self.send("DOM.setFileInputFiles", files=[str(path)], objectId=found["result"]["objectId"])
