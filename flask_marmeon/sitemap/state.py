"""What the sitemap keeps per app: its part of the app's state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._state import MarmeonState

if TYPE_CHECKING:
    from .cache import SitemapCache


@dataclass(eq=False)
class SitemapState:
    """The sitemap's part of the per-app state, added by its ``init_app``."""

    #: The sitemap's files (flask_marmeon.sitemap.cache); the endpoints that
    #: serve them are added when the edge starts, and only when a route is
    #: marked.
    cache: SitemapCache
    #: The largest sitemap file in bytes; None for the format's 50 MiB (tests
    #: lower it to reach the limit with a small file).
    max_bytes: int | None = None


def sitemap_state(state: MarmeonState) -> SitemapState:
    """The sitemap's part of the app's state."""
    return state.part(SitemapState)
