"""A :class:`~.ttl_cache.SitemapCache`'s refresh through its shared store (the
one process that takes the lock builds, under a heartbeat, in one of its
places for builds; the others take its build),
the look at the store's newest build, and the log of its outages."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable

from ..._log import logger
from ...shared_lock import Heartbeat
from .files import Files
from .health import Health
from .shared_store import SharedFiles, Stamp

#: Seconds a refresh looks for another process's build, while that one
#: holds (and renews) the lock, before it builds on its own.
GIVE_UP = 300
#: Seconds between a request's looks at a store known to be down.
PROBE = 5.0
#: Seconds a build may be dated ahead of this machine's clock (another
#: machine's clock runs ahead) and still count as fresh.
CLOCK_SKEW = 60


class SharedRefresh:
    """What :class:`~.ttl_cache.SitemapCache` does with its shared store: its
    refresh there, the look at the newest build, the outages said once."""

    name: str
    health: Health
    shared: SharedFiles | None
    clock: Callable[[], float]
    ttl: float
    retry_after: float
    lock_timeout: int
    slots: threading.BoundedSemaphore | None
    poll: float
    _cond: threading.Condition
    _value: Files | None
    _expired: bool
    _queued: bool
    _down: bool
    _down_lock: threading.Lock
    _probed: float
    _refused: bool
    _seen: Stamp | None
    _looking: bool

    def _fresh(self, files: Files, now: float) -> bool:
        """Whether ``files`` are fresh: built less than the TTL ago, not
        expired, and not dated ahead of the clock by more than machines'
        clocks differ (a value dated in the future is stale, not fresh for
        as long as it claims)."""
        age = now - files.built_at
        return -CLOCK_SKEW <= age < self.ttl and not self._expired

    def _takes(self, built_at: float, local: Files | None, now: float) -> bool:
        """Whether the store's build (built at ``built_at``) replaces the one here:
        anything beats nothing (a cold request gets a stale build at once),
        but a build dated ahead of the clock never replaces one here, or a
        look that read it before a rebuild would put it back after."""
        if local is None:
            return True
        return local.built_at < built_at <= now + CLOCK_SKEW

    def _sane(self, until: float | None, now: float) -> float | None:
        # A pause longer than any this app sets is not ours: ignored.
        limit = now + self.retry_after + CLOCK_SKEW
        return until if until is not None and until <= limit else None

    def _install(self, files: Files, *, if_taken: bool = False) -> None:
        raise NotImplementedError

    def _pause(self, until: float) -> None:
        raise NotImplementedError

    def _build_here(self, held: bool = False) -> tuple[Files | None, float | None]:
        raise NotImplementedError

    def newest(self) -> None:
        """Take the shared store's build at once when it is newer than the
        one here (another process rebuilt it): every process then serves
        the same one, without waiting for its own copy to go stale."""
        shared = self.shared
        if shared is None:
            return
        if self._down:
            # Known unreachable: looked at again every PROBE seconds only,
            # so that a request does not wait on it each time (at once
            # when the clock was set back).
            now = self.clock()
            if 0 <= now - self._probed < PROBE:
                return
            self._probed = now
        try:
            stamp = shared.stamp()
            self._reachable()
            local = self._value
            if stamp is None or local is not None and stamp.built_at == 0:
                if stamp is not None:
                    # Another process said it is stale (expire()).
                    with self._cond:
                        self._expired = True
                return
            if not self._takes(stamp.built_at, local, self.clock()):
                return
            bodies = shared.bodies(stamp)
        except Exception:
            self._unreachable()
            return
        if bodies is not None:
            # Asked again as it is installed: a build made here meanwhile wins.
            self._install(Files.stored(bodies, stamp.built_at), if_taken=True)

    def newest_soon(self) -> None:
        """:meth:`newest` in a thread of its own: the request that asks
        gets the files here at once (a store that hangs never holds it),
        the next one what the store had. One look at a time."""
        if self.shared is None or self._looking:
            return
        self._looking = True

        def look() -> None:
            try:
                self.newest()
            finally:
                self._looking = False

        threading.Thread(
            target=look, name="flask_marmeon sitemap look", daemon=True
        ).start()

    def _refresh_shared(self, shared: SharedFiles) -> bool:
        """Refresh through the store; False when it cannot be reached before
        a build started (then this process builds its own)."""
        token = secrets.token_hex(8)
        give_up = self.clock() + GIVE_UP
        slots = self.slots
        holding = False  # a place among this process's builds
        try:
            while True:
                stamp = shared.stamp()
                now = self.clock()
                if self._fresh_from(shared, stamp, now):
                    self._reachable()
                    return True
                until = self._sane(shared.paused_until(), now)
                if until is not None and until > now:
                    self._pause(until)
                    self._reachable()
                    return True
                # A place among this process's builds first, then the lock:
                # the lock is never held while waiting for a place.
                holding = slots is None or slots.acquire(blocking=False)
                self._queued = not holding
                if holding and shared.build_lock.take(token, self.lock_timeout, now):
                    # Another process may have stored a build between our
                    # look and the lock: look again before building.
                    stamp = shared.stamp()
                    now = self.clock()
                    until = self._sane(shared.paused_until(), now)
                    fresh = self._fresh_from(shared, stamp, now)
                    if fresh or (until is not None and until > now):
                        shared.build_lock.release(token)
                        if not fresh and until is not None:
                            self._pause(until)
                        self._reachable()
                        return True
                    holding = False  # the build gives it back
                    break
                if slots is not None and holding:
                    slots.release()
                holding = False
                if self.clock() > give_up:
                    return False  # the store answers, but nobody finishes
                time.sleep(self.poll)
        except Exception:
            self._unreachable()
            return False
        finally:
            self._queued = False
            if slots is not None and holding:
                slots.release()
        self._reachable()

        def renew() -> None:
            shared.build_lock.renew(token, self.lock_timeout, self.clock())

        try:
            with Heartbeat(renew, self.lock_timeout / 3):
                files, until = self._build_here(held=True)
            # Stored (or the pause said) before the lock is released, so a
            # process that takes it next finds them.
            if files is not None:
                self._store(shared, files, stamp)
            elif until is not None:
                self.quietly(lambda: shared.pause(until, self.retry_after))
        finally:
            self.quietly(lambda: shared.build_lock.release(token))
        return True

    def _store(self, shared: SharedFiles, files: Files, old: Stamp | None) -> None:
        put = self.quietly(lambda: shared.put(files.packed, files.built_at))
        if isinstance(put, Stamp):
            if old is not None:
                self.quietly(lambda: shared.forget(old))
            self._seen = put
        elif put is None and not self._down and not self._refused:
            self._refused = True
            logger.warning(
                "The shared cache refused to store the sitemap (is it"
                " full?); each process builds its own.",
            )

    def _fresh_from(self, shared: SharedFiles, stamp: Stamp | None, now: float) -> bool:
        """Take the store's build when it is newer than ours; True when the
        files are then fresh."""
        if stamp is None:
            if self._seen is not None:
                self._seen = None
                logger.warning(
                    "The sitemap is gone from the shared cache (flushed or"
                    " evicted): it is built again.",
                )
            return False
        self._seen = stamp
        local = self._value
        if self._takes(stamp.built_at, local, now):
            bodies = shared.bodies(stamp)
            if bodies is not None:
                # Even a stale build: cold requests get it at once. Asked
                # again as it is installed: a newer one taken meanwhile (the
                # look's, in a process just started) wins.
                self._install(Files.stored(bodies, stamp.built_at), if_taken=True)
                local = self._value
        return local is not None and self._fresh(local, now)

    def quietly(self, call: Callable[[], object]) -> object:
        """``call()`` (a call of the shared store); None when it raised (the
        store cannot be reached: logged once, and nothing is lost here)."""
        try:
            result = call()
        except Exception:
            self._unreachable()
            return None
        return result

    def _unreachable(self) -> None:
        with self._down_lock:
            self._down = True
        # Named by the app's address: one process may serve several apps.
        # Called in the except block that met the store: its traceback.
        self.health.store_down(
            lambda: logger.warning(
                "The shared cache cannot be reached for the sitemap of %s; this"
                " process keeps its own copy of each file, built here, until it"
                " can.",
                self._scope(),
                exc_info=True,
            )
        )

    def _reachable(self) -> None:
        with self._down_lock:
            self._down = False
        self.health.store_up(
            lambda: logger.info(
                "The shared cache for the sitemap of %s is reachable again.",
                self._scope(),
            )
        )

    def _scope(self) -> str:
        return self.shared.scope if self.shared is not None else "this app"
