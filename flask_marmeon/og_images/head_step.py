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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, has_request_context, request

from ..head import roles
from ..head.field_kinds import Image
from ..head.merge import MergedHead
from ..head.og_image import OgImage
from ..head.stages import StageContext, Step
from ..head.table import HEAD, Table
from .head_image import AUTOMATIC, head_image
from .state import OgImagesState


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
        named = head_image(
            app,
            root,
            wanted_image,
            # The card's own title and description, else the page's.
            title=values.get(card.title, merged.get(_TITLE)),
            description=values.get(card.description, merged.get(_DESCRIPTION)),
            site_name=site,
            page_path=request.path,
            square=values.get(card.kind) == "summary",
        )
        image: Any = None
        if named is not None:
            image = Image(named.url, named.width, named.height, named.alt, named.type)
            image = (image,) if card.many else image
        changes[card.name] = _with_image(values, card.image, image)
    return {**merged, **changes}


def _with_image(table: Mapping[str, Any], key: str, image: Any) -> Mapping[str, Any]:
    out = {name: value for name, value in table.items() if name != key}
    if image is not None:
        out[key] = image
    return out
