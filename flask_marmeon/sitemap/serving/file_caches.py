"""Every file the sitemap serves, each kept in a cache of its own.

- the site's build: ``/sitemap.xml`` (the one file, or the index) and
  ``/sitemap-<n>.xml``, made from every route whose provider gives its
  entries at once;
- for each paged route, where its parts begin (asked of its store);
- each part of a paged route, ``/sitemap-<slug>-<n>.xml``, made from its own
  range of keys when first requested.

Each is a :class:`~.ttl_cache.SitemapCache` like any other (TTL, the shared
store with its own keys, single flight, the pause after a failure, stale
while rebuilding), so a part that fails is that part's 503 alone. A process
keeps its parts within ``MARMEON_SITEMAP_MEMORY`` bytes, compressed (the
least recently asked for go first; with a shared store they are read back
from it), so a crawler walking every part does not hold the whole site in
one worker.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from flask import Flask

from ..._state import MarmeonState
from ...shared_lock import Backend
from ..build import MAX_FILES, build_boundaries, build_part, build_sitemap
from ..paged import PagedRoute
from ..splits import build_split, can_split
from .files import Files
from .health import Health
from .shared_store import SharedFiles
from .ttl_cache import SitemapCache

#: A paged route's ranges of keys by part number (from 1): each part's
#: first key and the next range's (None: to the end). In key order when
#: decided; a range that is split keeps its number for its first piece, and
#: the other pieces take the next numbers, so no part's number changes.
Ranges = tuple[tuple[Any, Any], ...]

#: Seconds the shared lock of a process building for all the others lives
#: unless renewed (a heartbeat renews it every third of that while the build
#: runs): a killed builder's lock is taken over after it.
LOCK_TIMEOUT = 6
#: Parts one process builds at once at most: each holds a database
#: connection and a core while it runs; the others wait their turn.
PARTS_AT_ONCE = 2


class StartsUnknown(Exception):
    """Where a paged route's parts begin is not known: its store failed, or
    is slow. ``retry_after`` says when to ask again."""

    def __init__(self, route: PagedRoute, retry_after: int) -> None:
        super().__init__(
            f"where the parts of {route.where} begin is not known (its store"
            " failed or is slow)"
        )
        self.retry_after = retry_after


class FileCaches:
    """One app's sitemap files, each in its own cache (see the module)."""

    def __init__(self, app: Flask, state: MarmeonState, backend: Backend | None):
        self.app = app
        self.state = state
        self.backend = backend
        #: The clock of every file's cache (the wall clock, as processes on
        #: several machines compare their times; tests move it).
        self.clock: Callable[[], float] = time.time
        #: Whether the index names /sitemap-<n>.xml (the endpoints serve
        #: them: no route of the app takes their address).
        self.files_listed = True
        #: What the app's caches said in the log (once per route and cause).
        self.health = Health()
        self.site = self._cache(
            "sitemap",
            lambda: build_sitemap(
                app, self._listed, files_listed=self.files_listed, lastmod=self._lastmod
            ).bodies(),
            "the sitemap",
        )
        #: The paged routes whose parts are served, by slug, set when the
        #: endpoints are added.
        self.routes: dict[str, PagedRoute] = {}
        self._lock = threading.Lock()
        self._starts: dict[str, SitemapCache] = {}
        self._decoded: dict[str, tuple[Files, Ranges]] = {}
        self._parts: OrderedDict[tuple[str, str], SitemapCache] = OrderedDict()
        # Each built part's <lastmod>, by route and range.
        self._lastmods: dict[tuple[str, str], str | None] = {}
        self._slots = threading.BoundedSemaphore(PARTS_AT_ONCE)
        # Routes whose ranges are to be decided again (a part outgrew its own).
        self._redo: set[str] = set()
        # The ranges that outgrew their parts, by route and range: how many
        # URLs their part held (also noted in the shared store).
        self._outgrew: dict[tuple[str, str], int] = {}

    def _cache(
        self,
        slot: str,
        build: Callable[[], tuple[bytes, ...] | Files],
        name: str,
        slots: threading.BoundedSemaphore | None = None,
        group: str = "",
    ) -> SitemapCache:
        settings = self.state.settings
        return SitemapCache(
            build,
            ttl=settings.sitemap_ttl,
            retry_after=settings.sitemap_retry_after,
            wait=settings.sitemap_wait,
            shared=self._shared(slot),
            lock_timeout=LOCK_TIMEOUT,
            slots=slots,
            clock=lambda: self.clock(),
            name=name,
            health=self.health,
            group=group,
        )

    def add_routes(self, routes: Sequence[PagedRoute]) -> None:
        """Know the app's paged routes (when the endpoints are added)."""
        for route in routes:
            self.routes[route.slug] = route
            self._starts[route.slug] = self._cache(
                f"starts:{route.slug}",
                lambda route=route: (pickle.dumps(("ranges", self._decide(route))),),  # type: ignore[misc]
                f"where the parts of {route.where} begin",
                group=route.where,
            )

    def _decide(self, route: PagedRoute) -> Ranges:
        """The route's ranges: those decided before, kept while every part
        fits, so that rows added and removed change only the parts whose
        ranges hold them. A range that outgrew its part (:meth:`_outgrown`)
        is split, the others kept as they are, numbers and all, and rows
        below the first range join it (with a provider that can split a
        range; else every range is decided again). Asked of the store
        afresh when none are known or it had no entries."""
        cache = self._starts[route.slug]
        try:
            last = cache.last
            kept = self._decoded_of(route, last) if last is not None else None
        except StartsUnknown:
            kept = None
        redo = bool(kept) and (
            route.slug in self._redo
            or cache.on_store(lambda shared: shared.value("redo")) == 1
        )
        if kept and can_split(route):
            ranges = self._split(route, kept, cache) if redo else kept
            # Rows below the first range's start are in no range: the first
            # range (part 1, whatever was split) begins at the smallest key.
            first, stop = ranges[0]
            below = build_split(self.app, route, None, first)
            ranges = ((below[0], stop), *ranges[1:]) if below else ranges
        elif kept and not redo:
            return kept
        else:
            ranges = tuple(pairwise((*build_boundaries(self.app, route), None)))
            self._clear_redo(route, cache)
        if kept is not None and ranges != kept:
            # The index names the new ranges (their number may differ).
            self.site.expire()
        return ranges

    def _split(self, route: PagedRoute, kept: Ranges, cache: SitemapCache) -> Ranges:
        """``kept`` with each range that outgrew its part split: its first
        piece keeps its number, the others come after the last part; the
        other ranges stay as they were (their parts and files too)."""
        # Cleared first: a part that outgrows its range while this runs
        # asks again.
        self._clear_redo(route, cache)
        ranges = list(kept)
        added: list[tuple[Any, Any]] = []
        try:
            for number, (start, stop) in enumerate(kept, start=1):
                digest = _digest(kept, number)
                # How many URLs its part held when it outgrew the range
                # (here or in any process), None when it did not.
                noted = self._noted(route, digest, lambda n: n.value("outgrown"))
                urls = self._outgrew.get((route.slug, digest))
                if isinstance(noted, int) and not isinstance(noted, bool):
                    urls = noted
                if urls is None:
                    continue
                bounds = [*build_split(self.app, route, start, stop, urls), stop]
                ranges[number - 1] = (bounds[0], bounds[1])
                added += pairwise(bounds[1:])
                # The range is no more: its note goes.
                self._outgrew.pop((route.slug, digest), None)
                self._noted(route, digest, lambda notes: notes.unmark("outgrown"))
        except Exception:
            self._outgrown(route)  # asked again after the pause
            raise
        return (*ranges, *added)

    def _clear_redo(self, route: PagedRoute, cache: SitemapCache) -> None:
        self._redo.discard(route.slug)
        cache.on_store(lambda shared: shared.unmark("redo"))

    def _outgrown(
        self, route: PagedRoute, digest: str | None = None, urls: int = 0
    ) -> None:
        """The range ``digest``'s part held more entries than a part may
        (``urls`` of them fitted): the ranges are decided again, by
        whichever process next asks for them (that range split)."""
        if digest is not None:
            self._outgrew[(route.slug, digest)] = urls
            self._noted(route, digest, lambda notes: notes.mark("outgrown", urls))
        self._redo.add(route.slug)
        cache = self._starts[route.slug]
        cache.on_store(lambda shared: shared.mark("redo"))
        cache.expire()

    def _listed(self, route: PagedRoute) -> Ranges:
        # A route whose parts the endpoints do not serve (the app's own
        # route takes their address) has none in the index.
        return self.ranges(route) if route.slug in self.routes else ()

    def _decoded_of(self, route: PagedRoute, files: Files) -> Ranges:
        known = self._decoded.get(route.slug)
        if known is not None and known[0] is files:
            return known[1]
        # Written by _decide in this app (here or in another process
        # sharing the store); another version's value, or one that is not
        # ours, counts as missing: decided again.
        try:
            value = pickle.loads(files.body(0) or b"")
            tagged = isinstance(value, tuple) and value[:1] == ("ranges",)
            ranges = value[1] if tagged else None
            if not isinstance(ranges, tuple) or not all(
                isinstance(pair, tuple) and len(pair) == 2 for pair in ranges
            ):
                raise TypeError("not the ranges")
        except Exception:
            cache = self._starts[route.slug]
            cache.clear()
            cache.expire()
            raise StartsUnknown(route, 1) from None
        self._decoded[route.slug] = (files, ranges)
        return ranges

    def ranges(self, route: PagedRoute) -> Ranges:
        """The route's ranges of keys by part number: with a shared store,
        the ones it holds now, the same in every process; raises
        :class:`StartsUnknown` when they cannot be known now."""
        cache = self._starts[route.slug]
        cache.newest()
        lookup = cache.get()
        files = lookup.value
        if files is None:
            raise StartsUnknown(route, lookup.retry_after)
        return self._decoded_of(route, files)

    def part(self, route: PagedRoute, number: int, ranges: Ranges) -> SitemapCache:
        """The cache of part ``number`` (from 1) of ``route`` with the
        ranges ``ranges``, made when first asked for. It is kept under its
        range of keys, not its number: once the ranges change, a part of
        the old ones is never served (nor its stored copy read)."""
        digest = _digest(ranges, number)
        key = (route.slug, digest)
        start, stop = ranges[number - 1]

        def build() -> Files:
            # Compressed as it is written: its XML is never held whole.
            part = build_part(self.app, route, number, start, stop, packed=True)
            if part.overflowed:
                self._outgrown(route, digest, part.file.urls)
            # Its <lastmod> (the newest of its entries) for the index, here
            # and in the shared store (a day or a time: a short text).
            lastmod = self._lastmods[key] = part.file.lastmod
            if lastmod is not None:
                self._noted(route, digest, lambda notes: notes.mark("lastmod", lastmod))
            return Files.stored((part.file.packed,), self.clock())

        with self._lock:
            cache = self._parts.get(key)
            if cache is None:
                cache = self._parts[key] = self._cache(
                    f"part:{route.slug}:{digest}",
                    build,
                    f"part {number} of {route.where}",
                    self._slots,
                    route.where,
                )
            else:
                self._parts.move_to_end(key)
            # Parts built since the last look count now.
            self._forget_some(key)
            return cache

    def _lastmod(self, route: PagedRoute, number: int, ranges: Ranges) -> str | None:
        """The ``<lastmod>`` of a part built before (here or, with a shared
        store, by any process), else None."""
        digest = _digest(ranges, number)
        key = (route.slug, digest)
        if key in self._lastmods:
            return self._lastmods[key]
        found = self._noted(route, digest, lambda notes: notes.value("lastmod"))
        return found if isinstance(found, str) and len(found) <= 40 else None

    def _noted(
        self, route: PagedRoute, digest: str, call: Callable[[SharedFiles], object]
    ) -> object:
        # The notes of a part's range are kept beside its files in the store.
        notes = self._shared(f"notes:{route.slug}:{digest}")
        return None if notes is None else self.site.quietly(lambda: call(notes))

    def _shared(self, slot: str) -> SharedFiles | None:
        """The shared store's keys of ``slot``, None without a store."""
        if self.backend is None:
            return None
        settings = self.state.settings
        scope = settings.site_base
        name = settings.store_name(self.app.import_name)
        return SharedFiles(self.backend, scope, self.app.app_context, slot, name=name)

    def _forget_some(self, asked: tuple[str, str]) -> None:
        """Keep the parts within MARMEON_SITEMAP_MEMORY bytes (as kept:
        compressed), the least recently asked for going first; one being
        built stays, and so does the one just asked for."""
        budget = self.state.settings.sitemap_memory
        kept = sum(cache.last.size for cache in self._parts.values() if cache.last)
        for key, cache in list(self._parts.items()):
            if kept <= budget and len(self._parts) <= MAX_FILES:
                return
            if cache.busy or key == asked:
                continue
            if cache.last is not None:
                kept -= cache.last.size
            del self._parts[key]


def _digest(ranges: Ranges, number: int) -> str:
    """What names part ``number``'s range of keys (in its caches' keys)."""
    return hashlib.sha256(pickle.dumps(ranges[number - 1])).hexdigest()[:16]
