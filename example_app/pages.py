"""The about page and the features section, in every language of the app.

The blueprint is ``localized()``: its routes answer at ``/en/...`` and
``/de/...``, ``/about`` redirects to the visitor's language, and every page
names its other languages in its head without a line of code here.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, abort, render_template
from flask.views import MethodView

from flask_marmeon import SitemapEntry, authorize, everyone, head, localized

from .catalog import FeatureCatalog
from .layout import site_path


def about() -> str:
    """What the site is."""
    # The title and the description are the template's (pages/about.html).
    head(
        # og:url has no default: the page's own address in its language.
        open_graph={"url": site_path("pages.about")},
    )
    return render_template("pages/about.html")


class ListFeatures(MethodView):
    """The features section's first page."""

    def __init__(self, catalog: FeatureCatalog) -> None:
        self.catalog = catalog

    def get(self) -> str:
        head(
            open_graph={"url": site_path("pages.features")},
        )
        return render_template("pages/features.html", features=self.catalog.all())

    def sitemap(self) -> Iterator[SitemapEntry]:
        """The list changed when its latest feature did."""
        features = self.catalog.all()
        if features:
            latest = max(feature.updated_at for feature in features)
            yield SitemapEntry(params={}, last_modified=latest)


class ShowFeature(MethodView):
    """A page of the features section, one per feature of the catalog."""

    def __init__(self, catalog: FeatureCatalog) -> None:
        self.catalog = catalog

    def get(self, feature: str) -> str:
        item = self.catalog.get(feature)
        if item is None:
            abort(404)
        head(
            open_graph={"url": site_path("pages.feature", feature=item.slug)},
        )
        return render_template("pages/feature.html", feature=item)

    def sitemap(self) -> Iterator[SitemapEntry]:
        """One entry per feature; the locales are added by the extension."""
        for item in self.catalog.all():
            yield SitemapEntry(
                params={"feature": item.slug}, last_modified=item.updated_at
            )


def create_blueprint(catalog: FeatureCatalog) -> Blueprint:
    """The blueprint, with views that take ``catalog`` in their constructor."""
    pages = authorize(everyone)(localized(Blueprint("pages", __name__)))
    pages.add_url_rule("/about", view_func=about, sitemap=True)
    pages.add_url_rule(
        "/features",
        view_func=ListFeatures.as_view("features", catalog),
        sitemap=True,
    )
    pages.add_url_rule(
        "/features/<feature>",
        view_func=ShowFeature.as_view("feature", catalog),
        sitemap=True,
        # A feature page may be written in some languages only.
        locales=catalog.locales_of,
    )
    return pages
