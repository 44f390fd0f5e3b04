"""The page object: which locale a page is in and where its other versions are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

# The last hreflang of Page.hreflang_paths; locale_tags.py owns it.
from .locale_tags import X_DEFAULT as X_DEFAULT


class Alternate(TypedDict):
    """One version of a localized page, for a language switcher."""

    #: The locale tag as configured ("de-AT").
    locale: str
    #: The hreflang value, the same tag.
    hreflang: str
    #: The page's address in that locale, with the query string kept.
    href: str


@dataclass(frozen=True)
class Page:
    """What :func:`flask_marmeon.current_page` returns.

    On a route that is not localized, ``locale`` is None and there are no
    alternates.
    """

    #: The page's locale tag as configured ("de-AT"), or None.
    locale: str | None = None
    #: One per locale of the app, ``href`` keeping the query string. A list,
    #: as the API names it, so that it compares equal to one.
    alternates: list[Alternate] = field(default_factory=list)
    #: The page's own address in its own locale, without the query string
    #: (a path such as "/de-at/about"); the default canonical.
    canonical_path: str | None = None
    #: (hreflang, path without query) for each locale, then ("x-default",
    #: the address without a locale). Empty on a route that is not localized.
    hreflang_paths: tuple[tuple[str, str], ...] = ()

    @property
    def is_localized(self) -> bool:
        """Whether the page is on a localized route."""
        return self.locale is not None
