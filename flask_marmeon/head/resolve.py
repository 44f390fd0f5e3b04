"""From the merged head to the elements of the page, in output order.

This step applies the defaults of the specification (og/twitter title and
description from the page's, og:locale from the page's locale, the canonical
and hreflang addresses of a localized page) and orders the elements. URLs
are still the raw values the app gave (or the page's own paths): the URL
policy runs after, so that the browser data can carry them raw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..page import Page
from .fields import Image
from .merge import MergedHead


class Element(NamedTuple):
    """One element of the head.

    ``attrs`` are in output order. When ``url_attr`` is set, that attribute
    holds a raw URL which the URL policy decides on; ``group`` ties the
    elements that go with it (an image's size and alt), which are left out
    with it. ``block`` is a JSON-LD block, written by the caller.
    """

    tag: str
    attrs: tuple[tuple[str, str], ...]
    text: str | None = None
    url_attr: str | None = None
    field: str | None = None
    group: int | None = None
    block: Any = None
    #: The URL is the page's own (default canonical, hreflang), not the app's.
    from_page: bool = False


def og_locale(tag: str) -> str:
    """A BCP 47 tag in Open Graph's form: ``de-AT`` -> ``de_AT``."""
    return tag.replace("-", "_")


def robots_content(robots: Any) -> str | None:
    """``index``/``noindex`` before ``follow``/``nofollow``; only what is set."""
    parts = []
    index = robots.get("index")
    if index is not None:
        parts.append("index" if index else "noindex")
    follow = robots.get("follow")
    if follow is not None:
        parts.append("follow" if follow else "nofollow")
    return ", ".join(parts) if parts else None


def resolve(
    merged: MergedHead, page: Page | None, locales: Sequence[str]
) -> list[Element]:
    """Return the head's elements in output order, URLs still raw."""
    out: list[Element] = []
    append = out.append
    group = 0
    title = merged.title
    description = merged.description
    if title is not None:
        template = merged.title_template
        text = template.replace("%s", title) if template is not None else title
        append(Element("title", (), text))
    if description is not None:
        append(Element("meta", (("name", "description"), ("content", description))))

    localized = page is not None and page.locale is not None
    canonical = merged.canonical
    if canonical is not None:
        group += 1
        append(
            Element(
                "link",
                (("rel", "canonical"), ("href", canonical)),
                url_attr="href",
                field="canonical",
                group=group,
            )
        )
    elif localized and page is not None and page.canonical_path is not None:
        group += 1
        append(
            Element(
                "link",
                (("rel", "canonical"), ("href", page.canonical_path)),
                url_attr="href",
                field="canonical",
                group=group,
                from_page=True,
            )
        )

    if merged.robots is not None:
        content = robots_content(merged.robots)
        if content is not None:
            append(Element("meta", (("name", "robots"), ("content", content))))

    if localized and page is not None:
        for hreflang, path in page.hreflang_paths:
            group += 1
            append(
                Element(
                    "link",
                    (("rel", "alternate"), ("hreflang", hreflang), ("href", path)),
                    url_attr="href",
                    field="hreflang",
                    group=group,
                    from_page=True,
                )
            )

    og = merged.open_graph
    if og is not None:

        def prop(name: str, value: str) -> None:
            append(Element("meta", (("property", name), ("content", value))))

        og_title = og.get("title", title)
        if og_title is not None:
            prop("og:title", og_title)
        og_description = og.get("description", description)
        if og_description is not None:
            prop("og:description", og_description)
        og_type = og.get("type")
        if og_type is not None:
            prop("og:type", og_type)
        url = og.get("url")
        if url is not None:
            group += 1
            append(
                Element(
                    "meta",
                    (("property", "og:url"), ("content", url)),
                    url_attr="content",
                    field="open_graph.url",
                    group=group,
                )
            )
        site_name = og.get("site_name")
        if site_name is not None:
            prop("og:site_name", site_name)
        locale = og.get("locale")
        if locale is None and localized and page is not None:
            locale = og_locale(page.locale or "")
        if locale is not None:
            prop("og:locale", locale)
        if localized and page is not None:
            for other in locales:
                if other != page.locale:
                    prop("og:locale:alternate", og_locale(other))
        image: Image | None = og.get("image")
        if image is not None:
            group += 1
            append(
                Element(
                    "meta",
                    (("property", "og:image"), ("content", image.url)),
                    url_attr="content",
                    field="open_graph.image",
                    group=group,
                )
            )
            for name, value in (
                ("og:image:width", image.width),
                ("og:image:height", image.height),
                ("og:image:alt", image.alt),
            ):
                if value is not None:
                    append(
                        Element(
                            "meta",
                            (("property", name), ("content", str(value))),
                            group=group,
                        )
                    )
        article = og.get("article")
        if og_type == "article" and article is not None:
            for key in ("published_time", "modified_time"):
                if key in article:
                    prop(f"article:{key}", article[key])
            for author in article.get("authors", ()):
                prop("article:author", author)
            for tag in article.get("tags", ()):
                prop("article:tag", tag)

    tw = merged.twitter
    if tw is not None:

        def named(key: str, value: str) -> None:
            append(Element("meta", (("name", key), ("content", value))))

        for key in ("card", "site", "creator"):
            if key in tw:
                named(f"twitter:{key}", tw[key])
        tw_title = tw.get("title", title)
        if tw_title is not None:
            named("twitter:title", tw_title)
        tw_description = tw.get("description", description)
        if tw_description is not None:
            named("twitter:description", tw_description)
        tw_image: Image | None = tw.get("image")
        if tw_image is not None:
            group += 1
            append(
                Element(
                    "meta",
                    (("name", "twitter:image"), ("content", tw_image.url)),
                    url_attr="content",
                    field="twitter.image",
                    group=group,
                )
            )
            if tw_image.alt is not None:
                append(
                    Element(
                        "meta",
                        (("name", "twitter:image:alt"), ("content", tw_image.alt)),
                        group=group,
                    )
                )

    for block in merged.json_ld:
        append(Element("script", (("type", "application/ld+json"),), block=block))
    return out
