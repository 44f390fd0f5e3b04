"""The checks of one page: pure functions over what the app answered.

Each check returns findings; none fetches. Images are looked up through the
``images`` argument (see images.py), so that each is fetched once per audit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from werkzeug.datastructures import Headers

from ..locale_tags import X_DEFAULT
from .document import Document
from .fetch import Fetched
from .findings import Finding, excerpt, finding, option, quoted, shorten
from .images import ImageLookup, check_images
from .site import Listed

OG_LOCALE = re.compile(r"[a-z]{2,3}_[A-Z]{2}\Z")
#: Robots directives that carry a value after a colon (not a user agent).
VALUED = {"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"}


def check_answer(listed: Listed, answer: Fetched) -> Iterator[Finding]:
    """The listed URL must answer 200 itself: a redirect is not the page."""
    url = listed.url
    if 300 <= answer.status < 400:
        target = quoted(answer.headers.get("Location", "?"))
        yield finding("page-redirect", url, status=answer.status, target=target)
    elif answer.status != 200:
        raised = f" ({answer.error})" if answer.error else ""
        yield finding("page-status", url, status=answer.status, raised=raised)


def noindex_reason(headers: Headers, robots_meta: tuple[str, ...]) -> str | None:
    """Where the page says noindex (header or meta), or None."""
    for value in headers.getlist("X-Robots-Tag"):
        if _says_noindex(value, header=True):
            return f"X-Robots-Tag: {quoted(value)}"
    for content in robots_meta:
        if _says_noindex(content, header=False):
            return f'<meta name="robots" content="{quoted(content)}">'
    return None


def _says_noindex(value: str, *, header: bool) -> bool:
    agent, colon, rest = value.partition(":")
    if header and colon and agent.strip().lower() not in VALUED:
        # "googlebot: noindex" speaks to one crawler; others read nothing.
        if agent.strip().lower() not in ("googlebot", "*"):
            return False
        value = rest
    tokens = {token.strip().lower() for token in value.split(",")}
    return bool(tokens & {"noindex", "none"})


def check_document(
    listed: Listed, answer: Fetched, doc: Document, images: ImageLookup
) -> Iterator[Finding]:
    """Every check of one listed page that answered 200 with HTML."""
    yield from _canonical(listed, doc)
    reason = noindex_reason(answer.headers, doc.robots)
    if reason is not None:
        yield finding("page-noindex", listed.url, reason=reason)
    yield from _text("title", listed.url, [doc.title] if doc.title else [])
    yield from _text("description", listed.url, list(doc.descriptions))
    yield from _hreflang(listed, doc)
    yield from _social(listed.url, doc)
    yield from check_images(listed.url, doc, images)
    yield from _json_ld(listed.url, doc)


def _canonical(listed: Listed, doc: Document) -> Iterator[Finding]:
    if not doc.canonicals:
        yield finding("canonical-missing", listed.url)
    elif len(doc.canonicals) > 1:
        some = _some([quoted(c) for c in doc.canonicals])
        count = len(doc.canonicals)
        yield finding("canonical-multiple", listed.url, count=count, canonicals=some)
    elif doc.canonicals[0] != listed.url:
        canonical = quoted(doc.canonicals[0])
        yield finding("canonical-mismatch", listed.url, canonical=canonical)


def _text(field: str, url: str, values: list[str]) -> Iterator[Finding]:
    if not values or not values[0]:
        tag = "<title>" if field == "title" else '<meta name="description">'
        yield finding(f"{field}-missing", url, "text-missing", tag=tag, field=field)
        return
    text = values[0]
    low = option(f"{field}-too-short", "chars")
    high = option(f"{field}-too-long", "chars")
    if len(text) > high or len(text) < low:
        kind, limit = ("long", high) if len(text) > high else ("short", low)
        yield finding(
            f"{field}-too-{kind}",
            url,
            f"text-too-{kind}",
            field=field,
            length=len(text),
            limit=limit,
            text=excerpt(text),
        )


def _hreflang(listed: Listed, doc: Document) -> Iterator[Finding]:
    head = dict(doc.hreflang)
    if head != dict(listed.alternates):
        only_head = sorted(
            f"{k} {v}" for k, v in head.items() - listed.alternates.items()
        )
        only_map = sorted(
            f"{k} {v}" for k, v in listed.alternates.items() - head.items()
        )
        yield finding(
            "hreflang-mismatch",
            listed.url,
            head=_some(only_head),
            sitemap=_some(only_map),
        )
    if head and X_DEFAULT not in head:
        yield finding("hreflang-no-x-default", listed.url, x=X_DEFAULT)


def _some(items: list[str], shown: int = 5) -> str:
    """The first few items, each cut short, and how many more there are."""
    text = ", ".join(shorten(item) for item in items[:shown])
    more = len(items) - shown
    return text + (f" and {more:,} more" if more > 0 else "")


def _social(url: str, doc: Document) -> Iterator[Finding]:
    card = doc.first("twitter:card")
    if card == "summary_large_image" and not (
        doc.first("twitter:image") or doc.first("og:image")
    ):
        yield finding("card-no-image", url)
    for key in ("og:locale", "og:locale:alternate"):
        for value in (value for name, value in doc.meta if name == key):
            if not OG_LOCALE.match(value):
                yield finding("og-locale-format", url, key=key, value=excerpt(value))


#: The deepest JSON-LD nesting read as data; deeper is ``jsonld-invalid``.
MAX_JSONLD_DEPTH = 500


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists and objects more than ``limit`` deep
    (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            values = item.values() if isinstance(item, dict) else item
            stack.extend((value, depth + 1) for value in values)
    return False


def _json_ld(url: str, doc: Document) -> Iterator[Finding]:
    for number, text in enumerate(doc.json_ld, 1):
        try:
            data = json.loads(text)
            if _deeper_than(data, MAX_JSONLD_DEPTH):
                # Python 3.12 and later read far deeper than earlier ones
                # (which stop with RecursionError): the same data is the
                # same finding on every Python.
                raise RecursionError
            untyped = sum(1 for node in _nodes(data) if not _typed(node))
        except ValueError as error:
            error_text = shorten(str(error))
            yield finding("jsonld-invalid", url, number=number, error=error_text)
            continue
        except RecursionError:
            # Python's JSON reader recurses once per level of nesting.
            yield finding("jsonld-invalid", url, "jsonld-invalid/deep", number=number)
            continue
        if untyped:
            yield finding("jsonld-no-type", url, number=number, untyped=untyped)
        for key, value in _relative_urls(data):
            yield finding(
                "jsonld-relative-url",
                url,
                number=number,
                value=excerpt(value),
                key=excerpt(key),
            )


#: The schema.org properties whose value is an address (and JSON-LD's @id).
URL_KEYS = frozenset({"url", "image", "@id", "item", "logo"})


def _relative_urls(data: Any, depth: int = 0) -> Iterator[tuple[str, str]]:
    """(property, value) for each address in ``data`` that is not absolute:
    a string under one of :data:`URL_KEYS`, alone or in a list, at any depth
    (an ``image`` that is an ImageObject is checked by its own ``url``)."""
    if depth > 64 or not isinstance(data, dict | list):
        return  # a scalar, or nesting deeper than any real block
    items: Any = data.items() if isinstance(data, dict) else enumerate(data)
    for key, value in items:
        if isinstance(value, dict | list):
            if key in URL_KEYS and isinstance(value, list):
                yield from (
                    (str(key), text)
                    for text in value
                    if isinstance(text, str) and not _absolute(text)
                )
            yield from _relative_urls(value, depth + 1)
        elif key in URL_KEYS and isinstance(value, str) and not _absolute(value):
            yield str(key), value


def _absolute(value: str) -> bool:
    """Whether ``value`` is an absolute http(s) URL, as search engines want."""
    scheme, _, rest = value.partition("://")
    return scheme.lower() in ("http", "https") and bool(rest)


def _nodes(data: Any) -> Iterator[Any]:
    for block in data if isinstance(data, list) else [data]:
        if isinstance(block, dict) and "@graph" in block:
            graph = block["@graph"]
            yield from graph if isinstance(graph, list) else [graph]
        else:
            yield block


def _typed(node: Any) -> bool:
    return isinstance(node, dict) and bool(node.get("@type"))
