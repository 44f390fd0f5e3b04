"""A build's files as the endpoints send them: kept gzip-compressed (in the
process and in the shared store), each with its strong ETag, made once per
build by the thread that refreshes them.

A sitemap compresses about 10 to 30 times: a process keeps, and the store
holds, the gzip form only. A client that accepts gzip gets those bytes as
they are; one that does not gets them decompressed as they are sent.

The ETag is worked out from the file's own bytes alone (:func:`file_tag`),
so every process and machine that serves the same build sends the same one
(a crawler going through a load balancer sees one resource).
"""

from __future__ import annotations

import gzip
import struct
import zlib

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


def packed_tag(packed: bytes) -> str:
    """:func:`file_tag` of what ``packed`` (one gzip member) holds, read
    from its trailer without decompressing it: CRC-32 and length (modulo
    2**32; a file is at most 50 MiB)."""
    crc, size = struct.unpack("<II", packed[-8:])
    return f"{crc:08x}-{size:x}"


class Files:
    """One build: its files (given as they are, or ``packed`` already, as
    read back from the store; kept compressed) and when it was made
    (seconds of the cache's clock, the wall clock in production, shared by
    every process)."""

    def __init__(
        self,
        given: tuple[bytes, ...],
        built_at: float,
        packed: tuple[bytes, ...] | None = None,
    ) -> None:
        self.built_at = built_at
        #: Each file gzip-compressed (mtime 0: the same bytes in every
        #: process): only this form stays in memory.
        self.packed = packed or tuple(
            gzip.compress(body, _LEVEL, mtime=0) for body in given
        )
        tags = map(packed_tag, packed) if packed else map(file_tag, given)
        self._etags = tuple(tags)

    @classmethod
    def stored(cls, packed: tuple[bytes, ...], built_at: float) -> Files:
        """A build read back from the shared store, compressed already."""
        return cls((), built_at, packed)

    @property
    def size(self) -> int:
        """Bytes kept (compressed)."""
        return sum(map(len, self.packed))

    @property
    def bodies(self) -> tuple[bytes, ...]:
        """Every file, decompressed."""
        return tuple(map(gzip.decompress, self.packed))

    def has(self, number: int) -> bool:
        """Whether file ``number`` exists (0: /sitemap.xml; n: /sitemap-n.xml
        in index mode)."""
        count = len(self.packed)
        return number == 0 or (count > 1 and 1 <= number < count)

    def body(self, number: int) -> bytes | None:
        """File ``number`` decompressed, or None when there is none."""
        return gzip.decompress(self.packed[number]) if self.has(number) else None

    def etag(self, number: int) -> str:
        """The file's strong entity tag (without quotes), from its bytes."""
        return self._etags[number]

    def gzipped(self, number: int) -> bytes:
        """The file gzip-compressed, as kept."""
        return self.packed[number]
