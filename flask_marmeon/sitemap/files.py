"""A build's files as the endpoints send them: the bytes, their strong ETag
and their gzip form, each worked out once per build and kept with it.

The ETag is a hash of the file, so every process and machine that serves the
same build sends the same one (a crawler going through a load balancer sees
one resource). The hash and the gzip form are made the first time a request
needs them, not in the build: a client that never asks for gzip costs no
compression, and a build stays as fast as the writer makes it.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from dataclasses import dataclass, field

# zlib level 6, gzip's default: about 10x on sitemap XML; level 9 saves a few
# per cent more for twice the time.
_LEVEL = 6


@dataclass(frozen=True, eq=False)
class Files:
    """One build: its files and when it was made (seconds of the cache's clock,
    the wall clock in production, shared by every process)."""

    bodies: tuple[bytes, ...]
    built_at: float
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _etags: dict[int, str] = field(default_factory=dict, repr=False)
    _gzipped: dict[int, bytes] = field(default_factory=dict, repr=False)

    def body(self, number: int) -> bytes | None:
        """File ``number`` (0: /sitemap.xml; n: /sitemap-n.xml in index mode)."""
        if number == 0 or (len(self.bodies) > 1 and 1 <= number < len(self.bodies)):
            return self.bodies[number]
        return None

    def etag(self, number: int) -> str:
        """The file's strong entity tag (without quotes): a hash of its bytes."""
        tag = self._etags.get(number)
        if tag is None:
            tag = hashlib.sha256(self.bodies[number]).hexdigest()[:32]
            self._etags[number] = tag
        return tag

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
