"""Findings: the stable codes, their severity, and one finding.

A code names one mistake and never changes meaning; the table in ``CODES``
is what the docs list and what the tests walk through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Literal, cast

Severity = Literal["error", "warning"]


class Code(tuple[Severity, str]):
    """A code's (severity, what it means), and its options: the thresholds
    its check reads (:func:`option`), which the meaning may name
    (``"over {chars} characters"``) and ``docs/audit.rst`` names too
    (``tests/audit/test_report.py`` holds the docs to them)."""

    options: Mapping[str, int]

    def __new__(cls, severity: Severity, meaning: str, **options: int) -> Code:
        code = super().__new__(cls, (severity, meaning.format(**options)))
        code.options = options
        return code


#: code -> (severity, what it means), in the order the docs list them.
CODES: Mapping[str, tuple[Severity, str]] = {
    "site-not-indexable": ("error", "MARMEON_INDEXABLE is false: nothing is indexed"),
    "robots-missing": ("error", "robots.txt does not answer 200"),
    "robots-no-sitemap": ("error", "robots.txt names no sitemap"),
    "sitemap-status": ("error", "a sitemap file does not answer 200"),
    "sitemap-invalid": ("error", "a sitemap file is not valid against its schema"),
    "sitemap-too-large": Code(
        "error",
        "a sitemap file holds over {urls:,} URLs or {mib} MiB",
        urls=50_000,
        mib=50,
    ),
    "page-status": ("error", "a listed URL does not answer 200"),
    "page-redirect": ("error", "a listed URL redirects"),
    "page-disallowed": ("error", "robots.txt disallows a listed URL"),
    "canonical-mismatch": ("error", "the canonical names another URL"),
    "canonical-multiple": ("error", "the page has more than one canonical"),
    "page-noindex": ("error", "a listed page is noindex"),
    "canonical-not-ok": (
        "error",
        "the canonical names an address that does not answer 200, or a noindex page",
    ),
    "link-broken": ("error", "a page links to an address that answers 4xx or 5xx"),
    "hreflang-mismatch": (
        "error",
        "the head's hreflang set differs from the sitemap's",
    ),
    "hreflang-no-return": ("error", "an hreflang target does not link back"),
    "hreflang-no-x-default": ("error", "the hreflang set has no x-default"),
    "image-not-absolute": ("error", "an og:image or twitter:image is not absolute"),
    "image-status": ("error", "an image does not answer 200 with an image"),
    "image-size-mismatch": (
        "error",
        "declared width and height differ from the image's",
    ),
    "jsonld-invalid": ("error", "a JSON-LD block does not parse"),
    "jsonld-no-type": ("error", "a JSON-LD node has no @type"),
    "canonical-missing": ("warning", "the page has no canonical"),
    "link-redirect": ("warning", "a page links to an address that redirects"),
    "redirect-chain": ("warning", "an address redirects more than once"),
    "page-orphan": ("warning", "a listed page that no page links to"),
    "page-not-listed": (
        "warning",
        "an indexable page reached by links is not in the sitemap",
    ),
    "title-missing": ("warning", "the page has no title"),
    "title-too-long": Code("warning", "the title is over {chars} characters", chars=60),
    "title-too-short": Code(
        "warning", "the title is under {chars} characters", chars=10
    ),
    "title-duplicate": ("warning", "the same title is on several pages"),
    "description-missing": ("warning", "the page has no description"),
    "description-too-long": Code(
        "warning", "the description is over {chars} characters", chars=160
    ),
    "description-too-short": Code(
        "warning", "the description is under {chars} characters", chars=50
    ),
    "description-duplicate": ("warning", "the same description is on several pages"),
    "card-no-image": ("warning", "summary_large_image has no image"),
    "og-locale-format": ("warning", "og:locale is not language_TERRITORY"),
    # Facebook's minimum for og:image, X's for its large and small cards.
    "image-too-small": Code(
        "warning",
        "an image is smaller than its card's minimum",
        og_width=200,
        og_height=200,
        summary_large_image_width=300,
        summary_large_image_height=157,
        summary_width=144,
        summary_height=144,
    ),
    "resource-disallowed": ("warning", "robots.txt blocks a script or stylesheet"),
    "jsonld-relative-url": ("warning", "a JSON-LD address is not absolute"),
    "sitemap-route-empty": (
        "warning",
        "a marked route's entries are all left out of the sitemap",
    ),
    "robots-under-path": (
        "warning",
        "robots.txt is served under a path, where crawlers never read it",
    ),
    "audit-capped": ("warning", "the audit stopped at its limit of pages or files"),
}


def option(code: str, name: str) -> int:
    """The threshold ``name`` of ``code``, as its entry in :data:`CODES` declares it."""
    return cast(Code, CODES[code]).options[name]


#: The most characters of a page's (or a file's) text that a message quotes.
EXCERPT = 100


def quoted(value: str, show: Callable[[str], str] = str) -> str:
    """A value taken from a page or an answer (a link, a canonical, a
    Location, a header) as a message shows it, unquoted (``show=repr``:
    quoted): whole when short, else its first :data:`EXCERPT` characters and
    its length, so that a hostile page cannot make a report (or a CI log) as
    large as itself."""
    if len(value) <= EXCERPT:
        return show(value)
    return f"{show(value[:EXCERPT])}... ({len(value):,} characters)"


def excerpt(text: str) -> str:
    """``text`` quoted (``repr``) as a message shows it (see :func:`quoted`)."""
    return quoted(text, repr)


def shorten(text: str) -> str:
    """``text`` as it is when short, else its first :data:`EXCERPT` characters
    and an ellipsis (for a parser's message, which may quote the file)."""
    return text if len(text) <= EXCERPT else text[:EXCERPT] + "..."


@dataclass(frozen=True)
class Finding:
    """One mistake: its code, severity, the URL it is about, and what to do.

    ``url`` is absolute, as the sitemap lists it (or as the page links it,
    for an image, a script or an hreflang target).
    """

    code: str
    severity: Severity
    url: str
    message: str

    def as_dict(self) -> dict[str, str]:
        """The finding as ``{"code", "severity", "url", "message"}``."""
        return asdict(self)


#: What each finding says, a ``str.format`` template of the values its check
#: passes: under its code, or under ``"code/variant"`` for a code that says
#: more than one thing (``"title-..."`` and ``"description-..."`` share
#: ``"text-..."``).
TEXTS: Mapping[str, str] = {
    "site-not-indexable": "MARMEON_INDEXABLE is false (a staging or preview"
    " deployment): every answer says noindex and robots.txt disallows"
    " everything, so a search engine indexes nothing. The other checks still"
    " ran; unset MARMEON_INDEXABLE (or set it to true) where the site is to be"
    " found.",
    "robots-missing": "robots.txt answers {status}: a crawler then finds no"
    " sitemap there. Mark a route with sitemap= (flask_marmeon then serves it)"
    " or serve one that names the sitemap.",
    "robots-no-sitemap": "robots.txt has no 'Sitemap:' line, so crawlers must be"
    " told about the sitemap by hand. Add 'Sitemap: <absolute URL>'.",
    "sitemap-status": "The sitemap answers {status}, not 200.",
    "sitemap-invalid": "Not valid against the sitemaps 0.9 schema: {errors}{more}.",
    "sitemap-invalid/gzip": "The file starts as gzip but does not inflate"
    " ({error}): send the gzip stream whole, or the XML uncompressed.",
    "sitemap-invalid/xml": "The file is not well-formed XML: {error}.",
    "sitemap-invalid/root": "The root element is {tag}; a sitemap is a <urlset>,"
    " and only robots.txt may name a <sitemapindex> (an index cannot hold one).",
    "sitemap-invalid/dtd": "The file declares a DTD (<!DOCTYPE ...>); a sitemap"
    " has none, and crawlers do not read its entities. Remove it.",
    "sitemap-too-large": "The file is over {mib} MiB uncompressed, the format's"
    " limit: split it with a sitemap index.",
    "sitemap-too-large/urls": "The file lists {count:,} URLs; the format's limit"
    " is {limit:,}. Split it with a sitemap index (MARMEON_SITEMAP_MAX_URLS).",
    "page-status": "Answers {status}{raised}: the sitemap must list only pages"
    " that work. Leave the entry out, or fix the route.",
    "page-redirect": "Answers {status}, redirecting to {target}: list the address"
    " the redirect ends at, not this one.",
    "page-disallowed": "robots.txt disallows this listed URL, so crawlers never"
    " read it: allow it, or leave it out of the sitemap.",
    "canonical-mismatch": "The canonical names {canonical}, not this listed URL:"
    " list the canonical address in the sitemap, or fix the canonical.",
    "canonical-multiple": "The page has {count} canonicals ({canonicals});"
    " search engines then ignore them all. Keep one.",
    "page-noindex": "The page says noindex ({reason}) but the sitemap lists it:"
    " index it, or leave it out of the sitemap.",
    "canonical-not-ok": "Its canonical names {canonical}, which {what}: search"
    " engines then ignore the canonical. Name an address that answers 200 and"
    " may be indexed.",
    "link-broken": "Links to {link}, which {broken}: a visitor and a crawler find"
    " nothing there. Fix the link (or the page it names), or remove it.",
    "hreflang-mismatch": "The head's hreflang links differ from the sitemap's"
    " xhtml:links: head only [{head}], sitemap only [{sitemap}].",
    "hreflang-no-return": "Its {lang} version {target} does not link back to it"
    " (hreflang links must go both ways).",
    "hreflang-no-return/status": "Its {lang} version {target} answers {status}.",
    "hreflang-no-x-default": "The page names its languages but no {x}: add"
    ' <link rel="alternate" hreflang="{x}"> for visitors of other languages.'
    " (flask_marmeon names it for a localized page unless its address without"
    " a locale is another page's: a route of the app, robots.txt, or another"
    " locale's page; give this page another address.)",
    "image-not-absolute": "{key} is {url}; link previews need an absolute http(s) URL.",
    "image-status": "The {key} answers {status}: a preview shows no picture.",
    "image-status/type": "The {key} is {type}, not an image Pillow can read: a"
    " preview shows no picture.",
    "image-size-mismatch": "og:image:width/height say {width}x{height}, the image"
    " is {size[0]}x{size[1]}.",
    "jsonld-invalid": "JSON-LD block {number} does not parse: {error}.",
    "jsonld-invalid/deep": "JSON-LD block {number} is nested too deep to read"
    " (hundreds of levels): no search engine reads such data. Flatten it.",
    "jsonld-no-type": "JSON-LD block {number} has {untyped} node(s) without"
    " @type; search engines skip them.",
    "canonical-missing": 'The page has no <link rel="canonical">: a search'
    " engine then picks one itself. Set head(canonical=...).",
    "link-redirect": "Links to {link}, which redirects to {target}: link to"
    " {target} instead, so that crawlers and visitors skip the redirect.",
    "redirect-chain": "It redirects {count} times before an answer ({path}):"
    " redirect it straight to {target}.",
    "redirect-chain/loop": "It redirects in a loop ({path}): nothing ever"
    " answers. Make one of them answer, or redirect to a page that does.",
    "page-orphan": "The sitemap lists it, but no page of the site links to it:"
    " search engines rank such a page low, and visitors never find it. Link it"
    " from a page (a list, a menu, a related page).",
    "page-not-listed": "{page} links to it, and it is indexable (200, not"
    " noindex, its own canonical), but the sitemap does not list it. Mark its"
    " route with sitemap= (or add its entry); if it is not to be found, make it"
    " noindex or name another page as its canonical.",
    "text-missing": "The page has no {tag}: set head({field}=...).",
    "text-too-long": "The {field} is {length} characters; search results cut it"
    " after about {limit}: {text}.",
    "text-too-short": "The {field} is {length} characters ({text}); say what the"
    " page is in at least {limit}.",
    "text-duplicate": "The {field} {text} is also on {others}: each page needs"
    " its own.",
    "card-no-image": 'twitter:card is "summary_large_image" but the page has no'
    ' image: set an image, or use twitter={{"card": "summary"}}.',
    "og-locale-format": "{key} is {value}; Open Graph wants language_TERRITORY"
    " (en_US, de_DE).",
    "image-too-small": "The og:image is {size[0]}x{size[1]}; Facebook and"
    " LinkedIn want at least {low[0]}x{low[1]} (1200x630 for a large card).",
    "image-too-small/card": "The image is {size[0]}x{size[1]}; an X {card} card"
    " needs at least {low[0]}x{low[1]}.",
    "resource-disallowed": "robots.txt disallows this file, so a search engine"
    " renders the page without it. Serve it at an allowed address.",
    "jsonld-relative-url": "JSON-LD block {number} has the relative address"
    " {value} in {key}; search engines want it absolute: write"
    " absolute_url(...) (from flask_marmeon) around it, which makes it absolute"
    " against APP_URL as the head does.",
    "sitemap-route-empty": "The route {rule!r} (endpoint {endpoint!r}) is marked"
    " for the sitemap, but the sitemap lists none of its pages: {why}. Fix the"
    " provider's entries, or remove sitemap= from the route.",
    "robots-under-path": "The app is mounted under {root!r} (APPLICATION_ROOT),"
    " so its robots.txt is served at {served}, but crawlers read robots.txt only"
    " at the host's root ({origin}/robots.txt). Serve one there (from the proxy,"
    " or the app at the root), with this file's rules and its Sitemap: line.",
    "audit-capped": "The audit {what}, so that a huge or hostile site cannot"
    " keep it running for hours. Raise the limits (audit(app, max_pages=...,"
    " max_sitemaps=...), flask marmeon audit --max-pages/--max-sitemaps) to"
    " audit everything.",
    "audit-capped/crawl": "{crawl} Raise the limit (audit(app, max_pages=...),"
    " flask marmeon audit --max-pages) to audit everything.",
}


def finding(code: str, url: str, text: str = "", /, **values: object) -> Finding:
    """A finding whose severity is the code's, its message the template
    ``TEXTS[text or code]`` filled with ``values``."""
    return Finding(code, CODES[code][0], url, TEXTS[text or code].format(**values))
