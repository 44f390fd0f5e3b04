"""A page's own address from its route: the default canonical of a route
that is not localized (MARMEON_DEFAULT_CANONICAL), and the values that give
a page no address of its own (a ``.`` or ``..`` path segment).

A path value such as ``x/../../admin`` (``/en/d/x%2F..%2F..%2Fadmin``)
builds an address that a browser or a crawler resolves to another page
(``/admin``): such a page gets no default canonical and no hreflang, as it
gets no sitemap entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request
from werkzeug.routing import BuildError

from .._log import warn_once
from .._state import MarmeonState, get_state
from ..page import Page
from .urls import build_path, is_localized_rule, root_adapter

_DOTS = (".", "..")


def dot_segment(values: Mapping[str, Any]) -> str | None:
    """The name of a value that is, or has a path segment that is, ``.`` or
    ``..``; None when there is none."""
    for name, value in values.items():
        if not isinstance(value, str):
            continue
        if value in _DOTS or (
            "/" in value and any(part in _DOTS for part in value.split("/"))
        ):
            return name
    return None


def warn_dot_segment(
    app: Flask, state: MarmeonState, endpoint: str, name: str, value: object
) -> None:
    """Development's warning, once per endpoint, for a page left without
    its addresses by a dot segment."""
    if not app.debug:
        return
    warn_once(
        state,
        ("head.dot-segment", endpoint),
        "The value %r of %r (endpoint %r) has a '.' or '..' segment, so the"
        " address it builds names another page once a browser resolves it:"
        " the page's head has no default canonical and no hreflang, and the"
        " sitemap leaves such a value out.",
        value,
        name,
        endpoint,
    )


def own_page() -> Page | None:
    """The Page of the current request on a route that is not localized:
    its own address (the rule built with the request's view arguments,
    under the configured mount path, no query string), or None (a localized
    route, no rule, a dot segment, a rule that does not build)."""
    # The request itself, not the proxy: each read through the proxy is a further
    # look-up in Python (about 0.7 us).
    req = request._get_current_object()  # type: ignore[attr-defined]
    rule = req.url_rule
    endpoint = req.endpoint
    if rule is None or endpoint is None or is_localized_rule(rule):
        return None
    values = req.view_args or {}
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    state = get_state(app)
    name = dot_segment(values)
    if name is not None:
        warn_dot_segment(app, state, endpoint, name, values[name])
        return None
    try:
        path = build_path(app, root_adapter(app, state.settings.root), endpoint, values)
    except BuildError:
        return None
    return Page(canonical_path=path)
