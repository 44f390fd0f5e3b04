"""The writer of ``<urlset>`` files, fed one entry at a time.

Each entry's ``<url>`` elements (all its versions, written by
:func:`.xml.url_elements`) come with what the writer needs to know of them:
how many URLs they are, their ``<lastmod>`` day, whether they hold links or
images. The writer counts the entry's bytes as it takes it, so it always
knows whether the next entry fits; nothing is read back out of the text.
With ``packed``, each batch is gzip-compressed as it is encoded, so a
file's whole XML is never held: only its gzip form (what the caches keep).
"""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass

from .report import Limits
from .xml import HEAD, URLSET_END, urlset_opening

#: The format's limit of bytes per file (50 MiB, uncompressed).
MAX_BYTES = 52_428_800
# Entries' text is encoded a few hundred URLs at a time (a batch, which
# stays in the processor's cache while it is encoded) into the file's one
# buffer: the file's bytes are made once, in place, and no second copy of
# the file is ever held (a list of encoded batches joined at the end is one:
# 4 MB more per 50,000 URLs, which malloc hands back and takes again, page
# by page, on every build).
_BATCH = 512
#: zlib level 6, gzip's default (the caches' level, serving/files.py).
LEVEL = 6
# Bytes of XML inflated at a time when a packed file's opening is rewritten.
_CHUNK = 1 << 20


def _compressor() -> zlib._Compress:
    # wbits 31: a gzip member with mtime 0, the same bytes for the same XML
    # however it is fed. Not gzip.compress: its header's OS byte is zlib's
    # on Python 3.11 and 3.12 but 255 on 3.10 and 3.13.
    return zlib.compressobj(LEVEL, zlib.DEFLATED, 31)


@dataclass(frozen=True)
class SitemapFile:
    """One finished ``<urlset>`` file."""

    #: The file's bytes, gzip-compressed when ``gzipped``.
    data: bytes
    urls: int
    #: The latest ``<lastmod>`` in the file, for the index.
    lastmod: str | None
    gzipped: bool = False

    @property
    def body(self) -> bytes:
        """The file's XML (decompressed when kept gzipped)."""
        return gzip.decompress(self.data) if self.gzipped else self.data

    @property
    def packed(self) -> bytes:
        """The file gzip-compressed (mtime 0, level :data:`LEVEL`)."""
        if self.gzipped:
            return self.data
        deflater = _compressor()
        return deflater.compress(self.data) + deflater.flush()


def _repacked(packed: bytes, skip: int, head: bytes) -> bytes:
    """``packed`` (one gzip member) with its first ``skip`` bytes of XML
    replaced by ``head``, compressed again a chunk at a time (the XML is
    never held whole)."""
    inflater = zlib.decompressobj(wbits=31)
    deflater = _compressor()
    out = [deflater.compress(head)]
    data = packed
    while data:
        chunk = inflater.decompress(data, _CHUNK)
        data = inflater.unconsumed_tail
        if skip:
            cut = min(skip, len(chunk))
            chunk, skip = chunk[cut:], skip - cut
        out.append(deflater.compress(chunk))
    out.append(deflater.flush())
    return b"".join(out)


class UrlsetWriter:
    """Writes the entries it is given into files, in order, each entry whole.

    :param max_urls: URLs a file holds at most.
    :param max_bytes: bytes a file holds at most.
    :param split: start a new file when one is full (the sitemap index);
        otherwise stop there.
    :param over: counts what is left out (:class:`.report.Limits`).
    :param packed: keep each file gzip-compressed only, compressed as it is
        written (:attr:`SitemapFile.gzipped`).
    """

    def __init__(
        self,
        max_urls: int,
        max_bytes: int = MAX_BYTES,
        *,
        split: bool,
        over: Limits | None = None,
        packed: bool = False,
    ) -> None:
        self.max_urls = max_urls
        self.packed = packed
        # The largest head and tail a file can have.
        opening = urlset_opening(xhtml=True, images=True)
        self.max_body = max_bytes - len(HEAD) - len(opening) - len(URLSET_END)
        self.split = split
        #: Whether the files' latest ``<lastmod>`` is worked out (for an
        #: index: the split files', a part's).
        self.track = split
        self.over = over if over is not None else Limits()
        #: Nothing more is written: a file is full and there is no split.
        self.full = False
        self.files: list[SitemapFile] = []
        self._start_file()

    def _start_file(self) -> None:
        # The file's bytes (with packed, compressed as they come), from its
        # opening tag on, once the first batch is encoded; the opening
        # declares the namespaces of the entries of that batch (a later
        # entry that needs another one costs a copy of the file when it is
        # finished). "": nothing written yet.
        self._out = io.BytesIO()
        self._deflater = _compressor() if self.packed else None
        self._opening = ""
        self._pieces: list[str] = []
        # URLs in the file's encoded batches.
        self._urls = 0
        # Bytes of the file's encoded batches.
        self._size = 0
        # URLs the current batch may take (at most what the file has left),
        # and how many of them it has left: one comparison per entry.
        self._budget = min(self.max_urls, _BATCH)
        self._urls_left = self._budget
        self._bytes_left = self.max_body
        self._latest: str | None = None
        self._xhtml = False
        self._images = False

    def add(
        self, text: str, urls: int, day: str | None, xhtml: bool, images: bool
    ) -> bool:
        """Write one entry: ``text`` is its ``<url>`` elements, ``urls`` how
        many, ``day`` their ``<lastmod>``, ``xhtml`` and ``images`` whether
        they hold links or images. An entry that fits in no file is left out
        (and counted). False when nothing more will be written: the caller
        stops and counts the rest in :attr:`over`."""
        size = len(text) if text.isascii() else len(text.encode())
        if (urls > self._urls_left or size > self._bytes_left) and not self._room(
            urls, size
        ):
            return not self.full
        self._pieces.append(text)
        self._urls_left -= urls
        self._bytes_left -= size
        if day is not None and (self._latest is None or day > self._latest):
            self._latest = day
        if xhtml:
            self._xhtml = True
        if images:
            self._images = True
        return True

    def open_batch(self, urls: int, max_size: int) -> tuple[list[str], int]:
        """The current batch, and how many entries of ``urls`` URLs and at
        most ``max_size`` bytes of ASCII text each it may still take.

        The fast way of the route loop's shortcut: that many such texts may
        be appended to the batch directly, without a call per entry, and
        they fit, as :meth:`add` would have found one by one;
        :meth:`count_batched` then says how many were taken. Any other call
        ends it (the batch may be replaced): count first, open again after.
        """
        return self._pieces, min(self._urls_left // urls, self._bytes_left // max_size)

    def count_batched(
        self, taken: int, urls: int, max_size: int, latest: str | None, xhtml: bool
    ) -> None:
        """What the open batch took: ``taken`` entries of ``urls`` URLs and at
        most ``max_size`` bytes each, the latest day among them, whether they hold
        links."""
        if taken:
            self._urls_left -= taken * urls
            # Counted at their most until the batch is encoded and measured.
            self._bytes_left -= taken * max_size
            if xhtml:
                self._xhtml = True
        if latest is not None and (self._latest is None or latest > self._latest):
            self._latest = latest

    def written(self) -> int:
        """The URLs written so far, in every file."""
        pending = self._budget - self._urls_left
        return sum(file.urls for file in self.files) + self._urls + pending

    def _room(self, urls: int, size: int) -> bool:
        """Make room for an entry: close the batch, and when the file has no
        room left, start the next one. False when the entry is left out."""
        self._encode_batch()
        if self.full or urls > self.max_urls or size > self.max_body:
            # Nothing more is written, or the entry is larger than any file.
            self.over.left_out(urls)
            return False
        if urls > self.max_urls - self._urls or size > self._bytes_left:
            if not self.split:
                self.full = True
                self.over.left_out(urls)
                return False
            self._finish_file()
        self._budget = min(self.max_urls - self._urls, max(_BATCH, urls))
        self._urls_left = self._budget
        return True

    def _encode_batch(self) -> None:
        if self._pieces:
            data = "".join(self._pieces).encode()
            self._pieces = []
            if not self._opening:
                self._opening = urlset_opening(xhtml=self._xhtml, images=self._images)
                self._write((HEAD + self._opening).encode())
            self._write(data)
            self._size += len(data)
        self._urls += self._budget - self._urls_left
        self._budget = self._urls_left = 0
        self._bytes_left = self.max_body - self._size

    def _write(self, data: bytes) -> None:
        deflater = self._deflater
        self._out.write(data if deflater is None else deflater.compress(data))

    def _finish_file(self) -> None:
        self._encode_batch()
        opening = urlset_opening(xhtml=self._xhtml, images=self._images)
        if not self._opening:  # an empty file
            self._opening = opening
            self._write((HEAD + opening).encode())
        self._write(URLSET_END.encode())
        if self._deflater is not None:
            self._out.write(self._deflater.flush())
        # The buffer's own bytes, not a copy (no view of it is held).
        data = self._out.getvalue()
        if opening != self._opening:
            # An entry after the first batch needs another namespace: the
            # opening is rewritten (packed: in a second pass over the
            # compressed file).
            skip = len((HEAD + self._opening).encode())
            head = (HEAD + opening).encode()
            if self.packed:
                data = _repacked(data, skip, head)
            else:
                data = b"".join([head, memoryview(data)[skip:]])
        self.files.append(SitemapFile(data, self._urls, self._latest, self.packed))
        self._start_file()

    def finish(self) -> list[SitemapFile]:
        """The files; at least one, empty when nothing was written."""
        self._encode_batch()
        if self._urls or not self.files:
            self._finish_file()
        return self.files
