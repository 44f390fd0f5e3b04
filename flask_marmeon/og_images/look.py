"""The app's look for generated images, read once from its configuration.

``MARMEON_OG_IMAGE_COLORS`` (a dict of ``background``, ``title``, ``text``,
``accent``: ``"#rrggbb"``, ``"#rgb"`` or an ``(r, g, b)`` tuple),
``MARMEON_OG_IMAGE_LOGO`` (a file in the static folder),
``MARMEON_OG_IMAGE_FONTS`` (a dict of script to a font file, or to a
``(regular, bold)`` pair), ``MARMEON_OG_IMAGE_DRAW`` (the app's own
drawing function), and where drawn images are kept
(``MARMEON_OG_IMAGES_SHARED``, ``MARMEON_OG_IMAGES_MEMORY``). Wrong shapes
raise at ``init_app``; files that are missing or unreadable are start-up
problems (H10, :func:`problems`), so that every one of them is named at
once.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..errors import install_hint
from .card import RGB, Colors, DrawFunction

#: Defaults written into ``app.config`` (so that users can see them).
DEFAULTS: dict[str, Any] = {
    "MARMEON_OG_IMAGES": False,
    "MARMEON_OG_IMAGE_COLORS": {},
    "MARMEON_OG_IMAGE_LOGO": None,
    "MARMEON_OG_IMAGE_FONTS": {},
    "MARMEON_OG_IMAGE_DRAW": None,
    "MARMEON_OG_IMAGES_SHARED": False,
    "MARMEON_OG_IMAGES_MEMORY": 32 * 1024 * 1024,
}

#: The script names an app may give fonts for, in MARMEON_OG_IMAGE_FONTS.
SCRIPTS = ("latin", "arabic", "hebrew", "cjk", "devanagari", "emoji", "other")


@dataclass(frozen=True)
class FontFile:
    """One font the app configured: its script and its regular and bold files."""

    script: str
    regular: Path
    bold: Path


_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


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


def _did_you_mean(value: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(value, choices, n=1)
    return f" Did you mean {close[0]!r}?" if close else ""


def _color(key: str, value: object) -> RGB:
    if isinstance(value, str) and _HEX.fullmatch(value):
        digits = value[1:]
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    if (
        isinstance(value, (tuple, list))
        and len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and all(0 <= v <= 255 for v in value)
    ):
        return (value[0], value[1], value[2])
    raise ValueError(
        f"MARMEON_OG_IMAGE_COLORS[{key!r}] is {value!r}, not a color: give"
        " '#rrggbb', '#rgb' or an (r, g, b) tuple of 0-255."
    )


def _colors(value: object) -> Colors:
    if not isinstance(value, Mapping):
        raise TypeError(
            "MARMEON_OG_IMAGE_COLORS must be a dict such as"
            f" {{'background': '#0f172a'}}, not {type(value).__name__}."
        )
    names = tuple(f.name for f in fields(Colors))
    chosen: dict[str, RGB] = {}
    for key, color in value.items():
        if key not in names:
            raise ValueError(
                f"MARMEON_OG_IMAGE_COLORS has the key {key!r}; the keys are"
                f" {', '.join(names)}.{_did_you_mean(str(key), names)}"
            )
        chosen[key] = _color(key, color)
    return Colors(**chosen)


def _fonts(value: object, root: Path) -> tuple[FontFile, ...]:
    if not isinstance(value, Mapping):
        raise TypeError(
            "MARMEON_OG_IMAGE_FONTS must be a dict of script to font file, such"
            " as {'arabic': 'fonts/NotoSansArabic-Regular.ttf'}, not"
            f" {type(value).__name__}."
        )
    out: list[FontFile] = []
    for script, files in value.items():
        if script not in SCRIPTS:
            raise ValueError(
                f"MARMEON_OG_IMAGE_FONTS has the script {script!r}; the scripts"
                f" are {', '.join(SCRIPTS)}.{_did_you_mean(str(script), SCRIPTS)}"
            )
        if isinstance(files, (str, Path)):
            regular = bold = files
        elif (
            isinstance(files, (tuple, list))
            and len(files) == 2
            and all(isinstance(f, (str, Path)) for f in files)
        ):
            regular, bold = files
        else:
            raise TypeError(
                f"MARMEON_OG_IMAGE_FONTS[{script!r}] must be a font file's path"
                f" or a (regular, bold) pair of paths, not {files!r}."
            )
        out.append(FontFile(script, root / regular, root / bold))
    return tuple(out)


def read_look(config: Mapping[str, Any], root_path: str, static: str | None) -> Look:
    """Check the shapes of the MARMEON_OG_IMAGE* keys (after the defaults)."""
    from ..config import parse_flag

    draw = config["MARMEON_OG_IMAGE_DRAW"]
    if draw is not None and not callable(draw):
        raise TypeError(
            "MARMEON_OG_IMAGE_DRAW must be a function that takes an OgImageCard"
            f" and returns a 1200x630 PIL image, not {draw!r}."
        )
    logo = config["MARMEON_OG_IMAGE_LOGO"]
    if logo is not None and not isinstance(logo, (str, Path)):
        raise TypeError(
            "MARMEON_OG_IMAGE_LOGO must be the path of an image in the static"
            f" folder, such as 'img/logo.png', not {logo!r}."
        )
    logo_path = None
    if logo:
        logo_path = Path(static or root_path) / logo
    return Look(
        enabled=parse_flag("MARMEON_OG_IMAGES", config["MARMEON_OG_IMAGES"]),
        colors=_colors(config["MARMEON_OG_IMAGE_COLORS"]),
        logo=logo_path,
        fonts=_fonts(config["MARMEON_OG_IMAGE_FONTS"], Path(root_path)),
        draw=draw,
        shared=parse_flag(
            "MARMEON_OG_IMAGES_SHARED", config["MARMEON_OG_IMAGES_SHARED"]
        ),
        memory=_memory(config["MARMEON_OG_IMAGES_MEMORY"]),
    )


def _memory(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(
            "MARMEON_OG_IMAGES_MEMORY must be a number of bytes (an int), such"
            f" as 32 * 1024 * 1024, not {type(value).__name__} {value!r}."
        )
    if value < 0:
        raise ValueError(
            f"MARMEON_OG_IMAGES_MEMORY must be 0 or more bytes, not {value}."
        )
    return value


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


def _quiet_bitmap_size(path: Path) -> int | None:
    try:
        return bitmap_size(path)
    except Exception:  # not a font: Pillow's own error says why
        return None


def problems(look: Look, secret_key: object) -> list[str]:
    """The start-up problems (H10) of the look: each names its file."""
    out: list[str] = []
    try:
        import fontTools  # type: ignore[import-untyped]  # noqa: F401
        from PIL import Image, ImageFont, UnidentifiedImageError
    except ImportError as error:
        if look.enabled or look.logo or look.fonts:
            out.append(
                f"generated images need Pillow and fontTools ({error}): install"
                f" the extra, {install_hint('og-images')}"
            )
        return out
    if look.enabled and not secret_key:
        out.append(
            "MARMEON_OG_IMAGES is on but SECRET_KEY is not set: the images'"
            " addresses are signed with it, so that nobody can make the server"
            " draw what it never wrote. Set app.config['SECRET_KEY'] (the same"
            " in every process), or turn MARMEON_OG_IMAGES off"
        )
    if look.logo is not None:
        try:
            with Image.open(look.logo) as image:
                image.verify()
        except FileNotFoundError:
            out.append(
                f"MARMEON_OG_IMAGE_LOGO names {str(look.logo)!r}, which does not"
                " exist: give the path of an image in the static folder"
            )
        except (OSError, UnidentifiedImageError, SyntaxError, ValueError) as error:
            out.append(
                f"MARMEON_OG_IMAGE_LOGO names {str(look.logo)!r}, which is not an"
                f" image Pillow can read ({error}): give a PNG, JPEG or WebP file"
            )
    for font in look.fonts:
        for path in dict.fromkeys((font.regular, font.bold)):
            try:
                try:
                    ImageFont.truetype(str(path), 20)
                except OSError:
                    # A bitmap color font (Noto Color Emoji) loads only at
                    # its own size, as the drawing loads it.
                    size = _quiet_bitmap_size(path)
                    if size is None:
                        raise
                    ImageFont.truetype(str(path), size)
            except OSError as error:
                out.append(
                    f"MARMEON_OG_IMAGE_FONTS[{font.script!r}] names {str(path)!r},"
                    f" which cannot be read as a font ({error}): give a TrueType"
                    " or OpenType file"
                )
    return out
