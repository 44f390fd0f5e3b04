"""/sitemap.xml and /robots.txt, and the start-up check at the WSGI edge.

The extension wraps ``app.wsgi_app`` (Flask's documented place for WSGI
middleware). Before the first request passes, the wrapper runs the H10 checks
and decides whether the endpoints exist: only when a route is marked, and
only on a path that no route of the app answers (the app's own route on
/sitemap.xml or /robots.txt wins, and so does a catch-all that is not
localized). Requests to the endpoints then pass without their ``Cookie``
header, so no session is opened from it (the app's hooks see an empty one),
and ``Set-Cookie`` is removed from the answer, whatever a hook set: the
session is saved after every ``after_request`` hook, so only the edge can
promise that.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from flask import Flask, Response
from werkzeug.exceptions import HTTPException
from werkzeug.routing.exceptions import RequestRedirect

from .._state import MarmeonState
from ..routing.checks import check_routes, startup_error
from ..routing.rule import enforce_policies, is_marked
from .build import Sitemap, build_sitemap
from .cache import SitemapCache
from .entries import is_localized

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

SITEMAP_PATH = "/sitemap.xml"
ROBOTS_PATH = "/robots.txt"
# What the parts' <int(min=1)> rule answers, leading zeros included.
_PART = re.compile(r"/sitemap-0*[1-9][0-9]*\.xml")
_ENDPOINTS = {
    SITEMAP_PATH: "marmeon_sitemap",
    ROBOTS_PATH: "marmeon_robots",
}


def robots_txt(origin: str) -> str:
    """The specification's robots.txt: three lines, then the sitemap's address."""
    return f"User-agent: *\nDisallow: /_marmeon/\n\nSitemap: {origin}{SITEMAP_PATH}\n"


def _host(app: Flask, origin: str) -> str:
    """The host the endpoints answer on: APP_URL's in an app that matches
    hosts (a rule without a host would answer none), else any."""
    return urlsplit(origin).netloc if app.url_map.host_matching else "localhost"


def _taken(app: Flask, path: str, origin: str) -> bool:
    """Whether a route of the app (not a localized one) answers ``path``."""
    adapter = app.url_map.bind(_host(app, origin), "/")
    try:
        rule, _ = adapter.match(path, method="GET", return_rule=True)
    except RequestRedirect:
        return True
    except HTTPException as error:
        # 405: a route answers the path, with other methods.
        return error.code == 405
    return not is_localized(rule)


def _headers(state: MarmeonState) -> dict[str, str]:
    return {"Cache-Control": f"public, max-age={int(state.settings.sitemap_ttl)}"}


def _unavailable(retry_after: int) -> Response:
    return Response(
        "The sitemap is being rebuilt after an error; retry later.\n",
        status=503,
        mimetype="text/plain",
        headers={"Retry-After": str(retry_after), "Cache-Control": "no-store"},
    )


def _cache(state: MarmeonState) -> SitemapCache[Sitemap]:
    cache = state.sitemap_cache
    assert cache is not None, "made by sitemap.views.init_app()"
    return cache


def _register(app: Flask, state: MarmeonState) -> frozenset[str]:
    """Add the endpoints that should exist; return the paths they serve."""
    if not any(is_marked(rule) for rule in app.url_map.iter_rules()):
        return frozenset()
    origin = state.settings.app_url or ""
    served: set[str] = set()
    host: dict[str, Any] = (
        {"host": _host(app, origin)} if app.url_map.host_matching else {}
    )

    def sitemap() -> Response:
        lookup = _cache(state).get()
        if lookup.value is None:
            return _unavailable(lookup.retry_after)
        return Response(
            lookup.value.main(), mimetype="application/xml", headers=_headers(state)
        )

    def robots() -> Response:
        return Response(
            robots_txt(origin), mimetype="text/plain", headers=_headers(state)
        )

    def sitemap_part(number: int) -> Response:
        lookup = _cache(state).get()
        if lookup.value is None:
            return _unavailable(lookup.retry_after)
        body = lookup.value.part(number)
        if body is None:
            return Response("Not Found\n", status=404, mimetype="text/plain")
        return Response(body, mimetype="application/xml", headers=_headers(state))

    views: dict[str, Callable[..., Response]] = {
        SITEMAP_PATH: sitemap,
        ROBOTS_PATH: robots,
    }
    for path, view in views.items():
        if not _taken(app, path, origin):
            app.add_url_rule(path, _ENDPOINTS[path], view, methods=["GET"], **host)
            served.add(path)
    if state.settings.sitemap_index and not _taken(app, "/sitemap-1.xml", origin):
        app.add_url_rule(
            "/sitemap-<int(min=1):number>.xml",
            "marmeon_sitemap_part",
            sitemap_part,
            methods=["GET"],
            **host,
        )
        served.add("parts")
    return frozenset(served)


#: An endpoint answered in front of everything, even of the checks (the
#: browser module): its answer, or None to let the request pass.
FrontEndpoint = Callable[["WSGIEnvironment", "StartResponse"], "Iterable[bytes] | None"]


class SitemapEdge:
    """The extension's one WSGI wrapper: the start-up check, cookie-free
    endpoints, and the front endpoints of other modules (see :func:`add_front`).

    Every request pays one ``str.startswith`` here once the checks have
    passed: the prefixes of all the paths the edge answers.
    """

    def __init__(self, app: Flask, state: MarmeonState, wsgi_app: WSGIApplication):
        self.app = app
        self.state = state
        self.wsgi_app = wsgi_app
        self.lock = threading.Lock()
        self.served: frozenset[str] = frozenset()
        self.front: tuple[tuple[str, FrontEndpoint], ...] = ()
        #: The start of every path the edge answers, for the fast way through.
        self.prefixes: tuple[str, ...] = ()
        #: Whether start() has run and passed for this edge.
        self.started = False

    def start(self) -> None:
        """Run the H10 checks (raising StartupError), add the endpoints and
        enforce the routes' policies."""
        with self.lock:
            if self.started:
                return
            problems = check_routes(self.app)
            if problems:
                raise startup_error(problems)
            self.served = _register(self.app, self.state)
            enforce_policies(self.app)
            self.prefixes = self._prefixes()
            self.started = True

    def _prefixes(self) -> tuple[str, ...]:
        prefixes = [prefix for prefix, _ in self.front]
        prefixes += sorted(path for path in self.served if path.startswith("/"))
        if "parts" in self.served:
            prefixes.append("/sitemap-")
        return tuple(prefixes)

    def _is_served(self, path: str) -> bool:
        if path in self.served:
            return True
        return "parts" in self.served and _PART.fullmatch(path) is not None

    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        if self.started and not path.startswith(self.prefixes):
            return self.wsgi_app(environ, start_response)
        for prefix, endpoint in self.front:
            if path.startswith(prefix):
                answer = endpoint(environ, start_response)
                if answer is not None:
                    return answer
        if not self.started:
            self.start()
        if not self.served or not self._is_served(path):
            return self.wsgi_app(environ, start_response)
        environ = dict(environ)
        environ.pop("HTTP_COOKIE", None)

        def start_without_cookies(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Any:
            kept: list[tuple[str, str]] = []
            for name, value in headers:
                lower = name.lower()
                if lower == "set-cookie":
                    continue
                if lower == "vary":
                    tokens = [t.strip() for t in value.split(",")]
                    value = ", ".join(t for t in tokens if t.lower() != "cookie")
                    if not value:
                        continue
                kept.append((name, value))
            return start_response(status, kept, exc_info)

        return self.wsgi_app(environ, start_without_cookies)


def init_app(app: Flask, state: MarmeonState) -> None:
    """Make the app's sitemap cache and wrap ``app.wsgi_app``."""
    settings = state.settings
    state.sitemap_cache = SitemapCache(
        lambda: build_sitemap(app),
        ttl=settings.sitemap_ttl,
        retry_after=settings.sitemap_retry_after,
    )
    edge = SitemapEdge(app, state, app.wsgi_app)
    state.edge = edge
    app.wsgi_app = edge  # type: ignore[method-assign]


def add_front(state: MarmeonState, prefix: str, endpoint: FrontEndpoint) -> None:
    """Answer the paths that start with ``prefix`` with ``endpoint``, in front
    of the app and of the start-up check (call it from ``init_app``)."""
    edge = state.edge
    assert edge is not None, "add_front() runs after sitemap.views.init_app()"
    edge.front = (*edge.front, (prefix, endpoint))
