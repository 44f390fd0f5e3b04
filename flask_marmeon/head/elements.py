"""The head's elements: a constant :class:`Slot` and the values that vary.

A resolved head (:mod:`flask_marmeon.head.resolve`) is one list of
:data:`Element`: a slot (which tag, which fixed attributes, which attribute
holds the value) and the final value, already decided on by the URL policy.
The writer (:mod:`flask_marmeon.head.html`) prepares each slot's HTML once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias


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
    #: For a URL: the field's name in development warnings.
    field: str | None = None
    #: The URL is the page's own address (default canonical, hreflang).
    from_page: bool = False
    #: A second varying attribute, between ``attrs`` and ``value_attr``.
    extra_attr: str | None = None

    def attributes(self, value: str, extra: str | None) -> dict[str, str]:
        """Every attribute in output order (for the browser data)."""
        out = dict(self.attrs)
        if self.extra_attr is not None and extra is not None:
            out[self.extra_attr] = extra
        if self.value_attr is not None:
            out[self.value_attr] = value
        return out


#: One managed element: its slot, its value (an attribute's or the text), and
#: the value of ``slot.extra_attr`` (the hreflang of a link) or None. A plain
#: tuple: a page makes a few dozen per request.
Element: TypeAlias = "tuple[Slot, str, str | None]"


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
        ("og:image:type", None),
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
#: A JSON-LD block: the value is its JSON, safe inside <script> already.
JSON_LD = Slot("script", (("type", "application/ld+json"),))

#: Every slot, for the writer to prepare its constant strings once.
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
