"""The sitemap's part of the app's state, and the way to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from flask import Flask

from .._state import MarmeonState, get_state

if TYPE_CHECKING:
    from ..shared_lock import Backend
    from .serving.ttl_cache import SitemapCache


class SitemapFiles(Protocol):
    """What the state's readers take of the sitemap's file caches
    (``serving.file_caches.FileCaches``: that module imports the build, which
    reads this state, so the state names only this much of it)."""

    @property
    def site(self) -> SitemapCache: ...

    @property
    def backend(self) -> Backend | None: ...


@dataclass(eq=False)
class SitemapState:
    """What the sitemap keeps for one app (one of ``MarmeonState.parts``),
    set by the sitemap's ``init_app``; its endpoints are added when the edge
    starts, and only when a route is marked."""

    #: Every sitemap file's cache: the site's build, and each paged route's
    #: boundaries and parts.
    files: SitemapFiles
    #: The largest sitemap file in bytes; None for the format's 50 MiB (tests
    #: lower it to reach the limit with a small file).
    max_bytes: int | None = None

    @property
    def cache(self) -> SitemapCache:
        """The cache of the site's build (``/sitemap.xml`` and its numbered files)."""
        return self.files.site


def sitemap_state(state: MarmeonState) -> SitemapState:
    """The sitemap's part of ``state``."""
    return state.part(SitemapState)


def sitemap_of(app: Flask) -> SitemapState:
    """The sitemap's part of the app's state (set up by ``Marmeon.init_app``)."""
    return sitemap_state(get_state(app))
