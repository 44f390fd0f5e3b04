"""A build's files as the endpoints send them: the bytes, their strong ETag
and their gzip form, each worked out once per build and kept with it.

The ETag is worked out from the file's bytes alone (:func:`file_tag`), so
every process and machine that serves the same build sends the same one (a
crawler going through a load balancer sees one resource). The tags are made
with the files, by the thread that refreshes them (the cache's), so no
request waits for one after a rebuild. The gzip form is made the first time
a request needs it: a client that never asks for gzip costs no compression.
"""

from __future__ import annotations

import gzip
import threading
import zlib
from dataclasses import dataclass, field

# zlib level 6, gzip's default: about 10x on sitemap XML; level 9 saves a few
# per cent more for twice the time.
_LEVEL = 6


def file_tag(body: bytes) -> str:
    """The strong entity tag of ``body`` (without quotes): its CRC-32 and
    its length, in hex.

    Any change of the bytes that keeps the length changes the CRC unless it
    is one of the 2**-32 that collide (a change of 32 bits or fewer in a row
    never does); a change of length changes the tag outright. A CRC-32 of a
    4 MB sitemap takes half the time of a SHA-256 (1.4 ms against 3.0 ms
    here), in the thread that refreshes the files (benchmarks/README.md).
    """
    return f"{zlib.crc32(body):08x}-{len(body):x}"


@dataclass(frozen=True, eq=False)
class Files:
    """One build: its files and when it was made (seconds of the cache's clock,
    the wall clock in production, shared by every process)."""

    bodies: tuple[bytes, ...]
    built_at: float
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _etags: tuple[str, ...] = field(init=False, repr=False)
    _gzipped: dict[int, bytes] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_etags", tuple(map(file_tag, self.bodies)))

    def body(self, number: int) -> bytes | None:
        """File ``number`` (0: /sitemap.xml; n: /sitemap-n.xml in index mode)."""
        if number == 0 or (len(self.bodies) > 1 and 1 <= number < len(self.bodies)):
            return self.bodies[number]
        return None

    def etag(self, number: int) -> str:
        """The file's strong entity tag (without quotes), from its bytes."""
        return self._etags[number]

    def gzipped(self, number: int) -> bytes:
        """The file gzip-compressed, made once (concurrent requests wait for
        the one compression rather than each making its own)."""
        packed = self._gzipped.get(number)
        if packed is not None:
            return packed
        with self._lock:
            packed = self._gzipped.get(number)
            if packed is None:
                # mtime=0: the same bytes in every process, for one ETag.
                packed = gzip.compress(self.bodies[number], _LEVEL, mtime=0)
                self._gzipped[number] = packed
        return packed
