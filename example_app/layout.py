"""The layout: what every page of the site says in its head.

A ``before_request`` hook is a layout: its ``head()`` call comes before the
view's, and the view wins where both set a field.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import current_app, request, url_for

from flask_marmeon import JsonLdGraph, head

SITE_NAME = "Marmeon Notes"


def site_origin() -> str:
    """The origin of APP_URL, for the ``@id`` of the JSON-LD nodes.

    JSON-LD is data, not a URL field of the head, so the app makes its
    addresses absolute itself, from the same setting.
    """
    parts = urlsplit(current_app.config["APP_URL"])
    return f"{parts.scheme}://{parts.netloc}"


def site_path(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint, **values)`` under the configured mount path.

    ``url_for`` starts its paths with the request's ``SCRIPT_NAME``, which a
    client can set (gunicorn's ``SCRIPT_NAME`` header, ProxyFix's
    ``X-Forwarded-Prefix``): a canonical, an ``og:url`` or an image built
    with it would name the client's path. The head's addresses start with
    ``APPLICATION_ROOT`` instead, as the extension's own do.
    """
    path = url_for(endpoint, **values)
    root = str(current_app.config["APPLICATION_ROOT"]).rstrip("/")
    return root + path[len(request.script_root) :]


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

    The card is the large one: every page has a 1200x630 picture, a note its
    cover and any other page one generated from its title
    (``MARMEON_OG_IMAGES``).
    """
    head(
        title_template=f"%s · {SITE_NAME}",
        open_graph={"site_name": SITE_NAME, "type": "website"},
        twitter={"card": "summary_large_image", "site": "@marmeon_notes"},
        json_ld=site_graph(site_origin()),
    )
