"""The default card: 1200x630, every script drawn, no box for a letter."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from flask import Flask
from PIL import Image, ImageChops

from flask_marmeon import Marmeon
from flask_marmeon.og_images.address import texts_of, token_of
from flask_marmeon.og_images.generator import image_path, render_png, signer_of
from flask_marmeon.og_images.state import og_images_of

from .conftest import png


def drawn(
    app: Flask, title: str, description: str = "", site: str = "Notes"
) -> Image.Image:
    og = og_images_of(app)
    with app.test_request_context("/page"):
        path = image_path(
            og, app.secret_key, (title, description, site), page_path="/page"
        )
    assert path is not None
    signer = signer_of(og, app.secret_key)
    assert signer is not None
    texts = texts_of(signer, token_of(path) or "")
    assert texts is not None
    return png(render_png(og, texts))


def ink(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many pixels of ``box`` differ from the background."""
    rgb = image.convert("RGB")
    region = rgb.crop(box)
    background = Image.new("RGB", region.size, rgb.getpixel((5, 5)))  # type: ignore[arg-type]
    diff = ImageChops.difference(region, background).convert("L")
    return sum(diff.histogram()[41:])


@pytest.fixture(scope="module")
def script_app(script_fonts: dict[str, tuple[str, str]]) -> Flask:
    """One app with a font for every script (loading a CJK font's
    characters takes a second: once for the module)."""
    app = Flask("scripts")
    app.config.update(
        APP_URL="https://notes.example",
        SECRET_KEY="a secret",
        MARMEON_OG_IMAGES=True,
        MARMEON_OG_IMAGE_FONTS=script_fonts,
    )
    Marmeon(app)
    return app


TITLES = {
    "latin": "How we cut our build times in half",
    "cyrillic": "Как мы сократили время сборки вдвое",
    "arabic": "كيف خفضنا وقت البناء إلى النصف",
    "hebrew": "איך קיצרנו את זמן הבנייה בחצי",
    "cjk": "共有キャッシュでビルド時間を半分にした方法",
    "devanagari": "हमने बिल्ड का समय आधा कैसे किया",
    "emoji": "Release party 🎉🚀",
}


@pytest.mark.parametrize("script", sorted(TITLES))
def test_every_script_is_drawn_on_a_1200_by_630_png(
    script_app: Flask, script: str
) -> None:
    image = drawn(script_app, TITLES[script], "A description")
    assert image.size == (1200, 630)
    assert ink(image, (0, 150, 1200, 560)) > 2000


def test_a_right_to_left_title_is_set_against_the_right_margin(
    script_app: Flask,
) -> None:
    app = script_app
    rtl = drawn(app, "שלום", site="")
    ltr = drawn(app, "Hello", site="")
    assert ink(rtl, (900, 150, 1120, 560)) > 500
    assert ink(rtl, (80, 150, 600, 560)) == 0
    assert ink(ltr, (80, 150, 600, 560)) > 500
    assert ink(ltr, (700, 150, 1120, 560)) == 0


def test_emoji_are_drawn_in_color(script_app: Flask) -> None:
    image = drawn(script_app, "🍊🍊🍊", site="").convert("RGB")
    red, green, blue = image.crop((80, 150, 600, 560)).split()
    orange = ImageChops.multiply(
        ImageChops.multiply(
            red.point(lambda v: 255 if v > 200 else 0),
            green.point(lambda v: 255 if 80 < v < 200 else 0),
        ),
        blue.point(lambda v: 255 if v < 80 else 0),
    )
    assert orange.histogram()[255] > 1000


def test_without_a_font_the_characters_are_left_out_and_named(
    og_app: Callable[..., Flask],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A machine without fonts of its own; in a title, letters no font has
    # mean no image at all (test_scripts.py), in a description they are
    # left out.
    from .conftest import no_machine_fonts

    no_machine_fonts(monkeypatch)
    app = og_app()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        mixed = drawn(app, "Title", "Notes 日本")
    assert any(
        "'日'" in r.getMessage() and "'本'" in r.getMessage() for r in caplog.records
    )
    # No box where the letters would be: the image is that of the rest.
    plain = drawn(app, "Title", "Notes")
    assert (
        ImageChops.difference(mixed.convert("RGB"), plain.convert("RGB")).getbbox()
        is None
    )


def test_the_shipped_font_needs_no_system_font(og_app: Callable[..., Flask]) -> None:
    from flask_marmeon.og_images.fonts import SHIPPED_BOLD, shipped_path

    assert shipped_path(SHIPPED_BOLD).is_file()
    assert "flask_marmeon" in str(shipped_path(SHIPPED_BOLD))
    image = drawn(og_app(), "Привет, Ελληνικά, Latin")
    assert ink(image, (0, 150, 1200, 560)) > 2000


def test_the_colors_and_the_logo_are_the_apps(
    og_app: Callable[..., Flask], tmp_path: object
) -> None:
    app = og_app(
        MARMEON_OG_IMAGE_COLORS={"background": "#ffffff", "accent": (200, 0, 0)}
    )
    static = app.static_folder
    assert static is not None
    import os

    os.makedirs(static, exist_ok=True)
    logo = os.path.join(static, "og-test-logo.png")
    Image.new("RGB", (120, 60), (0, 128, 0)).save(logo)
    try:
        app = og_app(
            MARMEON_OG_IMAGE_COLORS={"background": "#ffffff", "accent": (200, 0, 0)},
            MARMEON_OG_IMAGE_LOGO="og-test-logo.png",
        )
        image = drawn(app, "Title").convert("RGB")
    finally:
        os.remove(logo)
    assert image.getpixel((5, 5)) == (255, 255, 255)
    assert image.getpixel((600, 625)) == (200, 0, 0)  # the band
    assert image.getpixel((100, 85)) == (0, 128, 0)  # the logo
