"""The per-app sitemap cache: kept for a TTL, built once for requests that
arrive together, and after a failure not rebuilt for ``retry_after`` seconds.

The clock is an argument (and the attribute :attr:`SitemapCache.clock`), so
tests move time without monkeypatching. Waiting uses ``threading.Condition``,
which gevent's monkeypatching turns into greenlet waits.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from .._log import logger

T = TypeVar("T")


@dataclass(frozen=True)
class Lookup(Generic[T]):
    """What a request gets: the value, or how long to wait before retrying."""

    #: The built value (maybe the last good one after a failure), or None.
    value: T | None
    #: Whole seconds until the next build may be tried, when value is None.
    retry_after: int = 0


class SitemapCache(Generic[T]):
    """Single-flight TTL cache of one value.

    :param build: makes the value; an exception is a failed build.
    :param ttl: seconds a built value is kept.
    :param retry_after: seconds after a failure during which ``build`` is not
        called again; meanwhile the last good value is served, if any.
    :param clock: returns seconds, monotonic.
    :param describe: names the value in the log ("the sitemap").
    """

    def __init__(
        self,
        build: Callable[[], T],
        *,
        ttl: float,
        retry_after: float,
        clock: Callable[[], float] = time.monotonic,
        describe: str = "the sitemap",
    ) -> None:
        self.build = build
        self.ttl = ttl
        self.retry_after = retry_after
        self.clock = clock
        self.describe = describe
        self._cond = threading.Condition(threading.Lock())
        self._value: T | None = None
        self._built_at = 0.0
        self._failed_until: float | None = None
        self._building = False

    def _fresh(self, now: float) -> bool:
        return self._value is not None and now - self._built_at < self.ttl

    def get(self) -> Lookup[T]:
        """The value, built by this caller if it is due; concurrent callers
        wait for that one build."""
        with self._cond:
            while True:
                now = self.clock()
                if self._fresh(now):
                    return Lookup(self._value)
                if self._failed_until is not None and now < self._failed_until:
                    wait = max(1, math.ceil(self._failed_until - now))
                    return Lookup(self._value, wait)
                if not self._building:
                    break
                self._cond.wait()
            self._building = True
        try:
            value = self.build()
        except Exception:
            logger.error(
                "Building %s failed; the provider is not called again for %s"
                " seconds, and meanwhile %s.",
                self.describe,
                self.retry_after,
                "the last good file is served"
                if self._value is not None
                else "requests are answered with 503",
                exc_info=True,
            )
            with self._cond:
                self._building = False
                self._failed_until = self.clock() + self.retry_after
                self._cond.notify_all()
                wait = max(1, math.ceil(self.retry_after))
                return Lookup(self._value, wait)
        except BaseException:
            with self._cond:
                self._building = False
                self._cond.notify_all()
            raise
        with self._cond:
            self._value = value
            self._built_at = self.clock()
            self._failed_until = None
            self._building = False
            self._cond.notify_all()
            return Lookup(value)

    def clear(self) -> None:
        """Forget the value, so the next request builds it."""
        with self._cond:
            self._value = None
            self._failed_until = None
