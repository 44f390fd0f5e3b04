"""The layout: what every page of the site says in its head.

A ``before_request`` hook is a layout: its ``head()`` call comes before the
view's, and the view wins where both set a field.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app

from flask_marmeon import JsonLdGraph, head

SITE_NAME = "Marmeon Notes"


def site_origin() -> str:
    """The origin of APP_URL, for the ``@id`` of the JSON-LD nodes.

    JSON-LD is data, not a URL field of the head, so the app makes its
    addresses absolute itself, from the same setting.
    """
    parts = urlsplit(current_app.config["APP_URL"])
    return f"{parts.scheme}://{parts.netloc}"


def site_graph(origin: str) -> JsonLdGraph:
    """The Organization and the WebSite, linked by their ``@id``."""
    return {
        "@context": "https://schema.org",
        "@graph": [
            {
                "@type": "Organization",
                "@id": f"{origin}/#org",
                "name": SITE_NAME,
                "url": f"{origin}/",
            },
            {
                "@type": "WebSite",
                "@id": f"{origin}/#site",
                "name": SITE_NAME,
                "url": f"{origin}/",
                "publisher": {"@id": f"{origin}/#org"},
            },
        ],
    }


def layout() -> None:
    """Set the title template, the site name, the card and the site's graph.

    The card is the small ``summary``: a page with a picture of its own (a
    note's cover) asks for ``summary_large_image`` itself, so that no page
    promises a large picture it does not have.
    """
    head(
        title_template=f"%s · {SITE_NAME}",
        open_graph={"site_name": SITE_NAME, "type": "website"},
        twitter={"card": "summary", "site": "@marmeon_notes"},
        json_ld=site_graph(site_origin()),
    )
