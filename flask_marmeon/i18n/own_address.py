"""A page's own address from its route: the default canonical of a route
that is not localized (MARMEON_DEFAULT_CANONICAL), and the values that give
a page no address of its own (a ``.`` or ``..`` path segment).

A path value such as ``x/../../admin`` (``/en/d/x%2F..%2F..%2Fadmin``)
builds an address that a browser or a crawler resolves to another page
(``/admin``): such a page gets no default canonical and no hreflang, as it
gets no sitemap entry. So does a page of a route on another host than
APP_URL's (a blueprint's subdomain, a host rule): APP_URL + its path is not
that page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request
from werkzeug.routing import BuildError, Rule

from .._log import warn_once
from .._state import MarmeonState, get_state
from ..config import origin_host
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


def has_own_address(
    app: Flask,
    state: MarmeonState,
    rule: Rule,
    endpoint: str,
    values: Mapping[str, Any],
) -> bool:
    """Whether the page of ``rule`` with ``values`` names addresses of its
    own (a default canonical, hreflang): not with a dot segment
    (:func:`dot_segment`), nor on another host than APP_URL's
    (:func:`elsewhere`). Development says why, once per endpoint."""
    name = dot_segment(values)
    if name is not None:
        if app.debug:
            warn_once(
                state,
                ("head.dot-segment", endpoint),
                "The value %r of %r (endpoint %r) has a '.' or '..' segment, so"
                " the address it builds names another page once a browser"
                " resolves it: the page's head has no default canonical and no"
                " hreflang, and the sitemap leaves such a value out.",
                values[name],
                name,
                endpoint,
            )
        return False
    origin = state.settings.app_url
    if origin is None or not elsewhere(rule, origin):
        return True
    if app.debug:
        warn_once(
            state,
            ("head.elsewhere", str(rule.endpoint)),
            "The route %r (endpoint %r) answers on the host %r, not at APP_URL"
            " %r: its head has no default canonical and no hreflang, as the"
            " sitemap leaves it out. Give a canonical with head(canonical=...).",
            rule.rule,
            rule.endpoint,
            rule.host
            or f"{rule.subdomain}.{app.config.get('SERVER_NAME') or '<server name>'}",
            origin,
        )
    return False


def elsewhere(rule: Rule, origin: str) -> bool:
    """Whether ``rule`` answers on another host than APP_URL's (``origin``):
    a blueprint's subdomain, a host rule. APP_URL + its path would be
    another page, or a 404."""
    if rule.map.host_matching:
        return bool(rule.host) and rule.host != origin_host(origin)
    return bool(rule.subdomain) and rule.subdomain != rule.map.default_subdomain


def own_page() -> Page | None:
    """The Page of the current request on a route that is not localized:
    its own address (the rule built with the request's view arguments,
    under the configured mount path, no query string), or None (a localized
    route, no rule, a dot segment, a rule that does not build)."""
    # The request itself: each read through the proxy costs about 0.7 us.
    req = request._get_current_object()  # type: ignore[attr-defined]
    rule = req.url_rule
    endpoint = req.endpoint
    if rule is None or endpoint is None or is_localized_rule(rule):
        return None
    values = req.view_args or {}
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    state = get_state(app)
    if not has_own_address(app, state, rule, endpoint, values):
        return None
    try:
        path = build_path(app, root_adapter(app, state.settings.root), endpoint, values)
    except BuildError:
        return None
    return Page(canonical_path=path)
