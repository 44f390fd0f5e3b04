"""Link-preview images: fetched once each through the app, measured by Pillow.

Declared sizes (``og:image:width`` / ``og:image:height``) are compared with
the image's own, read from its header by Pillow; the card minimums are those
the platforms document, declared with the code ``image-too-small``.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ._deps import require
from .document import Document
from .fetch import Fetcher, split_url
from .findings import Finding, excerpt, finding, option, quoted


def _least(name: str) -> tuple[int, int]:
    return option("image-too-small", f"{name}_width"), option(
        "image-too-small", f"{name}_height"
    )


OG_MIN = _least("og")
CARD_MIN = {card: _least(card) for card in ("summary_large_image", "summary")}


@dataclass(frozen=True)
class ImageInfo:
    """What the app answered for an image URL."""

    status: int
    mimetype: str
    #: (width, height) as Pillow reads them, or None when it cannot. The
    #: image itself is not kept: measured, then dropped, so that an audit of
    #: pages of large images does not hold them all.
    size: tuple[int, int] | None


#: Image URL -> what the app answered, or None for another origin.
ImageLookup = Callable[[str], "ImageInfo | None"]


def image_lookup(fetcher: Fetcher) -> ImageLookup:
    """An :data:`ImageLookup` that fetches each image URL once per audit."""

    @functools.cache
    def look(url: str) -> ImageInfo | None:
        answer = fetcher.get(url)
        if answer is None:
            return None
        size = None
        if answer.status == 200 and answer.mimetype.startswith("image/"):
            pil = require("PIL.Image")
            try:
                # open() reads the header only: the size without decoding.
                with pil.open(io.BytesIO(answer.body)) as image:
                    size = (int(image.size[0]), int(image.size[1]))
            except (OSError, ValueError, pil.DecompressionBombError):
                size = None
        return ImageInfo(answer.status, answer.mimetype, size)

    return look


@dataclass(frozen=True)
class Declared:
    """An image URL the head names, with the size it declares."""

    key: str
    url: str
    width: str | None = None
    height: str | None = None


def declared_images(doc: Document) -> list[Declared]:
    """og:image (with its width and height) and twitter:image, in order."""
    found: list[Declared] = []
    for key, value in doc.meta:
        if key in ("og:image", "og:image:url", "twitter:image", "twitter:image:src"):
            found.append(Declared(key, value))
        elif key in ("og:image:width", "og:image:height") and found:
            if found[-1].key.startswith("og:"):
                side = key.rpartition(":")[2]
                found[-1] = replace(found[-1], **{side: value})
    return found


def check_images(url: str, doc: Document, images: ImageLookup) -> Iterator[Finding]:
    """Absolute, answering with an image, of its declared size, big enough."""
    declared = declared_images(doc)
    card = doc.first("twitter:card")
    card_image = next((d for d in declared if d.key.startswith("twitter:")), None)
    card_image = card_image or next(iter(declared), None)
    for item in declared:
        parts = split_url(item.url)
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            yield finding(
                "image-not-absolute", url, key=item.key, url=excerpt(item.url)
            )
            continue
        info = images(item.url)
        if info is None:
            continue  # another origin: not fetched
        size = info.size
        if info.status != 200 or size is None:
            yield finding(
                "image-status",
                item.url,
                "" if info.status != 200 else "image-status/type",
                key=item.key,
                status=info.status,
                type=info.mimetype or "no type",
            )
            continue
        if (item.width is not None and item.width != str(size[0])) or (
            item.height is not None and item.height != str(size[1])
        ):
            width, height = quoted(str(item.width)), quoted(str(item.height))
            yield finding(
                "image-size-mismatch", item.url, width=width, height=height, size=size
            )
        if item.key.startswith("og:") and (size[0] < OG_MIN[0] or size[1] < OG_MIN[1]):
            yield finding("image-too-small", item.url, size=size, low=OG_MIN)
        if item is card_image and card in CARD_MIN:
            low = CARD_MIN[card]
            if size[0] < low[0] or size[1] < low[1]:
                yield finding(
                    "image-too-small",
                    item.url,
                    "image-too-small/card",
                    size=size,
                    low=low,
                    card=card,
                )
