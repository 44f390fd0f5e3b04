"""The XML writer: ``<urlset>`` files within the format's limits, and the index.

Text is escaped here, for all five of ``& < > " '``, so an address or a
value never breaks the file; nothing is built with templates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .entries import ValuePlan, Version

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
#: The format's limit of bytes per file (50 MiB, uncompressed).
MAX_BYTES = 52_428_800

_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
_URLSET = f'<urlset xmlns="{SITEMAP_NS}">\n'
_URLSET_XHTML = f'<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="{XHTML_NS}">\n'
_URLSET_END = "</urlset>\n"
_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
)


def escape(text: str) -> str:
    """``text`` with ``& < > " '`` written as entities, for text and attributes."""
    return text.translate(_ESCAPES)


def url_element(version: Version, lastmod: str | None) -> str:
    """One ``<url>`` element with its ``<loc>``, ``<lastmod>`` and alternates."""
    loc = version.loc
    if "&" in loc or "'" in loc or "<" in loc or ">" in loc or '"' in loc:
        loc = escape(loc)
    text = f"<url><loc>{loc}</loc>"
    if lastmod is not None:
        text += f"<lastmod>{lastmod}</lastmod>"
    for hreflang, href in version.alternates:
        text += (
            f'<xhtml:link rel="alternate" hreflang="{escape(hreflang)}"'
            f' href="{escape(href)}"/>'
        )
    return text + "</url>\n"


def localized_elements(
    versions: Sequence[Version], lastmod: str | None, *, escape_text: bool = True
) -> list[str]:
    """The ``<url>`` elements of one localized entry, in the order of ``versions``.

    The versions of an entry list the same alternates, so the links are
    written once and shared. ``escape_text=False`` says that no address holds
    a character to escape (the route's paths cannot, and an origin never
    does); hreflang values are BCP 47 tags, which never do.
    """
    alternates = versions[0].alternates
    for version in versions:
        if version.alternates is not alternates and version.alternates != alternates:
            return [url_element(version, lastmod) for version in versions]
    if escape_text:
        links = "".join(
            [
                f'<xhtml:link rel="alternate" hreflang="{escape(hreflang)}"'
                f' href="{escape(href)}"/>'
                for hreflang, href in alternates
            ]
        )
        locs = [escape(version.loc) for version in versions]
    else:
        links = "".join(
            [
                f'<xhtml:link rel="alternate" hreflang="{hreflang}" href="{href}"/>'
                for hreflang, href in alternates
            ]
        )
        locs = [version.loc for version in versions]
    if lastmod is not None:
        links = f"<lastmod>{lastmod}</lastmod>{links}"
    return [f"<url><loc>{loc}</loc>{links}</url>\n" for loc in locs]


def value_pieces(origin: str, plan: ValuePlan, lastmod: str | None) -> tuple[str, ...]:
    """The escaped text around the value in the ``<url>`` elements of an entry
    of ``plan``: ``str(value).join(pieces)`` writes them all, the same as
    :func:`url_element` (one version) or :func:`localized_elements` (each
    locale's, with the links) would. The value's text needs no escaping
    (digits, or :data:`~.entries.PLAIN_TEXT`), and every other text is
    escaped here, once per route and date.
    """
    after = escape(plan.after)
    date = "" if lastmod is None else f"<lastmod>{lastmod}</lastmod>"
    # A NUL stands for the value.
    links = "".join(
        [
            f'<xhtml:link rel="alternate" hreflang="{escape(hreflang)}"'
            f' href="{escape(origin + before)}\0{after}"/>'
            for hreflang, before in plan.versions
        ]
    )
    if plan.default is not None:
        links += (
            '<xhtml:link rel="alternate" hreflang="x-default"'
            f' href="{escape(origin + plan.default)}\0{after}"/>'
        )
    else:
        links = ""
    text = "".join(
        [
            f"<url><loc>{escape(origin + before)}\0{after}</loc>{date}{links}</url>\n"
            for _, before in plan.versions
        ]
    )
    pieces = tuple(text.split("\0"))
    # CompiledRule.value_plan makes no plan where a text holds a NUL.
    assert len(pieces) == 1 + len(plan.versions) * (
        1 + (len(plan.versions) + 1 if links else 0)
    )
    return pieces


# Stands for the day in value_pieces_of's text (no text of a plan holds it).
_DAY = "\x01"


def value_pieces_of(
    origin: str, plan: ValuePlan
) -> Callable[[str | None], tuple[str, ...]]:
    """:func:`value_pieces` for one route: its text is escaped once, and each
    date only fills in its day."""
    bare = value_pieces(origin, plan, None)
    marked = value_pieces(origin, plan, _DAY)

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


class UrlsetWriter:
    """Collects ``<url>`` elements into files of at most ``max_urls`` URLs and
    ``max_bytes`` bytes each.

    :param split: start a new file when one is full (the sitemap index);
        otherwise :meth:`add` refuses what does not fit.
    """

    def __init__(
        self, max_urls: int, max_bytes: int = MAX_BYTES, *, split: bool
    ) -> None:
        self.max_urls = max_urls
        # The largest head and tail a file can have.
        self.max_body = max_bytes - len(_HEAD) - len(_URLSET_XHTML) - len(_URLSET_END)
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

    def add(self, elements: Sequence[str], lastmod: str | None) -> bool:
        """Add one entry's ``<url>`` elements, all or none; False if they do not fit."""
        data = "".join(elements).encode()
        count = len(elements)
        if count > self.max_urls or len(data) > self.max_body:
            return False
        if self._urls + count > self.max_urls or self._size + len(data) > self.max_body:
            if not self.split:
                return False
            self._finish_file()
        self._parts.append(data)
        self._size += len(data)
        self._urls += count
        if lastmod is not None and (self._lastmod is None or lastmod > self._lastmod):
            self._lastmod = lastmod
        if not self._xhtml and b"<xhtml:link" in data:
            self._xhtml = True
        return True

    def add_one(self, element: str, lastmod: str | None) -> bool:
        """:meth:`add` for a single ``<url>`` element without alternates."""
        data = element.encode()
        if self._urls >= self.max_urls or self._size + len(data) > self.max_body:
            if not self.split or len(data) > self.max_body:
                return False
            self._finish_file()
        self._parts.append(data)
        self._size += len(data)
        self._urls += 1
        if lastmod is not None and (self._lastmod is None or lastmod > self._lastmod):
            self._lastmod = lastmod
        return True

    def room(self) -> tuple[int, int]:
        """URLs and bytes the current file still takes."""
        return self.max_urls - self._urls, self.max_body - self._size

    def extend(self, elements: list[str], lastmod: str | None) -> None:
        """Append ``<url>`` elements (without alternates) that :meth:`room`
        said fit; ``lastmod`` is the latest of theirs."""
        if not elements:
            return
        data = "".join(elements).encode()
        self._parts.append(data)
        self._size += len(data)
        self._urls += len(elements)
        if lastmod is not None and (self._lastmod is None or lastmod > self._lastmod):
            self._lastmod = lastmod

    def extend_data(
        self, data: bytes, urls: int, lastmod: str | None, *, xhtml: bool
    ) -> None:
        """Append the encoded ``<url>`` elements of :meth:`room`'s size;
        ``lastmod`` is the latest of theirs, ``xhtml`` whether they hold links."""
        self._parts.append(data)
        self._size += len(data)
        self._urls += urls
        if lastmod is not None and (self._lastmod is None or lastmod > self._lastmod):
            self._lastmod = lastmod
        if xhtml:
            self._xhtml = True

    def next_file(self) -> bool:
        """Start a new file when splitting (True); False when not splitting."""
        if not self.split:
            return False
        if self._urls:
            self._finish_file()
        return True

    def _finish_file(self) -> None:
        opening = _URLSET_XHTML if self._xhtml else _URLSET
        # One copy, so the build peaks near twice the file's size.
        body = b"".join(
            [(_HEAD + opening).encode(), *self._parts, _URLSET_END.encode()]
        )
        self._parts = []
        self._size = 0
        self.files.append(SitemapFile(body, self._urls, self._lastmod))
        self._urls = 0
        self._lastmod = None
        self._xhtml = False

    def finish(self) -> list[SitemapFile]:
        """The files; at least one, empty when nothing was added."""
        if self._urls or not self.files:
            self._finish_file()
        return self.files


def sitemap_index(origin: str, files: Sequence[SitemapFile]) -> bytes:
    """The ``<sitemapindex>`` naming ``/sitemap-1.xml``, ``/sitemap-2.xml``, ..."""
    parts = [_HEAD, f'<sitemapindex xmlns="{SITEMAP_NS}">\n']
    for number, file in enumerate(files, start=1):
        parts.append(f"<sitemap><loc>{escape(origin)}/sitemap-{number}.xml</loc>")
        if file.lastmod is not None:
            parts.append(f"<lastmod>{file.lastmod}</lastmod>")
        parts.append("</sitemap>\n")
    parts.append("</sitemapindex>\n")
    return "".join(parts).encode()
