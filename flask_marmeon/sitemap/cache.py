"""The per-app sitemap cache: kept for a TTL, rebuilt in the background while
requests get the last file, and after a failure not rebuilt for
``retry_after`` seconds.

One background thread per app refreshes the files; a request never builds.
A request that finds a file gets it at once, even a stale one (stale while
rebuilding); only a cold start (no file yet) waits, at most ``wait`` seconds,
so a hanging provider holds one thread, never one per request.

With a shared store (shared_store.py, a Flask-Caching ``Cache``) the thread first
looks there: a build another process made is taken as it is; otherwise the
one process that takes the lock builds and stores it, and the others poll
for it. The pause after a failure is kept there too. When the store cannot
be reached, the thread builds in this process, and says so once.

The clock is an argument (and the attribute :attr:`SitemapCache.clock`), so
tests move time without monkeypatching; it is the wall clock by default, as
processes on several machines compare their times. Waiting uses
``threading.Condition``, which gevent's monkeypatching turns into greenlet
waits.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .._log import logger
from .files import Files
from .report import failure
from .shared_store import SharedFiles, Stamp


@dataclass(frozen=True)
class Lookup:
    """What a request gets: the files, or how long to wait before retrying."""

    #: The newest files (maybe stale, or the last good ones), or None.
    value: Files | None
    #: Whole seconds until asking again is useful, when value is None.
    retry_after: int = 0


class SitemapCache:
    """The files of one app's sitemap, refreshed by one background thread.

    :param build: makes the files; an exception is a failed build.
    :param ttl: seconds a build is fresh.
    :param retry_after: seconds after a failure during which ``build`` is not
        called again (by any process sharing ``shared``).
    :param wait: seconds a request waits when there is no file yet.
    :param shared: the store shared with other processes, or None.
    :param lock_timeout: seconds a builder holds the shared lock at most; a
        dead holder's lock frees itself after it.
    :param poll: seconds between looks at the store while another builds.
    :param clock: returns seconds (the wall clock, so machines agree).
    :param name: what the files are, for the log ("the sitemap", "part 3 of
        the route ...").
    """

    def __init__(
        self,
        build: Callable[[], tuple[bytes, ...]],
        *,
        ttl: float,
        retry_after: float,
        wait: float = 20,
        shared: SharedFiles | None = None,
        lock_timeout: int = 60,
        poll: float = 0.05,
        clock: Callable[[], float] = time.time,
        name: str = "the sitemap",
    ) -> None:
        self.build = build
        self.name = name
        self.ttl = ttl
        self.retry_after = retry_after
        self.wait = wait
        self.shared = shared
        self.lock_timeout = lock_timeout
        self.poll = poll
        self.clock = clock
        self._cond = threading.Condition(threading.Lock())
        self._value: Files | None = None
        self._failed_until: float | None = None
        self._thread: threading.Thread | None = None
        # One warning per refresh that keeps cold requests waiting too long.
        self._late = False
        # Whether the shared store failed last time (logged once per outage).
        self._down = False
        # The request's thread and the builder's both meet the store: one
        # of them says that it went down (or came back), never both.
        self._down_lock = threading.Lock()
        # Whether the store refused a build (logged once).
        self._refused = False
        # The last stamp seen in the store, to tell a flush from a first start.
        self._seen: Stamp | None = None
        # Set by expire(): the value is stale whatever its age.
        self._expired = False
        #: Builds this process made (read by tests and benchmarks).
        self.builds = 0

    # -- the request's side ------------------------------------------------

    def _retry(self, now: float) -> int | None:
        if self._failed_until is not None and now < self._failed_until:
            return max(1, math.ceil(self._failed_until - now))
        return None

    def get(self) -> Lookup:
        """The newest files at once; the first files, waited for at most
        ``wait`` seconds. A stale or missing value starts a refresh."""
        with self._cond:
            now = self.clock()
            value = self._value
            fresh = value is not None and now - value.built_at < self.ttl
            if fresh and not self._expired:
                return Lookup(value)
            retry = self._retry(now)
            if retry is not None:
                return Lookup(value, retry)
            if self._thread is None:
                self._start()
            if value is not None:
                return Lookup(value)
            deadline = time.monotonic() + self.wait
            while self._value is None and self._thread is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            if self._value is not None:
                return Lookup(self._value)
            retry = self._retry(self.clock())
            if retry is not None:
                return Lookup(None, retry)
            if not self._late:
                self._late = True
                logger.warning(
                    "Building %s has taken more than %s seconds"
                    " (MARMEON_SITEMAP_WAIT); requests are answered with 503"
                    " until it is done. Is a sitemap provider hanging?",
                    self.name,
                    self.wait,
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
        if self.shared is not None:
            self._quietly(self.shared.expire)

    def newest(self) -> None:
        """Take the shared store's build at once when it is newer than the
        one here (another process rebuilt it): every process then serves
        the same one, without waiting for its own copy to go stale."""
        shared = self.shared
        if shared is None or self._down:
            # Known unreachable: the refresh thread finds when it is back.
            return
        try:
            stamp = shared.stamp()
            local = self._value
            if stamp is None or local is not None and stamp.built_at == 0:
                if stamp is not None:
                    # Another process said it is stale (expire()).
                    with self._cond:
                        self._expired = True
                return
            if local is not None and stamp.built_at <= local.built_at:
                return
            bodies = shared.bodies(stamp)
        except Exception:
            self._unreachable()
            return
        if bodies is not None:
            self._install(Files(bodies, stamp.built_at))

    def clear(self) -> None:
        """Forget the files and the pause, so the next request refreshes."""
        with self._cond:
            self._value = None
            self._failed_until = None

    def join(self, timeout: float) -> bool:
        """Wait until no refresh runs; False when one still does after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._thread is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    # -- the background thread ---------------------------------------------

    def _start(self) -> None:
        # Called with the condition held: one refresh at a time.
        self._late = False
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

    def _install(self, files: Files) -> None:
        with self._cond:
            self._value = files
            self._expired = False
            self._failed_until = None
            self._cond.notify_all()

    def _pause(self, until: float) -> None:
        with self._cond:
            self._failed_until = until
            self._cond.notify_all()

    def _build_here(self) -> tuple[Files | None, float | None]:
        """Build in this process: (the files, None) or (None, paused until)."""
        self.builds += 1
        try:
            bodies = self.build()
            if not bodies or not all(type(body) is bytes for body in bodies):
                raise TypeError(f"the build gave {type(bodies).__name__}, not files")
        except Exception as error:
            had = self._value is not None
            logger.error(
                "Building %s failed (%s); the provider is not called"
                " again for %s seconds, and meanwhile %s.",
                self.name,
                failure(error),
                self.retry_after,
                "the last good file is served"
                if had
                else "requests are answered with 503",
                exc_info=True,
            )
            until = self.clock() + self.retry_after
            self._pause(until)
            return None, until
        files = Files(bodies, self.clock())
        self._install(files)
        return files, None

    def _refresh_shared(self, shared: SharedFiles) -> bool:
        """Refresh through the store; False when it cannot be reached before
        a build started (then this process builds its own)."""
        token = secrets.token_hex(8)
        give_up = time.monotonic() + 2 * self.lock_timeout
        try:
            while True:
                stamp = shared.stamp()
                now = self.clock()
                if self._fresh_from(shared, stamp, now):
                    self._reachable()
                    return True
                until = shared.paused_until()
                if until is not None and until > now:
                    self._pause(until)
                    self._reachable()
                    return True
                if shared.lock(token, self.lock_timeout, now):
                    # Another process may have stored a build between our
                    # look and the lock: look again before building.
                    stamp = shared.stamp()
                    now = self.clock()
                    until = shared.paused_until()
                    fresh = self._fresh_from(shared, stamp, now)
                    if fresh or (until is not None and until > now):
                        shared.unlock(token)
                        if not fresh and until is not None:
                            self._pause(until)
                        self._reachable()
                        return True
                    break
                if time.monotonic() > give_up:
                    return False  # the store answers, but nobody finishes
                time.sleep(self.poll)
        except Exception:
            self._unreachable()
            return False
        self._reachable()
        try:
            files, until = self._build_here()
            # Stored (or the pause said) before the lock is released, so a
            # process that takes it next finds them.
            if files is not None:
                put = self._quietly(lambda: shared.put(files.bodies, files.built_at))
                if isinstance(put, Stamp):
                    if stamp is not None:
                        old = stamp
                        self._quietly(lambda: shared.forget(old))
                    self._seen = put
                elif put is None and not self._down and not self._refused:
                    self._refused = True
                    logger.warning(
                        "The shared cache refused to store the sitemap (is it"
                        " full?); each process builds its own.",
                    )
            elif until is not None:
                self._quietly(lambda: shared.pause(until, self.retry_after))
        finally:
            self._quietly(lambda: shared.unlock(token))
        return True

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
        if local is None or stamp.built_at > local.built_at:
            bodies = shared.bodies(stamp)
            if bodies is not None:
                # Even a stale build: cold requests get it at once.
                self._install(Files(bodies, stamp.built_at))
                local = self._value
        fresh = local is not None and now - local.built_at < self.ttl
        return fresh and not self._expired

    @property
    def last(self) -> Files | None:
        """The newest files here (fresh or not), without starting anything."""
        return self._value

    def quietly(self, call: Callable[[], object]) -> object:
        """``call()`` (a call of the shared store); None when it raised (the
        store cannot be reached: logged once)."""
        return self._quietly(call)

    def _quietly(self, call: Callable[[], object]) -> object:
        """Call the store after a build: a failure there loses nothing here."""
        try:
            result = call()
        except Exception:
            self._unreachable()
            return None
        return result

    def _unreachable(self) -> None:
        with self._down_lock:
            said, self._down = self._down, True
        if not said:
            # Named by the app's address: one process may serve several apps.
            logger.warning(
                "The shared cache cannot be reached for %s of %s; this"
                " process keeps its own copy, built here, until it can.",
                self.name,
                self._scope(),
                exc_info=True,
            )

    def _reachable(self) -> None:
        with self._down_lock:
            said, self._down = self._down, False
        if said:
            logger.info(
                "The shared cache for %s of %s is reachable again.",
                self.name,
                self._scope(),
            )

    def _scope(self) -> str:
        return self.shared.scope if self.shared is not None else "this app"
