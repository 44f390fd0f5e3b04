"""Serves the browser module at ``/marmeon.<hash>.js`` below the mount path.

The module is answered at the WSGI edge, in front of the app, as the
sitemap endpoints are: a file that every page loads and that caches keep for
a year must carry no session cookie, and the app's hooks have nothing to add
to it. Its URL holds a hash of its content, so a new release is a new URL
and the old one answers 404. It lives outside ``/_marmeon/``, which the
extension's robots.txt disallows: a crawler that renders a page may fetch
every resource the page loads, and audit tools list a blocked one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from importlib.resources import files
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.wrappers import Request, Response

from ._edge import add_front, if_match_fails, not_found, precondition_failed
from ._state import MarmeonState
from .head.state import head_state

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

_MODULE = "marmeon.js"
#: What the edge hands to the endpoint: every path that starts so.
_PREFIX = "/marmeon."
#: The module's address with any hash: the current one is served, another is
#: 404; any other path (an app's own /marmeon.config.js) is the app's.
_PATH = re.compile(r"/marmeon\.[0-9a-f]{12}\.js")
#: A year, the longest that HTTP caches are asked to keep anything.
_MAX_AGE = 31_536_000


def init_app(app: Flask, state: MarmeonState) -> None:
    """Hash the module once and, unless MARMEON_BROWSER_SCRIPT is off, serve it."""
    source = files("flask_marmeon").joinpath("static").joinpath(_MODULE).read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:12]
    head_state(state).module_path = f"{_PREFIX}{digest}.js"
    if state.settings.browser_script:
        # At the extension's WSGI edge, in front of the start-up check: one
        # wrapper for every front endpoint, one check per request.
        add_front(state, _PREFIX, ModuleEndpoint(source, digest))


def module_path(state: MarmeonState) -> str:
    """The module's path as the app sees it: ``/marmeon.<hash>.js``.

    The page's ``src`` is ``Settings.root`` (the mount path, from
    ``APPLICATION_ROOT``) followed by this path, never the request's
    ``SCRIPT_NAME``, which a client can set.
    """
    return head_state(state).module_path


class ModuleEndpoint:
    """Answer ``GET``/``HEAD /marmeon.<hash>.js`` before the app does.

    The current hash gets the module with ``Content-Type: text/javascript``
    and ``Cache-Control: public, max-age=31536000, immutable``; any other
    hash (twelve hex digits) gets 404, so that no cache keeps an old URL alive
    with new content. A precondition that fails (``If-Match``) gets an empty
    412 that no cache keeps. Everything else (another method, another path) is left
    to the app: the call returns None.
    """

    def __init__(self, source: bytes, digest: str) -> None:
        self.source = source
        self.digest = digest

    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes] | None:
        path: str = environ.get("PATH_INFO", "")
        method: str = environ.get("REQUEST_METHOD", "GET")
        if method not in ("GET", "HEAD") or not _PATH.fullmatch(path):
            return None
        if path[len(_PREFIX) : -len(".js")] != self.digest:
            return not_found(environ, start_response)
        if if_match_fails(environ, self.digest):
            return precondition_failed(environ, start_response)
        response = Response(self.source, mimetype="text/javascript")
        response.headers["Cache-Control"] = f"public, max-age={_MAX_AGE}, immutable"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.set_etag(self.digest)
        if "HTTP_IF_MATCH" in environ:
            # Werkzeug's make_conditional answers 412 to a matching If-Match
            # and to "*" alike, with the module's body and its year of
            # caching: the header was evaluated above, so it goes.
            environ = {k: v for k, v in environ.items() if k != "HTTP_IF_MATCH"}
        response.make_conditional(Request(environ))
        return response(environ, start_response)
