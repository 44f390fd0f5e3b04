"""Werkzeug's own redirects, with a ``Location`` from configuration.

The routing redirects by itself, on every route of the app: merged slashes
(``/notes//1`` to ``/notes/1``), a rule ending in a slash (``/docs`` to
``/docs/``), a rule's ``redirect_to``, defaults and aliases. Werkzeug builds
that ``Location`` from the request: its ``Host``, scheme and ``SCRIPT_NAME``,
which a client sets, or ``X-Forwarded-Host`` and ``X-Forwarded-Prefix``
behind ProxyFix. A 308 may be cached, so such a redirect could send every
later visitor to a host of the attacker's choosing.

Before the app's ``before_request`` hooks run, the extension replaces the
request's routing exception, when it is such a redirect, with the same
redirect whose ``Location`` is a path under the mount path
(``Settings.root``, from APPLICATION_ROOT): the request is matched again by
an adapter bound under the mount path, so the path is Werkzeug's own, only
its start differs. A target on another host (a ``redirect_to`` that names
one, a rule of a host-matching map) is the app's configuration and left as
it is.

It is the app's first ``before_request`` hook, and reads the request
object itself, not through the ``request`` proxy. (A URL value
preprocessor instead, which Flask calls with the routing's values, cost
more: Flask reads its two arguments through the proxy for it, 18k
instructions a request against the hook's 7k, benchmarks/README.md.)
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Request, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from .._state import get_state
from ..i18n.urls import root_adapter


def configured_location(app: Flask, root: str) -> str | None:
    """The path (and query) under ``root`` that the routing redirects the
    request to; None when it does not redirect it, or redirects it to
    another host."""
    mounted = root_adapter(app, root)
    try:
        mounted.match()
    except RequestRedirect as redirect:
        target = urlsplit(redirect.new_url)
    except HTTPException:
        return None
    else:
        return None
    if target.scheme != mounted.url_scheme or target.netloc != mounted.get_host(None):
        return None
    # One leading slash: a Location starting "//" would name a host.
    path = "/" + target.path.lstrip("/")
    return urlunsplit(("", "", path, target.query, ""))


def mount_redirects() -> None:
    """The ``before_request`` hook: Werkzeug's redirect, rebuilt under the
    mount path (Flask raises the routing exception after the hooks)."""
    req: Request = request._get_current_object()  # type: ignore[attr-defined]
    exception = req.routing_exception
    if not isinstance(exception, RequestRedirect):
        return
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    location = configured_location(app, get_state(app).settings.root)
    if location is not None:
        rebuilt = RequestRedirect(location)
        rebuilt.code = exception.code
        req.routing_exception = rebuilt
