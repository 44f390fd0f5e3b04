"""What keeps builds from crowding a process out: at most a few parts build
at once (:class:`BuildSlots`); a builder's shared lock stays short-lived
but held while it works (shared_lock.py's ``Heartbeat``)."""

from __future__ import annotations

import threading

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
