"""From the merged head to the elements of the page, final, in output order.

This step applies the defaults of the specification (og/twitter title and
description from the page's, og:locale from the page's locale, the canonical
and hreflang addresses of a localized page), orders the elements, and
decides every URL with the app's policy (:mod:`flask_marmeon.head.urls`):
the writer only writes.

The elements are collected in a :class:`~flask_marmeon.head.builder.Builder`,
which decides each URL and its group (left out, or carried to the browser
module without APP_URL).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..page import Page
from . import roles
from .builder import Builder, Missing
from .elements import Element, Slot
from .locales import og_locale
from .merge import MergedHead
from .table import HEAD
from .urls import UrlPolicy
from .write_order import write_keys


class ResolvedHead(NamedTuple):
    """The head of one page, ready to write."""

    #: The elements to write, in output order, URLs final.
    elements: list[Element]
    #: What the browser module adds back (only without APP_URL).
    missing: list[Missing]
    #: (slot, raw URL) of every URL left out, for development warnings.
    left_out: list[tuple[Slot, str]]


def resolve(
    merged: MergedHead,
    page: Page | None,
    policy: UrlPolicy,
    json_ld: Sequence[str] = (),
    *,
    indexable: bool = True,
    og_locales: Callable[[str], str] = og_locale,
) -> ResolvedHead:
    """Return the head's elements in output order, URLs decided.

    Each field is written by its writer, in the table's order
    (:mod:`flask_marmeon.head.table`). ``json_ld`` holds the JSON-LD
    blocks' texts as :func:`jsonld.dumps` writes them; they follow the other
    elements. When the site is not ``indexable``, robots says ``noindex,
    nofollow`` whatever the page set. ``og_locales`` is :func:`og_locale`
    or the app's table of it (:class:`~flask_marmeon.head.locales.OgLocales`).
    """
    out = Builder(
        policy,
        merged.get(_TITLE),
        merged.get(_DESCRIPTION),
        page,
        json_ld,
        indexable,
        og_locales,
    )
    write_keys(out, _WRITERS, merged)
    return ResolvedHead(out.elements, out.missing, out.left_out)


_WRITERS = HEAD.writers
#: The page's title and description: the cards' defaults.
_TITLE, _DESCRIPTION = HEAD.named(roles.TITLE), HEAD.named(roles.DESCRIPTION)
