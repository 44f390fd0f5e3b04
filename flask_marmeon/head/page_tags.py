"""The checks, records and writers of the rest of a page's head: icons,
theme color, manifest, feeds, verification, ``other`` names, og's
``product``. :mod:`.table` declares the keys with them (the one declaration
of the fields); they are made here only so that the table stays short.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from .elements import link, meta
from .field_kinds import ChoiceField, ObjectField, RecordField, UrlField
from .page_tag_kinds import (
    AmountField,
    CurrencyField,
    LineField,
    NamesField,
    PriceField,
)
from .page_tag_kinds import Price as ProductAmount
from .types import (
    Feed,
    Icon,
    ProductPrice,
    ThemeColor,
)
from .writers import Href, Tags


class IconLink(NamedTuple):
    """An icon after validation (the keys of :class:`~.types.Icon`)."""

    url: str
    rel: str | None = None
    type: str | None = None
    sizes: str | None = None
    media: str | None = None
    color: str | None = None


class ThemeColorMeta(NamedTuple):
    """A theme color after validation."""

    color: str
    media: str | None = None


class FeedLink(NamedTuple):
    """A feed after validation."""

    url: str
    type: str
    title: str | None = None


_ICON_RELS = ("icon", "apple-touch-icon", "mask-icon")
_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/feed+json")
_AVAILABILITY = (
    "in stock",
    "out of stock",
    "preorder",
    "backorder",
    "available for order",
    "discontinued",
    "pending",
)


def _color_on_mask_icon(record: Any, path: str) -> None:
    if record.color is not None and record.rel != "mask-icon":
        raise ValueError(
            f"{path} has a color, which only a mask icon takes: add"
            " 'rel': 'mask-icon', or leave the color out."
        )


ICON = ObjectField(
    Icon,
    {
        "url": UrlField(),
        "rel": ChoiceField(*_ICON_RELS),
        "type": LineField(),
        "sizes": LineField(),
        "media": LineField(),
        "color": LineField(),
    },
    required=("url",),
)
ICONS_CHECK = RecordField(ICON, IconLink, many=True, rule=_color_on_mask_icon)
_ICON_EXTRAS = ("type", "sizes", "media", "color")
ICONS_WRITE = Tags(
    {rel: link(rel, "icons", _ICON_EXTRAS) for rel in _ICON_RELS},
    IconLink._fields.index("rel"),
    tuple(IconLink._fields.index(name) for name in _ICON_EXTRAS),
)

THEME_COLOR = ObjectField(
    ThemeColor, {"color": LineField(), "media": LineField()}, required=("color",)
)
THEME_COLOR_CHECK = RecordField(
    THEME_COLOR, ThemeColorMeta, many=True, text=LineField()
)
THEME_COLOR_WRITE = Tags(
    {"": meta("name", "theme-color", extras=("media",))}, None, (1,), url=False
)
MANIFEST_WRITE = Href(link("manifest", "manifest"))

FEED = ObjectField(
    Feed,
    {"url": UrlField(), "type": ChoiceField(*_FEED_TYPES), "title": LineField()},
    required=("url", "type"),
)
FEEDS_CHECK = RecordField(FEED, FeedLink, many=True, text=None)
FEEDS_WRITE = Tags(
    {kind: link("alternate", "feeds", ("title",), type=kind) for kind in _FEED_TYPES},
    FeedLink._fields.index("type"),
    (FeedLink._fields.index("title"),),
)

#: verification's keys and the meta names they are written as.
VERIFICATION_NAMES = {
    "google": "google-site-verification",
    "bing": "msvalidate.01",
    "yandex": "yandex-verification",
    "pinterest": "p:domain_verify",
    "facebook": "facebook-domain-verification",
}

PRODUCT_PRICE = ObjectField(
    ProductPrice,
    {"amount": AmountField(), "currency": CurrencyField()},
    required=("amount", "currency"),
)


PRICE_CHECK = PriceField(PRODUCT_PRICE)
PRICE_PARTS = ProductAmount._fields
PRODUCT_AVAILABILITY = ChoiceField(*_AVAILABILITY)
PRODUCT_CONDITION = ChoiceField("new", "refurbished", "used")

OTHER_CHECK = NamesField()


def taken_names(keys: Mapping[str, Any]) -> Callable[[str], str | None]:
    """What ``other`` refuses: for a name the head writes itself (any
    ``<meta>`` of ``head()``'s ``keys``, nested tables' included), the
    argument that writes it, else None."""
    names: dict[str, str] = {}
    for name, key in keys.items():
        for slot in getattr(key.write, "slots", ()):
            if slot.tag == "meta" and slot.attrs:
                names.setdefault(slot.attrs[0][1].lower(), name)
    # A namespace the head writes several names of (og:, twitter:,
    # article:, product:, ...) is taken whole; a lone name with a colon
    # (fb:app_id, p:domain_verify) only as itself.
    counts = Counter(name.split(":")[0] for name in names if ":" in name)
    prefixes = {
        name.split(":")[0] + ":": use
        for name, use in names.items()
        if ":" in name and counts[name.split(":")[0]] > 1
    }

    def taken(name: str) -> str | None:
        lower = name.strip().lower()
        use = names.get(lower)
        if use is None and ":" in lower:
            use = prefixes.get(lower.split(":")[0] + ":")
        return use

    return taken
