"""The XML text: one way to write a ``<url>``, the ``<urlset>`` tag, the index.

Text is escaped here, for all five of ``& < > " '``, so an address or a
value never breaks the file; nothing is built with templates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..locale_tags import X_DEFAULT
from .addresses import Addresses
from .shortcut import Shortcut

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
#: Google's image sitemap extension.
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
#: What every file starts with.
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
URLSET_END = "</urlset>\n"
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
    tail += "".join(
        [
            f'<xhtml:link rel="alternate" hreflang="{escape(hreflang)}"'
            f' href="{escape(href)}"/>'
            for hreflang, href in addresses.alternates
        ]
    )
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


def value_pieces(base: str, plan: Shortcut, lastmod: str | None) -> tuple[str, ...]:
    """The text around the value in the ``<url>`` elements of an entry of
    ``plan``: ``str(value).join(pieces)`` is what :func:`url_elements` writes
    for it, since the pieces are its own text for a marker value. The value's
    text needs no escaping (digits, or :data:`~.shortcut.PLAIN_TEXT`).
    """
    locs = tuple(f"{base}{before}{_VALUE}{plan.after}" for _, before in plan.versions)
    alternates: tuple[tuple[str, str], ...] = ()
    if plan.default is not None:
        alternates = (
            *zip([hreflang for hreflang, _ in plan.versions], locs, strict=True),
            (X_DEFAULT, f"{base}{plan.default}{_VALUE}{plan.after}"),
        )
    pieces = tuple(url_elements(Addresses(locs, alternates), lastmod).split(_VALUE))
    # shortcut_of makes no plan where a text holds the marker.
    assert len(pieces) == 1 + len(locs) * (1 + len(alternates))
    return pieces


def value_pieces_of(
    base: str, plan: Shortcut
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


def urlset_opening(*, xhtml: bool, images: bool) -> str:
    """The ``<urlset>`` start tag, declaring the namespaces the file uses."""
    namespaces = f'xmlns="{SITEMAP_NS}"'
    if xhtml:
        namespaces += f' xmlns:xhtml="{XHTML_NS}"'
    if images:
        namespaces += f' xmlns:image="{IMAGE_NS}"'
    return f"<urlset {namespaces}>\n"


def sitemap_index(files: Iterable[tuple[str, str | None]]) -> bytes:
    """The ``<sitemapindex>`` naming each file by its address, with its
    latest ``<lastmod>`` when known."""
    parts = [HEAD, f'<sitemapindex xmlns="{SITEMAP_NS}">\n']
    for loc, lastmod in files:
        parts.append(f"<sitemap><loc>{escape(loc)}</loc>")
        if lastmod is not None:
            parts.append(f"<lastmod>{lastmod}</lastmod>")
        parts.append("</sitemap>\n")
    parts.append("</sitemapindex>\n")
    return "".join(parts).encode()
