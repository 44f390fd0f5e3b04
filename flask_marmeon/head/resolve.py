"""From the merged head to the elements of the page, in output order.

This step applies the defaults of the specification (og/twitter title and
description from the page's, og:locale from the page's locale, the canonical
and hreflang addresses of a localized page) and orders the elements. URLs
are still the raw values the app gave (or the page's own paths): the URL
policy runs after, so that the browser data can carry them raw.

An element is a plain tuple ``(slot, value, group, extra)``, because
``render_head()`` runs on every request and makes a few dozen of them:

- ``slot``: a constant :class:`Slot` saying which tag and attributes;
- ``value``: the one text that varies (an attribute's value, or the text of
  a title or script);
- ``group``: ties an element with a URL to the elements that go with it (an
  image's size and alt), which are left out with it; None for the others;
- ``extra``: the value of ``slot.extra_attr`` (the hreflang of a link).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..page import Page
from .fields import Image, clean_text, clean_url
from .merge import MergedHead


@dataclass(frozen=True, eq=False)
class Slot:
    """The constant part of an element: its tag and fixed attributes.

    Slots are compared and hashed by identity: there is one of each.
    """

    tag: str
    #: Fixed attributes, in output order, before the varying ones.
    attrs: tuple[tuple[str, str], ...] = ()
    #: The attribute holding the value; None when the value is the text.
    value_attr: str | None = None
    #: For a URL: the field's name in warnings and in the browser data.
    field: str | None = None
    #: The URL is the page's own address (default canonical, hreflang).
    from_page: bool = False
    #: A second varying attribute, between ``attrs`` and ``value_attr``.
    extra_attr: str | None = None

    @property
    def is_url(self) -> bool:
        """Whether the value is a URL for the policy to decide on."""
        return self.field is not None


Element = tuple[Slot, str, "int | None", "str | None"]


def _meta(kind: str, key: str, field: str | None = None) -> Slot:
    return Slot("meta", ((kind, key),), "content", field)


TITLE = Slot("title")
DESCRIPTION = _meta("name", "description")
ROBOTS = _meta("name", "robots")
CANONICAL = Slot("link", (("rel", "canonical"),), "href", "canonical")
CANONICAL_PAGE = Slot(
    "link", (("rel", "canonical"),), "href", "canonical", from_page=True
)
HREFLANG = Slot(
    "link",
    (("rel", "alternate"),),
    "href",
    "hreflang",
    from_page=True,
    extra_attr="hreflang",
)
OG: Mapping[str, Slot] = {
    name: _meta("property", name, field)
    for name, field in (
        ("og:title", None),
        ("og:description", None),
        ("og:type", None),
        ("og:url", "open_graph.url"),
        ("og:site_name", None),
        ("og:locale", None),
        ("og:locale:alternate", None),
        ("og:image", "open_graph.image"),
        ("og:image:width", None),
        ("og:image:height", None),
        ("og:image:alt", None),
        ("article:published_time", None),
        ("article:modified_time", None),
        ("article:author", None),
        ("article:tag", None),
    )
}
TWITTER: Mapping[str, Slot] = {
    name: _meta("name", name, field)
    for name, field in (
        ("twitter:card", None),
        ("twitter:site", None),
        ("twitter:creator", None),
        ("twitter:title", None),
        ("twitter:description", None),
        ("twitter:image", "twitter.image"),
        ("twitter:image:alt", None),
    )
}
JSON_LD = Slot("script", (("type", "application/ld+json"),))

#: Every slot, for the writers to prepare their constant strings once.
ALL_SLOTS: tuple[Slot, ...] = (
    TITLE,
    DESCRIPTION,
    ROBOTS,
    CANONICAL,
    CANONICAL_PAGE,
    HREFLANG,
    *OG.values(),
    *TWITTER.values(),
    JSON_LD,
)

_OG_TITLE, _OG_DESCRIPTION, _OG_TYPE, _OG_URL = (
    OG["og:title"],
    OG["og:description"],
    OG["og:type"],
    OG["og:url"],
)
_OG_SITE_NAME, _OG_LOCALE, _OG_LOCALE_ALT = (
    OG["og:site_name"],
    OG["og:locale"],
    OG["og:locale:alternate"],
)
_OG_IMAGE = (
    OG["og:image"],
    OG["og:image:width"],
    OG["og:image:height"],
    OG["og:image:alt"],
)
_ARTICLE = (
    OG["article:published_time"],
    OG["article:modified_time"],
    OG["article:author"],
    OG["article:tag"],
)
_TW_FIXED = (
    ("card", TWITTER["twitter:card"]),
    ("site", TWITTER["twitter:site"]),
    ("creator", TWITTER["twitter:creator"]),
)
_TW_TITLE, _TW_DESCRIPTION, _TW_IMAGE, _TW_IMAGE_ALT = (
    TWITTER["twitter:title"],
    TWITTER["twitter:description"],
    TWITTER["twitter:image"],
    TWITTER["twitter:image:alt"],
)


def og_locale(tag: str) -> str:
    """A BCP 47 tag in Open Graph's form: ``de-AT`` -> ``de_AT``."""
    return tag.replace("-", "_")


def robots_content(robots: Mapping[str, bool]) -> str | None:
    """``index``/``noindex`` before ``follow``/``nofollow``; only what is set."""
    parts = []
    index = robots.get("index")
    if index is not None:
        parts.append("index" if index else "noindex")
    follow = robots.get("follow")
    if follow is not None:
        parts.append("follow" if follow else "nofollow")
    return ", ".join(parts) if parts else None


#: robots_content() of each (index, follow), so that it is not built per request.
_ROBOTS: Mapping[tuple[bool | None, bool | None], str | None] = MappingProxyType(
    {
        (index, follow): robots_content(
            {
                key: value
                for key, value in (("index", index), ("follow", follow))
                if value is not None
            }
        )
        for index in (True, False, None)
        for follow in (True, False, None)
    }
)


def resolve(
    merged: MergedHead, page: Page | None, locales: Sequence[str]
) -> list[Element]:
    """Return the head's elements in output order, URLs still raw.

    JSON-LD blocks are not among them: they are written (or refused) by the
    caller and follow these elements.
    """
    out: list[Element] = []
    append = out.append
    group = 0
    title = merged.title
    description = merged.description
    if title is not None:
        template = merged.title_template
        text = template.replace("%s", title) if template is not None else title
        append((TITLE, text, None, None))
    if description is not None:
        append((DESCRIPTION, description, None, None))

    localized = page if page is not None and page.locale is not None else None
    if merged.canonical is not None:
        group += 1
        append((CANONICAL, merged.canonical, group, None))
    elif localized is not None and localized.canonical_path is not None:
        group += 1
        append((CANONICAL_PAGE, clean_url(localized.canonical_path), group, None))

    robots = merged.robots
    if robots is not None:
        content = _ROBOTS.get((robots.get("index"), robots.get("follow")))
        if content is not None:
            append((ROBOTS, content, None, None))

    if localized is not None:
        for hreflang, path in localized.hreflang_paths:
            group += 1
            append((HREFLANG, clean_url(path), group, clean_text(hreflang)))

    og = merged.open_graph
    if og is not None:
        group = _open_graph(og, title, description, localized, locales, group, out)

    tw: Mapping[str, Any] | None = merged.twitter
    if tw is not None:
        for key, slot in _TW_FIXED:
            value = tw.get(key)
            if value is not None:
                append((slot, value, None, None))
        tw_title = tw.get("title", title)
        if tw_title is not None:
            append((_TW_TITLE, tw_title, None, None))
        tw_description = tw.get("description", description)
        if tw_description is not None:
            append((_TW_DESCRIPTION, tw_description, None, None))
        tw_image: Image | None = tw.get("image")
        if tw_image is not None:
            group += 1
            append((_TW_IMAGE, tw_image.url, group, None))
            if tw_image.alt is not None:
                append((_TW_IMAGE_ALT, tw_image.alt, group, None))
    return out


def _open_graph(
    og: Mapping[str, Any],
    title: str | None,
    description: str | None,
    localized: Page | None,
    locales: Sequence[str],
    group: int,
    out: list[Element],
) -> int:
    """Append the og:* and article:* elements; return the last group used."""
    append = out.append
    og_title = og.get("title", title)
    if og_title is not None:
        append((_OG_TITLE, og_title, None, None))
    og_description = og.get("description", description)
    if og_description is not None:
        append((_OG_DESCRIPTION, og_description, None, None))
    og_type = og.get("type")
    if og_type is not None:
        append((_OG_TYPE, og_type, None, None))
    url = og.get("url")
    if url is not None:
        group += 1
        append((_OG_URL, url, group, None))
    site_name = og.get("site_name")
    if site_name is not None:
        append((_OG_SITE_NAME, site_name, None, None))
    locale = og.get("locale")
    if locale is None and localized is not None:
        locale = og_locale(localized.locale or "")
    if locale is not None:
        append((_OG_LOCALE, locale, None, None))
    if localized is not None:
        for other in locales:
            if other != localized.locale:
                append((_OG_LOCALE_ALT, og_locale(other), None, None))
    image: Image | None = og.get("image")
    if image is not None:
        group += 1
        image_slot, width_slot, height_slot, alt_slot = _OG_IMAGE
        append((image_slot, image.url, group, None))
        if image.width is not None:
            append((width_slot, str(image.width), group, None))
        if image.height is not None:
            append((height_slot, str(image.height), group, None))
        if image.alt is not None:
            append((alt_slot, image.alt, group, None))
    article: Mapping[str, Any] | None = og.get("article")
    if og_type == "article" and article is not None:
        published, modified, author, tag = _ARTICLE
        if "published_time" in article:
            append((published, article["published_time"], None, None))
        if "modified_time" in article:
            append((modified, article["modified_time"], None, None))
        for name in article.get("authors", ()):
            append((author, name, None, None))
        for name in article.get("tags", ()):
            append((tag, name, None, None))
    return group
