"""An app's own drawing function."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from flask import Flask
from PIL import Image, ImageDraw

from flask_marmeon.og_images import OgImageCard
from flask_marmeon.og_images.generator import image_path
from flask_marmeon.og_images.state import og_images_of

from .conftest import png


def stripes(card: OgImageCard) -> Image.Image:
    image = Image.new("RGB", (card.width, card.height), (255, 200, 0))
    ImageDraw.Draw(image).text((40, 40), card.title, fill=(0, 0, 0))
    return image


def failing(card: OgImageCard) -> Image.Image:
    raise RuntimeError("the drawing broke")


def path_for(app: Flask, page: str = "/notes/1") -> str | None:
    og = og_images_of(app)
    with app.test_request_context(page):
        return image_path(og, app.secret_key, ("A title", "", "Notes"), page_path=page)


def test_the_apps_function_draws_the_image(og_app: Callable[..., Flask]) -> None:
    app = og_app(MARMEON_OG_IMAGE_DRAW=stripes)
    path = path_for(app)
    assert path is not None
    image = png(app.test_client().get(path).data).convert("RGB")
    assert image.getpixel((600, 600)) == (255, 200, 0)


def test_a_function_that_raises_is_logged_with_the_page_and_no_image(
    og_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = og_app(MARMEON_OG_IMAGE_DRAW=failing)
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        assert path_for(app, "/notes/7") is None
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "/notes/7" in record.getMessage()
    assert record.exc_info is not None


def test_a_function_that_returns_the_wrong_size_is_refused(
    og_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = og_app(MARMEON_OG_IMAGE_DRAW=lambda card: Image.new("RGB", (10, 10)))
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        assert path_for(app) is None
    assert "1200x630" in caplog.text


def test_a_changed_function_is_a_new_address(og_app: Callable[..., Flask]) -> None:
    def other(card: OgImageCard) -> Image.Image:
        return Image.new("RGB", (card.width, card.height), (0, 0, 255))

    assert path_for(og_app(MARMEON_OG_IMAGE_DRAW=stripes)) != path_for(
        og_app(MARMEON_OG_IMAGE_DRAW=other)
    )
