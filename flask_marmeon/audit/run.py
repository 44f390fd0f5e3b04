"""One audit: robots.txt, the sitemaps, every listed page and every address
the pages link (the crawl, crawl.py), then the checks across pages."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from flask import Flask

from ..locale_tags import X_DEFAULT
from .crawl import Crawl
from .document import Document, parse
from .fetch import TIMEOUT, Fetched, Fetcher, app_origin, app_root
from .findings import Finding, excerpt, finding, quoted
from .images import image_lookup
from .link_checks import (
    canonical_findings,
    chain_findings,
    link_findings,
    orphan_findings,
    unlisted_findings,
)
from .page_checks import check_answer, check_document
from .report import Report
from .setup_checks import setup_findings
from .site import MAX_PAGES, MAX_SITEMAPS, Listed, Schemas, Site, read_site

#: Findings about a file a page links (not the page): merged across pages.
LINKED_CODES = frozenset(
    {"resource-disallowed", "image-status", "image-size-mismatch", "image-too-small"}
)

#: What MARMEON_INDEXABLE=False does on purpose (X-Robots-Tag and robots
#: meta noindex, robots.txt "Disallow: /" with no Sitemap line): said once
#: as ``site-not-indexable`` instead of once per page.
NOT_INDEXABLE_CODES = frozenset(
    {"robots-no-sitemap", "page-disallowed", "page-noindex", "resource-disallowed"}
)

Progress = Callable[[int, int], None]


@dataclass
class PageAudit:
    """One listed page: what it answered, what it says, what is wrong."""

    answer: Fetched | None
    document: Document | None
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class Summary:
    """What the checks across pages read of a page, all that the audit keeps
    of it (with its findings): never its answer nor its document, so that
    the audit's memory does not grow with the pages' size."""

    title: str | None
    description: str | None
    hreflang: tuple[tuple[str, str], ...]


class Auditor:
    """Audits one app through its own answers."""

    def __init__(
        self,
        app: Flask,
        *,
        timeout: float | None = TIMEOUT,
        max_pages: int = MAX_PAGES,
        max_sitemaps: int = MAX_SITEMAPS,
    ) -> None:
        self.fetcher = Fetcher(app, app_origin(app), app_root(app), timeout)
        self.max_pages = max_pages
        self.max_sitemaps = max_sitemaps
        self.images = image_lookup(self.fetcher)

    def site(self) -> Site:
        """robots.txt and the sitemaps, with their findings."""
        return read_site(
            self.fetcher,
            Schemas.load(),
            max_pages=self.max_pages,
            max_sitemaps=self.max_sitemaps,
        )

    def page(self, site: Site, listed: Listed, *, checks: bool = True) -> PageAudit:
        """Fetch one URL (nothing for another origin) and, unless ``checks`` is
        false, check it as a listed page."""
        answer = self.fetcher.get(listed.url)
        doc = parse(answer) if answer is not None and answer.is_page else None
        audit = PageAudit(answer, doc)
        if answer is None or not checks:
            return audit
        if not site.allowed(listed.url):
            audit.findings.append(finding("page-disallowed", listed.url))
        audit.findings.extend(check_answer(listed, answer))
        if doc is not None:
            audit.findings.extend(check_document(listed, answer, doc, self.images))
            audit.findings.extend(
                finding("resource-disallowed", url)
                for url in doc.resources
                if self.fetcher.owns(url) and not site.allowed(url)
            )
        return audit

    def crawl(self, site: Site) -> Crawl:
        """The crawl's queue: the listed pages first, then the home page."""
        home = f"{self.fetcher.origin}{self.fetcher.root}/"
        crawl = Crawl(self.fetcher.owns, site.allowed, self.max_pages, home)
        for url in site.listed:
            crawl.add(url, listed=True)
        crawl.add(home)
        return crawl

    def visit(
        self, site: Site, crawl: Crawl, url: str, *, checks: bool = True
    ) -> PageAudit:
        """Fetch one address of the crawl: a listed page with every check
        (unless ``checks`` is false), any other for its links and its answer
        only."""
        listed = site.listed.get(url)
        checks = checks and listed is not None
        audit = self.page(site, listed or Listed(url, {}), checks=checks)
        if audit.answer is not None:
            crawl.record(url, audit.answer, audit.document)
        return audit

    def run(self, progress: Progress | None = None) -> Report:
        """The whole audit (the calling thread ended after it)."""
        try:
            site = self.site()
            crawl = self.crawl(site)
            pages: dict[str, Summary] = {}
            found: list[tuple[Finding, str | None]] = []
            done = 0
            for url in crawl:
                audit = self.visit(site, crawl, url)
                if url not in site.listed:
                    continue
                found += [(item, url) for item in self.kept(audit.findings)]
                if (doc := audit.document) is not None:
                    description = next(iter(doc.descriptions), None)
                    pages[url] = Summary(doc.title, description, doc.hreflang)
                del audit, doc  # the answer and the document go now
                done += 1
                if progress is not None:
                    progress(done, len(site.listed))
            found += [(item, None) for item in self._across(pages, crawl, site)]
            found += [(item, None) for item in setup_findings(self.fetcher.app)]
        finally:
            self.fetcher.close()
        urls = tuple(dict.fromkeys([*site.listed, *crawl.nodes]))
        return Report.of(len(site.listed), merge_linked(found), urls)

    def kept(self, found: Iterable[Finding], site: Site | None = None) -> list[Finding]:
        """``found`` as :meth:`run` reports it: on a site that must not be
        indexed, without what that does on purpose, and ``site``'s findings
        led by the one that says so."""
        # An app without the extension is taken as it answers.
        state = self.fetcher.app.extensions.get("marmeon")
        if getattr(getattr(state, "settings", None), "indexable", True):
            return list(found)
        said = [] if site is None else [finding("site-not-indexable", site.robots_url)]
        return said + [f for f in found if f.code not in NOT_INDEXABLE_CODES]

    def _across(
        self, pages: dict[str, Summary], crawl: Crawl, site: Site
    ) -> Iterator[Finding]:
        yield from crawl.capped(self.kept(site.findings, site), site.robots_url)
        yield from duplicates(pages, "title")
        yield from duplicates(pages, "description")
        yield from return_links(pages, crawl)
        yield from link_findings(crawl)
        yield from chain_findings(crawl)
        yield from orphan_findings(crawl, pages)
        if site.complete:
            yield from unlisted_findings(crawl, site.listed)
        yield from canonical_findings(crawl)


def return_links(pages: Mapping[str, Summary], crawl: Crawl) -> Iterator[Finding]:
    """``hreflang-no-return``: each listed page's language versions, as the
    crawl fetched them (within the cap), must name it back."""
    for url, doc in pages.items():
        for lang, target in doc.hreflang:
            if lang == X_DEFAULT or target == url:
                continue
            node = crawl.nodes.get(target)
            if node is None:
                continue  # not fetched: another origin, robots.txt, the cap
            answers = node.status != 200 or not node.html
            if answers or url not in crawl.hreflang.get(target, ()):
                yield finding(
                    "hreflang-no-return",
                    url,
                    "hreflang-no-return/status" if answers else "",
                    lang=excerpt(lang),
                    target=quoted(target),
                    status=node.status,
                )


def duplicates(docs: Mapping[str, Summary], field: str) -> Iterator[Finding]:
    """The same title (or description) on pages that are not versions of one."""
    groups: dict[str, list[str]] = defaultdict(list)
    for url, doc in docs.items():
        if text := getattr(doc, field):
            groups[text].append(url)
    for text, urls in groups.items():
        # Language versions of one page may share a text: they name each other.
        clusters = {
            frozenset(h for _, h in docs[u].hreflang) or frozenset([u]) for u in urls
        }
        if len(clusters) < 2:
            continue
        for url in urls:
            others = _and_others([u for u in urls if u != url])
            yield finding(
                f"{field}-duplicate",
                url,
                "text-duplicate",
                field=field,
                text=excerpt(text),
                others=others,
            )


def _and_others(pages: list[str]) -> str:
    """``https://a.example/1 and 2 other pages``."""
    more = len(pages) - 1
    return quoted(pages[0]) + (f" and {more} other pages" if more else "")


def merge_linked(found: Iterable[tuple[Finding, str | None]]) -> list[Finding]:
    """One finding per linked file and problem, naming the pages that link it."""
    pages: dict[Finding, dict[str, None]] = {}
    for item, page in found:
        pages.setdefault(item, {})
        if page is not None and item.code in LINKED_CODES:
            pages[item][page] = None
    return [
        replace(item, message=f"{item.message} Linked from {_and_others([*where])}.")
        if where
        else item
        for item, where in pages.items()
    ]


def audit(
    app: Flask,
    *,
    progress: Progress | None = None,
    timeout: float | None = TIMEOUT,
    max_pages: int = MAX_PAGES,
    max_sitemaps: int = MAX_SITEMAPS,
) -> Report:
    """Audit ``app`` as a search engine crawls it, through its own answers.

    Fetches robots.txt, every sitemap it names and every URL they list,
    then the home page and every address of the app the pages link (not
    ``nofollow``, another origin or scheme, outside the mount path, or
    disallowed by robots.txt), each once, in-process (no network); each page
    is a request of its own in a fresh app context. ``progress(done, total)``
    is called after each listed page. An
    answer that takes over ``timeout`` seconds (None: no limit) is reported
    as a 504 and the audit goes on: its reading stops and the answer is
    closed (a view that never hands over a chunk is left running on a
    thread of its own, which a Python thread cannot be stopped from).

    At most ``max_sitemaps`` sitemap files are read (robots.txt's
    ``Sitemap:`` lines and the indexes' parts), at most ``max_pages`` listed
    URLs audited, and at most ``max_pages`` addresses fetched in all (listed,
    linked, redirected to, named as canonical or hreflang page); a cap that
    leaves something out is the warning ``audit-capped``. The audit keeps
    each page's findings and the link graph, never its answer.
    """
    if timeout is not None and not timeout > 0:
        raise ValueError(
            f"The audit's timeout is {timeout!r}: give a number of seconds"
            " above 0, or None for no limit."
        )
    for name, value in (("max_pages", max_pages), ("max_sitemaps", max_sitemaps)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(
                f"The audit's {name} is {value!r}: give a whole number of 1 or more."
            )
    auditor = Auditor(
        app, timeout=timeout, max_pages=max_pages, max_sitemaps=max_sitemaps
    )
    return auditor.run(progress)
