"""The types of ``head()``'s arguments, for editors and type checkers.

:data:`flask_marmeon.head.schema.SCHEMA` is the same description for the
running code; ``tests/head/test_fields.py`` keeps the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Literal, Protocol, TypeAlias, TypedDict, Union

from ..og_images.value import OgImage


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


class _OpenGraphImageUrl(TypedDict):
    url: Text


class OpenGraphImage(_OpenGraphImageUrl, total=False):
    """``open_graph={"image": {...}}``: an image with its size and alt text."""

    width: int | None
    height: int | None
    alt: Text | None


class _TwitterImageUrl(TypedDict):
    url: Text


class TwitterImage(_TwitterImageUrl, total=False):
    """``twitter={"image": {...}}``: an image with its alt text."""

    alt: Text | None


class OpenGraphArticle(TypedDict, total=False):
    """``open_graph={"article": {...}}``: written only for type ``"article"``."""

    published_time: date | str | None
    modified_time: date | str | None
    authors: Sequence[Text] | None
    tags: Sequence[Text] | None


class OpenGraph(TypedDict, total=False):
    """``open_graph=``: the ``og:*`` tags, merged key by key over layouts."""

    title: Text | None
    description: Text | None
    type: Literal["website", "article", "profile"] | None
    url: Text | None
    site_name: Text | None
    locale: Text | None
    image: Text | OpenGraphImage | OgImage | None
    article: OpenGraphArticle | None


class Twitter(TypedDict, total=False):
    """``twitter=``: the ``twitter:*`` tags, merged key by key over layouts."""

    card: Literal["summary", "summary_large_image"] | None
    site: Text | None
    creator: Text | None
    title: Text | None
    description: Text | None
    image: Text | TwitterImage | OgImage | None
