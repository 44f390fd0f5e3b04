"""Serves the browser module under ``/_marmeon/``.

The module is answered at the WSGI edge, in front of the app, as the
sitemap endpoints are: a file that every page loads and that caches keep for
a year must carry no session cookie, and the app's hooks have nothing to add
to it. Its URL holds a hash of its content, so a new release is a new URL
and the old one answers 404.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from importlib.resources import files
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.wrappers import Request, Response

from ._edge import add_front
from ._state import MarmeonState

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

_MODULE = "marmeon.js"
_PREFIX = "/_marmeon/marmeon."
#: A year, the longest that HTTP caches are asked to keep anything.
_MAX_AGE = 31_536_000


def init_app(app: Flask, state: MarmeonState) -> None:
    """Hash the module once and, unless MARMEON_BROWSER_SCRIPT is off, serve it."""
    source = files("flask_marmeon").joinpath("static").joinpath(_MODULE).read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:12]
    state.extra["browser_module_path"] = f"{_PREFIX}{digest}.js"
    if state.settings.browser_script:
        # At the extension's WSGI edge (sitemap/views.py), in front of the
        # start-up check: one wrapper for both, one check per request.
        add_front(state, _PREFIX, ModuleEndpoint(source, digest))


def module_path(state: MarmeonState) -> str:
    """The module's URL path, with its content hash: ``/_marmeon/marmeon.<hash>.js``.

    The path is relative to the app's root: prefix ``request.script_root``
    when the app is mounted below one.
    """
    path: str = state.extra["browser_module_path"]
    return path


class ModuleEndpoint:
    """Answer ``GET``/``HEAD /_marmeon/marmeon.<hash>.js`` before the app does.

    The current hash gets the module with ``Content-Type: text/javascript``
    and ``Cache-Control: public, max-age=31536000, immutable``; any other hash
    gets 404, so that no cache keeps an old URL alive with new content.
    Everything else (another method, another path) is left to the app: the
    call returns None.
    """

    def __init__(self, source: bytes, digest: str) -> None:
        self.source = source
        self.digest = digest

    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes] | None:
        path: str = environ.get("PATH_INFO", "")
        method: str = environ.get("REQUEST_METHOD", "GET")
        ours = path.startswith(_PREFIX) and path.endswith(".js")
        if not ours or method not in ("GET", "HEAD"):
            return None
        if path[len(_PREFIX) : -len(".js")] != self.digest:
            response = Response("Not Found", status=404, mimetype="text/plain")
            response.cache_control.no_store = True
            return response(environ, start_response)
        response = Response(self.source, mimetype="text/javascript")
        response.cache_control.public = True
        response.cache_control.max_age = _MAX_AGE
        response.cache_control.immutable = True
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.set_etag(self.digest)
        response.make_conditional(Request(environ))
        return response(environ, start_response)
