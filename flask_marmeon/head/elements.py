"""The head's elements: a constant :class:`Slot` and the values that vary.

A resolved head (:mod:`flask_marmeon.head.resolve`) is one list of
:data:`Element`: a slot (which tag, which fixed attributes, which attribute
holds the value) and the final value, already decided on by the URL policy.
The slots of the fields' own tags are made by their writers; these are the
ones outside them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    #: Optional varying attributes after ``value_attr`` (an icon's ``type``,
    #: ``sizes``, ``media``): the element's extra is then a tuple of their
    #: values in this order, None for one left out.
    extras: tuple[str, ...] = ()

    def attributes(self, value: str, extra: Extra) -> dict[str, str]:
        """Every attribute in output order (for the browser data)."""
        out = dict(self.attrs)
        if self.extra_attr is not None and type(extra) is str:
            out[self.extra_attr] = extra
        if self.value_attr is not None:
            out[self.value_attr] = value
        if type(extra) is tuple:
            for name, item in zip(self.extras, extra, strict=True):
                if item is not None:
                    out[name] = item
        return out


#: An element's varying attributes besides its value: the value of
#: ``slot.extra_attr`` (the hreflang of a link), a tuple of the values of
#: ``slot.extras``, or None.
Extra: TypeAlias = "str | tuple[str | None, ...] | None"

#: One managed element: its slot, its value (an attribute's or the text), and
#: its :data:`Extra`. A plain tuple: a page makes a few dozen per request.
Element: TypeAlias = "tuple[Slot, str, Extra]"


def meta(
    kind: str, key: str, field: str | None = None, extras: tuple[str, ...] = ()
) -> Slot:
    """A ``<meta kind="key" content="...">`` slot; ``field`` names a URL's
    field (``open_graph.image``) for warnings and the browser data."""
    return Slot("meta", ((kind, key),), "content", field, extras=extras)


def link(rel: str, field: str, extras: tuple[str, ...] = (), **fixed: str) -> Slot:
    """A ``<link rel="rel" ... href="...">`` slot for a URL of ``field``;
    ``fixed`` attributes follow ``rel`` (a feed's ``type``)."""
    return Slot("link", (("rel", rel), *fixed.items()), "href", field, extras=extras)


TITLE = Slot("title")
ROBOTS = meta("name", "robots")
CANONICAL = Slot("link", (("rel", "canonical"),), "href", "canonical")
CANONICAL_PAGE = replace(CANONICAL, from_page=True)
HREFLANG = Slot(
    "link",
    (("rel", "alternate"),),
    "href",
    "hreflang",
    from_page=True,
    extra_attr="hreflang",
)


class PageAddress(str):
    """A canonical that is the page's own address (its Page's, the default
    canonical), not the app's: written with :data:`CANONICAL_PAGE`."""

    __slots__ = ()


#: A JSON-LD block: the value is its JSON, safe inside <script> already.
JSON_LD = Slot("script", (("type", "application/ld+json"),))
