"""Generated images in the head: an ``OgImage``, or none with
``MARMEON_OG_IMAGES`` on, becomes an image with its address, size, type
and alt, from the page's texts.

A step at the head's ``before resolve`` stage (:mod:`flask_marmeon.head.stages`),
registered by ``og_images``' init_app: it runs when a head is written (the
memo keeps the result), and everything after it sees plain images. The cards, and their
image, title, description, site name and kind, are the keys the table
declares so (:mod:`.roles`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, has_request_context, request

from ..head import roles
from ..head.field_kinds import Image
from ..head.merge import MergedHead
from ..head.og_image import OgImage, check_secret_key
from ..head.stages import StageContext, Step
from ..head.table import HEAD, Table
from .canvas import HEIGHT, MIMETYPE, SQUARE_SIZE, WIDTH
from .generator import image_path
from .state import OgImagesState, og_images_of

#: What ``MARMEON_OG_IMAGES`` gives a page that names no image.
AUTOMATIC = OgImage()


@dataclass(frozen=True)
class _Card:
    """A card of head() (``open_graph``, ``twitter``): its keys by role ("":
    it has none of that role)."""

    name: str
    image: str
    #: A list of images (``open_graph``), else one.
    many: bool
    title: str
    description: str
    site_name: str
    kind: str


def _card(name: str, table: Table) -> _Card:
    image = table.named(roles.IMAGE)
    return _Card(
        name,
        image,
        bool(getattr(table.keys[image].check, "many", False)),
        table.named(roles.TITLE),
        table.named(roles.DESCRIPTION),
        table.named(roles.SITE_NAME),
        table.named(roles.CARD_KIND),
    )


_CARDS = tuple(
    _card(name, key.table)
    for name, key in HEAD.keys.items()
    if key.role == roles.CARD and key.table is not None
)
_TITLE, _DESCRIPTION = HEAD.named(roles.TITLE), HEAD.named(roles.DESCRIPTION)


def _wanted(value: object, automatic: bool) -> OgImage | None:
    if type(value) is tuple and len(value) == 1:
        value = value[0]  # a list of one image (open_graph's are lists)
    if type(value) is OgImage:
        return value
    if value is None and automatic:
        return AUTOMATIC
    return None


def generated_images(og: OgImagesState, root: str) -> Step:
    """The head's step for the app whose part is ``og``; ``root``: its mount
    path."""

    def step(merged: MergedHead, context: StageContext) -> MergedHead:
        if not has_request_context():
            return merged
        return with_generated_images(merged, og.look.enabled, root)

    return step


def with_generated_images(merged: MergedHead, automatic: bool, root: str) -> MergedHead:
    """``merged`` with its generated images named (the same head when it
    has none to name). ``automatic``: ``MARMEON_OG_IMAGES`` is on."""
    present = [(c, v) for c in _CARDS if (v := merged.get(c.name)) is not None]
    wanted = [
        (card, values, one)
        for card, values in present
        if (one := _wanted(values.get(card.image), automatic)) is not None
    ]
    if not wanted:
        return merged
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    # The site's name of the card that has one (og:site_name), on every card.
    site = next((v.get(c.site_name) for c, v in present if c.site_name), None)
    changes: dict[str, Any] = {}
    for card, values, wanted_image in wanted:
        # A summary card shows its image square (X and Slack crop it): it
        # gets a square card of its own; the others stay wide.
        image: Any = _image(
            app,
            root,
            wanted_image,
            # The card's own title and description, else the page's.
            title=values.get(card.title, merged.get(_TITLE)),
            description=values.get(card.description, merged.get(_DESCRIPTION)),
            site_name=site,
            square=values.get(card.kind) == "summary",
        )
        if image is not None and card.many:
            image = (image,)
        kept = {name: value for name, value in values.items() if name != card.image}
        changes[card.name] = kept if image is None else {**kept, card.image: image}
    return {**merged, **changes}


def _image(
    app: Flask,
    root: str,
    value: OgImage,
    *,
    title: str | None,
    description: str | None,
    site_name: str | None,
    square: bool,
) -> Image | None:
    """The generated image for ``value`` (its address below APP_URL's
    origin: ``root``, the mount path, then the image's); the page's texts
    fill what it leaves out. ``square``: the 630x630 card of a Twitter
    ``summary``. None when it cannot be drawn (logged)."""
    check_secret_key(app)
    shown = value.title if value.title is not None else (title or "")
    texts = (
        shown,
        value.description if value.description is not None else (description or ""),
        value.subtitle if value.subtitle is not None else (site_name or ""),
    )
    og = og_images_of(app)
    path = image_path(og, app.secret_key, texts, page_path=request.path, square=square)
    if path is None:
        return None
    alt = value.alt if value.alt is not None else (shown or site_name or None)
    width, height = (SQUARE_SIZE, SQUARE_SIZE) if square else (WIDTH, HEIGHT)
    return Image(root + path, width, height, alt, MIMETYPE)
