"""robots.txt and the sitemaps, as a crawler discovers them.

robots.txt names the sitemaps; a sitemap index names its parts. Each file is
checked against the sitemaps 0.9 schema (with the xhtml:link and image
extensions) and the format's limits, and every listed URL is kept with the
alternates the sitemap gives it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ._deps import require
from .fetch import Fetched, Fetcher
from .findings import Finding, excerpt, finding, option, shorten

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
MAX_URLS = option("sitemap-too-large", "urls")
MAX_MIB = option("sitemap-too-large", "mib")
MAX_BYTES = MAX_MIB * 1024 * 1024
#: What the audit reads at most by default: the listed pages, and the
#: sitemap files (robots.txt's ``Sitemap:`` lines and the indexes' parts).
MAX_PAGES = 10_000
MAX_SITEMAPS = 100


@dataclass(frozen=True)
class Listed:
    """A URL the sitemap lists, with its ``xhtml:link`` alternates."""

    url: str
    #: hreflang -> href, as the sitemap writes them (empty when it has none).
    alternates: Mapping[str, str]


@dataclass
class Site:
    """What robots.txt and the sitemaps say."""

    robots_url: str
    #: Protego's parser, or None when robots.txt did not answer (all allowed).
    robots: Any
    #: Listed URLs in the order of the files, each once (at most max_pages).
    listed: dict[str, Listed] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    #: The caps, and what they left out (listings of URLs, sitemap files).
    max_pages: int = MAX_PAGES
    max_sitemaps: int = MAX_SITEMAPS
    pages_left_out: int = 0
    sitemaps_left_out: int = 0
    #: The sitemap files read (or asked for), each once.
    seen: set[str] = field(default_factory=set)
    #: Sitemap files on another origin (not read).
    elsewhere: int = 0

    @property
    def complete(self) -> bool:
        """Whether every sitemap file was read whole and every URL listed: only
        then does a page missing from :attr:`listed` miss from the sitemap."""
        failed = {"sitemap-status", "sitemap-invalid", "sitemap-too-large"}
        return not (
            self.elsewhere
            or self.pages_left_out
            or self.sitemaps_left_out
            or any(item.code in failed for item in self.findings)
        )

    def allowed(self, url: str) -> bool:
        """Whether robots.txt lets Googlebot crawl ``url`` (Protego follows
        Google's reading of robots.txt)."""
        return self.robots is None or bool(self.robots.can_fetch(url, "Googlebot"))


@dataclass(frozen=True)
class Schemas:
    """The compiled XSDs: one for a ``<urlset>``, one for a ``<sitemapindex>``."""

    urlset: Any
    index: Any

    @classmethod
    def load(cls) -> Schemas:
        """Compile the schemas shipped in ``flask_marmeon/audit/schemas``."""
        etree = require("lxml.etree")
        folder = resources.files(__package__) / "schemas"
        with resources.as_file(folder) as path:
            urlset = etree.XMLSchema(etree.parse(str(path / "sitemap.xsd")))
            index = etree.XMLSchema(etree.parse(str(path / "siteindex.xsd")))
        return cls(urlset, index)


def read_site(
    fetcher: Fetcher,
    schemas: Schemas,
    *,
    max_pages: int = MAX_PAGES,
    max_sitemaps: int = MAX_SITEMAPS,
) -> Site:
    """Fetch robots.txt and the sitemaps it names (and their parts): at most
    ``max_sitemaps`` files, listing at most ``max_pages`` URLs; a cap that
    leaves something out is an ``audit-capped`` finding."""
    protego = require("protego")
    robots_url = f"{fetcher.origin}{fetcher.root}/robots.txt"
    answer = fetcher.get(robots_url)
    site = Site(robots_url, None, max_pages=max_pages, max_sitemaps=max_sitemaps)
    sitemaps: list[str] = []
    if answer is None or answer.status != 200:
        status = "nothing" if answer is None else answer.status
        site.findings.append(finding("robots-missing", robots_url, status=status))
    else:
        site.robots = protego.Protego.parse(answer.text())
        sitemaps = list(site.robots.sitemaps)
        if not sitemaps:
            site.findings.append(finding("robots-no-sitemap", robots_url))
    if not sitemaps:
        # Read the usual address anyway, so that the pages are still audited.
        sitemaps = [f"{fetcher.origin}{fetcher.root}/sitemap.xml"]
    for url in sitemaps:
        _read_file(fetcher, schemas, site, url, nested=False)
    # The one audit-capped finding, when a cap left something out.
    parts = []
    if site.sitemaps_left_out:
        parts.append(
            f"read {site.max_sitemaps:,} sitemap files and left"
            f" {site.sitemaps_left_out:,} more out (max_sitemaps)"
        )
    if site.pages_left_out:
        parts.append(
            f"audited the first {site.max_pages:,} listed URLs and left"
            f" {site.pages_left_out:,} more out (max_pages)"
        )
    if parts:
        what = " and ".join(parts)
        site.findings.append(finding("audit-capped", robots_url, what=what))
    return site


def _read_file(
    fetcher: Fetcher,
    schemas: Schemas,
    site: Site,
    url: str,
    *,
    nested: bool,
) -> None:
    if url in site.seen:
        return
    if len(site.seen) >= site.max_sitemaps:
        site.sitemaps_left_out += 1
        return
    site.seen.add(url)
    answer = fetcher.get(url)
    if answer is None:
        site.elsewhere += 1
        return  # another origin: not fetched, not judged

    def report(code: str, text: str = "", /, **values: object) -> None:
        site.findings.append(finding(code, url, text, **values))

    if answer.status != 200:
        report("sitemap-status", status=answer.status)
        return
    try:
        body = _body(answer)
    except zlib.error as error:
        report("sitemap-invalid", "sitemap-invalid/gzip", error=error)
        return
    if body is None or len(body) > MAX_BYTES:
        report("sitemap-too-large", mib=MAX_MIB)
        if body is None:
            return
    etree = require("lxml.etree")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError as error:
        report("sitemap-invalid", "sitemap-invalid/xml", error=shorten(str(error)))
        return
    if root.tag == f"{{{SITEMAP_NS}}}sitemapindex" and not nested:
        _validate(schemas.index, root, report)
        for loc in root.iterfind(f"{{{SITEMAP_NS}}}sitemap/{{{SITEMAP_NS}}}loc"):
            _read_file(fetcher, schemas, site, (loc.text or "").strip(), nested=True)
    elif root.tag == f"{{{SITEMAP_NS}}}urlset":
        _validate(schemas.urlset, root, report)
        _read_urls(root, site, report)
    else:
        tag = excerpt(str(root.tag))
        report("sitemap-invalid", "sitemap-invalid/root", tag=tag)


def _body(answer: Fetched) -> bytes | None:
    """The file's bytes, gunzipped when compressed; None when over the limit."""
    body = answer.body
    if body[:2] != b"\x1f\x8b":
        return body
    # Stop at the limit: a small compressed file may hold a huge one.
    inflater = zlib.decompressobj(wbits=31)
    data = inflater.decompress(body, MAX_BYTES + 1)
    return None if len(data) > MAX_BYTES else data


def _validate(schema: Any, root: Any, report: Callable[..., None]) -> None:
    if root.getroottree().docinfo.internalDTD is not None:
        # Entities are not read (no file, no network, no expansion), and
        # the schema cannot judge a tree that holds their references.
        report("sitemap-invalid", "sitemap-invalid/dtd")
        return
    if schema.validate(root):
        return
    errors = [
        f"line {e.line}: {shorten(e.message)}" for e in list(schema.error_log)[:3]
    ]
    more = len(schema.error_log) - len(errors)
    more_text = f" (and {more} more)" if more > 0 else ""
    report("sitemap-invalid", errors="; ".join(errors), more=more_text)


def _read_urls(root: Any, site: Site, report: Callable[..., None]) -> None:
    count = 0
    loc_tag, link_tag = f"{{{SITEMAP_NS}}}loc", f"{{{XHTML_NS}}}link"
    for url in root.iterchildren(f"{{{SITEMAP_NS}}}url"):
        count += 1
        loc = url.find(loc_tag)
        address = (loc.text or "").strip() if loc is not None else ""
        if not address or address in site.listed:
            continue
        if len(site.listed) >= site.max_pages:
            site.pages_left_out += 1
            continue
        alternates = {
            str(link.get("hreflang", "")): str(link.get("href", ""))
            for link in url.iterchildren(link_tag)
            if link.get("rel") == "alternate"
        }
        site.listed[address] = Listed(address, alternates)
    if count > MAX_URLS:
        report(
            "sitemap-too-large", "sitemap-too-large/urls", count=count, limit=MAX_URLS
        )
