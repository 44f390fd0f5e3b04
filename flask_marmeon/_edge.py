"""The extension's one WSGI wrapper of ``app.wsgi_app``: what runs before Flask.

The extension installs it in ``init_app`` (Flask's documented place for WSGI
middleware is ``app.wsgi_app``). It does four things:

- front endpoints, registered by path prefix (:func:`add_front`): answered in
  front of the app and of the start-up check (the browser module);
- the start-up check: before the first request passes, the H10 checks run
  (StartupError while any remains), then the start hooks (:func:`on_start`),
  which add endpoints and name those served without cookies;
- the cookie stripping: a request that the app's routing gives to such an
  endpoint passes without its ``Cookie`` header, so no session is opened
  from it (the app's hooks see an empty one), and ``Set-Cookie`` is removed
  from the answer, whatever a hook set: the session is saved after every
  ``after_request`` hook, so only the edge can promise that;
- when ``MARMEON_INDEXABLE`` is false, ``X-Robots-Tag: noindex, nofollow`` on
  every response: pages, errors, the endpoints and the module.

Which endpoint a request reaches is decided the way Flask decides it: the
app's own URL adapter matches the request (``Flask.create_url_adapter``),
never a comparison of the raw ``PATH_INFO``, which a client and a server
shape (gunicorn under ``SCRIPT_NAME=/blog`` hands ``/blogrobots.txt`` over
as ``robots.txt``; Werkzeug's routing reads it as ``/robots.txt``). Every
request pays one ``str.lstrip`` and one ``str.startswith`` here once started
(Werkzeug's own first step, then the prefixes of the paths the edge
answers); only a request that passes them is matched, and, on a deployment
that must not be indexed, every answer gets one more header.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.routing import RoutingException
from werkzeug.wrappers import Request, Response

from ._state import MarmeonState, get_state
from .checks import Problem, startup_error

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: An endpoint answered in front of everything, even of the checks (the
#: browser module): its answer, or None to let the request pass.
FrontEndpoint = Callable[["WSGIEnvironment", "StartResponse"], "Iterable[bytes] | None"]

_NOINDEX = ("X-Robots-Tag", "noindex, nofollow")
#: The most (path, method) answers an edge keeps.
_ROUTED_MEMO = 1024


@dataclass(frozen=True)
class CookieFree:
    """An endpoint served without cookies: the requests that the app's
    routing gives to ``endpoint``. Every path it answers starts with
    ``prefix`` (as the routing reads it: one leading slash), which lets the
    other requests pass without a match."""

    prefix: str
    endpoint: str


#: Run once when the edge starts, after the H10 checks: adds what it serves
#: and returns the endpoints to serve without cookies.
StartHook = Callable[[], Iterable[CookieFree]]

#: Run once, at the first request the app handles in development
#: (``app.debug``): adds what only development needs (a warning's hook), so
#: that production requests do not pass through it.
DevelopmentHook = Callable[[], None]


def _without_cookies(start_response: StartResponse) -> StartResponse:
    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
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

    return start


def _noindex(start_response: StartResponse) -> StartResponse:
    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        return start_response(status, [*headers, _NOINDEX], exc_info)

    return start


def check_routes(app: Flask) -> list[Problem]:
    """Return every H10 problem of ``app``; empty when none.

    A marked route must answer GET, not be ``internal=True``, not belong to
    the api group, not sit behind ``authenticate`` or ``login_required``, say
    ``authorize=everyone``, and have a sitemap provider when it has
    parameters; and APP_URL must be set when any route is marked. Any
    route's ``locales=`` must be on a localized route and name tags of
    APP_LOCALES only, and no plain route may answer an address of a
    localized route (``/de/about`` beside a localized ``/about``).
    Generated images need SECRET_KEY (when MARMEON_OG_IMAGES is on), and a
    logo and fonts that can be read. Every check that a subsystem
    registered runs (:mod:`flask_marmeon.checks`).
    """
    return get_state(app).checks.run(app)


def raise_on_problems(app: Flask) -> None:
    """Raise :class:`~flask_marmeon.StartupError` (H10) naming every problem.

    The extension calls it before the app answers its first request; call it
    yourself once the routes are registered to stop the start earlier.
    """
    problems = check_routes(app)
    if problems:
        error = startup_error(problems)
        # So that check-routes can print the table of an app whose factory
        # ends with this call.
        error.app = app
        raise error


class Edge:
    """The WSGI wrapper; one per app, its part of the app's state."""

    def __init__(self, app: Flask, state: MarmeonState, wsgi_app: WSGIApplication):
        self.app = app
        self.wsgi_app = wsgi_app
        self.indexable = state.settings.indexable
        self.lock = threading.Lock()
        self.front: tuple[tuple[str, FrontEndpoint], ...] = ()
        self.hooks: tuple[StartHook, ...] = ()
        self.development_hooks: tuple[DevelopmentHook, ...] = ()
        #: Whether the development hooks have run (app.debug may be switched
        #: on after the first request: it is read on every request).
        self.developing = False
        self.config = app.config
        #: The endpoints served without cookies.
        self.cookie_free: frozenset[str] = frozenset()
        #: The start of every path the edge answers, without its leading
        #: slash, for the fast way through.
        self.prefixes: tuple[str, ...] = ()
        #: Whether start() has run and passed for this edge.
        self.started = False
        #: (path, method) -> whether the routing gives it to a cookie-free
        #: endpoint, when the answer does not depend on the host (no host or
        #: subdomain matching); bounded, as a client chooses the paths.
        self.routed: dict[tuple[str, str], bool] | None = (
            None if app.url_map.host_matching or app.subdomain_matching else {}
        )

    def start(self) -> None:
        """Run the H10 checks (raising StartupError), then the start hooks."""
        with self.lock:
            if self.started:
                return
            raise_on_problems(self.app)
            free: list[CookieFree] = []
            for hook in self.hooks:
                free.extend(hook())
            self.cookie_free = frozenset(paths.endpoint for paths in free)
            self.prefixes = tuple(
                prefix.lstrip("/")
                for prefix in [prefix for prefix, _ in self.front]
                + [paths.prefix for paths in free]
            )
            self.started = True

    def develop(self) -> None:
        """Run the development hooks (once per edge)."""
        with self.lock:
            if self.developing:
                return
            for hook in self.development_hooks:
                hook()
            self.developing = True

    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes]:
        # The config's dict itself, not the app.debug property: a C look-up.
        if not self.developing and self.config.get("DEBUG"):
            self.develop()
        if not self.indexable:
            start_response = _noindex(start_response)
        # Werkzeug's routing matches "/" + PATH_INFO without its leading
        # slashes: "robots.txt" and "//robots.txt" are "/robots.txt" to it.
        tail: str = environ.get("PATH_INFO", "").lstrip("/")
        if self.started and not tail.startswith(self.prefixes):
            return self.wsgi_app(environ, start_response)
        for prefix, endpoint in self.front:
            if tail.startswith(prefix.lstrip("/")):
                answer = endpoint({**environ, "PATH_INFO": "/" + tail}, start_response)
                if answer is not None:
                    return answer
        if not self.started:
            self.start()
        if self.cookie_free and self.served_without_cookies(environ, tail):
            environ = dict(environ)
            environ.pop("HTTP_COOKIE", None)
            return self.wsgi_app(environ, _without_cookies(start_response))
        return self.wsgi_app(environ, start_response)

    def served_without_cookies(self, environ: WSGIEnvironment, tail: str) -> bool:
        """Whether the routing gives the request to a cookie-free endpoint
        (the answer kept per path and method when the host cannot change it:
        matching costs about as much as the rest of a sitemap request)."""
        if self.routed is None:
            return self.routed_endpoint(environ) in self.cookie_free
        key = (tail, environ.get("REQUEST_METHOD", "GET"))
        known = self.routed.get(key)
        if known is None:
            known = self.routed_endpoint(environ) in self.cookie_free
            # With TRUSTED_HOSTS the host can refuse the request: not kept.
            trusted = self.app.config.get("TRUSTED_HOSTS") is None
            if trusted and len(self.routed) < _ROUTED_MEMO:
                self.routed[key] = known
        return known

    def routed_endpoint(self, environ: WSGIEnvironment) -> str | None:
        """The endpoint the app's routing gives the request, as Flask binds
        and matches it; None when it gives none (404, 405, a redirect, a
        host the app does not trust)."""
        request = self.app.request_class(environ)
        try:
            adapter = self.app.create_url_adapter(request)
            assert adapter is not None  # a request always has one
            try:
                rule, _ = adapter.match(return_rule=True)
            except MethodNotAllowed:
                # The 405 at an endpoint's address is that endpoint's answer
                # (a POST to /sitemap.xml): the endpoint GET reaches there.
                rule, _ = adapter.match(method="GET", return_rule=True)
        except (HTTPException, RoutingException):
            return None
        return str(rule.endpoint)


def install(app: Flask, state: MarmeonState) -> None:
    """Wrap ``app.wsgi_app`` with the app's edge (from ``init_app``, first)."""
    edge = Edge(app, state, app.wsgi_app)
    state.add(edge)
    app.wsgi_app = edge  # type: ignore[method-assign]


def edge_of(state: MarmeonState) -> Edge:
    """The app's edge (its part of the app's state)."""
    return state.part(Edge)


def add_front(state: MarmeonState, prefix: str, endpoint: FrontEndpoint) -> None:
    """Answer the paths that start with ``prefix`` with ``endpoint``, in front
    of the app and of the start-up check (call it from ``init_app``)."""
    edge_of(state).front += ((prefix, endpoint),)


def on_start(state: MarmeonState, hook: StartHook) -> None:
    """Run ``hook`` when the edge starts, after the H10 checks pass, in the
    order the hooks were added."""
    edge_of(state).hooks += (hook,)


def on_development(state: MarmeonState, hook: DevelopmentHook) -> None:
    """Run ``hook`` once, before the first request handled in development
    (``app.debug``, read on every request), in the order the hooks were added."""
    edge_of(state).development_hooks += (hook,)


# -- what the front endpoints answer alike ------------------------------------


def not_found(
    environ: WSGIEnvironment, start_response: StartResponse
) -> Iterable[bytes]:
    """A front endpoint's 404, which no cache keeps (the address may be
    right tomorrow, after a deploy)."""
    response = Response("Not Found\n", status=404, mimetype="text/plain")
    response.cache_control.no_store = True
    return response(environ, start_response)


def if_match_fails(environ: WSGIEnvironment, tag: str) -> bool:
    """Whether the request's ``If-Match`` names neither ``tag`` (compared
    strongly) nor ``*``: then the answer is an empty 412 that no cache
    keeps (:func:`precondition_failed`).

    An origin server evaluates ``If-Match`` before the method (RFC 9110,
    13.1.1), and anybody may send it: the 412 must not carry the public
    caching of what it answers for, or a shared cache would hand it to
    every visitor.
    """
    if "HTTP_IF_MATCH" not in environ:
        return False
    if_match = Request(environ).if_match
    return not (if_match.star_tag or if_match.is_strong(tag))


def precondition_failed(
    environ: WSGIEnvironment, start_response: StartResponse
) -> Iterable[bytes]:
    """A front endpoint's answer when :func:`if_match_fails`."""
    failed = Response(status=412)
    failed.cache_control.no_store = True
    return failed(environ, start_response)
