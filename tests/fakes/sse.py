"""A Server-Sent Events reader for tests: reads a stream in a thread of its own, parsing each
message as the HTML standard's EventSource does (id, data, comments), and lets a test wait for
the messages it expects, with a deadline."""
from __future__ import annotations

import contextlib
import json
import threading
import time
from dataclasses import dataclass, field

import requests


@dataclass
class Message:
    id: str | None
    data: str
    received: float  # time.monotonic() when its blank line arrived

    @property
    def entry(self) -> dict:
        return json.loads(self.data)


@dataclass
class Stream:
    url: str
    headers: dict = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    status: int | None = None
    content_type: str | None = None
    response_headers: dict = field(default_factory=dict)
    ended: bool = False
    retry: int | None = None

    def __post_init__(self):
        self._changed = threading.Condition()
        self._response = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            with requests.get(self.url, headers=self.headers, stream=True, timeout=(5, 60)) as response:
                self._response = response
                with self._changed:
                    self.status, self.content_type = response.status_code, response.headers.get("Content-Type")
                    self.response_headers = dict(response.headers)
                    self._changed.notify_all()
                ident, data = None, []
                for line in _lines(response):
                    if line == "":
                        if data:
                            with self._changed:
                                self.messages.append(Message(ident, "\n".join(data), time.monotonic()))
                                self._changed.notify_all()
                        data = []
                    elif line.startswith(":"):
                        with self._changed:
                            self.comments.append(line[1:].strip())
                            self._changed.notify_all()
                    else:
                        name, _, value = line.partition(":")
                        value = value[1:] if value.startswith(" ") else value
                        if name == "id":
                            ident = value
                        elif name == "data":
                            data.append(value)
                        elif name == "retry":
                            self.retry = int(value)
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError, AttributeError):
            pass  # closed by close(), or by the server
        finally:
            with self._changed:
                self.ended = True
                self._changed.notify_all()

    def wait_for(self, predicate, seconds: float = 10.0):
        """Until predicate(self) is true; AssertionError after `seconds`."""
        deadline = time.monotonic() + seconds
        with self._changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"waited {seconds} s: {len(self.messages)} messages, "
                                         f"{len(self.comments)} comments, status {self.status}, ended {self.ended}")
                self._changed.wait(left)

    def arrival(self, version: int, seconds: float = 10.0) -> float:
        """When the message with id `version` arrived (waiting for it up to `seconds`)."""
        wanted = str(version)
        self.wait_for(lambda s: any(m.id == wanted for m in s.messages), seconds)
        return next(m.received for m in self.messages if m.id == wanted)

    def until_status(self, seconds: float = 10.0) -> int:
        self.wait_for(lambda s: s.status is not None or s.ended, seconds)
        assert self.status is not None, "no answer"
        return self.status

    def close(self) -> None:
        response = self._response
        if response is not None:
            with contextlib.suppress(Exception):
                response.raw._fp.fp.raw._sock.shutdown(2)  # unblock the reading thread at once
            response.close()


def _lines(response):
    """The stream's lines as they arrive (iter_lines would wait for 512 bytes at a time)."""
    pending = ""
    for chunk in response.iter_content(chunk_size=None, decode_unicode=True):
        pending += chunk
        *lines, pending = pending.split("\n")
        for line in lines:
            yield line.rstrip("\r")
