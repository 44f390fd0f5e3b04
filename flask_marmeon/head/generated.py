"""Generated images in the head: an ``OgImage``, or none with
``MARMEON_OG_IMAGES`` on, becomes an image with its address, size, type
and alt, from the page's texts.

It runs when a head is written (the memo keeps the result), before
resolve: everything after it sees plain images.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request

from ..og_images.head_image import AUTOMATIC, HeadImage, head_image
from ..og_images.og_image import OgImage
from .merge import MergedHead
from .schema import Image


def _wanted(value: object, automatic: bool) -> OgImage | None:
    if type(value) is tuple and len(value) == 1:
        value = value[0]  # a list of one image (open_graph's are lists)
    if type(value) is OgImage:
        return value
    if value is None and automatic:
        return AUTOMATIC
    return None


def with_generated_images(merged: MergedHead, automatic: bool, root: str) -> MergedHead:
    """``merged`` with its generated images named (the same head when it
    has none to name). ``automatic``: ``MARMEON_OG_IMAGES`` is on."""
    og: Mapping[str, Any] | None = merged.get("open_graph")
    tw: Mapping[str, Any] | None = merged.get("twitter")
    if og is None and tw is None:
        return merged
    og_wanted = _wanted(og.get("image"), automatic) if og is not None else None
    tw_wanted = _wanted(tw.get("image"), automatic) if tw is not None else None
    if og_wanted is None and tw_wanted is None:
        return merged
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    site = og.get("site_name") if og is not None else None
    changes: dict[str, Any] = {}
    if og is not None and og_wanted is not None:
        named = _head_image(app, root, og_wanted, og, merged, site)
        image: Any = None
        if named is not None:
            image = (
                Image(named.url, named.width, named.height, named.alt, named.type),
            )
        changes["open_graph"] = _with_image(og, image)
    if tw is not None and tw_wanted is not None:
        # A summary card shows its image square (X and Slack crop it):
        # Twitter gets a square card of its own; og:image stays wide.
        square = tw.get("card") == "summary"
        named = _head_image(app, root, tw_wanted, tw, merged, site, square=square)
        image = Image(named.url, alt=named.alt) if named is not None else None
        changes["twitter"] = _with_image(tw, image)
    return {**merged, **changes}


def _head_image(
    app: Flask,
    root: str,
    wanted: OgImage,
    table: Mapping[str, Any],
    merged: MergedHead,
    site: str | None,
    *,
    square: bool = False,
) -> HeadImage | None:
    # The table's own title and description, else the page's.
    return head_image(
        app,
        root,
        wanted,
        title=table.get("title", merged.get("title")),
        description=table.get("description", merged.get("description")),
        site_name=site,
        page_path=request.path,
        square=square,
    )


def _with_image(table: Mapping[str, Any], image: Any) -> Mapping[str, Any]:
    out = {key: value for key, value in table.items() if key != "image"}
    if image is not None:
        out["image"] = image
    return out
