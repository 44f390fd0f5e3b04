"""A card is never drawn with its title missing.

Arabic and Hebrew ship with the package; other scripts' fonts are found
among the machine's (Debian's Noto packages, as `make font-deps` installs
them); a title that still cannot be drawn gives the page no image, and the
log says why. The site name follows the title's direction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from flask_marmeon.og_images.address import texts_of, token_of
from flask_marmeon.og_images.canvas import Colors
from flask_marmeon.og_images.fonts import Fonts, raqm_available
from flask_marmeon.og_images.generator import signer_of
from flask_marmeon.og_images.layout import fit
from flask_marmeon.og_images.state import og_images_of

from .conftest import image_of, no_machine_fonts, page

TITLES = {
    "arabic": "كيف خفضنا وقت البناء إلى النصف",
    "hebrew": "איך קיצרנו את זמן הבנייה בחצי",
    "devanagari": "हमने बिल्ड का समय आधा कैसे किया",
    "japanese": "共有キャッシュでビルド時間を半分にした方法",
}


def _texts(app: Flask, metas: dict[str, list[str]]) -> Any:
    [url] = metas["og:image"]
    token = token_of(url.removeprefix("https://notes.example"))
    assert token is not None
    signer = signer_of(og_images_of(app), "a secret")
    assert signer is not None
    return texts_of(signer, token)


def _pixels(image: Image.Image, color: tuple[int, int, int], box: Any) -> int:
    colors = image.convert("RGB").crop(box).getcolors(1 << 20) or []
    return sum(count for count, pixel in colors if pixel == color)


@pytest.mark.parametrize("script", sorted(TITLES))
def test_a_title_in_another_script_is_drawn_without_configured_fonts(
    og_app: Callable[..., Flask],
    script_fonts: dict[str, tuple[str, str]],
    script: str,
) -> None:
    app = og_app()
    title = TITLES[script]
    metas = page(app, title=title, open_graph={"site_name": "Notes"})
    assert _texts(app, metas).title == title  # nothing left out
    image = image_of(app, metas)
    # The title's pixels, in the title's color, below the header.
    assert _pixels(image, Colors().title, (0, 150, 1200, 560)) > 3000


@pytest.mark.parametrize("script", ["arabic", "hebrew"])
def test_arabic_and_hebrew_ship_with_the_package(script: str) -> None:
    fonts = Fonts.load((), raqm_available(), system=False)
    for weight in (fonts.regular, fonts.bold):
        block = fit(TITLES[script], weight, sizes=(80,), max_lines=3, width=1040)
        assert block.missing == ""
        assert block.text == TITLES[script]
        assert block.rtl


def test_a_title_no_font_draws_gives_no_image_and_says_why(
    og_app: Callable[..., Flask],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    no_machine_fonts(monkeypatch)
    app = og_app()
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        metas = page(app, title=TITLES["devanagari"], twitter={"card": "summary"})
    assert "og:image" not in metas
    assert "twitter:image" not in metas
    assert "twitter:title" in metas  # the rest of the head is there
    [record] = [r for r in caplog.records if "no generated image" in r.message]
    assert "/page" in record.message
    assert "U+0939" in record.message  # the title's first letter, named
    assert "MARMEON_OG_IMAGE_FONTS" in record.message


def test_a_description_no_font_draws_leaves_the_image(
    og_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    no_machine_fonts(monkeypatch)
    app = og_app()
    metas = page(
        app,
        title="Build times",
        description=TITLES["devanagari"],
        open_graph={"type": "article"},
    )
    texts = _texts(app, metas)
    assert texts.title == "Build times"
    image_of(app, metas)


def _header_sides(image: Image.Image) -> tuple[int, int]:
    """The accent-colored pixels of the header's left and right halves."""
    accent = Colors().accent
    return (
        _pixels(image, accent, (0, 40, 600, 130)),
        _pixels(image, accent, (600, 40, 1200, 130)),
    )


def test_the_site_name_follows_the_titles_direction(
    og_app: Callable[..., Flask],
) -> None:
    site = {"site_name": "Notes"}
    rtl, ltr = og_app(), og_app()
    metas = page(rtl, title=TITLES["hebrew"], open_graph=site)
    left, right = _header_sides(image_of(rtl, metas))
    assert right > 100 and left == 0
    metas = page(ltr, title="Build times", open_graph=site)
    left, right = _header_sides(image_of(ltr, metas))
    assert left > 100 and right == 0


def test_the_warnings_memo_stays_bounded(
    og_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    from flask_marmeon._state import get_state

    no_machine_fonts(monkeypatch)
    app = og_app()
    state = get_state(app)
    before = len(state.once)
    og = og_images_of(app)
    from flask_marmeon.og_images.generator import image_path

    with app.test_request_context("/"):
        for n in range(50):
            # Titles of the same unknown script, each a new mix.
            title = "\u0918" + chr(0x0915 + n % 20) + chr(0x0958 + n // 20)
            image_path(og, app.secret_key, (title, title * 2, ""), page_path="/")
    assert len(state.once) - before <= 6
