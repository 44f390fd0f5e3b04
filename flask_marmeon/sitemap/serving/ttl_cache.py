"""The per-app sitemap cache: kept for a TTL, rebuilt in the background while
requests get the last file, and after a failure not rebuilt for
``retry_after`` seconds.

One background thread per app refreshes the files; a request never builds.
A request that finds a file gets it at once, even a stale one (stale while
rebuilding); only a cold start (no file yet) waits, at most ``wait`` seconds,
so a hanging provider holds one thread, never one per request.

With a shared store (a Flask-Caching ``Cache``) the thread first looks there
(shared_refresh.py); when the store cannot be reached, it builds in this
process, and says so once.

The clock is an argument (and the attribute :attr:`SitemapCache.clock`), so
tests move time without monkeypatching; it is the wall clock by default, as
processes on several machines compare their times. Waiting uses
``threading.Condition``, which gevent's monkeypatching turns into greenlet
waits.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from ..._log import logger
from .files import Files
from .shared_refresh import SharedRefresh
from .shared_store import SharedFiles

#: Retry-After of a request told not to wait for a build (seconds).
BUILDING_RETRY = 5


@dataclass(frozen=True)
class Lookup:
    """What a request gets: the files, or how long to wait before retrying."""

    #: The newest files (maybe stale, or the last good ones), or None.
    value: Files | None
    #: Whole seconds until asking again is useful, when value is None.
    retry_after: int = 0


class SitemapCache(SharedRefresh):
    """The files of one app's sitemap, refreshed by one background thread.

    :param build: makes the files (their bodies, or :class:`~.files.Files`
        compressed as written); an exception is a failed build.
    :param ttl: seconds a build is fresh.
    :param retry_after: seconds after a failure during which ``build`` is not
        called again (by any process sharing ``shared``).
    :param wait: seconds a request waits when there is no file yet.
    :param shared: the store shared with other processes, or None.
    :param lock_timeout: seconds a builder's shared lock lives unless
        renewed (a heartbeat renews it while the build runs): a dead
        holder's lock frees itself after it.
    :param slots: the process's places for builds, shared by the caches
        of parts (at most two build at once); None: no limit.
    :param poll: seconds between looks at the store while another builds.
    :param clock: returns seconds (the wall clock, so machines agree).
    :param name: what the files are, for the log ("the sitemap", "part 3 of
        the route ...").
    :param health: what the app's caches said in the log, shared by them.
    :param group: what a failure is logged once for (the route; default:
        the name).
    """

    def _retry(self, now: float) -> int | None:
        if self._failed_until is not None and now < self._failed_until:
            return max(1, math.ceil(self._failed_until - now))
        return None

    def get(self, wait: float | None = None) -> Lookup:
        """The newest files at once; the first files, waited for at most
        ``wait`` seconds (default: the cache's). A stale or missing value
        starts a refresh."""
        wait = self.wait if wait is None else wait
        with self._cond:
            now = self.clock()
            value = self._value
            if value is not None and self._fresh(value, now):
                return Lookup(value)
            retry = self._retry(now)
            if retry is not None:
                return Lookup(value, retry)
            if self._thread is None:
                self._start()
            if value is not None:
                return Lookup(value)

            def done() -> bool:
                if self._value is None and self._thread is None:
                    # The refresh ended without files. When clear() dropped
                    # the ones it had just installed, a new one starts and
                    # the wait goes on; otherwise it failed.
                    if not self._cleared or self._retry(self.clock()) is not None:
                        return True
                    self._start()
                return self._value is not None

            if wait > 0:
                self._cond.wait_for(done, wait)
            else:
                # wait_for(done, 0) would let go of the lock once, and the
                # answer would depend on what another thread did meanwhile.
                done()
            if self._value is not None:
                return Lookup(self._value)
            retry = self._retry(self.clock())
            if retry is not None:
                return Lookup(None, retry)
            if wait <= 0:
                # Asked not to wait (a worker that serves one request at a
                # time): come back when a build usually is done.
                return Lookup(None, BUILDING_RETRY)
            if not self._late:
                self._late = True
                logger.warning(
                    "Building %s has taken %d seconds so far (requests wait"
                    " %s seconds, MARMEON_SITEMAP_WAIT); requests are answered"
                    " with 503 until it is done. %s",
                    self.name,
                    max(0, self.clock() - self._began),
                    wait,
                    "Other parts are being built in this process meanwhile"
                    " (two at once at most)."
                    if self._queued
                    else "Is a sitemap provider hanging?",
                )
            return Lookup(None, max(1, math.ceil(self.retry_after)))

    @property
    def busy(self) -> bool:
        """Whether a refresh runs now."""
        return self._thread is not None

    def expire(self) -> None:
        """Make the files stale now, here and in the shared store: the next
        request starts a rebuild (and gets these files meanwhile)."""
        with self._cond:
            self._expired = True
        self.on_store(SharedFiles.expire)

    def clear(self) -> None:
        """Forget the files and the pause, so the next request refreshes."""
        with self._cond:
            self._value = None
            self._failed_until = None
            # A refresh still running may have installed its files already.
            self._cleared = self._thread is not None

    def join(self, timeout: float) -> bool:
        """Wait until no refresh runs; False when one still does after ``timeout``."""
        with self._cond:
            return self._cond.wait_for(lambda: self._thread is None, timeout)

    def _start(self) -> None:
        # Called with the condition held: one refresh at a time.
        self._late = False
        self._began = self.clock()
        self._cleared = False
        thread = threading.Thread(
            target=self._refresh, name="flask_marmeon sitemap", daemon=True
        )
        self._thread = thread
        thread.start()

    def _refresh(self) -> None:
        try:
            if self.shared is None or not self._refresh_shared(self.shared):
                self._build_here()
        except Exception:  # a bug of ours: say so, keep serving
            logger.exception("Refreshing %s failed unexpectedly.", self.name)
        finally:
            with self._cond:
                self._thread = None
                self._cond.notify_all()

    @property
    def last(self) -> Files | None:
        """The newest files here (fresh or not), without starting anything."""
        return self._value
