"""The types of ``head()``'s arguments, for editors and type checkers.

The head's one declaration of its fields is :mod:`flask_marmeon.head.table`
(each field's check, merge and writing); these TypedDicts are the same
fields for mypy, which cannot read a table made at run time.
``tests/head/test_table.py`` keeps the two equal, key by key and type by type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Literal, Protocol, TypeAlias, TypedDict, Union

from .og_image import OgImage


class HtmlText(Protocol):
    """Text that knows how to show itself, such as Flask-Babel's ``lazy_gettext``."""

    def __html__(self) -> str: ...


#: Text: a ``str`` (``Markup`` too), or a lazy string (Flask-Babel's
#: ``lazy_gettext``), turned into text when ``head()`` is called.
Text: TypeAlias = Union[str, HtmlText]  # noqa: UP007 (a runtime value)

#: A value inside a JSON-LD block: what JSON writes exactly.
JsonLdValue: TypeAlias = Union[  # noqa: UP007 (recursive, so not X | Y)
    str,
    int,
    float,
    bool,
    None,
    Sequence["JsonLdValue"],
    Mapping[str, "JsonLdValue"],
]

#: A JSON-LD node you build on its own: ``{"@type": "Person", "name": ...}``.
JsonLdNode: TypeAlias = Mapping[str, JsonLdValue]

#: A whole ``@graph`` block, whose nodes link to each other by their ``@id``.
JsonLdGraph = TypedDict(
    "JsonLdGraph",
    {"@context": JsonLdValue, "@graph": Sequence[JsonLdNode]},
    total=False,
)
JsonLdGraph.__doc__ = """A whole ``@graph`` block, nodes linked by their ``@id``.

Its keys start with ``@``, so it is spelled in TypedDict's call form.
"""

#: What ``json_ld=`` takes: one block, or a list of blocks.
JsonLd: TypeAlias = Union[  # noqa: UP007 (a runtime value)
    JsonLdNode, JsonLdGraph, Sequence[Union[JsonLdNode, JsonLdGraph]]  # noqa: UP007
]


class Robots(TypedDict, total=False):
    """``robots=``: only what is set is written (``{"index": False}`` -> noindex).

    Google's directives follow ``index``/``follow``: ``max_image_preview``
    (``"none"``, ``"standard"``, ``"large"``), ``max_snippet`` and
    ``max_video_preview`` (-1 for no limit), ``nosnippet`` and
    ``noimageindex`` (written when True), ``unavailable_after`` (a datetime
    with a time zone).
    """

    index: bool | None
    follow: bool | None
    max_image_preview: Literal["none", "standard", "large"] | None
    max_snippet: int | None
    max_video_preview: int | None
    nosnippet: bool | None
    noimageindex: bool | None
    unavailable_after: datetime | None


class _Url(TypedDict):
    """The key required of an image, a video, an audio, an icon, a feed."""

    url: Text


class OpenGraphImage(_Url, total=False):
    """``open_graph={"image": {...}}``: an image with its size and alt text."""

    width: int | None
    height: int | None
    alt: Text | None


class TwitterImage(_Url, total=False):
    """``twitter={"image": {...}}``: an image with its alt text."""

    alt: Text | None


class OpenGraphVideo(_Url, total=False):
    """``open_graph={"video": {...}}``: ``og:video`` and its properties."""

    secure_url: Text | None
    type: Text | None
    width: int | None
    height: int | None


class OpenGraphAudio(_Url, total=False):
    """``open_graph={"audio": {...}}``: ``og:audio`` and its properties."""

    secure_url: Text | None
    type: Text | None


class OpenGraphArticle(TypedDict, total=False):
    """``open_graph={"article": {...}}``: written only for type ``"article"``."""

    published_time: date | str | None
    modified_time: date | str | None
    authors: Sequence[Text] | None
    tags: Sequence[Text] | None


class OpenGraphBook(TypedDict, total=False):
    """``open_graph={"book": {...}}``: written only for type ``"book"``."""

    authors: Sequence[Text] | None
    isbn: Text | None
    release_date: date | str | None
    tags: Sequence[Text] | None


class OpenGraphProfile(TypedDict, total=False):
    """``open_graph={"profile": {...}}``: written only for type ``"profile"``."""

    first_name: Text | None
    last_name: Text | None
    username: Text | None
    gender: Literal["male", "female"] | None


class _ProductPriceAmount(TypedDict):
    amount: Decimal | int | Text


class ProductPrice(_ProductPriceAmount):
    """``open_graph={"product": {"price": {...}}}``: an amount and its currency."""

    currency: Text


class OpenGraphProduct(TypedDict, total=False):
    """``open_graph={"product": {...}}``: written only for type ``"product"``."""

    price: ProductPrice | None
    availability: (
        Literal[
            "in stock",
            "out of stock",
            "preorder",
            "backorder",
            "available for order",
            "discontinued",
            "pending",
        ]
        | None
    )
    condition: Literal["new", "refurbished", "used"] | None
    brand: Text | None
    retailer_item_id: Text | None


class OpenGraph(TypedDict, total=False):
    """``open_graph=``: the ``og:*`` tags, merged key by key over layouts.

    ``image``, ``video`` and ``audio`` take one value or a list, each a URL
    or a dict, and are replaced whole by a later call; ``article``, ``book``
    and ``profile`` merge key by key.
    """

    title: Text | None
    description: Text | None
    type: Literal["website", "article", "book", "profile", "product"] | None
    url: Text | None
    site_name: Text | None
    locale: Text | None
    image: (
        Text
        | OpenGraphImage
        | OgImage
        | Sequence[Text | OpenGraphImage | OgImage]
        | None
    )
    video: Text | OpenGraphVideo | Sequence[Text | OpenGraphVideo] | None
    audio: Text | OpenGraphAudio | Sequence[Text | OpenGraphAudio] | None
    article: OpenGraphArticle | None
    book: OpenGraphBook | None
    profile: OpenGraphProfile | None
    product: OpenGraphProduct | None


class Twitter(TypedDict, total=False):
    """``twitter=``: the ``twitter:*`` tags, merged key by key over layouts."""

    card: Literal["summary", "summary_large_image"] | None
    site: Text | None
    creator: Text | None
    title: Text | None
    description: Text | None
    image: Text | TwitterImage | OgImage | None


class Icon(_Url, total=False):
    """``icons=[{...}]``: ``<link rel="icon">`` (or ``apple-touch-icon``,
    ``mask-icon``, whose ``color`` is its own)."""

    rel: Literal["icon", "apple-touch-icon", "mask-icon"] | None
    type: Text | None
    sizes: Text | None
    media: Text | None
    color: Text | None


class _ThemeColorColor(TypedDict):
    color: Text


class ThemeColor(_ThemeColorColor, total=False):
    """``theme_color=[{...}]``: a color for the pages that match ``media``."""

    media: Text | None


class _FeedUrl(_Url):
    type: Literal[
        "application/rss+xml", "application/atom+xml", "application/feed+json"
    ]


class Feed(_FeedUrl, total=False):
    """``feeds=[{...}]``: ``<link rel="alternate">`` to an RSS, Atom or JSON feed."""

    title: Text | None


class Verification(TypedDict, total=False):
    """``verification=``: each search engine's or site's proof of ownership,
    a text or a list of texts (one ``<meta>`` each)."""

    google: Text | Sequence[Text] | None
    bing: Text | Sequence[Text] | None
    yandex: Text | Sequence[Text] | None
    pinterest: Text | Sequence[Text] | None
    facebook: Text | Sequence[Text] | None


class Facebook(TypedDict, total=False):
    """``facebook=``: ``fb:app_id``."""

    app_id: Text | None


class HeadFields(TypedDict, total=False):
    """The keyword arguments of :func:`~flask_marmeon.head`: ``head(**fields)``."""

    title: Text | None
    title_template: Text | None
    description: Text | None
    canonical: Text | None
    robots: Robots | None
    icons: Text | Icon | Sequence[Text | Icon] | None
    theme_color: Text | ThemeColor | Sequence[Text | ThemeColor] | None
    manifest: Text | None
    feeds: Feed | Sequence[Feed] | None
    verification: Verification | None
    other: Mapping[str, Text | Sequence[Text]] | None
    facebook: Facebook | None
    open_graph: OpenGraph | None
    twitter: Twitter | None
    json_ld: JsonLd | None
