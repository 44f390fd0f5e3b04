"""The app's look for generated images, from its Settings.

``MARMEON_OG_IMAGE_COLORS`` (a dict of ``background``, ``title``, ``text``,
``accent``: ``"#rrggbb"``, ``"#rgb"`` or an ``(r, g, b)`` tuple),
``MARMEON_OG_IMAGE_LOGO`` (a file in the static folder),
``MARMEON_OG_IMAGE_FONTS`` (a dict of script to a font file, or to a
``(regular, bold)`` pair), ``MARMEON_OG_IMAGE_DRAW`` (the app's own
drawing function), and where drawn images are kept
(``MARMEON_OG_IMAGES_SHARED``, ``MARMEON_OG_IMAGES_MEMORY``). config.py
declares these keys and refuses wrong shapes at ``init_app``
(``config_images.py``); files that are missing or unreadable are start-up
problems (H10, :mod:`.checks`), so that every one of them is named at
once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..config import Settings
from .canvas import Colors, DrawFunction


@dataclass(frozen=True)
class FontFile:
    """One font the app configured: its script and its regular and bold files."""

    script: str
    regular: Path
    bold: Path


@dataclass(frozen=True)
class Look:
    """What the app configured; the files are checked at start-up."""

    #: MARMEON_OG_IMAGES: a generated image for every page that has none.
    enabled: bool
    colors: Colors
    #: The logo's path (in the static folder), or None.
    logo: Path | None
    #: The app's fonts, in the order given (after the shipped one).
    fonts: tuple[FontFile, ...]
    draw: DrawFunction | None
    #: MARMEON_OG_IMAGES_SHARED: keep drawn images in the shared
    #: sitemap_cache too (for a day).
    shared: bool = False
    #: MARMEON_OG_IMAGES_MEMORY: bytes of PNG a process keeps.
    memory: int = 32 * 1024 * 1024


def look_of(settings: Settings, root_path: str, static: str | None) -> Look:
    """The look of the app's settings (config.py checked their shapes), its
    files found under the app's root path and static folder."""
    logo = settings.og_image_logo
    root = Path(root_path)
    return Look(
        enabled=settings.og_images,
        colors=settings.og_image_colors,
        logo=Path(static or root_path) / logo if logo else None,
        fonts=tuple(
            FontFile(script, root / regular, root / bold)
            for script, regular, bold in settings.og_image_fonts
        ),
        draw=settings.og_image_draw,
        shared=settings.og_images_shared,
        memory=settings.og_images_memory,
    )


def bitmap_size(path: Path) -> int | None:
    """The one size of a bitmap color font (CBDT), else None (raises what
    fontTools raises for a file that is not a font)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    # Opened here so that the file is closed even when fontTools refuses it.
    with path.open("rb") as file, TTFont(file, fontNumber=0, lazy=True) as font:
        if "CBLC" not in font:
            return None
        strikes = font["CBLC"].strikes
        return int(strikes[0].bitmapSizeTable.ppemY) if strikes else None
