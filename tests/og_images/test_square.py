"""A Twitter ``summary`` card gets a square generated image of its own
(X and Slack crop it square); og:image stays 1200x630."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from PIL import Image

from flask_marmeon import OgImageCard

from .conftest import image_of, page, png

TITLE = "How we cut our build times in half with a shared cache"


def card_page(app: Flask, card: str) -> dict[str, list[str]]:
    """The meta tags of a page with TITLE, a site name and a Twitter ``card``."""
    return page(
        app, title=TITLE, open_graph={"site_name": "Notes"}, twitter={"card": card}
    )


def test_a_summary_card_gets_a_square_image_of_its_own(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    metas = card_page(app, "summary")
    assert metas["og:image"] != metas["twitter:image"]
    assert image_of(app, metas, "og:image").size == (1200, 630)
    assert (metas["og:image:width"], metas["og:image:height"]) == (["1200"], ["630"])
    square = image_of(app, metas, "twitter:image")
    assert square.size == (630, 630)
    assert metas["twitter:image:alt"] == [TITLE]
    # The title is drawn whole, in the title's color, across the card.
    colors = square.convert("RGB").getcolors(1 << 20) or []
    assert sum(n for n, color in colors if color == (248, 250, 252)) > 4000


def test_a_large_image_card_shares_the_wide_image(
    og_app: Callable[..., Flask],
) -> None:
    app = og_app()
    metas = card_page(app, "summary_large_image")
    assert metas["og:image"] == metas["twitter:image"]
    assert image_of(app, metas, "twitter:image").size == (1200, 630)


def test_the_apps_drawing_function_is_asked_for_a_square(
    og_app: Callable[..., Flask],
) -> None:
    asked: list[tuple[int, int]] = []

    def draw(card: OgImageCard) -> Any:
        asked.append((card.width, card.height))
        return Image.new("RGB", (card.width, card.height), card.colors.background)

    app = og_app(MARMEON_OG_IMAGE_DRAW=draw)
    metas = page(app, title=TITLE, twitter={"card": "summary"})
    assert image_of(app, metas, "twitter:image").size == (630, 630)
    assert (630, 630) in asked


def test_a_square_image_of_another_look_moves_to_the_current_square_one(
    og_app: Callable[..., Flask],
) -> None:
    [old] = card_page(og_app(), "summary")["twitter:image"]
    restyled = og_app(MARMEON_OG_IMAGE_COLORS={"background": "#ffffff"})
    client = restyled.test_client()
    moved = client.get(urlsplit(old).path)
    assert moved.status_code == 301
    assert [moved.headers["Location"]] == card_page(restyled, "summary")[
        "twitter:image"
    ]
    assert png(client.get(urlsplit(moved.headers["Location"]).path).data).size == (
        630,
        630,
    )
