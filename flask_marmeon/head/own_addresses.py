"""The page's own addresses in its head: none on an error page, and the
route's own address as the default canonical (MARMEON_DEFAULT_CANONICAL).

An error page (a 4xx or 5xx rendered by one of the app's error handlers,
``RequestState.error_page``) names no address of its own: a canonical,
``og:url``, hreflang or ``og:locale:alternate`` there tells a search engine
that the error is the page, whatever the view set before ``abort(404)`` or
the layouts and the handler set. The keys dropped are the table's
(``Row.address``); hreflang and the alternates come from the page's
addresses, which an error page has none of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..page import Page
from .merge import MergedHead
from .robots import noindex
from .table import HEAD, Table
from .writers import Canonical, Robots

#: head()'s key of the canonical and of robots (the table's, by their writers).
_CANONICAL = next(n for n, k in HEAD.keys.items() if isinstance(k.write, Canonical))
_ROBOTS = next(n for n, k in HEAD.keys.items() if isinstance(k.write, Robots))


def _without(table: Table, values: MergedHead) -> MergedHead:
    out: dict[str, Any] = {}
    for name, value in values.items():
        key = table.keys.get(name)
        if key is not None and key.address:
            continue
        if key is not None and key.table is not None and type(value) is dict:
            value = _without(key.table, value)
        out[name] = value
    return out


def error_head(merged: MergedHead, page: Page | None) -> tuple[MergedHead, Page | None]:
    """An error page's head and page: no address of its own (see the module)."""
    return _without(HEAD, merged), None if page is None else Page(locale=page.locale)


def with_default_canonical(
    merged: MergedHead,
    page: Page | None,
    own: Callable[[], Page | None],
    indexable: bool,
) -> Page | None:
    """The page, or for a route that is not localized and a page that sets
    no canonical and is not noindex, ``own()``: the route's own address."""
    if page is not None or _CANONICAL in merged:
        return page
    if noindex(merged.get(_ROBOTS), indexable=indexable):
        return page
    return own()
