"""The address without a locale (``/about``) redirects to the visitor's locale.

The redirect is no rule: a ``before_request`` hook, added to the app with its
first localized blueprint, acts on a GET or HEAD whose routing ended in 404,
so that a route of the app, a catch-all included, always wins over it. It
goes to the best of the locales the page exists in (its ``locales=``), by
``Accept-Language``, else to the first of them. Its ``Location`` starts with
the configured mount path, never with the request's ``SCRIPT_NAME``.

Every answer of such an address says ``Vary: Accept-Language``, whatever
its status and method: the redirect, and the 404 when the visitor's locale
has no such page (a page's ``locales=`` without it), so that a shared cache
never hands one visitor's answer to a visitor of another language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from flask import Flask, after_this_request, current_app, redirect, request
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import MapAdapter, RequestRedirect, Rule
from werkzeug.wrappers import Response

from .._state import MarmeonState, get_state
from ..locale_tags import spelling
from .availability import available_locales
from .errors import wrap_error_handlers
from .negotiate import best_locale, fallback_locale
from .pages import QUERY_SAFE
from .urls import LOCALE_ARG, build_path, is_localized_rule, root_adapter


def redirect_to_locale() -> Response | None:
    """The ``before_request`` hook: the redirect, or None to let Flask go on."""
    # Every request of the app passes here: the routing exception first, as
    # most requests have none (a localized route's own requests have their
    # error handlers wrapped by the blueprint's URL processor).
    # The request itself: each read through the proxy costs about 0.7 us.
    exception = request._get_current_object().routing_exception  # type: ignore[attr-defined]
    if exception is None:
        return None
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    state = get_state(app)
    # An address no route matches may be a localized URL's error page.
    wrap_error_handlers(app, state)
    if not isinstance(exception, NotFound):
        return None
    target = None
    if request.method in ("GET", "HEAD"):
        target = _localized_address(app, state, request.path)
    if target is None:
        if _unprefixed(app, state, request.path):
            after_this_request(_vary_on_language)
        return None
    if request.query_string:
        target += "?" + quote(request.query_string, safe=QUERY_SAFE)
    response = redirect(target, code=302)
    response.vary.add("Accept-Language")
    # The answer depends on the visitor's languages: a shared cache must not
    # keep one visitor's redirect for the next.
    response.headers["Cache-Control"] = "private"
    return response


def _vary_on_language(response: Response) -> Response:
    response.vary.add("Accept-Language")
    return response


def _unprefixed(app: Flask, state: MarmeonState, path: str) -> bool:
    """Whether ``path`` is a localized route's address without its locale,
    in any locale of the app and for any method (the answer then depends on
    the visitor's languages)."""
    adapter = app.create_url_adapter(request)
    assert adapter is not None  # a request always has one
    for locale in state.settings.locales:
        candidates = _candidates(path, locale)
        if not path.endswith("/"):
            candidates.append(f"{candidates[0]}/")  # a rule "/docs/"
        for candidate in candidates:
            for method in adapter.allowed_methods(candidate):
                try:
                    rule, _ = adapter.match(candidate, method=method, return_rule=True)
                except RequestRedirect:
                    return True  # the localized "/docs/" of "/docs"
                except HTTPException:
                    continue
                if is_localized_rule(rule):
                    return True
                break
    return False


def _localized_address(app: Flask, state: MarmeonState, path: str) -> str | None:
    """The address of ``path`` in the visitor's best locale among those the
    page exists in, if a localized route answers it there."""
    adapter = app.create_url_adapter(request)
    assert adapter is not None  # a request always has one
    locales = state.settings.locales
    accept = request.accept_languages
    first = best_locale(accept, locales) or fallback_locale(accept, locales)
    found = _match(adapter, path, first)
    if found is None:
        return None
    rule, args = found
    available = available_locales(state, rule, args)
    if not available:
        return None
    best = first
    if first not in available:
        best = best_locale(accept, available) or fallback_locale(accept, available)
        # Another locale may be another route (a plain /de/... of the app).
        found = _match(adapter, path, best)
        if found is None:
            return None
        rule, args = found
    return build_path(
        app,
        root_adapter(app, state.settings.root),
        str(rule.endpoint),
        {**args, LOCALE_ARG: best},
    )


def _match(
    adapter: MapAdapter, path: str, locale: str
) -> tuple[Rule, Mapping[str, Any]] | None:
    """The localized rule that answers ``path`` in ``locale``, and its values."""
    for candidate in _candidates(path, locale):
        try:
            try:
                rule, args = adapter.match(candidate, method="GET", return_rule=True)
            except RequestRedirect:
                # The route ends in a slash ("/docs/"): go there at once
                # rather than through a second redirect.
                rule, args = adapter.match(
                    candidate + "/", method="GET", return_rule=True
                )
        except HTTPException:  # no such page in that locale
            continue
        if not is_localized_rule(rule):
            return None
        return rule, args
    return None


def _candidates(path: str, locale: str) -> list[str]:
    """``path`` under ``locale``: ``/de-at/about``; ``/`` also as ``/de-at``."""
    prefix = "/" + spelling(locale)
    return [prefix + path, prefix] if path == "/" else [prefix + path]
