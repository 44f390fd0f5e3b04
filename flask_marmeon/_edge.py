"""The extension's one WSGI wrapper of ``app.wsgi_app``: what runs before Flask.

The extension installs it in ``init_app`` (Flask's documented place for WSGI
middleware is ``app.wsgi_app``). It does four things:

- front endpoints, registered by path prefix (:func:`add_front`): answered in
  front of the app and of the start-up check (the browser module);
- the start-up check: before the first request passes, the H10 checks run
  (StartupError while any remains), then the start hooks (:func:`on_start`),
  which add endpoints and say which paths are served without cookies;
- the cookie stripping: a request to such a path passes without its
  ``Cookie`` header, so no session is opened from it (the app's hooks see an
  empty one), and ``Set-Cookie`` is removed from the answer, whatever a hook
  set: the session is saved after every ``after_request`` hook, so only the
  edge can promise that;
- when ``MARMEON_INDEXABLE`` is false, ``X-Robots-Tag: noindex, nofollow`` on
  every response: pages, errors, the endpoints and the module.

Every request pays one ``str.startswith`` here once started (the prefixes of
all the paths the edge answers), and, on a deployment that must not be
indexed, one more header.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask

from ._state import MarmeonState
from .routing.problems import raise_on_problems

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: An endpoint answered in front of everything, even of the checks (the
#: browser module): its answer, or None to let the request pass.
FrontEndpoint = Callable[["WSGIEnvironment", "StartResponse"], "Iterable[bytes] | None"]

_NOINDEX = ("X-Robots-Tag", "noindex, nofollow")


@dataclass(frozen=True)
class CookieFree:
    """Paths that pass without cookies: those starting with ``prefix`` for
    which ``matches(path)`` is true."""

    prefix: str
    matches: Callable[[str], bool]


#: Run once when the edge starts, after the H10 checks: adds what it serves
#: and returns the paths to pass without cookies.
StartHook = Callable[[], Iterable[CookieFree]]


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


class Edge:
    """The WSGI wrapper; one per app, its part of the app's state."""

    def __init__(self, app: Flask, state: MarmeonState, wsgi_app: WSGIApplication):
        self.app = app
        self.state = state
        self.wsgi_app = wsgi_app
        self.indexable = state.settings.indexable
        self.lock = threading.Lock()
        self.front: tuple[tuple[str, FrontEndpoint], ...] = ()
        self.hooks: tuple[StartHook, ...] = ()
        self.cookie_free: tuple[CookieFree, ...] = ()
        #: The start of every path the edge answers, for the fast way through.
        self.prefixes: tuple[str, ...] = ()
        #: Whether start() has run and passed for this edge.
        self.started = False

    def start(self) -> None:
        """Run the H10 checks (raising StartupError), then the start hooks."""
        with self.lock:
            if self.started:
                return
            raise_on_problems(self.app)
            free: list[CookieFree] = []
            for hook in self.hooks:
                free.extend(hook())
            self.cookie_free = tuple(free)
            # "//": Werkzeug's routing merges repeated slashes (a client's
            # //robots.txt, or /%2Frobots.txt that the server decodes so, is
            # /robots.txt to it), so such a path takes the slow way too.
            self.prefixes = tuple(
                [prefix for prefix, _ in self.front]
                + [paths.prefix for paths in self.cookie_free]
                + ["//"]
            )
            self.started = True

    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes]:
        if not self.indexable:
            start_response = _noindex(start_response)
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
        if path.startswith("//"):
            path = "/" + path.lstrip("/")
        for paths in self.cookie_free:
            if path.startswith(paths.prefix) and paths.matches(path):
                environ = dict(environ)
                environ.pop("HTTP_COOKIE", None)
                return self.wsgi_app(environ, _without_cookies(start_response))
        return self.wsgi_app(environ, start_response)


def install(app: Flask, state: MarmeonState) -> Edge:
    """Wrap ``app.wsgi_app`` with the app's edge (from ``init_app``, first)."""
    edge = Edge(app, state, app.wsgi_app)
    state.add(edge)
    app.wsgi_app = edge  # type: ignore[method-assign]
    return edge


def _edge(state: MarmeonState) -> Edge:
    edge: Edge | None = state.parts.get(Edge)
    if edge is None:
        raise RuntimeError(
            "The extension's WSGI edge is not installed yet: call this from"
            " a module's init_app, after flask_marmeon._edge.install()."
        )
    return edge


def edge_of(state: MarmeonState) -> Edge:
    """The app's edge (its part of the app's state)."""
    return _edge(state)


def add_front(state: MarmeonState, prefix: str, endpoint: FrontEndpoint) -> None:
    """Answer the paths that start with ``prefix`` with ``endpoint``, in front
    of the app and of the start-up check (call it from ``init_app``)."""
    edge = _edge(state)
    edge.front = (*edge.front, (prefix, endpoint))


def on_start(state: MarmeonState, hook: StartHook) -> None:
    """Run ``hook`` when the edge starts, after the H10 checks pass, in the
    order the hooks were added."""
    edge = _edge(state)
    edge.hooks = (*edge.hooks, hook)
