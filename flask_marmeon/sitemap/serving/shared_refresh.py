"""A :class:`~.ttl_cache.SitemapCache`'s state, its build, and its refresh
through its shared store (the one process that takes the lock builds, under
a heartbeat, in one of its places for builds; the others take its build),
the look at the store's newest build, and the log of its outages."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field

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


@dataclass(eq=False)
class SharedRefresh:
    """A :class:`~.ttl_cache.SitemapCache`'s state, its build, and what it
    does with its shared store: its refresh there, the look at the newest
    build, the outages said once (the fields are the cache's parameters)."""

    build: Callable[[], tuple[bytes, ...] | Files]
    _: KW_ONLY
    ttl: float
    retry_after: float
    wait: float = 20
    shared: SharedFiles | None = None
    lock_timeout: int = 60
    slots: threading.BoundedSemaphore | None = None
    poll: float = 0.05
    clock: Callable[[], float] = time.time
    name: str = "the sitemap"
    health: Health = field(default_factory=Health)
    group: str = ""

    def __post_init__(self) -> None:
        self.group = self.group or self.name
        self._cond = threading.Condition(threading.Lock())
        self._value: Files | None = None
        self._failed_until: float | None = None
        self._thread: threading.Thread | None = None
        # One warning per refresh that keeps cold requests waiting too long.
        self._late = False
        # When the running refresh started (clock()), for that warning.
        self._began = 0.0
        # Whether clear() was called while the running refresh ran.
        self._cleared = False
        # Whether the shared store failed last time (logged once per outage).
        self._down = False
        # When a request last looked at a store known to be down.
        self._probed = 0.0
        # Whether the store refused a build (logged once).
        self._refused = False
        # The last stamp seen in the store, to tell a flush from a first start.
        self._seen: Stamp | None = None
        # Whether a look at the store's newest build runs (newest_soon()).
        self._looking = False
        # Set by expire(): the value is stale whatever its age.
        self._expired = False
        # Whether the refresh waits for a place among the process's builds.
        self._queued = False
        #: Builds this process made (read by tests and benchmarks).
        self.builds = 0

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
        return local is None or local.built_at < built_at <= now + CLOCK_SKEW

    def _install(self, files: Files, *, if_taken: bool = False) -> None:
        with self._cond:
            if if_taken and not self._takes(files.built_at, self._value, self.clock()):
                return
            self._value = files
            self._expired = False
            self._failed_until = None
            self._cond.notify_all()

    def _pause(self, until: float) -> None:
        with self._cond:
            self._failed_until = until
            self._cond.notify_all()

    def _build_here(self, held: bool = False) -> tuple[Files | None, float | None]:
        """Build in this process, in one of its places for builds (``held``:
        taken already): (the files, None) or (None, paused until)."""
        slots = self.slots
        if slots is not None and not held:
            self._queued = True
            slots.acquire()
            self._queued = False
        try:
            self.builds += 1
            try:
                built = self.build()
                bodies = built.packed if isinstance(built, Files) else built
                if not bodies or not all(type(body) is bytes for body in bodies):
                    raise TypeError(f"the build gave {type(built).__name__}, not files")
            except Exception as error:
                meanwhile = (
                    "the last good file is served"
                    if self._value is not None
                    else "requests are answered with 503"
                )
                self.health.failed(
                    self.group,
                    self.name,
                    error,
                    f"the provider is not called again for {self.retry_after}"
                    f" seconds, and meanwhile {meanwhile}",
                )
                until = self.clock() + self.retry_after
                self._pause(until)
                return None, until
            # Files: compressed as they were written (Files.stored).
            files = built if isinstance(built, Files) else Files(bodies, self.clock())
            self._install(files)
            self.health.worked(self.group, self.name)
            return files, None
        finally:
            if slots is not None:
                slots.release()

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
            if stamp is not None and self._value is not None and stamp.built_at == 0:
                # Another process said it is stale (expire()).
                with self._cond:
                    self._expired = True
            elif stamp is not None:
                self._take(shared, stamp, self.clock())
        except Exception:
            self._unreachable()

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
                done, stamp = self._settled(shared)
                if done:
                    break
                # A place among this process's builds first, then the lock:
                # the lock is never held while waiting for a place.
                holding = slots is None or slots.acquire(blocking=False)
                self._queued = not holding
                lock = shared.build_lock
                if holding and lock.take(token, self.lock_timeout, self.clock()):
                    # Another process may have stored a build between our
                    # look and the lock: look again before building.
                    done, stamp = self._settled(shared)
                    if done:
                        lock.release(token)
                    else:
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
        if done:
            return True

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

    def _settled(self, shared: SharedFiles) -> tuple[bool, Stamp | None]:
        """Look at the store: whether nothing is to be built here (its build,
        taken, is fresh; or builds are paused, and the pause is said here),
        and its stamp."""
        stamp = shared.stamp()
        now = self.clock()
        if self._fresh_from(shared, stamp, now):
            return True, stamp
        until = shared.paused_until()
        # A pause longer than any this app sets is not ours: ignored.
        if until is not None and now < until <= now + self.retry_after + CLOCK_SKEW:
            self._pause(until)
            return True, stamp
        return False, stamp

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
        """Take the store's build when it is newer than ours (even a stale
        one: cold requests get it at once); True when the files are fresh."""
        if stamp is None and self._seen is not None:
            logger.warning(
                "The sitemap is gone from the shared cache (flushed or"
                " evicted): it is built again.",
            )
        self._seen = stamp
        if stamp is None:
            return False
        self._take(shared, stamp, now)
        local = self._value
        return local is not None and self._fresh(local, now)

    def _take(self, shared: SharedFiles, stamp: Stamp, now: float) -> None:
        """Install the store's build when it replaces the one here. Asked
        again as it is installed: a newer one taken meanwhile (a build made
        here, or the look's in a process just started) wins."""
        if self._takes(stamp.built_at, self._value, now):
            bodies = shared.bodies(stamp)
            if bodies is not None:
                self._install(Files.stored(bodies, stamp.built_at), if_taken=True)

    def quietly(self, call: Callable[[], object]) -> object:
        """``call()`` (a call of the shared store); None when it raised (the
        store cannot be reached: logged once, and nothing is lost here)."""
        try:
            return call()
        except Exception:
            self._unreachable()
            return None

    def on_store(self, call: Callable[[SharedFiles], object]) -> object:
        """:meth:`quietly` ``call(store)``; None without a store."""
        shared = self.shared
        return None if shared is None else self.quietly(lambda: call(shared))

    def _unreachable(self) -> None:
        self._down = True
        # Named by the app's address: one process may serve several apps.
        # Called in the except block that met the store: its traceback.
        self.health.store(
            True,
            lambda: logger.warning(
                "The shared cache cannot be reached for the sitemap of %s; this"
                " process keeps its own copy of each file, built here, until it"
                " can.",
                getattr(self.shared, "scope", "this app"),
                exc_info=True,
            ),
        )

    def _reachable(self) -> None:
        self._down = False
        self.health.store(
            False,
            lambda: logger.info(
                "The shared cache for the sitemap of %s is reachable again.",
                getattr(self.shared, "scope", "this app"),
            ),
        )
