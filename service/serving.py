"""How the Procfile's gunicorn serves Parley: gevent connections with deadlines for reading a
request, and CPU-heavy work handed to real threads.

The serving model (docs/performance.md, "Serving model"): each gunicorn worker runs gevent.
A connection costs a greenlet (a few KB) while it is idle, slow, or waiting on the database,
never an OS thread, so slow and idle clients cannot starve the workers, and many long-lived
connections (live updates) each cost little. psycopg 3 cooperates with gevent by itself.

gevent switches only where a greenlet waits, so two things are added to gunicorn's gevent
worker:

- **Deadlines for reading a request** (`Worker`). A request's header must arrive whole within
  PARLEY_HEADER_SECONDS (10 s) of its first byte, and its body within PARLEY_BODY_SECONDS (30 s)
  of the end of the header. Past the first, the client gets 408 problem+json and the
  connection is closed; past the second, the app answers 408 (`BodyTimeout`), a request
  pipelined behind another too. Between requests, a kept-alive connection may idle for
  gunicorn's `keepalive`; an answer given before its request's body came whole closes the
  connection (the rest of the body would be read as the next request).
- **A deadline for taking an answer** (PARLEY_SEND_SECONDS, 30 s). A client that stops reading
  its answer (a stream it never reads, a large export) is closed once a write has waited that
  long, so it cannot hold a connection, and the answer's memory, for ever.
- **`100 Continue` only when the body is read** (RFC 9110 10.1.1). gunicorn sends it as soon as
  it has read the header; a request the app refuses on its header alone (a body over its
  limit, a type it does not take) then had its whole body sent for nothing. It is sent when
  the app first reads the body (the body's deadline starts then); an answer given without it
  closes the connection, since the client may or may not send the body it announced.
- **Offloading** (`offload`): work that holds the CPU for long (re-adjudicating an export,
  validating custom content) runs in gevent's pool of native threads, so the worker's other
  connections are still served meanwhile (the interpreter preempts threads, not greenlets).
"""
from __future__ import annotations

import contextlib
import errno
import functools
import os
import socket
import time
from collections.abc import Callable
from typing import TypeVar

from werkzeug.exceptions import RequestTimeout

T = TypeVar("T")

HEADER_SECONDS = float(os.environ.get("PARLEY_HEADER_SECONDS", "10"))
BODY_SECONDS = float(os.environ.get("PARLEY_BODY_SECONDS", "30"))
# A client must take some of its answer within this many seconds of each write's start (a stream's
# or a large export's reader too: only one that stops reading is cut, as nginx's send_timeout).
SEND_SECONDS = float(os.environ.get("PARLEY_SEND_SECONDS", "30"))
# Bytes of a request read after its answer, before the connection closes (close): a body the app
# refused on its header alone, up to what the front passes (8 MiB for an export), so the front
# is not cut off mid-send and its client gets the refusal, not a 502.
DRAIN_BYTES = 9 * 1024 * 1024
_END_OF_HEADER = b"\r\n\r\n"
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"

class BodyTimeout(RequestTimeout):
    """The request's body did not arrive in time: the app answers 408 problem+json."""

    def __init__(self, seconds: float):
        super().__init__(f"The request's body did not arrive within {seconds:g} seconds of its header.")


class DeadlineSocket:
    """A client socket that enforces the deadlines for reading each request.

    It follows the connection as gunicorn uses it: bytes received while idle start a request
    (the header's deadline starts), the end of the header starts the body's deadline, and
    sending the answer makes the connection idle again. Everything else is the socket's."""

    def __init__(self, sock, header_seconds: float = HEADER_SECONDS, body_seconds: float = BODY_SECONDS,
                 clock: Callable[[], float] = time.monotonic, stopping: Callable[[], bool] = lambda: False,
                 send_seconds: float = SEND_SECONDS):
        self._sock = sock
        self._send_seconds = send_seconds
        self._stopping = stopping  # the worker is stopping: an idle kept-alive connection ends
        self._waiting = False  # in recv, waiting for the first byte of the next request
        self._answered = False  # an answer was sent: a kept-alive connection from now on
        self._header_seconds, self._body_seconds = header_seconds, body_seconds
        self._clock = clock
        self._state = "idle"  # idle -> header -> body -> (answer sent) idle
        self._deadline: float | None = None
        self._tail = b""  # the last bytes of the header so far, to find its end across reads
        self._continue_owed = False  # the request asked for 100 Continue, not yet sent

    def __getattr__(self, name):
        return getattr(self._sock, name)

    @property
    def idle(self) -> bool:
        """A kept-alive connection waiting for the client's next request, nothing of it read
        yet (an answer being streamed is not idle, though its state is, since its first send;
        a new connection waiting for its first request is not either: it is served)."""
        return self._waiting and self._answered

    def expect_body(self) -> None:
        """The request being served announced a body: it is read under the body's deadline,
        even when its header came pipelined behind the request before (read while this
        connection was idle, with no deadline then)."""
        if self._state != "body":
            self._state, self._deadline, self._tail = "body", self._clock() + self._body_seconds, b""

    def owe_continue(self) -> None:
        """The request being read announced a body with `Expect: 100-continue`: send `100
        Continue` when the body is first read, not before."""
        self._continue_owed = True

    @property
    def continue_withheld(self) -> bool:
        """100 Continue was asked for and not sent: the body was not read (yet)."""
        return self._continue_owed

    def stopping(self) -> bool:
        """The worker serving this connection is stopping."""
        return self._stopping()

    def pending(self) -> bool:
        """Bytes of a request are already here, unread (asked without waiting)."""
        raw = getattr(self._sock, "_sock", self._sock)  # gevent's recv would wait for them
        try:
            return bool(raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True  # the real recv reports it

    def end(self) -> None:
        """Close the connection under a recv waiting on it, which then reads its end (gevent's
        own shutdown would cancel that recv with an error gunicorn logs)."""
        raw = getattr(self._sock, "_sock", self._sock)
        with contextlib.suppress(OSError):
            raw.shutdown(socket.SHUT_RDWR)

    def recv(self, size: int, *flags) -> bytes:
        if self._continue_owed:
            # The app reads the body (nothing else is read before its answer): now the client
            # may send it, within the body's deadline. Its header may have come pipelined
            # behind the request before, read while this connection was idle.
            self._continue_owed = False
            self._sock.sendall(CONTINUE)
            self._state, self._deadline, self._tail = "body", self._clock() + self._body_seconds, b""
        if self._state == "idle":
            if self._stopping() and self._answered and not self.pending():
                return b""  # as if the client had closed: gunicorn ends the connection
            self._waiting = True
            try:
                data = self._sock.recv(size, *flags)  # gunicorn's keepalive bounds the idle wait
            finally:
                self._waiting = False
            if data:
                self._state, self._deadline = "header", self._clock() + self._header_seconds
                self._saw(data)
            return data
        data = self._recv_before_deadline(size, *flags)
        if self._state == "header":
            self._saw(data)
        return data

    def _recv_before_deadline(self, size: int, *flags) -> bytes:
        left = (self._deadline or 0) - self._clock()
        if left > 0:
            previous = self._sock.gettimeout()
            self._sock.settimeout(left)
            try:
                return self._sock.recv(size, *flags)
            except TimeoutError:
                pass
            finally:
                self._sock.settimeout(previous)
        return self._late()

    def _late(self) -> bytes:
        if self._state == "body":
            raise BodyTimeout(self._body_seconds)
        from service.errors import problem_bytes

        late = problem_bytes(408, "Request Timeout",
                             f"The request's header did not arrive within {self._header_seconds:g} seconds.")
        with contextlib.suppress(OSError):
            self._sock.sendall(late)
        # gunicorn closes a connection quietly on a reset; this one is closed on purpose.
        raise ConnectionResetError(errno.ECONNRESET, "the request's header did not arrive in time")

    def _saw(self, data: bytes) -> None:
        seen = self._tail + data
        if _END_OF_HEADER in seen:
            self._state, self._deadline = "body", self._clock() + self._body_seconds
            self._tail = b""
        else:
            self._tail = seen[-3:]

    def sendall(self, data, *flags) -> None:
        """Send it all, each write waiting at most the send deadline for the client to take some."""
        self._answering(data)
        left = memoryview(data).cast("B")
        with self._sending():
            while left:
                left = left[self._sock.send(left, *flags):]

    def sendfile(self, file, offset: int = 0, count: int | None = None) -> int:
        """A file answer (gunicorn sends /static/* so), under the same deadline as sendall."""
        with self._sending():
            return self._sock.sendfile(file, offset, count)

    @contextlib.contextmanager
    def _sending(self):
        """Each wait for the client to take some of the answer lasts at most the send deadline."""
        previous = self._sock.gettimeout()
        self._sock.settimeout(self._send_seconds)
        try:
            yield
        except TimeoutError:
            # gunicorn closes a connection quietly on a reset; this one is closed on purpose.
            raise ConnectionResetError(errno.ECONNRESET, "the client did not take its answer in time") from None
        finally:
            self._sock.settimeout(previous)

    def _answering(self, data) -> None:
        """Sending an answer makes the connection idle again; `100 Continue` is no answer (the
        client sends its body after it, and the body's deadline still holds)."""
        if bytes(data[:13]) != b"HTTP/1.1 100 ":
            self._state, self._deadline, self._tail = "idle", None, b""
            self._answered = True
            self._continue_owed = False  # never an interim answer after the final one

    def close(self) -> None:
        """Close as gunicorn's threaded and sync workers do (its gevent worker closes at once):
        send FIN, then read what the client still sends for up to 2 s, so that the kernel does
        not answer unread request bytes with a reset that can destroy the answer just sent
        (a 413 to a body the app refused unread)."""
        from gunicorn import util

        util.close_graceful(self._sock, max_drain=DRAIN_BYTES)

    def send(self, data, *flags):
        self._answering(data)
        return self._sock.send(data, *flags)


def offload(work: Callable[..., T], *args, **kwargs) -> T:
    """work(*args, **kwargs), in a native thread when this process runs gevent (the Procfile's
    server), so the CPU it holds does not stop this worker's other connections; directly
    otherwise (tests, the Flask dev server, a threaded worker).

    What the work raises is raised here, in the caller, as if it had run here: handed back by
    the thread, not raised in it, where gevent's hub would print its traceback to stderr (not
    JSON, about 15 lines for every malformed export sent to /verifications)."""
    try:
        from gevent import monkey
    except ImportError:  # gevent not installed: nothing to hand over to
        return work(*args, **kwargs)
    if not monkey.is_module_patched("socket"):
        return work(*args, **kwargs)
    import gevent

    outcome = gevent.get_hub().threadpool.apply(_outcome, (work, args, kwargs))
    if isinstance(outcome, _Raised):
        raise outcome.error
    return outcome


class _Raised:
    """What offloaded work raised, handed back to the caller."""

    __slots__ = ("error",)

    def __init__(self, error: Exception):
        self.error = error


def _outcome(work: Callable[..., T], args: tuple, kwargs: dict) -> T | _Raised:
    try:
        return work(*args, **kwargs)
    except Exception as error:
        return _Raised(error)


@functools.cache
def _response_class():
    from gunicorn.http import wsgi

    class Response(wsgi.Response):
        """gunicorn's HTTP/1 response, which sends a body of known length in one write with its
        header: gunicorn writes the header, then the body, two sends (and two wake-ups of the
        client) for every JSON answer. A streamed answer (no Content-Length: chunked, or read
        to the close) still gets its header at once, alone, as does a file sent by sendfile."""

        _hold_header = False
        _held: bytes | None = None

        def should_close(self):
            # A worker told to stop closes each connection after its answer, and says so in
            # it (Connection: close), so the client sends its next request elsewhere.
            stopping = getattr(self.sock, "stopping", None)
            if getattr(self.sock, "continue_withheld", False) or _body_still_coming(self.req):
                # Answered before the body was asked for (the client may send it yet, or not:
                # RFC 9110 10.1.1), or before it was read whole: gunicorn would read what is
                # left of it as this connection's next bytes, and a body still on its way
                # would be taken for a request too slow to arrive (a stray 408 or 500).
                self.force_close()
            return super().should_close() or (stopping is not None and stopping())

        def send_headers(self):
            if self.headers_sent or not self._hold_header:
                super().send_headers()
                return
            tosend = self.default_headers()
            tosend.extend([f"{k}: {v}\r\n" for k, v in self.headers])
            self._held = ("".join(tosend) + "\r\n").encode("latin-1")
            self.headers_sent = True

        def write(self, arg):
            self._hold_header = (not self.headers_sent and not self.chunked and bool(arg)
                                 and self.response_length is not None)
            try:
                super().write(arg)
            finally:
                self._hold_header = False
                self._flush_held()  # a body gunicorn did not send (HEAD, 304, past the length)

        def _emit_body(self, data):
            held, self._held = self._held, None
            super()._emit_body(held + data if held is not None else data)

        def _flush_held(self):
            held, self._held = self._held, None
            if held is not None:
                from gunicorn import util

                util.write(self.sock, held)

    return Response


def _body_left(req) -> tuple[bool, int | None]:
    """(chunked, bytes of a stated length not yet taken by the app) of the request's body."""
    from gunicorn.http.body import ChunkedReader, LengthReader

    reader = getattr(getattr(req, "body", None), "reader", None)
    if isinstance(reader, ChunkedReader):
        return reader.parser is not None, None
    return False, reader.length if isinstance(reader, LengthReader) else 0


def _body_still_coming(req) -> bool:
    """Part of the request's body was neither read by the app nor received yet."""
    chunked, left = _body_left(req)
    return chunked or bool(left and left > req.unreader.buf.getbuffer().nbytes)


def _prepare_for_the_body(req, sock) -> None:
    """A request that announces a body has it read under the body's deadline. One that asks
    for 100 Continue and waits for it (none of its body here yet) gets it when the app reads
    its body (DeadlineSocket.recv), not from gunicorn now. A client that sent its body (or
    part) with the header does not wait: gunicorn's buffer holds it, the app reads it from
    there, and no 100 is sent (RFC 9110 10.1.1: a server may omit it once it has some of the
    content)."""
    chunked, left = _body_left(req)
    announced = chunked or bool(left)
    if announced and isinstance(sock, DeadlineSocket):
        sock.expect_body()
    if not (req._expected_100_continue and isinstance(sock, DeadlineSocket) and announced):
        return
    req._expected_100_continue = False  # gunicorn would send it now (wsgi.create)
    if not req.unreader.buf.getbuffer().nbytes:
        sock.owe_continue()


@functools.cache
def _worker_class():
    import gevent
    from gunicorn.http import wsgi
    from gunicorn.workers.ggevent import GeventWorker

    class Worker(GeventWorker):
        """gunicorn's gevent worker, with the deadlines of DeadlineSocket on every connection,
        and answers of known length sent with their header in one write (_response_class)."""

        def init_process(self):
            self._connections: set[DeadlineSocket] = set()
            # gunicorn's HTTP/1 path builds its responses from this module attribute (its
            # HTTP/2 path passes a class of its own); set in this worker process only.
            wsgi.Response = _response_class()
            super().init_process()

        def handle(self, listener, client, addr):
            connection = DeadlineSocket(client, stopping=self._stopping)
            self._connections.add(connection)
            try:
                super().handle(listener, connection, addr)
            finally:
                self._connections.discard(connection)

        def handle_request(self, listener_name, req, sock, addr):
            _prepare_for_the_body(req, sock)  # before gunicorn would send a 100 (wsgi.create)
            return super().handle_request(listener_name, req, sock, addr)

        def _stopping(self) -> bool:
            return not self.alive

        def handle_exit(self, sig, frame):
            """SIGTERM (a deploy, a restart, a scale down): stop as soon as what is in flight is
            answered, not after gunicorn's graceful timeout. Streams end cleanly once they have
            every stored event and long polls answer now (service/live.py Hub.drain), and
            kept-alive connections idle between requests are closed, as a client expects of a
            server that stops (it sends its next request on a new connection, to another
            worker). A connection whose request is under way is answered first, then closed."""
            super().handle_exit(sig, frame)
            gevent.spawn(self._drain)  # out of the signal handler: draining takes locks

        def _drain(self) -> None:
            if not hasattr(self, "wsgi"):  # stopped while booting (gunicorn sets `wsgi` once the app is imported)
                self.log.info("stopping while booting: nothing to drain")
                return
            try:
                parley = getattr(self.wsgi, "extensions", {}).get("parley")
                if parley is None:
                    self.log.warning("stopping: no Parley application to drain; streams end at the graceful timeout")
                else:
                    parley.live.drain()
            except Exception:
                self.log.exception("stopping: the live updates could not be drained")
            # Kept-alive connections waiting for a next request are closed; one whose request
            # has just arrived is answered (with Connection: close) instead.
            for connection in list(self._connections):
                if connection.idle and not connection.pending():
                    connection.end()

    return Worker


@functools.cache
def _logger_class():
    import logging

    from gunicorn.glogging import Logger as GunicornLogger

    class Logger(GunicornLogger):
        """gunicorn's logger, which builds an access line only when it would be printed.

        gunicorn turns its access log on whenever a logconfig_dict is given (ours is, for JSON
        lines), builds every request's line (about 25 atoms: headers, times, sizes) and then
        hands it to `gunicorn.access`, which our config sets to WARNING: every line was built
        and dropped (about 3% of a worker's samples per command). Here the access log is on
        only if that logger prints INFO; gunicorn decides it again on each reload."""

        def setup(self, cfg) -> None:
            super().setup(cfg)
            enabled: bool = self._compute_access_log_enabled()
            self._access_log_enabled = enabled and self.access_log.isEnabledFor(logging.INFO)

    return Logger


def __getattr__(name: str):
    # gunicorn imports the worker and logger classes by name in the master, before it forks;
    # gevent is imported only then, so nothing else of service/ needs it.
    if name == "Worker":
        return _worker_class()
    if name == "Logger":
        return _logger_class()
    raise AttributeError(name)
