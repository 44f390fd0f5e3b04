"""What keeps builds from crowding a process out: at most a few parts build
at once (:class:`BuildSlots`), and a builder's shared lock stays short-lived
but held while it works (:class:`Heartbeat`)."""

from __future__ import annotations

import threading
from collections.abc import Callable

#: Parts one process builds at once at most: each holds a database
#: connection and a core while it runs; the others wait their turn.
PARTS_AT_ONCE = 2


class BuildSlots:
    """A process's places for builds: ``take()`` one (at once or not at
    all, or waiting), ``give()`` it back."""

    def __init__(self, count: int = PARTS_AT_ONCE) -> None:
        self._free = threading.BoundedSemaphore(count)

    def take(self, wait: bool = True) -> bool:
        """Take a place: waiting for one when ``wait``; False when none is free."""
        return self._free.acquire(blocking=wait)

    def give(self) -> None:
        """Give a place back."""
        self._free.release()


class Heartbeat:
    """Call ``renew`` every ``every`` seconds in a thread of its own, from
    ``with`` to its end: a builder's lock in the shared store lives a few
    seconds only, renewed while it builds, so a killed builder's lock is
    taken over within seconds (not after a minute)."""

    def __init__(self, renew: Callable[[], object], every: float) -> None:
        self.renew = renew
        self.every = every
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._beat, name="flask_marmeon lock", daemon=True
        )

    def _beat(self) -> None:
        while not self._done.wait(self.every):
            try:
                self.renew()
            except Exception:  # the store is down: the build goes on
                continue

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join(self.every + 1)
