"""The Builder: what resolve (:mod:`flask_marmeon.head.resolve`) collects a
page's elements in, in output order, each URL decided by the app's policy.

The writers (:mod:`flask_marmeon.head.writers`) add to it. A URL left out
takes the elements of its *group* with it (an image's size and alt).
Without APP_URL, a relative URL is left out of the document but carried,
with its group, to the browser module: each carried element is a
:class:`Missing`, whose ``at`` is its index among the written and carried
elements, in output order. It knows no field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..page import Page
from .elements import Element, Extra, Slot
from .url_policy import UrlPolicy


class Missing(NamedTuple):
    """An element left out for a relative URL without APP_URL (see module)."""

    at: int
    element: Element
    group: int


#: The state of the current group: its URL was kept, or left out for good.
_KEPT, _DROPPED = 0, -1


class Builder:
    """Collects the elements in output order (see the module's text)."""

    __slots__ = (
        "carry",
        "elements",
        "group_number",
        "indexable",
        "left_out",
        "localized",
        "missing",
        "og_locales",
        "own",
        "policy",
    )

    def __init__(
        self,
        policy: UrlPolicy,
        page: Page | None,
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
        #: The page when it is localized; and ``own``, the page when it has
        #: its own addresses (an error page has no canonical_path, and no
        #: hreflang either; a route that is not localized has only the
        #: default canonical, with MARMEON_DEFAULT_CANONICAL).
        self.localized = page if page is not None and page.locale is not None else None
        self.own = page if page is not None and page.canonical_path else None
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
            self._carried((slot, raw, extra), self.group_number)
        else:
            self.carry = _DROPPED

    def follow(self, slot: Slot, value: str) -> None:
        """An element that goes with the last URL (kept, carried or dropped)."""
        carry = self.carry
        if carry == _KEPT:
            self.elements.append((slot, value, None))
        elif carry != _DROPPED:
            self._carried((slot, value, None), carry)

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
            self._carried((slot, value, None), group)

    def _carried(self, element: Element, group: int) -> None:
        at = len(self.elements) + len(self.missing)
        self.missing.append(Missing(at, element, group))
