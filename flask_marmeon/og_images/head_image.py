"""What the head writes for a generated image: its address, size, type, alt.

The head asks here for each ``OgImage`` a page gives, and, with
``MARMEON_OG_IMAGES`` on, for each of ``open_graph`` and ``twitter`` that
a page sets without an image. The answer is remembered per texts (generator.py),
so a page written again costs a dictionary look-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask

from ..head.og_image import OgImage, check_secret_key
from .canvas import HEIGHT, MIMETYPE, SQUARE_SIZE, WIDTH
from .generator import image_path
from .state import og_images_of

#: What ``MARMEON_OG_IMAGES`` gives a page that names no image.
AUTOMATIC = OgImage()


@dataclass(frozen=True)
class HeadImage:
    """A generated image as the head names it."""

    #: The path below APP_URL's origin: the mount path, then the image's.
    url: str
    alt: str | None
    width: int = WIDTH
    height: int = HEIGHT
    type: str = MIMETYPE


def enabled(app: Flask) -> bool:
    """Whether pages without an image get a generated one."""
    return og_images_of(app).look.enabled


def head_image(
    app: Flask,
    root: str,
    value: OgImage,
    *,
    title: str | None,
    description: str | None,
    site_name: str | None,
    page_path: str,
    square: bool = False,
) -> HeadImage | None:
    """The generated image for ``value``; the page's texts fill what it
    leaves out. ``square``: the 630x630 card of a Twitter ``summary``.
    None when it cannot be drawn (logged)."""
    check_secret_key(app)
    shown = value.title if value.title is not None else (title or "")
    texts = (
        shown,
        value.description if value.description is not None else (description or ""),
        value.subtitle if value.subtitle is not None else (site_name or ""),
    )
    path = image_path(
        og_images_of(app), app.secret_key, texts, page_path=page_path, square=square
    )
    if path is None:
        return None
    alt = value.alt if value.alt is not None else (shown or site_name or None)
    if square:
        return HeadImage(root + path, alt, SQUARE_SIZE, SQUARE_SIZE)
    return HeadImage(root + path, alt)
