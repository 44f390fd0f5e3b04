"""Error pages: no canonical, no og:url, no hreflang; on localized URLs,
the visitor's locale.

A 404 for a missing note under ``/de/...``, or a 500, is rendered by one of
the app's error handlers while the request still holds the page object of
the URL. That page must not name its addresses: a canonical or hreflang
link on an error page tells a search engine that the error is the page.

The seam: Flask calls the handler it finds in ``app.error_handler_spec``
(where ``errorhandler`` and ``register_error_handler`` put every handler,
the blueprints' included) and nothing else marks "an error handler is
rendering". Flask's ``got_request_exception`` signal is sent for unhandled
exceptions only (the 500s), not for a 404 from ``abort``; the request's
``routing_exception`` covers only a URL that no route matches. So each
registered handler is wrapped, once per app, when the app starts (the
edge's start hook), and at the latest at its first request to a localized
URL (handlers are complete by then: Flask refuses new ones after the first
request). The wrapper replaces the page with
:func:`~flask_marmeon.i18n.pages.error_page` before the handler runs, and
calls the handler as Flask would (``app.ensure_sync``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Flask, request

from .._context import request_state
from .._state import MarmeonState
from .pages import error_page, peek_page, set_page
from .state import i18n_state
from .urls import is_localized_rule, locale_of_path

#: Set on a wrapper, so that a handler is never wrapped twice.
_MARK = "_marmeon_error_page"


def wrap_error_handlers(app: Flask, state: MarmeonState) -> None:
    """Wrap each of the app's error handlers once (see the module's text)."""
    part = i18n_state(state)
    if part.error_handlers_wrapped:
        return
    with state.lock:
        if part.error_handlers_wrapped:
            return
        for scope in app.error_handler_spec.values():
            for handlers in scope.values():
                for cls, handler in list(handlers.items()):
                    if not getattr(handler, _MARK, False):
                        handlers[cls] = _wrap(app, state, handler)
        part.error_handlers_wrapped = True


def _wrap(
    app: Flask, state: MarmeonState, handler: Callable[[Any], Any]
) -> Callable[[Any], Any]:
    @functools.wraps(handler)
    def error_page_handler(error: Any) -> Any:
        code = getattr(error, "code", None)
        # A handler of a redirect or of an exception of the app's own that
        # says it is no error (code < 400) renders no error page.
        if not isinstance(code, int) or code >= 400:
            enter_error_page(state)
        return app.ensure_sync(handler)(error)

    setattr(error_page_handler, _MARK, True)
    return error_page_handler


def enter_error_page(state: MarmeonState) -> None:
    """Mark the request as an error page, and make its page an error page
    if its URL is localized.

    A URL is localized when a localized route matched it, or when no route
    did and its first segment spells one of APP_LOCALES (``/de/no-such``):
    the visitor chose that language. A plain route's error page is left
    alone.
    """
    # On every route: the head names no address of the page's own
    # (flask_marmeon.head.own_addresses), whatever the view, the layouts or the
    # handler set.
    request_state("an error handler").error_page = True
    rule = request.url_rule
    if rule is not None and not is_localized_rule(rule):
        return
    page = peek_page()
    if page is not None and page.locale is not None:
        locale: str | None = page.locale
        if page.canonical_path is None and not page.hreflang_paths:
            return  # already an error page
    else:
        locale = locale_of_path(request.path, state.settings.locales)
    if locale is not None:
        set_page(state, error_page(locale))
