"""Fetching through the app itself: a WSGI call per URL, no network.

Each request runs in a fresh ``contextvars`` context, so Flask pushes a new
app context for it even when the audit is called inside one (a crawler's
visit never shares ``g`` or a database session with another). The WSGI
environ is built from APP_URL's origin and the app's mount path, never from
an incoming request.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit

from flask import Flask
from werkzeug.datastructures import Headers
from werkzeug.test import create_environ, run_wsgi_app

from ..config import app_url_value, environ, parse_app_url, parse_root
from ..errors import StartupError
from .findings import option, shorten

#: The most of an answer the audit reads: the sitemap format's 50 MiB and
#: one byte, so that a file over the limit is seen to be (search engines
#: read less of a page: Google the first 15 MB of an HTML file).
MAX_BODY = option("sitemap-too-large", "mib") * 1024 * 1024

#: How long the audit waits for an answer by default, in seconds: a crawler
#: gives up on a page long before (and the audit must end, in CI above all).
TIMEOUT = 30.0

#: The answers read as pages.
HTML_TYPES = ("text/html", "application/xhtml+xml")

#: What the audit says it is; a route may answer crawlers differently.
USER_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; flask-marmeon-audit)"


@dataclass(frozen=True)
class Fetched:
    """An answer of the app, read whole."""

    url: str
    status: int
    headers: Headers
    body: bytes
    #: Why there is no real answer, as ``"the view raised ZeroDivisionError:
    #: division by zero"`` (the exception propagated: ``app.testing`` or
    #: ``app.debug``) or ``"no answer within 30 s"``.
    error: str | None = None

    @property
    def mimetype(self) -> str:
        """The Content-Type without parameters, lower case."""
        return self.headers.get("Content-Type", "").split(";")[0].strip().lower()

    @property
    def charset(self) -> str:
        """The Content-Type's charset, else UTF-8."""
        for part in self.headers.get("Content-Type", "").split(";")[1:]:
            name, _, value = part.partition("=")
            if name.strip().lower() == "charset" and value.strip():
                return value.strip().strip('"')
        return "utf-8"

    @property
    def is_page(self) -> bool:
        """An answer the audit reads as a page (200, HTML)."""
        return self.status == 200 and self.mimetype in HTML_TYPES

    def text(self) -> str:
        """The body decoded with its charset (undecodable bytes replaced)."""
        try:
            return self.body.decode(self.charset, "replace")
        except LookupError:
            return self.body.decode("utf-8", "replace")


def split_url(url: str) -> SplitResult | None:
    """``urlsplit(url)``, or None for text that it cannot split.

    The pages and files the audit reads are the app's, and may hold any text
    where a URL goes: ``urlsplit`` raises ValueError for an unclosed ``[``.
    """
    try:
        return urlsplit(url)
    except ValueError:
        return None


def app_origin(app: Flask) -> str:
    """APP_URL's origin for ``app``, from the extension's settings or config.

    Read as the extension reads it (``config.parse_app_url``), for an app
    without the extension too. Raises ValueError naming the setting when
    there is none: the audit checks absolute URLs, which need the app's
    public address.
    """
    state = app.extensions.get("marmeon")
    origin = getattr(getattr(state, "settings", None), "app_url", None)
    if origin:
        return str(origin)
    value = app_url_value(app.config, environ())
    try:
        origin = parse_app_url(value)
    except (StartupError, TypeError, ValueError):
        origin = None
    if origin is None:
        raise ValueError(
            f"The audit needs the app's public address, and APP_URL is {value!r}."
            ' Set app.config["APP_URL"] (or the APP_URL environment variable) to'
            ' an http(s) URL such as "https://notes.example".'
        )
    return str(origin)


def app_root(app: Flask) -> str:
    """The mount path (``config.parse_root``: ``""`` at the root, else
    APPLICATION_ROOT without its trailing slash)."""
    state = app.extensions.get("marmeon")
    root = getattr(getattr(state, "settings", None), "root", None)
    if root is None:
        root = parse_root(app.config.get("APPLICATION_ROOT"))
    return str(root)


class _NoAnswer(Exception):
    """The call did not end in time."""


def _serve(jobs: queue.SimpleQueue[Any]) -> None:
    """Run each job put in ``jobs``, in turn, until a None."""
    while (job := jobs.get()) is not None:
        call, answers = job
        try:
            answers.put((True, call()))
        except BaseException as error:  # handed to the caller, raised there
            answers.put((False, error))


class Fetcher:
    """Calls the app for URLs on its origin and under its mount path.

    Each call may take at most ``timeout`` seconds (None: no limit); a URL
    whose answer takes longer is reported as a 504 with its reason. The
    calls run on a thread of the fetcher's own: a thread cannot be stopped,
    so a call that takes longer is left to end (or not) on its daemon
    thread, and the next call gets a new thread. One thread serves all the
    calls that end in time: handing a call over costs about 18 µs, where a
    thread per call costs about 100 µs (a page of benchmarks/audit.py is
    two calls, and the audit's own cost about 0.4 ms a page).
    """

    def __init__(
        self, app: Flask, origin: str, root: str, timeout: float | None = TIMEOUT
    ) -> None:
        self.app = app
        self.origin = origin
        self.root = root
        self.timeout = timeout
        self._jobs: queue.SimpleQueue[Any] | None = None
        #: The number of requests made, for the benchmark and the tests.
        self.requests = 0

    def close(self) -> None:
        """End the thread that calls the app, after its call when one is
        stuck (a new one starts if needed)."""
        if self._jobs is not None:
            self._jobs.put(None)
            self._jobs = None

    def _call(self, call: Callable[[], Any]) -> Any:
        """``call()``'s value (or exception); _NoAnswer after ``timeout``."""
        if self.timeout is None:
            return call()
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            threading.Thread(
                target=_serve, args=(self._jobs,), name="marmeon-audit", daemon=True
            ).start()
        answers: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._jobs.put((call, answers))
        try:
            ok, value = answers.get(timeout=self.timeout)
        except queue.Empty:
            self.close()  # its thread ends after the stuck call, if it ever returns
            raise _NoAnswer from None
        if ok:
            return value
        raise value

    def own_path(self, url: str) -> str | None:
        """The path inside the app for ``url``, or None when it is not the app's.

        Another origin, a path outside the mount path, or text that is no
        URL, is not the app's: the audit neither fetches nor judges it.
        """
        parts = split_url(url)
        if parts is None or f"{parts.scheme}://{parts.netloc}".lower() != self.origin:
            return None
        path = parts.path or "/"
        if self.root:
            if path != self.root and not path.startswith(self.root + "/"):
                return None
            path = path[len(self.root) :] or "/"
        return path

    def owns(self, url: str) -> bool:
        """Whether ``url`` is the app's (see :meth:`own_path`)."""
        return self.own_path(url) is not None

    def get(self, url: str) -> Fetched | None:
        """GET ``url`` through the app, or None when it is not the app's."""
        path = self.own_path(url)
        if path is None:
            return None
        environ = create_environ(
            path=path,
            base_url=self.origin + self.root,
            query_string=urlsplit(url).query,
            headers=[("User-Agent", USER_AGENT), ("Accept", "*/*")],
        )
        self.requests += 1
        # A context of its own: Flask then pushes a fresh app context.
        context = contextvars.Context()
        # Set when the audit gives up on the answer: its reading stops at
        # the next chunk and the answer is closed, on its own thread.
        given_up = threading.Event()

        def call() -> tuple[str, Headers, bytes]:
            app_iter, status, headers = context.run(
                run_wsgi_app, self.app, environ, False
            )
            return status, headers, context.run(_read, app_iter, given_up)

        try:
            status, headers, body = self._call(call)
        except StartupError:
            raise  # the app cannot start (H10): nothing to audit, say why
        except _NoAnswer:
            given_up.set()
            # What a proxy in front of the app would answer; a crawler would
            # have given up, and the audit goes on to the next page.
            text = f"no answer within {self.timeout:g} s"
            return Fetched(url, 504, Headers(), b"", text)
        except Exception as error:
            # In testing or debug mode Flask lets the view's exception out:
            # a crawler would get a 500, and the audit goes on to the next page.
            text = f"the view raised {type(error).__name__}: {shorten(str(error))}"
            return Fetched(url, 500, Headers(), b"", text)
        return Fetched(url, int(status.split(None, 1)[0]), headers, body)


def _read(app_iter: Iterable[bytes], given_up: threading.Event) -> bytes:
    """The answer's bytes, at most :data:`MAX_BODY`, the stream closed.

    An answer may never end (a stream of events, a generator that does not
    stop, empty chunks forever): a crawler reads a file up to a limit, and
    so does the audit; and once the audit has given up on the answer
    (``given_up``, its timeout) the reading stops at the next chunk. Only a
    view that never hands over a chunk keeps its thread.
    """
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in app_iter:
            if given_up.is_set():
                return b""
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BODY:
                break
    finally:
        close = getattr(app_iter, "close", None)
        if close is not None:
            close()
    return b"".join(chunks)[: MAX_BODY + 1]
