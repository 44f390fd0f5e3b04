"""Checks of the app's set-up that no single answer shows.

- ``sitemap-route-empty``: a marked route whose provider gave entries that
  were all left out, so that the sitemap lists none of its pages (the build
  says why in the log; the audit makes it a finding).
- ``robots-under-path``: an app mounted under a path (``APPLICATION_ROOT``)
  serves its robots.txt there, where no crawler reads it.
"""

from __future__ import annotations

from flask import Flask

from .._state import MarmeonState
from ..routing.marks import is_marked
from ..sitemap.build import build_sitemap
from .findings import Finding, finding


def setup_findings(app: Flask) -> list[Finding]:
    """The findings about the app's set-up, in the order the docs list them
    (none for an app without the extension: the audit reads any app)."""
    state: MarmeonState | None = app.extensions.get("marmeon")
    if state is None or state.settings.app_url is None:
        return []
    origin, root = state.settings.app_url, state.settings.root
    # The extension serves robots.txt (and the sitemap) once a route is marked.
    if not any(is_marked(rule) for rule in app.url_map.iter_rules()):
        return []
    found = []
    try:
        # The providers run again: the audit's fetch of /sitemap.xml may have
        # been served from the cache, with no build to ask.
        empty = build_sitemap(app).empty_routes
    except Exception:
        empty = ()  # the sitemap's own findings (sitemap-status) say it failed
    for route in empty:
        found.append(
            finding(
                "sitemap-route-empty",
                f"{origin}{root}/sitemap.xml",
                rule=route.rule,
                endpoint=route.endpoint,
                why=route.message,
            )
        )
    if root:
        served = f"{origin}{root}/robots.txt"
        found.append(
            finding(
                "robots-under-path", served, root=root, served=served, origin=origin
            )
        )
    return found
