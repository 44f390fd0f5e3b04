"""Apps with generated images, and Debian's Noto fonts for other scripts.

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
from flask import Flask
from PIL import Image

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
