"""From the merged head to the elements of the page, final, in output order.

This step applies the defaults of the specification (og/twitter title and
description from the page's, og:locale from the page's locale, the canonical
and hreflang addresses of a localized page), orders the elements, and
decides every URL with the app's policy (:mod:`flask_marmeon.head.urls`):
the writer only writes.

A URL left out takes the elements of its *group* with it (an image's size
and alt). Without APP_URL, a relative URL is left out of the document but
carried, with its group, to the browser module, which resolves it against
``location.origin``: each carried element is a :class:`Missing`, whose
``at`` is its index among the written and carried elements, in output order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..page import Page
from .elements import (
    CANONICAL,
    CANONICAL_PAGE,
    DESCRIPTION,
    HREFLANG,
    JSON_LD,
    OG,
    ROBOTS,
    TITLE,
    TWITTER,
    Element,
    Slot,
)
from .locales import og_locale
from .merge import MergedHead
from .robots import robots_content
from .schema import Image
from .text import clean_text, clean_url
from .urls import UrlPolicy


class Missing(NamedTuple):
    """An element left out for a relative URL without APP_URL (see module)."""

    at: int
    element: Element
    group: int


class ResolvedHead(NamedTuple):
    """The head of one page, ready to write."""

    #: The elements to write, in output order, URLs final.
    elements: list[Element]
    #: What the browser module adds back (only without APP_URL).
    missing: list[Missing]
    #: (slot, raw URL) of every URL left out, for development warnings.
    left_out: list[tuple[Slot, str]]


#: The slots resolve writes, looked up once (a constant, not a dict look-up
#: per element).
_ARTICLE_AUTHOR = OG["article:author"]
_ARTICLE_MODIFIED_TIME = OG["article:modified_time"]
_ARTICLE_PUBLISHED_TIME = OG["article:published_time"]
_ARTICLE_TAG = OG["article:tag"]
_OG_DESCRIPTION = OG["og:description"]
_OG_IMAGE = OG["og:image"]
_OG_IMAGE_ALT = OG["og:image:alt"]
_OG_IMAGE_HEIGHT = OG["og:image:height"]
_OG_IMAGE_WIDTH = OG["og:image:width"]
_OG_IMAGE_TYPE = OG["og:image:type"]
_OG_LOCALE = OG["og:locale"]
_OG_LOCALE_ALTERNATE = OG["og:locale:alternate"]
_OG_SITE_NAME = OG["og:site_name"]
_OG_TITLE = OG["og:title"]
_OG_TYPE = OG["og:type"]
_OG_URL = OG["og:url"]
_TWITTER_DESCRIPTION = TWITTER["twitter:description"]
_TWITTER_IMAGE = TWITTER["twitter:image"]
_TWITTER_IMAGE_ALT = TWITTER["twitter:image:alt"]
_TWITTER_TITLE = TWITTER["twitter:title"]

#: The twitter keys written as they are, first, with their slots.
_TWITTER_FIRST = tuple(
    (key, TWITTER["twitter:" + key]) for key in ("card", "site", "creator")
)

#: The state of the current group: its URL was kept, or left out for good.
_KEPT, _DROPPED = 0, -1


class _Builder:
    """Collects the elements in output order (see the module's docstring)."""

    __slots__ = ("carry", "elements", "group", "left_out", "missing", "policy")

    def __init__(self, policy: UrlPolicy) -> None:
        self.policy = policy
        self.elements: list[Element] = []
        self.missing: list[Missing] = []
        self.left_out: list[tuple[Slot, str]] = []
        self.group = 0
        #: _KEPT, _DROPPED, or the number of the group being carried.
        self.carry = _KEPT

    def url(self, slot: Slot, raw: str, extra: str | None = None) -> None:
        """An element holding a URL: it starts a group."""
        self.group += 1
        href = self.policy(raw)
        if href is not None:
            self.carry = _KEPT
            self.elements.append((slot, href, extra))
            return
        self.left_out.append((slot, raw))
        if self.policy.carried(raw):
            self.carry = self.group
            at = len(self.elements) + len(self.missing)
            self.missing.append(Missing(at, (slot, raw, extra), self.group))
        else:
            self.carry = _DROPPED

    def follow(self, slot: Slot, value: str) -> None:
        """An element that goes with the last URL (kept, carried or dropped)."""
        carry = self.carry
        if carry == _KEPT:
            self.elements.append((slot, value, None))
        elif carry != _DROPPED:
            at = len(self.elements) + len(self.missing)
            self.missing.append(Missing(at, (slot, value, None), carry))


def resolve(
    merged: MergedHead,
    page: Page | None,
    policy: UrlPolicy,
    json_ld: Sequence[str] = (),
    *,
    indexable: bool = True,
    og_locales: Callable[[str], str] = og_locale,
) -> ResolvedHead:
    """Return the head's elements in output order, URLs decided.

    ``json_ld`` holds the JSON-LD blocks' texts as :func:`jsonld.dumps`
    writes them; they follow the other elements. When the site is not
    ``indexable``, robots says ``noindex, nofollow`` whatever the page set.
    ``og_locales`` is :func:`og_locale` or the app's table of it
    (:class:`~flask_marmeon.head.locales.OgLocales`).
    """
    out = _Builder(policy)
    elements = out.elements
    title = merged.title
    description = merged.description
    if title is not None:
        template = merged.title_template
        elements.append(
            (
                TITLE,
                template.replace("%s", title) if template is not None else title,
                None,
            )
        )
    if description is not None:
        elements.append((DESCRIPTION, description, None))

    # The page's own addresses, unless it has none (an error page on a
    # localized URL has no canonical_path, and no hreflang either).
    localized = page if page is not None and page.locale is not None else None
    own = localized if localized is not None and localized.canonical_path else None
    if merged.canonical is not None:
        out.url(CANONICAL, merged.canonical)
    elif own is not None and own.canonical_path is not None:
        out.url(CANONICAL_PAGE, clean_url(own.canonical_path))

    content = robots_content(merged.robots, indexable=indexable)
    if content is not None:
        elements.append((ROBOTS, content, None))

    if own is not None:
        for hreflang, path in own.hreflang_paths:
            out.url(HREFLANG, clean_url(path), clean_text(hreflang))

    og = merged.open_graph
    if og is not None:
        _open_graph(out, og, title, description, localized, og_locales)

    tw: Mapping[str, Any] | None = merged.twitter
    if tw is not None:
        for key, slot in _TWITTER_FIRST:
            value = tw.get(key)
            if value is not None:
                elements.append((slot, value, None))
        tw_title = tw.get("title", title)
        if tw_title is not None:
            elements.append((_TWITTER_TITLE, tw_title, None))
        tw_description = tw.get("description", description)
        if tw_description is not None:
            elements.append((_TWITTER_DESCRIPTION, tw_description, None))
        tw_image: Image | None = tw.get("image")
        if tw_image is not None:
            out.url(_TWITTER_IMAGE, tw_image.url)
            if tw_image.alt is not None:
                out.follow(_TWITTER_IMAGE_ALT, tw_image.alt)
    for block in json_ld:
        elements.append((JSON_LD, block, None))
    return ResolvedHead(out.elements, out.missing, out.left_out)


def _open_graph(
    out: _Builder,
    og: Mapping[str, Any],
    title: str | None,
    description: str | None,
    localized: Page | None,
    og_locales: Callable[[str], str],
) -> None:
    """Add the og:* and article:* elements."""
    elements = out.elements
    og_title = og.get("title", title)
    if og_title is not None:
        elements.append((_OG_TITLE, og_title, None))
    og_description = og.get("description", description)
    if og_description is not None:
        elements.append((_OG_DESCRIPTION, og_description, None))
    og_type = og.get("type")
    if og_type is not None:
        elements.append((_OG_TYPE, og_type, None))
    url = og.get("url")
    if url is not None:
        out.url(_OG_URL, url)
    site_name = og.get("site_name")
    if site_name is not None:
        elements.append((_OG_SITE_NAME, site_name, None))
    locale = og.get("locale")
    if locale is None and localized is not None and localized.locale is not None:
        locale = og_locales(localized.locale)
    if locale is not None:
        elements.append((_OG_LOCALE, locale, None))
    if localized is not None:
        # The page's other languages: those it exists in (its hreflang).
        for hreflang, _ in localized.hreflang_paths:
            if hreflang != "x-default" and hreflang != localized.locale:
                elements.append((_OG_LOCALE_ALTERNATE, og_locales(hreflang), None))
    image: Image | None = og.get("image")
    if image is not None:
        # Unpacked at once: a named tuple's fields are read the slow way.
        image_url, width, height, alt, media_type = image
        out.url(_OG_IMAGE, image_url)
        if width is not None:
            out.follow(_OG_IMAGE_WIDTH, str(width))
        if height is not None:
            out.follow(_OG_IMAGE_HEIGHT, str(height))
        if media_type is not None:
            out.follow(_OG_IMAGE_TYPE, media_type)
        if alt is not None:
            out.follow(_OG_IMAGE_ALT, alt)
    article: Mapping[str, Any] | None = og.get("article")
    if og_type == "article" and article is not None:
        if "published_time" in article:
            elements.append((_ARTICLE_PUBLISHED_TIME, article["published_time"], None))
        if "modified_time" in article:
            elements.append((_ARTICLE_MODIFIED_TIME, article["modified_time"], None))
        for name in article.get("authors", ()):
            elements.append((_ARTICLE_AUTHOR, name, None))
        for name in article.get("tags", ()):
            elements.append((_ARTICLE_TAG, name, None))
