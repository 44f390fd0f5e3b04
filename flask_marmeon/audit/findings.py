"""Findings: the stable codes, their severity, and one finding.

A code names one mistake and never changes meaning; the table in ``CODES``
is what the docs list and what the tests walk through.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

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
    entry = CODES[code]
    if not isinstance(entry, Code):
        raise KeyError(f"the audit code {code!r} has no options")
    return entry.options[name]


#: The most characters of a page's (or a file's) text that a message quotes.
EXCERPT = 100


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted (``repr``) as a message shows it: whole when short,
    else its first ``limit`` characters and its length, so that a hostile
    page cannot make a report (or a CI log) as large as itself."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def quoted(value: str, limit: int = EXCERPT) -> str:
    """A value taken from a page or an answer (a link, a canonical, a
    Location, a header) as a message shows it, unquoted: whole when short,
    else its first ``limit`` characters and its length."""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}... ({len(value):,} characters)"


def shorten(text: str, limit: int = EXCERPT) -> str:
    """``text`` as it is when short, else its first ``limit`` characters and
    an ellipsis (for a parser's message, which may quote the file)."""
    return text if len(text) <= limit else text[:limit] + "..."


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
        return {
            "code": self.code,
            "severity": self.severity,
            "url": self.url,
            "message": self.message,
        }


def finding(code: str, url: str, message: str) -> Finding:
    """A finding whose severity is the code's."""
    return Finding(code, CODES[code][0], url, message)
