"""The development preview: ``/_marmeon/preview?path=/notes/1``.

Draws a page as a search result and as the link cards of Facebook/LinkedIn,
X and Slack, from the app's own answer (fetched in-process like the audit),
with the audit's findings for that page beside them. Without ``path`` it
lists every URL of the sitemap. It answers 404 unless ``app.debug``.

Cuts: a search result's title and description where ``title-too-long`` and
``description-too-long`` say results cut them (search engines cut at about
600 pixels; characters are the rule people can check). Cards crop their
images with CSS ``object-fit: cover``: 1.91:1 for a large card, 1:1 for a
small one.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import abort, current_app, render_template, request
from markupsafe import escape

from .crawl import Crawl
from .document import Document
from .findings import Finding, option
from .images import declared_images
from .link_checks import canonical_findings, link_findings
from .run import Auditor
from .site import Listed

TITLE_CUT = option("title-too-long", "chars")
DESCRIPTION_CUT = option("description-too-long", "chars")
#: Findings that concern a URL only because the sitemap lists it.
LISTED_ONLY = frozenset(
    {
        "page-noindex",
        "page-disallowed",
        "page-status",
        "page-redirect",
        "hreflang-mismatch",
    }
)
#: Facebook shows a large card for an image at least this wide.
LARGE_CARD_WIDTH = 600


@dataclass(frozen=True)
class Card:
    """One platform's link card, as it would draw the page."""

    platform: str
    size: str  # "large" (1.91:1 image) or "small" (1:1 image)
    used: bool  # whether the platform would pick this size for the page
    site: str
    title: str
    description: str
    image: str | None  # an address the browser can show (data: for the app's)


def cut(text: str, limit: int) -> str:
    """``text`` cut after ``limit`` characters at a word, with an ellipsis."""
    if len(text) <= limit:
        return text
    head = text[:limit].rsplit(" ", 1)[0]
    return head.rstrip(" ,.;:·-") + " …"


def page_path(value: str) -> str | None:
    """The path to preview, or None unless it is a path on the app.

    Only a path is taken (``/notes/1``, with a query if any): never a full
    URL, a scheme-relative ``//host`` or a backslash that a browser reads
    as one, so the preview never names another host.
    """
    if not value.startswith("/") or value.startswith("//") or "\\" in value:
        return None
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in value):
        return None
    return value


def view() -> tuple[str, int, dict[str, str]]:
    """The index of listed URLs, or the preview of ``?path=``."""
    if not current_app.debug:
        abort(404)
    headers = {"X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-store"}
    try:
        auditor = Auditor(current_app._get_current_object())  # type: ignore[attr-defined]
    except ValueError as error:
        # No APP_URL: nothing can be previewed, and the page says what to set
        # rather than a traceback.
        page = f"<!doctype html><title>Preview</title><p>{escape(str(error))}</p>"
        return page, 200, headers
    try:
        return _page(auditor, headers)
    finally:
        auditor.fetcher.close()


def _page(auditor: Auditor, headers: dict[str, str]) -> tuple[str, int, dict[str, str]]:
    site = auditor.site()
    value = request.args.get("path")
    if value is None:
        own = auditor.fetcher.own_path
        html = render_template(
            "marmeon/preview.html",
            index=[(url, own(url)) for url in site.listed if own(url)],
            site_findings=auditor.kept(site.findings, site),
        )
        return html, 200, headers
    path = page_path(value)
    if path is None:
        abort(400, description="path= takes a path on this app, such as /notes/1.")
    url = auditor.fetcher.origin + auditor.fetcher.root + path
    listed = site.listed.get(url)
    result = auditor.page(site, listed or Listed(url, {}))
    answer, doc = result.answer, result.document
    findings: list[Finding] = auditor.kept(result.findings)
    # The site's links, for this page's links in and out and their findings.
    crawl = auditor.crawl(site)
    crawl.add(url)
    for address in crawl:
        auditor.visit(site, crawl, address, checks=False)
    findings += [
        item
        for item in (*link_findings(crawl), *canonical_findings(crawl))
        if item.url == url
    ]
    if listed is None:
        # What is wrong only for a listed URL (a noindex search page is
        # right) is left out for a page the sitemap does not list.
        findings = [f for f in findings if f.code not in LISTED_ONLY]
    html = render_template(
        "marmeon/preview.html",
        url=url,
        listed=listed is not None,
        status=None if answer is None else answer.status,
        doc=doc,
        result=_search_result(url, doc),
        cards=_cards(auditor, url, doc) if doc is not None else [],
        findings=findings,
        links_out=[_link(auditor, crawl, link) for link in crawl.links.get(url, ())],
        links_in=[
            _link(auditor, crawl, p) for p, out in crawl.links.items() if url in out
        ],
        site_findings=auditor.kept(site.findings, site),
        title_cut=TITLE_CUT,
        description_cut=DESCRIPTION_CUT,
    )
    return html, 200, headers


def _link(auditor: Auditor, crawl: Crawl, url: str) -> dict[str, str]:
    """A link of the page (or to it): its address, its preview's path, what
    it answers."""
    parts = urlsplit(url)
    path = auditor.fetcher.own_path(url) or "/"
    if parts.query:
        path += "?" + parts.query
    return {"url": url, "path": path, "answer": crawl.answer(url)}


def _search_result(url: str, doc: Document | None) -> dict[str, str]:
    parts = urlsplit(url)
    crumbs = [parts.netloc, *[p for p in parts.path.split("/") if p]]
    title = (doc.title if doc else None) or ""
    description = next(iter(doc.descriptions), "") if doc else ""
    return {
        "site": (doc.first("og:site_name") if doc else None) or parts.netloc,
        "breadcrumb": " › ".join(crumbs),
        "title": cut(title, TITLE_CUT),
        "description": cut(description, DESCRIPTION_CUT),
    }


def _cards(auditor: Auditor, url: str, doc: Document) -> list[Card]:
    host = urlsplit(url).netloc
    title = doc.first("og:title") or doc.title or ""
    description = doc.first("og:description") or next(iter(doc.descriptions), "")
    declared = declared_images(doc)
    og = next((d.url for d in declared if d.key.startswith("og:")), None)
    tw = next((d.url for d in declared if d.key.startswith("twitter:")), None) or og
    og_src, og_size = _image(auditor, og)
    tw_src, _ = _image(auditor, tw)
    card = doc.first("twitter:card") or "summary"
    tw_title = doc.first("twitter:title") or title
    tw_description = doc.first("twitter:description") or description
    fb_large = og_src is not None and (
        og_size is None or og_size[0] >= LARGE_CARD_WIDTH
    )
    x_large = card == "summary_large_image"
    site = doc.first("og:site_name") or host
    # Each platform's choice of the large card, and its texts and image.
    shown: dict[str, tuple[bool, str, str, str, str | None]] = {
        "Facebook / LinkedIn": (fb_large, host.upper(), title, description, og_src),
        "X": (x_large, host, tw_title, tw_description, tw_src),
        "Slack": (x_large, site, title, description, og_src or tw_src),
    }
    return [
        Card(name, size, (size == "large") == large, on, head, text, image)
        for name, (large, on, head, text, image) in shown.items()
        for size in ("large", "small")
    ]


def _image(
    auditor: Auditor, url: str | None
) -> tuple[str | None, tuple[int, int] | None]:
    """An address the browser can show for ``url``, and the image's size."""
    if url is None:
        return None, None
    info = auditor.images(url)
    if info is None:
        # Another origin: the browser loads it itself (the audit does not).
        return url, None
    if info.size is None:
        return None, None
    # The audit keeps no image: the preview fetches the one it shows.
    answer = auditor.fetcher.get(url)
    data = base64.b64encode(answer.body if answer else b"").decode("ascii")
    return f"data:{info.mimetype};base64,{data}", info.size
