"""What a crawler reads in a page: its head's tags and the files it loads.

lxml's HTML parser reads the document; relative URLs are resolved against
the page's own URL, as a crawler resolves them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from ._deps import require
from .fetch import Fetched

ROBOTS_NAMES = ("robots", "googlebot")


@dataclass(frozen=True)
class Document:
    """The parts of a page that the checks read."""

    url: str
    title: str | None
    descriptions: tuple[str, ...]
    #: Every ``<link rel="canonical">`` href, resolved against the page.
    canonicals: tuple[str, ...]
    #: The content of each ``<meta name="robots">`` / ``"googlebot"``.
    robots: tuple[str, ...]
    #: ``(hreflang, href)`` of each ``<link rel="alternate" hreflang>``.
    hreflang: tuple[tuple[str, str], ...]
    #: ``og:*``, ``article:*`` and ``twitter:*`` tags: (key, content) in order.
    meta: tuple[tuple[str, str], ...]
    #: The text of each ``<script type="application/ld+json">``.
    json_ld: tuple[str, ...]
    #: Scripts and stylesheets the page loads, resolved against the page.
    resources: tuple[str, ...]
    #: The http(s) addresses of its ``<a href>`` links, resolved against the
    #: page, without their fragment, each once; ``rel="nofollow"`` left out.
    links: tuple[str, ...] = ()

    def first(self, key: str) -> str | None:
        """The first content of ``key``, or None."""
        return next((value for name, value in self.meta if name == key), None)


def parse(page: Fetched) -> Document:
    """Read the head and the loaded files of an HTML answer."""
    html = require("lxml.html")
    etree = require("lxml.etree")
    # huge_tree: a text node over libxml2's 10 MB is the app's to judge,
    # not an exception that stops the audit.
    parser = html.HTMLParser(huge_tree=True)
    try:
        root = html.document_fromstring(page.text(), parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError):
        # Blank, or comments only: a page with nothing in its head.
        root = html.document_fromstring("<html></html>")
    url = page.url
    title: str | None = None
    descriptions: list[str] = []
    canonicals: list[str] = []
    robots: list[str] = []
    hreflang: list[tuple[str, str]] = []
    meta: list[tuple[str, str]] = []
    json_ld: list[str] = []
    resources: list[str] = []
    head = root.find("head")
    for element in (
        head.iter("title", "meta", "link", "script") if head is not None else ()
    ):
        tag = element.tag
        if tag == "title":
            if title is None:
                title = " ".join((element.text_content() or "").split())
        elif tag == "meta":
            name = (element.get("name") or element.get("property") or "").lower()
            content = element.get("content", "")
            if name == "description":
                descriptions.append(content.strip())
            elif name in ROBOTS_NAMES:
                robots.append(content)
            elif name.startswith(("og:", "twitter:", "article:")):
                meta.append((name, content.strip()))
        elif tag == "link":
            rels = (element.get("rel") or "").lower().split()
            href = element.get("href")
            if href is None:
                continue
            if "canonical" in rels:
                canonicals.append(_join(url, href))
            if "alternate" in rels and element.get("hreflang"):
                hreflang.append((element.get("hreflang", ""), _join(url, href)))
        elif (element.get("type") or "").lower() == "application/ld+json":
            json_ld.append(element.text or "")
    for element in root.iter("script", "link"):
        if element.tag == "script":
            src = element.get("src")
        elif "stylesheet" in (element.get("rel") or "").lower().split():
            src = element.get("href")
        else:
            src = None
        if src and not src.strip().startswith("data:"):
            resources.append(_join(url, src))
    links = dict.fromkeys(_links(root, url))
    return Document(
        url,
        title,
        tuple(descriptions),
        tuple(canonicals),
        tuple(robots),
        tuple(hreflang),
        tuple(meta),
        tuple(json_ld),
        tuple(dict.fromkeys(resources)),
        tuple(links),
    )


def _links(root: Any, url: str) -> Iterator[str]:
    """The followed ``<a href>`` addresses of the page (a crawler follows
    neither ``nofollow`` nor another scheme; a fragment is the same page)."""
    scheme, sep, rest = url.partition("://")
    origin = scheme + sep + rest.split("/", 1)[0] if sep else ""
    for element in root.iter("a"):
        href = element.get("href")
        if not href or "nofollow" in (element.get("rel") or "").lower().split():
            continue
        href = href.strip()
        if _plain(href) and href.startswith("/") and not href.startswith("//"):
            # The commonest link, "/notes/1": urljoin's answer, without its
            # cost (a third of the crawl's own time on a linked site).
            address = origin + href
        else:
            address = _join(url, href)
        if address.startswith(("http://", "https://")):
            yield address.partition("#")[0]


def _plain(href: str) -> bool:
    """Whether ``href`` holds nothing that urljoin would change: no dot
    segment, no backslash, no character that is not printable ASCII."""
    return (
        href.isascii()
        and href.isprintable()
        and "/." not in href
        and "\\" not in href
        and " " not in href
    )


def _join(base: str, href: str) -> str:
    """``href`` resolved against the page, or as written when it is no URL
    (``urljoin`` raises ValueError for an unclosed ``[``): the checks then
    judge the text as it is."""
    href = href.strip()
    try:
        return urljoin(base, href)
    except ValueError:
        return href
