"""Drawn images, kept: in the process (bounded) and, with
``MARMEON_OG_IMAGES_SHARED``, in the shared store (for a day).

Each image is drawn once for the requests that arrive together: in a
process, the first request draws and the others wait for it; across
processes that share the app's ``sitemap_cache`` (Flask-Caching), the first
takes the image's lock (shared_lock.py: the sitemap's protocol, renewed
while it draws) and the others wait for the image to appear there, taking
the lock over when its holder died, at most :data:`WAIT` seconds (then
they draw it themselves). A store that cannot be reached is logged once
and left out: the process keeps its own images.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from .._log import logger
from ..shared_lock import Heartbeat, SharedLock

_T = TypeVar("_T")

#: Bytes of PNG a process keeps (then the least recently served go); the
#: default of MARMEON_OG_IMAGES_MEMORY.
MEMORY_BYTES = 32 * 1024 * 1024
#: How long the shared store keeps an image (a day; any process redraws
#: one that is gone, from its address).
KEEP = 24 * 3600
#: Seconds another process's drawing is waited for.
WAIT = 10.0
#: Seconds a drawer's lock lives unless renewed (its heartbeat renews it
#: every third): a killed drawer's image is drawn by another within them.
LOCK_LIFETIME = 6.0
_POLL = 0.05
_FORMAT = "v1"


class ImageStore:
    """One app's drawn images.

    :param shared: a Flask-Caching ``Cache``, or None.
    :param name: what the keys name (``Settings.store_name``, as the
        sitemap's: ``MARMEON_CACHE_PREFIX``, else the app's address and
        import name).
    :param context: entered around every call to ``shared`` (a ``Cache``
        made without an app finds it in the app context).
    :param clock: the wall clock the shared locks' deadlines are read on.
    """

    def __init__(
        self,
        shared: Any | None,
        name: str,
        context: Callable[[], AbstractContextManager[Any]],
        memory_bytes: int = MEMORY_BYTES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.shared = shared
        self.clock = clock
        self.context = context
        self.prefix = f"flask_marmeon/og/{_FORMAT}/{name}"
        self.memory_bytes = memory_bytes
        self.lock = threading.Lock()
        self.memory: OrderedDict[str, bytes] = OrderedDict()
        self.size = 0
        self.flights: dict[str, threading.Event] = {}
        #: How many images this process drew (tests and benchmarks read it).
        self.drawn = 0
        self.shared_failed = False

    def cached(self, key: str) -> bytes | None:
        """The image when this process keeps it."""
        with self.lock:
            png = self.memory.get(key)
            if png is not None:
                self.memory.move_to_end(key)
            return png

    def _keep(self, key: str, png: bytes) -> None:
        with self.lock:
            if key in self.memory:
                return
            self.memory[key] = png
            self.size += len(png)
            while self.size > self.memory_bytes and self.memory:
                _, old = self.memory.popitem(last=False)
                self.size -= len(old)

    def get(self, key: str, draw: Callable[[], bytes]) -> bytes:
        """The image under ``key``: kept, shared, or drawn now (once)."""
        png = self.cached(key)
        if png is not None:
            return png
        with self.lock:
            leader = key not in self.flights
            flight = self.flights.setdefault(key, threading.Event())
        if not leader:
            flight.wait(WAIT * 2)
            return self.cached(key) or self._fetch(key, draw)
        try:
            return self._fetch(key, draw)
        finally:
            with self.lock:
                self.flights.pop(key, None)
            flight.set()

    def _fetch(self, key: str, draw: Callable[[], bytes]) -> bytes:
        png = self._shared_get(key)
        if png is None:
            shared = self.shared
            png = self._draw(draw) if shared is None else self._once(shared, key, draw)
        self._keep(key, png)
        return png

    def _draw(self, draw: Callable[[], bytes]) -> bytes:
        png = draw()
        with self.lock:
            self.drawn += 1
        return png

    def _once(self, shared: Any, key: str, draw: Callable[[], bytes]) -> bytes:
        """Drawn by the process that holds the image's lock: this one, or
        another that stores it meanwhile (waited for :data:`WAIT` seconds at
        most, then drawn here too); its lock is taken over when it died."""
        lock = SharedLock(shared, f"{self.prefix}/lock/{key}", self.context)
        token = secrets.token_hex(8)

        def take() -> bool:
            return lock.take(token, LOCK_LIFETIME, self.clock())

        def renew() -> None:
            lock.renew(token, LOCK_LIFETIME, self.clock())

        deadline = time.monotonic() + WAIT
        while (taken := self._quietly(take)) is False and time.monotonic() < deadline:
            time.sleep(_POLL)
            png = self._shared_get(key)
            if png is not None:
                return png
        with Heartbeat(renew, LOCK_LIFETIME / 3) if taken else nullcontext():
            png = self._draw(draw)
        self._shared_call("set", f"{self.prefix}/png/{key}", png, KEEP)
        if taken:
            self._quietly(lock.release, token)
        return png

    def _shared_get(self, key: str) -> bytes | None:
        value = self._shared_call("get", f"{self.prefix}/png/{key}")
        return value if isinstance(value, bytes) else None

    def _shared_call(self, name: str, *args: Any) -> Any:
        if self.shared is None:
            return None
        with self.context():
            return self._quietly(getattr(self.shared, name), *args)

    def _quietly(self, call: Callable[..., _T], *args: Any) -> _T | None:
        """``call(*args)``; None when the store cannot be reached (said once)."""
        try:
            return call(*args)
        except Exception:  # noqa: BLE001 - any backend's "cannot reach"
            if not self.shared_failed:
                self.shared_failed = True
                logger.warning(
                    "The shared sitemap_cache could not be reached for a"
                    " generated image; this process keeps its own images.",
                    exc_info=True,
                )
            return None
