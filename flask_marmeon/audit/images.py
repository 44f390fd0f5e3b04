"""Link-preview images: fetched once each through the app, measured by Pillow.

Declared sizes (``og:image:width`` / ``og:image:height``) are compared with
the image's own, read from its header by Pillow; the card minimums are those
the platforms document, declared with the code ``image-too-small``.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass

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


class Images:
    """Fetches each image URL once per audit."""

    def __init__(self, fetcher: Fetcher) -> None:
        self.fetcher = fetcher
        self.seen: dict[str, ImageInfo | None] = {}

    def __call__(self, url: str) -> ImageInfo | None:
        if url not in self.seen:
            self.seen[url] = self._look(url)
        return self.seen[url]

    def _look(self, url: str) -> ImageInfo | None:
        answer = self.fetcher.get(url)
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
            last = found[-1]
            if last.key.startswith("og:"):
                side = "width" if key.endswith("width") else "height"
                found[-1] = Declared(
                    last.key,
                    last.url,
                    value if side == "width" else last.width,
                    value if side == "height" else last.height,
                )
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
                "image-not-absolute",
                url,
                f"{item.key} is {excerpt(item.url)}; link previews need an absolute"
                " http(s) URL.",
            )
            continue
        info = images(item.url)
        if info is None:
            continue  # another origin: not fetched
        if info.status != 200 or info.size is None:
            what = (
                f"answers {info.status}"
                if info.status != 200
                else f"is {info.mimetype or 'no type'}, not an image Pillow can read"
            )
            yield finding(
                "image-status",
                item.url,
                f"The {item.key} {what}: a preview shows no picture.",
            )
            continue
        width, height = info.size
        if (item.width is not None and item.width != str(width)) or (
            item.height is not None and item.height != str(height)
        ):
            yield finding(
                "image-size-mismatch",
                item.url,
                f"og:image:width/height say {quoted(str(item.width))}x"
                f"{quoted(str(item.height))}, the image"
                f" is {width}x{height}.",
            )
        if item.key.startswith("og:") and (width < OG_MIN[0] or height < OG_MIN[1]):
            yield finding(
                "image-too-small",
                item.url,
                f"The og:image is {width}x{height}; Facebook and LinkedIn want at"
                f" least {OG_MIN[0]}x{OG_MIN[1]} (1200x630 for a large card).",
            )
        if item is card_image and card in CARD_MIN:
            low = CARD_MIN[card]
            if width < low[0] or height < low[1]:
                yield finding(
                    "image-too-small",
                    item.url,
                    f"The image is {width}x{height}; an X {card} card needs at"
                    f" least {low[0]}x{low[1]}.",
                )
