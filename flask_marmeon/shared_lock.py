"""One lock that processes share through a Flask-Caching store: the one
protocol of the sitemap's builds and the generated images' drawing.

- **take**: the store's atomic ``add`` of ``(token, deadline)``, with the
  lifetime as the key's expiry;
- **renew**: the holder moves its deadline on (a :class:`Heartbeat` does it
  while the work runs, so a lifetime of a few seconds is enough);
- **release**: the key is deleted only while it holds the holder's token;
- **take over**: a lock past its deadline, or a value that is no lock of
  ours, is taken over, by one process only (the one whose ``add`` of a key
  naming that dead holder succeeds). The deadline, not the store's expiry,
  decides: cachelib's Redis ``add`` is SETNX then EXPIRE, so a holder killed
  between the two leaves a key that never expires.

Deadlines are the callers' wall-clock seconds (``now``): processes on
several machines compare them. Every call may raise what the backend raises
when it cannot be reached.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol


class Backend(Protocol):
    """What a shared store must do: four calls of a Flask-Caching ``Cache``
    (``add`` atomic, as Redis' and Memcached's are)."""

    def get(self, key: str) -> Any: ...  # noqa: D102

    def set(self, key: str, value: Any, timeout: int | None = None) -> Any: ...  # noqa: D102

    def add(self, key: str, value: Any, timeout: int | None = None) -> Any: ...  # noqa: D102

    def delete(self, key: str) -> Any: ...  # noqa: D102


def is_backend(value: object) -> bool:
    """Whether ``value`` has the four calls of :class:`Backend`."""
    return all(
        callable(getattr(value, name, None)) for name in ("get", "set", "add", "delete")
    )


class SharedLock:
    """The lock at ``key`` in ``backend``.

    :param context: entered around every call, so that a ``Cache`` made
        without an app (``Cache()`` then ``init_app``) finds it.
    """

    def __init__(
        self,
        backend: Backend,
        key: str,
        context: Callable[[], AbstractContextManager[object]],
    ) -> None:
        self.backend = backend
        self.key = key
        self.context = context

    def take(self, token: str, lifetime: float, now: float) -> bool:
        """Hold the lock as ``token`` until ``now + lifetime``; False while
        another holder's deadline has not passed."""
        value = (token, now + lifetime)
        expiry = max(1, math.ceil(lifetime))
        with self.context():
            held: object = None
            for _ in range(2):
                if self.backend.add(self.key, value, timeout=expiry):
                    return True
                held = self.backend.get(self.key)
                if held is not None:
                    break
                # Gone between the two calls (expired, released): add again.
            if _holder(held)[1] >= now:
                return False
            # Its holder died: the process that adds the takeover key of this
            # holder is the one that takes the lock over.
            over = f"{self.key}:over:{_name(held)}"
            if not self.backend.add(over, value, timeout=expiry):
                # A taker killed between SETNX and EXPIRE leaves this key
                # without an expiry too: past its deadline it goes, and the
                # next look takes the lock over.
                if _holder(self.backend.get(over))[1] < now:
                    self.backend.delete(over)
                return False
            if self.backend.get(self.key) != held:
                return False  # taken over meanwhile (this look was slow)
            self.backend.delete(self.key)
            return bool(self.backend.add(self.key, value, timeout=expiry))

    def renew(self, token: str, lifetime: float, now: float) -> bool:
        """Hold the lock until ``now + lifetime``, if ``token`` holds it."""
        with self.context():
            if _holder(self.backend.get(self.key))[0] != token:
                return False
            self.backend.set(
                self.key, (token, now + lifetime), timeout=max(1, math.ceil(lifetime))
            )
            return True

    def release(self, token: str) -> None:
        """Free the lock, if ``token`` still holds it (a holder whose lock was
        taken over frees nothing)."""
        with self.context():
            if _holder(self.backend.get(self.key))[0] == token:
                self.backend.delete(self.key)


def _holder(held: object) -> tuple[str | None, float]:
    """The holder's token and deadline; (None, minus infinity) for what is
    no lock of ours (garbage, another version's value)."""
    if isinstance(held, tuple) and len(held) == 2:
        token, deadline = held
        if isinstance(token, str) and isinstance(deadline, (int, float)):
            return token, float(deadline)
    return None, -math.inf


def _name(held: object) -> str:
    """What names a dead holder in its takeover key: its token, else a hash
    of what the key held."""
    token = _holder(held)[0]
    if token is not None and len(token) <= 64:
        return token
    return hashlib.sha256(repr(held).encode()).hexdigest()[:16]


class Heartbeat:
    """Call ``renew`` every ``every`` seconds in a thread of its own, from
    ``with`` to its end: a lock lives a few seconds only, renewed while its
    holder works, so a killed holder's lock is taken over within seconds."""

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
            except Exception:  # the store is down: the work goes on
                continue

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join(self.every + 1)
