"""The page's own addresses in its head: none on an error page, the
route's own address as the default canonical (MARMEON_DEFAULT_CANONICAL),
and the page's own address as its canonical when it sets none: steps at
the head's ``merged`` and ``resolve`` stages (:mod:`.stages`).

An error page (a 4xx or 5xx rendered by one of the app's error handlers,
``RequestState.error_page``) names no address of its own: a canonical,
``og:url``, hreflang or ``og:locale:alternate`` there tells a search
engine that the error is the page, whatever the view set before
``abort(404)`` or the layouts and the handler set. The keys dropped are
the table's (``Row.address``); hreflang and the alternates come from the
page's addresses, which an error page has none of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..page import Page
from . import roles
from .elements import PageAddress
from .merge import MergedHead
from .robots import noindex
from .stages import StageContext, Step
from .table import HEAD, ROBOTS, Table
from .text import clean_url
from .writers import Canonical, Robots

#: head()'s key of the canonical and of robots (the table's, by their writers).
_CANONICAL = next(n for n, k in HEAD.keys.items() if isinstance(k.write, Canonical))
_ROBOTS = next(n for n, k in HEAD.keys.items() if isinstance(k.write, Robots))
#: robots' key of index (the table's role).
_INDEX = ROBOTS.named(roles.INDEX)


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


def error_page(merged: MergedHead, context: StageContext) -> MergedHead:
    """The ``merged`` step of an error page: no address of its own (see the
    module); its page keeps only its locale."""
    request = context.request
    if request is None or not request.error_page:
        return merged
    page = context.page
    context.page = None if page is None else Page(locale=page.locale)
    return _without(HEAD, merged)


def default_canonical(own: Callable[[], Page | None]) -> Step:
    """The ``merged`` step of MARMEON_DEFAULT_CANONICAL: for a route that is
    not localized, a page that sets no canonical and is not noindex, and no
    error page, the page is ``own()``: the route's own address."""

    def step(merged: MergedHead, context: StageContext) -> MergedHead:
        request = context.request
        if request is None or request.error_page:
            return merged
        if context.page is not None or _CANONICAL in merged:
            return merged
        state = context.state
        indexable = state is None or state.settings.indexable
        if not noindex(merged.get(_ROBOTS), _INDEX, indexable=indexable):
            context.page = own()
        return merged

    return step


def page_canonical(merged: MergedHead, context: StageContext) -> MergedHead:
    """The ``resolve`` step of the page's own address: the canonical of a
    page that sets none is its Page's (a localized page's, or the route's
    with MARMEON_DEFAULT_CANONICAL), a :class:`~.elements.PageAddress`."""
    page = context.page
    if page is None or not page.canonical_path or merged.get(_CANONICAL) is not None:
        return merged
    return {**merged, _CANONICAL: PageAddress(clean_url(page.canonical_path))}
