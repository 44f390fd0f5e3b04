"""Fetching through the app itself: a WSGI call per URL, no network.

Each request runs in a fresh ``contextvars`` context, so Flask pushes a new
app context for it even when the audit is called inside one (a crawler's
visit never shares ``g`` or a database session with another). The WSGI
environ is built from APP_URL's origin and the app's mount path, never from
an incoming request.
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from flask import Flask
from werkzeug.datastructures import Headers
from werkzeug.test import EnvironBuilder, run_wsgi_app

from ..errors import StartupError

#: The most of an answer the audit reads: the sitemap format's 50 MiB and
#: one byte, so that a file over the limit is seen to be (search engines
#: read less of a page: Google the first 15 MB of an HTML file).
MAX_BODY = 50 * 1024 * 1024

#: What the audit says it is; a route may answer crawlers differently.
USER_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; flask-marmeon-audit)"


@dataclass(frozen=True)
class Fetched:
    """An answer of the app, read whole."""

    url: str
    status: int
    headers: Headers
    body: bytes
    #: The exception the app raised, when it propagated (``app.testing`` or
    #: ``app.debug``), as ``"ZeroDivisionError: division by zero"``.
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

    Raises ValueError naming the setting when there is none: the audit
    checks absolute URLs, which need the app's public address.
    """
    state = app.extensions.get("marmeon")
    origin = getattr(getattr(state, "settings", None), "app_url", None)
    if origin:
        return str(origin)
    value = app.config.get("APP_URL") or os.environ.get("APP_URL")
    parts = urlsplit(str(value or ""))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(
            f"The audit needs the app's public address, and APP_URL is {value!r}."
            ' Set app.config["APP_URL"] (or the APP_URL environment variable) to'
            ' an http(s) URL such as "https://notes.example".'
        )
    return f"{parts.scheme}://{parts.netloc}".lower()


def app_root(app: Flask) -> str:
    """The mount path: APPLICATION_ROOT without its trailing slash."""
    state = app.extensions.get("marmeon")
    root = getattr(getattr(state, "settings", None), "root", None)
    if root is None:
        root = str(app.config.get("APPLICATION_ROOT") or "/").rstrip("/")
    return str(root)


class Fetcher:
    """Calls the app for URLs on its origin and under its mount path."""

    def __init__(self, app: Flask, origin: str, root: str) -> None:
        self.app = app
        self.origin = origin
        self.root = root
        #: The number of requests made, for the benchmark and the tests.
        self.requests = 0

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

    def get(self, url: str) -> Fetched | None:
        """GET ``url`` through the app, or None when it is not the app's."""
        path = self.own_path(url)
        if path is None:
            return None
        builder = EnvironBuilder(
            path=path,
            base_url=self.origin + self.root,
            query_string=urlsplit(url).query,
            headers=[("User-Agent", USER_AGENT), ("Accept", "*/*")],
        )
        try:
            environ = builder.get_environ()
        finally:
            builder.close()
        self.requests += 1
        # A context of its own: Flask then pushes a fresh app context.
        context = contextvars.Context()
        try:
            app_iter, status, headers = context.run(
                run_wsgi_app, self.app, environ, False
            )
            body = context.run(_read, app_iter)
        except StartupError:
            raise  # the app cannot start (H10): nothing to audit, say why
        except Exception as error:
            # In testing or debug mode Flask lets the view's exception out:
            # a crawler would get a 500, and the audit goes on to the next page.
            text = f"{type(error).__name__}: {error}"
            return Fetched(url, 500, Headers(), b"", text)
        return Fetched(url, int(status.split(None, 1)[0]), headers, body)


def _read(app_iter: Iterable[bytes]) -> bytes:
    """The answer's bytes, at most :data:`MAX_BODY`, the stream closed.

    An answer may never end (a stream of events, a generator that does not
    stop): a crawler reads a file up to a limit, and so does the audit.
    """
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in app_iter:
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BODY:
                break
    finally:
        close = getattr(app_iter, "close", None)
        if close is not None:
            close()
    return b"".join(chunks)[: MAX_BODY + 1]
