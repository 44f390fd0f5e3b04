"""From the merged head to the elements of the page, in output order.

This step applies the defaults of the specification (og/twitter title and
description from the page's, og:locale from the page's locale, the canonical
and hreflang addresses of a localized page) and orders the elements. URLs
are still the raw values the app gave (or the page's own paths): the URL
policy runs after, so that the browser data can carry them raw.

The elements come as two lists, because ``render_head()`` runs on every
request and makes a few dozen of them: their *places* and their *values*.

- a value is the one text that varies (an attribute's value, or the text of
  a title);
- a place is the constant :class:`Slot` saying which tag and attributes, or
  for an element of a group the tuple ``(slot, group, extra)``: the group
  ties an element with a URL to the elements that go with it (an image's
  size and alt), which are left out with it, and ``extra`` is the value of
  ``slot.extra_attr`` (the hreflang of a link) or None.

So a page's places depend on which fields are set, not on their values: the
writer prepares what a list of places is written as once
(:class:`flask_marmeon.head.render.HeadWriter`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Union

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


#: Where an element goes: its slot, or ``(slot, group, extra)`` in a group.
Place = Union[Slot, tuple[Slot, int, "str | None"]]  # noqa: UP007 (a runtime value)


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
    """A BCP 47 tag in Open Graph's form: ``de-AT`` -> ``de_AT``.

    Open Graph spells a locale ``ll_TT`` (``pt_BR``), while BCP 47 tags are
    case-insensitive, so a tag configured as ``pt-br`` is normalized: the
    language in lower case, a two-letter region in upper case.
    """
    language, _, rest = tag.partition("-")
    if not rest:
        return language.lower()
    subtags = [s.upper() if len(s) == 2 else s for s in rest.split("-")]
    return "_".join([language.lower(), *subtags])


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
) -> tuple[list[Place], list[str]]:
    """Return the head's elements in output order, URLs still raw: their
    places and their values (see the module's docstring).

    JSON-LD blocks are not among them: they are written (or refused) by the
    caller and follow these elements.
    """
    places: list[Place] = []
    values: list[str] = []
    place = places.append
    put = values.append
    group = 0
    title = merged.title
    description = merged.description
    if title is not None:
        template = merged.title_template
        place(TITLE)
        put(template.replace("%s", title) if template is not None else title)
    if description is not None:
        place(DESCRIPTION)
        put(description)

    localized = page if page is not None and page.locale is not None else None
    if merged.canonical is not None:
        group += 1
        place((CANONICAL, group, None))
        put(merged.canonical)
    elif localized is not None and localized.canonical_path is not None:
        group += 1
        place((CANONICAL_PAGE, group, None))
        put(clean_url(localized.canonical_path))

    robots = merged.robots
    if robots is not None:
        content = _ROBOTS.get((robots.get("index"), robots.get("follow")))
        if content is not None:
            place(ROBOTS)
            put(content)

    if localized is not None:
        for hreflang, path in localized.hreflang_paths:
            group += 1
            place((HREFLANG, group, clean_text(hreflang)))
            put(clean_url(path))

    og = merged.open_graph
    if og is not None:
        group = _open_graph(
            og, title, description, localized, locales, group, places, values
        )

    tw: Mapping[str, Any] | None = merged.twitter
    if tw is not None:
        for key, slot in _TW_FIXED:
            value = tw.get(key)
            if value is not None:
                place(slot)
                put(value)
        tw_title = tw.get("title", title)
        if tw_title is not None:
            place(_TW_TITLE)
            put(tw_title)
        tw_description = tw.get("description", description)
        if tw_description is not None:
            place(_TW_DESCRIPTION)
            put(tw_description)
        tw_image: Image | None = tw.get("image")
        if tw_image is not None:
            group += 1
            place((_TW_IMAGE, group, None))
            put(tw_image.url)
            if tw_image.alt is not None:
                place((_TW_IMAGE_ALT, group, None))
                put(tw_image.alt)
    return places, values


def _open_graph(
    og: Mapping[str, Any],
    title: str | None,
    description: str | None,
    localized: Page | None,
    locales: Sequence[str],
    group: int,
    places: list[Place],
    values: list[str],
) -> int:
    """Append the og:* and article:* elements; return the last group used."""
    place = places.append
    put = values.append
    og_title = og.get("title", title)
    if og_title is not None:
        place(_OG_TITLE)
        put(og_title)
    og_description = og.get("description", description)
    if og_description is not None:
        place(_OG_DESCRIPTION)
        put(og_description)
    og_type = og.get("type")
    if og_type is not None:
        place(_OG_TYPE)
        put(og_type)
    url = og.get("url")
    if url is not None:
        group += 1
        place((_OG_URL, group, None))
        put(url)
    site_name = og.get("site_name")
    if site_name is not None:
        place(_OG_SITE_NAME)
        put(site_name)
    locale = og.get("locale")
    if locale is None and localized is not None:
        locale = og_locale(localized.locale or "")
    if locale is not None:
        place(_OG_LOCALE)
        put(locale)
    if localized is not None:
        for other in locales:
            if other != localized.locale:
                place(_OG_LOCALE_ALT)
                put(og_locale(other))
    image: Image | None = og.get("image")
    if image is not None:
        group += 1
        image_slot, width_slot, height_slot, alt_slot = _OG_IMAGE
        place((image_slot, group, None))
        put(image.url)
        if image.width is not None:
            place((width_slot, group, None))
            put(str(image.width))
        if image.height is not None:
            place((height_slot, group, None))
            put(str(image.height))
        if image.alt is not None:
            place((alt_slot, group, None))
            put(image.alt)
    article: Mapping[str, Any] | None = og.get("article")
    if og_type == "article" and article is not None:
        published, modified, author, tag = _ARTICLE
        if "published_time" in article:
            place(published)
            put(article["published_time"])
        if "modified_time" in article:
            place(modified)
            put(article["modified_time"])
        for name in article.get("authors", ()):
            place(author)
            put(name)
        for name in article.get("tags", ()):
            place(tag)
            put(name)
    return group
