"""Drawn images, kept: in the process (bounded) and, with
``MARMEON_OG_IMAGES_SHARED``, in the shared store (for a day).

Each image is drawn once for the requests that arrive together: in a
process, the first request draws and the others wait for it; across
processes that share the app's ``sitemap_cache`` (Flask-Caching), the first
takes a lock with the store's atomic ``add`` and the others wait for the
image to appear there (at most :data:`WAIT` seconds, then draw it
themselves). A store that cannot be reached is logged once and left out:
the process keeps its own images.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from .._log import logger

#: Bytes of PNG a process keeps (then the least recently served go); the
#: default of MARMEON_OG_IMAGES_MEMORY.
MEMORY_BYTES = 32 * 1024 * 1024
#: How long the shared store keeps an image (a day; any process redraws
#: one that is gone, from its address).
KEEP = 24 * 3600
#: Seconds another process's drawing is waited for, and its lock held.
WAIT = 10.0
_POLL = 0.05
_FORMAT = "v1"


class ImageStore:
    """One app's drawn images.

    :param shared: a Flask-Caching ``Cache``, or None.
    :param scope: APP_URL's origin and the mount path: what the keys name.
    :param context: entered around every call to ``shared`` (a ``Cache``
        made without an app finds it in the app context).
    """

    def __init__(
        self,
        shared: Any | None,
        scope: str,
        context: Callable[[], AbstractContextManager[Any]],
        memory_bytes: int = MEMORY_BYTES,
    ) -> None:
        self.shared = shared
        self.context = context
        self.prefix = (
            f"flask_marmeon/og/{_FORMAT}/"
            + hashlib.sha256(scope.encode()).hexdigest()[:16]
        )
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
            flight = self.flights.get(key)
            leader = flight is None
            if flight is None:
                flight = self.flights[key] = threading.Event()
        if not leader:
            flight.wait(WAIT * 2)
            png = self.cached(key)
            if png is not None:
                return png
            return self._fetch(key, draw)
        try:
            return self._fetch(key, draw)
        finally:
            with self.lock:
                self.flights.pop(key, None)
            flight.set()

    def _fetch(self, key: str, draw: Callable[[], bytes]) -> bytes:
        png = self._shared_get(key)
        if png is None:
            locked = self._shared_call("add", f"{self.prefix}/lock/{key}", 1, int(WAIT))
            if locked is False:
                png = self._wait_shared(key)
            if png is None:
                png = draw()
                with self.lock:
                    self.drawn += 1
                self._shared_call("set", f"{self.prefix}/png/{key}", png, KEEP)
                if locked:
                    self._shared_call("delete", f"{self.prefix}/lock/{key}")
        self._keep(key, png)
        return png

    def _wait_shared(self, key: str) -> bytes | None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            time.sleep(_POLL)
            png = self._shared_get(key)
            if png is not None:
                return png
        return None

    def _shared_get(self, key: str) -> bytes | None:
        value = self._shared_call("get", f"{self.prefix}/png/{key}")
        return value if isinstance(value, bytes) else None

    def _shared_call(self, name: str, *args: Any) -> Any:
        if self.shared is None:
            return None
        try:
            with self.context():
                return getattr(self.shared, name)(*args)
        except Exception:  # noqa: BLE001 - any backend's "cannot reach"
            if not self.shared_failed:
                self.shared_failed = True
                logger.warning(
                    "The shared sitemap_cache could not be reached for a"
                    " generated image; this process keeps its own images.",
                    exc_info=True,
                )
            return None
