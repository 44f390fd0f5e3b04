"""The page object of a localized page, and the locale for Flask-Babel."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote, unquote

from flask import Flask, current_app, request
from werkzeug.routing import Rule

from .._context import peek_request_state, request_state
from .._state import MarmeonState
from ..config import own_host
from ..locale_tags import X_DEFAULT, babel_spelling, spelling
from ..page import Alternate, Page
from .availability import available_locales
from .own_address import has_own_address
from .state import i18n_state
from .urls import LOCALE_ARG, build_path, redirects_by_language, root_adapter

# Characters a query string may keep as they are; everything else (spaces,
# quotes, angle brackets, bytes beyond ASCII) is percent-encoded, and "%" is
# kept so that what the client already encoded stays encoded once.
QUERY_SAFE = "!#$%&'()*+,/:;=?@[]~"
#: The most x-default answers an app keeps (see I18nState).
_X_DEFAULT_MEMO = 1024


def make_page(
    locales: Sequence[str],
    locale: str,
    paths: Mapping[str, str],
    x_default: str | None,
    query: str = "",
) -> Page:
    """The page object of a localized page.

    ``locales`` are the locales the page exists in, ``paths`` maps each to
    the page's path in it (no query); ``x_default`` is the path without a
    locale (None where that is not the redirect: no ``x-default`` then);
    ``query`` is the request's query string (already URL-safe), kept in the
    alternates only.
    """
    suffix = f"?{query}" if query else ""
    alternates = [
        Alternate(locale=tag, hreflang=tag, href=paths[tag] + suffix) for tag in locales
    ]
    hreflang = tuple((tag, paths[tag]) for tag in locales)
    if x_default is not None:
        hreflang += ((X_DEFAULT, x_default),)
    return Page(
        locale=locale,
        alternates=alternates,
        canonical_path=paths[locale],
        hreflang_paths=hreflang,
    )


def error_page(locale: str) -> Page:
    """The page object of an error page rendered for a localized URL.

    It keeps the visitor's locale (templates and Flask-Babel speak it) and
    names no address: an error page has no canonical and no alternates.
    """
    return Page(locale=locale)


def strip_locale(path: str, locale: str, root: str = "") -> str:
    """The address without a locale: ``/app/de-at/about`` -> ``/app/about``.

    ``root`` is the mount path that ``path`` starts with.
    """
    segment = "/" + spelling(locale)
    rest = path[len(root) :] if path.startswith(root) else path
    if rest == segment or rest.startswith(segment + "/"):
        rest = rest[len(segment) :]
    return root + (rest or "/")


def page_for(
    state: MarmeonState,
    rule: Rule,
    endpoint: str,
    values: Mapping[str, Any],
    locale: str,
) -> Page | None:
    """The page of the current request, or None when the page does not exist
    in ``locale`` (its ``locales=`` leaves it out)."""
    available = available_locales(state, rule, values)
    if locale not in available:
        return None
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if not has_own_address(app, state, rule, endpoint, values):
        return Page(locale=locale)
    root = state.settings.root
    adapter = root_adapter(app, root)
    # Built like url_for, so each address is the canonical spelling of the
    # endpoint, but under the configured mount path.
    paths = {
        tag: build_path(app, adapter, endpoint, {**values, LOCALE_ARG: tag})
        for tag in available
    }
    default = strip_locale(paths[locale], locale, root)
    # None where the address is another route's page, not the redirect.
    x_default = (
        default if _redirects(app, state, unquote(default[len(root) :])) else None
    )
    query = quote(request.query_string, safe=QUERY_SAFE)
    return make_page(available, locale, paths, x_default, query)


def _redirects(app: Flask, state: MarmeonState, path: str) -> bool:
    """:func:`~.urls.redirects_by_language` on the app's own host (from
    configuration, as the sitemap asks it: never the request's Host, which
    a client writes), kept per app by path: a router match that ends in 404
    costs some 10 us, a look-up a fraction of one."""
    memo = i18n_state(state).x_default_redirects
    found = memo.get(path)
    if found is None:
        settings = state.settings
        host = own_host(app.url_map, settings.app_url)
        adapter = app.url_map.bind(host, settings.root or "/")
        found = redirects_by_language(adapter, path)
        if len(memo) >= _X_DEFAULT_MEMO:
            memo.clear()
        memo[path] = found
    return found


def current_page() -> Page:
    """The page object of the current request, for a language switcher.

    On a localized route, ``locale`` is the page's locale (the tag as
    configured) and ``alternates`` holds one ``{"locale", "hreflang",
    "href"}`` per locale the page exists in, ``href`` keeping the query
    string. On an error page for a localized URL, ``locale`` is the URL's
    and there are no alternates. On any other route, ``locale`` is None and
    there are no alternates. Templates read the same object as ``page``.
    """
    page = request_state("current_page()").page
    return page if page is not None else Page()


def peek_page() -> Page | None:
    """The page object of the current request, if anything made it."""
    rs = peek_request_state()
    return None if rs is None else rs.page


def page_locale() -> str | None:
    """The locale of the current request's page, if it has one."""
    page = peek_page()
    return None if page is None else page.locale


def template_page() -> Page:
    """The Jinja global ``page``: outside a request (a template rendered for
    an e-mail) it is an empty page rather than an error."""
    return peek_page() or Page()


def selected_locale() -> str | None:
    """The locale of the current localized route in Babel's spelling, or None.

    ``"de-AT"`` is returned as ``"de_AT"``, the form ``babel.Locale.parse``
    reads, so that it can serve as Flask-Babel's ``locale_selector``.
    """
    locale = page_locale()
    return None if locale is None else babel_spelling(locale)


def set_page(state: MarmeonState, page: Page) -> None:
    """Put ``page`` on the request and let Flask-Babel know its locale."""
    request_state("the locale preprocessor").page = page
    tell_babel(current_app._get_current_object(), state)  # type: ignore[attr-defined]


def tell_babel(app: Flask, state: MarmeonState) -> None:
    """Make Flask-Babel see the page's locale, when Babel asks marmeon.

    Flask-Babel caches the locale per app context. With marmeon's selector,
    or with no selector of the app's own, the route's locale must win even
    if something asked Babel before the URL was matched.
    """
    babel = app.extensions.get("babel")
    if babel is None:
        return
    selector = getattr(babel, "locale_selector", None)
    if selector is None:
        # No selector of the app's own: the route's locale is the answer on
        # localized routes, Babel's default elsewhere (ours returns None).
        babel.locale_selector = state.extension.locale_selector
    elif (
        getattr(selector, "__func__", None) is not type(state.extension).locale_selector
    ):
        return  # the app's own selector decides
    # Flask-Babel is optional: it is imported only when the app has set it up.
    importlib.import_module("flask_babel").refresh()
