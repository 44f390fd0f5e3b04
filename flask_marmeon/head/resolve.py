"""From the merged head to the elements of the page, final, in output order.

This step applies the defaults of the specification (og/twitter title and
description from the page's, og:locale from the page's locale, the canonical
and hreflang addresses of a localized page), orders the elements, and
decides every URL with the app's policy (:mod:`flask_marmeon.head.urls`):
the writer only writes.

A URL left out takes the elements of its *group* with it (an image's size
and alt). Without APP_URL, a relative URL is left out of the document but
carried, with its group, to the browser module, which resolves it against
``location.origin``: each carried element is a :class:`Missing`, whose
``at`` is its index among the written and carried elements, in output order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..page import Page
from . import roles
from .elements import Element, Extra, Slot
from .locales import og_locale
from .merge import MergedHead
from .table import HEAD
from .urls import UrlPolicy
from .write_order import write_keys


class Missing(NamedTuple):
    """An element left out for a relative URL without APP_URL (see module)."""

    at: int
    element: Element
    group: int


class ResolvedHead(NamedTuple):
    """The head of one page, ready to write."""

    #: The elements to write, in output order, URLs final.
    elements: list[Element]
    #: What the browser module adds back (only without APP_URL).
    missing: list[Missing]
    #: (slot, raw URL) of every URL left out, for development warnings.
    left_out: list[tuple[Slot, str]]


#: The state of the current group: its URL was kept, or left out for good.
_KEPT, _DROPPED = 0, -1


class Builder:
    """Collects the elements in output order (see the module's docstring);
    the writers (:mod:`flask_marmeon.head.writers`) add to it, and read the
    page's context from it."""

    __slots__ = (
        "carry",
        "description",
        "elements",
        "group_number",
        "indexable",
        "json_ld",
        "left_out",
        "localized",
        "missing",
        "og_locales",
        "own",
        "policy",
        "title",
    )

    def __init__(
        self,
        policy: UrlPolicy,
        merged: MergedHead,
        page: Page | None,
        json_ld: Sequence[str],
        indexable: bool,
        og_locales: Callable[[str], str],
    ) -> None:
        self.policy = policy
        self.elements: list[Element] = []
        self.missing: list[Missing] = []
        self.left_out: list[tuple[Slot, str]] = []
        self.group_number = 0
        #: _KEPT, _DROPPED, or the number of the group being carried.
        self.carry = _KEPT
        #: The page's title and description, the defaults of og's and
        #: twitter's.
        self.title: str | None = merged.get(_TITLE)
        self.description: str | None = merged.get(_DESCRIPTION)
        #: The page when it is localized; and ``own``, the page when it has
        #: its own addresses (an error page has no canonical_path, and no
        #: hreflang either; a route that is not localized has only the
        #: default canonical, with MARMEON_DEFAULT_CANONICAL).
        self.localized = page if page is not None and page.locale is not None else None
        self.own = page if page is not None and page.canonical_path else None
        self.json_ld = json_ld
        self.indexable = indexable
        self.og_locales = og_locales

    def url(self, slot: Slot, raw: str, extra: Extra = None) -> None:
        """An element holding a URL: it starts a group."""
        self.group_number += 1
        href = self.policy(raw)
        if href is not None:
            self.carry = _KEPT
            self.elements.append((slot, href, extra))
            return
        self.left_out.append((slot, raw))
        if self.policy.carried(raw):
            self.carry = self.group_number
            at = len(self.elements) + len(self.missing)
            self.missing.append(Missing(at, (slot, raw, extra), self.group_number))
        else:
            self.carry = _DROPPED

    def follow(self, slot: Slot, value: str) -> None:
        """An element that goes with the last URL (kept, carried or dropped)."""
        carry = self.carry
        if carry == _KEPT:
            self.elements.append((slot, value, None))
        elif carry != _DROPPED:
            at = len(self.elements) + len(self.missing)
            self.missing.append(Missing(at, (slot, value, None), carry))

    def group(self, members: list[tuple[Slot, str, bool]]) -> None:
        """A group with more than one URL (a video and its secure_url): each
        (slot, value, holds a URL) in order. It goes whole when any URL is
        left out for good, and is carried whole when any is carried."""
        self.group_number += 1
        policy = self.policy
        decided: list[tuple[Slot, str]] = []
        carried = False
        for slot, value, is_url in members:
            if is_url:
                href = policy(value)
                if href is None:
                    self.left_out.append((slot, value))
                    if not policy.carried(value):
                        self.carry = _DROPPED
                        return
                    carried = True
                else:
                    value = href
            decided.append((slot, value))
        if not carried:
            self.carry = _KEPT
            self.elements.extend([(slot, value, None) for slot, value in decided])
            return
        self.carry = group = self.group_number
        for slot, value in decided:
            at = len(self.elements) + len(self.missing)
            self.missing.append(Missing(at, (slot, value, None), group))


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
    out = Builder(policy, merged, page, json_ld, indexable, og_locales)
    write_keys(out, _WRITERS, merged)
    return ResolvedHead(out.elements, out.missing, out.left_out)


_WRITERS = HEAD.writers
#: The page's title and description: the cards' defaults.
_TITLE, _DESCRIPTION = HEAD.named(roles.TITLE), HEAD.named(roles.DESCRIPTION)
