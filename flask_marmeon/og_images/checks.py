"""The generated images' start-up checks (H10): SECRET_KEY (og_images.E001),
Pillow and fontTools (E002), the logo (E003) and the fonts (E004)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from ..checks import Problem
from ..errors import install_hint
from .settings import Look, bitmap_size
from .state import og_images_of


def _quiet_bitmap_size(path: Path) -> int | None:
    try:
        return bitmap_size(path)
    except Exception:  # not a font: Pillow's own error says why
        return None


def problems(look: Look, secret_key: object) -> list[Problem]:
    """The start-up problems (H10) of the look: each names its setting and file."""
    out: list[Problem] = []

    def add(id: str, message: str, hint: str) -> None:
        out.append(Problem(id, message, hint))

    try:
        import fontTools  # type: ignore[import-untyped]  # noqa: F401
        from PIL import Image, ImageFont, UnidentifiedImageError
    except ImportError as error:
        if look.enabled or look.logo or look.fonts:
            add(
                "og_images.E002",
                f"generated images need Pillow and fontTools ({error})",
                f"install the extra, {install_hint('og-images')}",
            )
        return out
    if look.enabled and not secret_key:
        add(
            "og_images.E001",
            "MARMEON_OG_IMAGES is on but SECRET_KEY is not set",
            "the images' addresses are signed with it, so that nobody can"
            " make the server draw what it never wrote. Set"
            " app.config['SECRET_KEY'] (the same in every process), or turn"
            " MARMEON_OG_IMAGES off",
        )
    if look.logo is not None:
        where = f"MARMEON_OG_IMAGE_LOGO names {str(look.logo)!r}"
        try:
            with Image.open(look.logo) as image:
                image.verify()
        except FileNotFoundError:
            add(
                "og_images.E003",
                f"{where}, which does not exist",
                "give the path of an image in the static folder",
            )
        except (OSError, UnidentifiedImageError, SyntaxError, ValueError) as error:
            add(
                "og_images.E003",
                f"{where}, which is not an image Pillow can read ({error})",
                "give a PNG, JPEG or WebP file",
            )
    for font in look.fonts:
        for path in dict.fromkeys((font.regular, font.bold)):
            try:
                # A bitmap color font (Noto Color Emoji) loads only at its
                # own size, as the drawing loads it.
                ImageFont.truetype(str(path), _quiet_bitmap_size(path) or 20)
            except OSError as error:
                add(
                    "og_images.E004",
                    f"MARMEON_OG_IMAGE_FONTS[{font.script!r}] names"
                    f" {str(path)!r}, which cannot be read as a font ({error})",
                    "give a TrueType or OpenType file",
                )
    return out


def look_problems(app: Flask) -> list[Problem]:
    """The look's problems, each naming its setting and file."""
    return problems(og_images_of(app).look, app.secret_key)
