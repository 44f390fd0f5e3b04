"""Apps with generated images, the pages that name them, and Debian's Noto
fonts for other scripts.

``make test`` installs fonts-noto-core, fonts-noto-cjk and
fonts-noto-color-emoji (the Makefile's font-deps).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import html5lib
import pytest
from flask import Flask, render_template_string
from PIL import Image

from flask_marmeon import head
from flask_marmeon.og_images import system_fonts
from flask_marmeon.og_images.generator import image_path
from flask_marmeon.og_images.state import og_images_of

NOTO = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto")

#: Each script's regular and bold files, as an app would configure them.
FONTS: dict[str, tuple[str, str]] = {
    "arabic": (
        str(NOTO / "NotoSansArabic-Regular.ttf"),
        str(NOTO / "NotoSansArabic-Bold.ttf"),
    ),
    "hebrew": (
        str(NOTO / "NotoSansHebrew-Regular.ttf"),
        str(NOTO / "NotoSansHebrew-Bold.ttf"),
    ),
    "devanagari": (
        str(NOTO / "NotoSansDevanagari-Regular.ttf"),
        str(NOTO / "NotoSansDevanagari-Bold.ttf"),
    ),
    "cjk": (
        str(NOTO_CJK / "NotoSansCJK-Regular.ttc"),
        str(NOTO_CJK / "NotoSansCJK-Bold.ttc"),
    ),
    "emoji": (str(NOTO / "NotoColorEmoji.ttf"), str(NOTO / "NotoColorEmoji.ttf")),
}


@pytest.fixture(scope="session")
def script_fonts() -> dict[str, tuple[str, str]]:
    """Debian's Noto fonts for the scripts the shipped font lacks."""
    missing = [p for pair in FONTS.values() for p in pair if not os.path.exists(p)]
    if missing:
        message = f"{missing[0]} is missing: `make font-deps` (part of `make test`)."
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return FONTS


@pytest.fixture
def og_app(make_app: Callable[..., Flask]) -> Callable[..., Flask]:
    """An app with APP_URL, SECRET_KEY and generated images on; keyword
    arguments go into its config."""

    def make(**config: Any) -> Flask:
        values: dict[str, Any] = {
            "APP_URL": "https://notes.example",
            "SECRET_KEY": "a secret",
            "MARMEON_OG_IMAGES": True,
        }
        values.update(config)
        return make_app(**values)

    return make


def png(data: bytes) -> Image.Image:
    """The PNG ``data`` decoded (and checked to be one)."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image


def metas_of(html: str) -> dict[str, list[str]]:
    """The page's meta tags (name or property -> contents), parsed as a
    browser does."""
    document = html5lib.parse(html, namespaceHTMLElements=False)
    metas: dict[str, list[str]] = {}
    for meta in document.iter("meta"):
        key = meta.get("property") or meta.get("name")
        if key:
            metas.setdefault(key, []).append(meta.get("content") or "")
    return metas


PAGE = "<!doctype html><html><head>{{ render_head() }}</head><body></body></html>"


def page(app: Flask, path: str = "/page", **fields: Any) -> dict[str, list[str]]:
    """The page's meta tags (name or property -> contents), parsed."""

    @app.get(path, endpoint=path)
    def view() -> str:
        head(**fields)
        return render_template_string(PAGE)

    response = app.test_client().get(path)
    assert response.status_code == 200
    return metas_of(response.text)


def image_of(app: Flask, metas: dict[str, list[str]], key: str = "og:image") -> Any:
    """The generated image the page's ``key`` names, fetched from the app."""
    [url] = metas[key]
    assert url.startswith("https://notes.example/marmeon-og/")
    response = app.test_client().get(url.removeprefix("https://notes.example"))
    assert response.status_code == 200
    return png(response.data)


def address(app: Flask, title: str = "A title", page: str = "/page") -> str:
    """The path of the generated image of ``page`` with ``title``."""
    og = og_images_of(app)
    with app.test_request_context(page):
        path = image_path(
            og, app.secret_key, (title, "A description", "Notes"), page_path=page
        )
    assert path is not None
    return path


def drawn(app: Flask) -> int:
    """How many images the app has drawn."""
    return int(og_images_of(app).store.drawn)


def no_machine_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without fonts of its own, nor fontconfig."""
    monkeypatch.setattr(system_fonts, "FONT_DIRS", ())
    monkeypatch.setattr(system_fonts, "_fontconfig_files", lambda: [])
    monkeypatch.setattr(system_fonts, "_fc_match", lambda char, bold: None)
