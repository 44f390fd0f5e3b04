"""The sitemap's files in a cache that several processes share (Flask-Caching).

Keys are made from configuration only (APP_URL's origin and the mount path,
hashed to a fixed length that every backend takes, and the file's number),
never from a request. A build is written as:

- ``files:<build>:<n>:<k>``: chunk ``k`` of file ``n`` (512 KiB at most, as
  Memcached keeps at most 1 MB a key), one key each;
- ``stamp``: the build's id, when it was made and the chunk count of each
  file, written last, so that a reader never sees half a build;
- ``lock``: held by the one process that builds (shared_lock.py, the
  protocol the generated images use too: a dead holder's lock is taken
  over, with or without its expiry);
- ``pause``: after a failed build, the time until which nobody builds again
  (``MARMEON_SITEMAP_RETRY_AFTER``), with that expiry.

Every call may raise whatever the backend raises when it cannot be reached;
the cache (ttl_cache.py) catches that and falls back to its own memory.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import secrets
import zlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import astuple, dataclass, replace
from typing import Any

from ...shared_lock import Backend, SharedLock

#: Bytes per key: below Memcached's 1 MB item limit, with room for pickling.
CHUNK = 512 * 1024
#: How long a build is kept in the store (a week): far longer than any TTL,
#: so that a process that starts cold serves the last build at once.
KEEP = 7 * 24 * 3600
# Raise it when the stored form changes, so an older release's keys are
# never read.
_FORMAT = "v2"


# What reading a value written by something else may raise while it is
# unpickled (cachelib's serializers turn only pickle's own errors into None).
_UNREADABLE = (
    pickle.UnpicklingError,
    AttributeError,
    ImportError,
    EOFError,
    IndexError,
    TypeError,
    ValueError,
    UnicodeDecodeError,
)


@dataclass(frozen=True)
class Stamp:
    """The newest build in the store: its id, time, and chunks per file."""

    build: str
    built_at: float
    chunks: tuple[int, ...]
    #: Each file's CRC-32: a file read back is checked against it.
    tags: tuple[int, ...]


class SharedFiles:
    """One app's sitemap in a shared backend.

    :param backend: a Flask-Caching ``Cache`` (or anything with its calls).
    :param scope: APP_URL's origin and the mount path, as the log names them.
    :param context: entered around every call, so that a ``Cache`` made
        without an app (``Cache()`` then ``init_app``) finds it.
    :param slot: which files: ``sitemap`` (the site's build), or a paged
        route's boundaries or part (each its own stamp, lock and pause).
    :param name: what the keys name (``Settings.store_name``); default a
        hash of ``scope``.
    """

    def __init__(
        self,
        backend: Backend,
        scope: str,
        context: Callable[[], AbstractContextManager[object]],
        slot: str = "sitemap",
        name: str | None = None,
    ) -> None:
        self.backend = backend
        self.context = context
        #: The app's address, for the log (not a secret).
        self.scope = scope
        digest = name or hashlib.sha256(scope.encode()).hexdigest()[:16]
        if slot != "sitemap":
            # A fixed length, whatever the route's name (Memcached's keys
            # hold at most 250 bytes).
            slot = "paged:" + hashlib.sha256(slot.encode()).hexdigest()[:16]
        self.prefix = f"flask_marmeon:{_FORMAT}:{digest}:{slot}:"
        #: The lock of the one process that builds.
        self.build_lock = SharedLock(backend, self.prefix + "lock", context)

    def stamp(self) -> Stamp | None:
        """The newest build's stamp, None when there is none (or it is not
        one of ours: another version's, garbage)."""
        value = self._get("stamp")
        if not isinstance(value, tuple) or len(value) != 4:
            return None
        build, built_at, chunks, tags = value
        ok = isinstance(build, str) and isinstance(built_at, (int, float))
        if not ok or not math.isfinite(built_at):
            return None
        counts = isinstance(chunks, tuple) and all(
            type(count) is int and 0 < count < 10_000 for count in chunks
        )
        tagged = isinstance(tags, tuple) and all(type(tag) is int for tag in tags)
        if not counts or not tagged or len(tags) != len(chunks):
            return None
        return Stamp(build, float(built_at), chunks, tags)

    def bodies(self, stamp: Stamp) -> tuple[bytes, ...] | None:
        """The build's files, or None when a key is gone (flushed, evicted)
        or a file is not what the stamp says (its CRC-32 differs)."""
        files: list[bytes] = []
        for number, count in enumerate(stamp.chunks):
            pieces: list[bytes] = []
            for chunk in range(count):
                piece = self._get(self._file_key(stamp.build, number, chunk))
                if not isinstance(piece, bytes):
                    return None
                pieces.append(piece)
            body = b"".join(pieces)
            if zlib.crc32(body) != stamp.tags[number]:
                return None
            files.append(body)
        return tuple(files)

    def put(self, bodies: tuple[bytes, ...], built_at: float) -> Stamp | None:
        """Store a build, stamp last; None when the backend refused a key."""
        build = secrets.token_hex(8)
        chunks: list[int] = []
        for number, body in enumerate(bodies):
            pieces = [body[at : at + CHUNK] for at in range(0, len(body), CHUNK)]
            for chunk, piece in enumerate(pieces or [b""]):
                if not self._set(self._file_key(build, number, chunk), piece):
                    return None
            chunks.append(max(1, len(pieces)))
        tags = tuple(zlib.crc32(body) for body in bodies)
        stamp = Stamp(build, built_at, tuple(chunks), tags)
        return stamp if self._set("stamp", astuple(stamp)) else None

    def _get(self, name: str) -> Any:
        """The value at ``name`` (after the prefix); None when there is none
        or it cannot be read as a value (written by something else: its
        unpickling failed). A backend that cannot be reached still raises."""
        try:
            with self.context():
                return self.backend.get(self.prefix + name)
        except _UNREADABLE:
            return None

    def _set(self, name: str, value: object, timeout: int = KEEP) -> bool:
        with self.context():
            return (
                self.backend.set(self.prefix + name, value, timeout=timeout)
                is not False
            )

    def forget(self, stamp: Stamp) -> None:
        """Delete an older build's files (the stamp no longer names them)."""
        with self.context():
            for number, count in enumerate(stamp.chunks):
                for chunk in range(count):
                    key = self._file_key(stamp.build, number, chunk)
                    self.backend.delete(self.prefix + key)

    def pause(self, until: float, seconds: float) -> None:
        """Say to every process that nobody builds before ``until``."""
        self._set("pause", until, max(1, math.ceil(seconds)))

    def paused_until(self) -> float | None:
        """Until when builds are paused after a failure, or None."""
        value = self._get("pause")
        return float(value) if isinstance(value, (int, float)) else None

    def expire(self) -> None:
        """Date the newest build back to the epoch: every process that looks
        next finds it stale and rebuilds (one of them, under the lock),
        while the files are still served meanwhile."""
        stamp = self.stamp()
        if stamp is not None:
            self._set("stamp", astuple(replace(stamp, built_at=0.0)))

    def mark(self, name: str, value: object = 1) -> None:
        """Set the flag (or note) ``name`` for every process (kept a week at
        most)."""
        self._set("flag:" + name, value)

    def value(self, name: str) -> object:
        """The value of the flag (or note) ``name``, None when unset."""
        return self._get("flag:" + name)

    def unmark(self, name: str) -> None:
        """Clear the flag ``name``."""
        with self.context():
            self.backend.delete(self.prefix + "flag:" + name)

    def _file_key(self, build: str, number: int, chunk: int) -> str:
        return f"files:{build}:{number}:{chunk}"
