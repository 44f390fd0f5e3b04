"""The XML writer: ``<urlset>`` files within the format's limits, and the index.

Text is escaped here, for all five of ``& < > " '``, so an address or a
value never breaks the file; nothing is built with templates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .addresses import Addresses
from .plan import ValuePlan

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
#: Google's image sitemap extension.
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
#: The format's limit of bytes per file (50 MiB, uncompressed).
MAX_BYTES = 52_428_800

_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
_URLSET_END = "</urlset>\n"
_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
)


def escape(text: str) -> str:
    """``text`` with ``& < > " '`` written as entities, for text and attributes."""
    # Most addresses hold none of them: five scans cost less than translate.
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return text.translate(_ESCAPES)
    return text


def url_elements(
    addresses: Addresses, lastmod: str | None, images: Sequence[str] = ()
) -> str:
    """The ``<url>`` elements of one entry: the one way a ``<url>`` is written.

    One element per address of ``addresses``, each with the ``<lastmod>``,
    the entry's alternates (``xhtml:link``) and its images (``image:image``,
    absolute URLs already), in that order. Every address, hreflang and image
    URL is escaped here.
    """
    tail = "" if lastmod is None else f"<lastmod>{lastmod}</lastmod>"
    if addresses.alternates:
        tail += "".join(
            [
                f'<xhtml:link rel="alternate" hreflang="{escape(hreflang)}"'
                f' href="{escape(href)}"/>'
                for hreflang, href in addresses.alternates
            ]
        )
    if images:
        tail += "".join(
            [
                f"<image:image><image:loc>{escape(image)}</image:loc></image:image>"
                for image in images
            ]
        )
    tail += "</url>\n"
    return "".join([f"<url><loc>{escape(loc)}</loc>{tail}" for loc in addresses.locs])


# Stand for the value and the day in the pieces' text; a plan is made only
# where no text of the route holds them.
_VALUE = "\0"
_DAY = "\x01"


def value_pieces(base: str, plan: ValuePlan, lastmod: str | None) -> tuple[str, ...]:
    """The text around the value in the ``<url>`` elements of an entry of
    ``plan``: ``str(value).join(pieces)`` is what :func:`url_elements` writes
    for it, since the pieces are its own text for a marker value. The value's
    text needs no escaping (digits, or :data:`~.plan.PLAIN_TEXT`).
    """
    locs = tuple(f"{base}{before}{_VALUE}{plan.after}" for _, before in plan.versions)
    alternates: tuple[tuple[str, str], ...] = ()
    if plan.default is not None:
        alternates = (
            *zip([hreflang for hreflang, _ in plan.versions], locs, strict=True),
            ("x-default", f"{base}{plan.default}{_VALUE}{plan.after}"),
        )
    pieces = tuple(url_elements(Addresses(locs, alternates), lastmod).split(_VALUE))
    # make_plan makes no plan where a text holds the marker.
    assert len(pieces) == 1 + len(locs) * (1 + len(alternates))
    return pieces


def value_pieces_of(
    base: str, plan: ValuePlan
) -> Callable[[str | None], tuple[str, ...]]:
    """:func:`value_pieces` for one route: its text is written once, and
    each date only fills in its day."""
    bare = value_pieces(base, plan, None)
    marked = value_pieces(base, plan, _DAY)

    def pieces(lastmod: str | None) -> tuple[str, ...]:
        if lastmod is None:
            return bare
        return tuple([piece.replace(_DAY, lastmod) for piece in marked])

    return pieces


@dataclass(frozen=True)
class SitemapFile:
    """One finished ``<urlset>`` file."""

    body: bytes
    urls: int
    #: The latest ``<lastmod>`` in the file, for the index.
    lastmod: str | None


def urlset_opening(*, xhtml: bool, images: bool) -> str:
    """The ``<urlset>`` start tag, declaring the namespaces the file uses."""
    namespaces = f'xmlns="{SITEMAP_NS}"'
    if xhtml:
        namespaces += f' xmlns:xhtml="{XHTML_NS}"'
    if images:
        namespaces += f' xmlns:image="{IMAGE_NS}"'
    return f"<urlset {namespaces}>\n"


class UrlsetWriter:
    """Collects ``<url>`` elements into files of at most ``max_urls`` URLs and
    ``max_bytes`` bytes each.

    The caller asks :meth:`room` and hands over (:meth:`extend`) only what
    fits; :meth:`next_file` starts a new file when splitting (the sitemap
    index).
    """

    def __init__(
        self, max_urls: int, max_bytes: int = MAX_BYTES, *, split: bool
    ) -> None:
        self.max_urls = max_urls
        # The largest head and tail a file can have.
        opening = urlset_opening(xhtml=True, images=True)
        self.max_body = max_bytes - len(_HEAD) - len(opening) - len(_URLSET_END)
        self.split = split
        self.files: list[SitemapFile] = []
        # The current file's encoded elements, joined once when it is done:
        # growing one buffer instead copies it (and touches fresh memory)
        # again and again, which costs more than writing the elements.
        self._parts: list[bytes] = []
        self._size = 0
        self._urls = 0
        self._lastmod: str | None = None
        self._xhtml = False
        self._images = False

    def written(self) -> int:
        """The URLs handed over so far, in every file."""
        return sum(file.urls for file in self.files) + self._urls

    def room(self) -> tuple[int, int]:
        """URLs and bytes the current file still takes."""
        return self.max_urls - self._urls, self.max_body - self._size

    def extend(
        self,
        data: bytes,
        urls: int,
        lastmod: str | None,
        *,
        xhtml: bool = False,
        images: bool = False,
    ) -> None:
        """Append encoded ``<url>`` elements that :meth:`room` said fit:
        ``urls`` of them, ``lastmod`` the latest of theirs, ``xhtml`` and
        ``images`` whether they hold links or images."""
        if not urls:
            return
        self._parts.append(data)
        self._size += len(data)
        self._urls += urls
        if lastmod is not None and (self._lastmod is None or lastmod > self._lastmod):
            self._lastmod = lastmod
        self._xhtml = self._xhtml or xhtml
        self._images = self._images or images

    def next_file(self) -> bool:
        """Start a new file when splitting (True); False when not splitting."""
        if not self.split:
            return False
        if self._urls:
            self._finish_file()
        return True

    def _finish_file(self) -> None:
        opening = urlset_opening(xhtml=self._xhtml, images=self._images)
        # One copy, so the build peaks near twice the file's size.
        body = b"".join(
            [(_HEAD + opening).encode(), *self._parts, _URLSET_END.encode()]
        )
        self._parts = []
        self._size = 0
        self.files.append(SitemapFile(body, self._urls, self._lastmod))
        self._urls = 0
        self._lastmod = None
        self._xhtml = self._images = False

    def finish(self) -> list[SitemapFile]:
        """The files; at least one, empty when nothing was added."""
        if self._urls or not self.files:
            self._finish_file()
        return self.files


def sitemap_index(base: str, files: Sequence[SitemapFile]) -> bytes:
    """The ``<sitemapindex>`` naming ``/sitemap-1.xml``, ``/sitemap-2.xml``, ...
    under ``base`` (APP_URL's origin and the mount path)."""
    parts = [_HEAD, f'<sitemapindex xmlns="{SITEMAP_NS}">\n']
    for number, file in enumerate(files, start=1):
        parts.append(f"<sitemap><loc>{escape(base)}/sitemap-{number}.xml</loc>")
        if file.lastmod is not None:
            parts.append(f"<lastmod>{file.lastmod}</lastmod>")
        parts.append("</sitemap>\n")
    parts.append("</sitemapindex>\n")
    return "".join(parts).encode()
