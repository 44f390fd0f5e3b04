"""The features section's content: a small catalog, as a service would be.

The feature pages' view takes the catalog in its constructor
(``ShowFeature.as_view("feature", catalog)``) and asks it for the sitemap's
entries, the way a real app would hand a repository to its views.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from flask import current_app
from flask_babel import LazyString, lazy_gettext


@dataclass(frozen=True)
class Feature:
    """One page of the features section."""

    #: The URL segment: lower-case letters and dashes.
    slug: str
    title: LazyString
    summary: LazyString
    updated_at: date
    #: The locales the page is written in; None for every locale of the app.
    locales: tuple[str, ...] | None = None


class FeatureCatalog:
    """The features, in the order the section lists them."""

    def __init__(self, features: Iterable[Feature]) -> None:
        self._features = {feature.slug: feature for feature in features}

    def all(self) -> list[Feature]:
        """Every feature, in order."""
        return list(self._features.values())

    def get(self, slug: str) -> Feature | None:
        """The feature with this slug, or None."""
        return self._features.get(slug)

    def locales_of(self, feature: str) -> list[str]:
        """The feature route's ``locales=``: called with the view's arguments."""
        item = self.get(feature)
        if item is None or item.locales is None:
            return list(current_app.config["APP_LOCALES"])
        return list(item.locales)


def default_catalog() -> FeatureCatalog:
    """The features of flask_marmeon that the example shows."""
    return FeatureCatalog(
        [
            Feature(
                "head",
                lazy_gettext("The head of every page"),
                lazy_gettext(
                    "Title, description, canonical, robots, Open Graph and"
                    " Twitter cards from one call in the view."
                ),
                date(2025, 3, 2),
            ),
            Feature(
                "layouts",
                lazy_gettext("Layouts and pages"),
                lazy_gettext(
                    "A layout sets what every page shares; the page wins"
                    " where both say something."
                ),
                date(2025, 3, 9),
            ),
            Feature(
                "structured-data",
                lazy_gettext("Structured data"),
                lazy_gettext(
                    "JSON-LD blocks for search engines, written safely"
                    " whatever the text."
                ),
                date(2025, 4, 1),
            ),
            Feature(
                "languages",
                lazy_gettext("Pages in several languages"),
                lazy_gettext(
                    "Every localized page names its other languages with"
                    " hreflang, without a line of code."
                ),
                date(2025, 4, 20),
            ),
            Feature(
                "sitemap",
                lazy_gettext("Sitemap and robots.txt"),
                lazy_gettext(
                    "Written from the app's routes and its database, with an"
                    " address that never comes from the request."
                ),
                date(2025, 5, 11),
            ),
            Feature(
                "per-page-languages",
                lazy_gettext("Pages in some languages only"),
                lazy_gettext(
                    "This page is written in English only: its head, the"
                    " language switcher and the sitemap name no German"
                    " version, and /de/features/per-page-languages is a 404."
                ),
                date(2025, 6, 1),
                locales=("en",),
            ),
        ]
    )
