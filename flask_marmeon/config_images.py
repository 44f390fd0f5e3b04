"""The shapes of the generated images' keys (MARMEON_OG_IMAGE*), checked
when config.py reads them: config.py declares each key, its default and its
Settings field; its files are start-up checks (flask_marmeon.og_images.checks).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from .errors import did_you_mean

#: The script names an app may give fonts for, in MARMEON_OG_IMAGE_FONTS.
SCRIPTS = ("latin", "arabic", "hebrew", "cjk", "devanagari", "emoji", "other")

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Colors:
    """The generated images' colors (MARMEON_OG_IMAGE_COLORS, each key's
    default here), each an ``(r, g, b)`` tuple."""

    background: RGB = (15, 23, 42)
    title: RGB = (248, 250, 252)
    text: RGB = (203, 213, 225)
    accent: RGB = (56, 189, 248)


_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


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


def read_colors(key: str, value: object) -> Colors:
    """MARMEON_OG_IMAGE_COLORS: the keys of :class:`Colors`, each a color."""
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{key} must be a dict such as {{'background': '#0f172a'}}, not"
            f" {type(value).__name__}."
        )
    names = tuple(f.name for f in fields(Colors))
    for name in value:
        if name not in names:
            raise ValueError(
                f"{key} has the key {name!r}; the keys are"
                f" {', '.join(names)}.{did_you_mean(str(name), names)}"
            )
    return Colors(**{name: _color(name, color) for name, color in value.items()})


def read_fonts(
    key: str, value: object
) -> tuple[tuple[str, str | Path, str | Path], ...]:
    """MARMEON_OG_IMAGE_FONTS: (script, regular, bold) per script, in order."""
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{key} must be a dict of script to font file, such"
            " as {'arabic': 'fonts/NotoSansArabic-Regular.ttf'}, not"
            f" {type(value).__name__}."
        )
    out: list[tuple[str, str | Path, str | Path]] = []
    for script, files in value.items():
        if script not in SCRIPTS:
            raise ValueError(
                f"{key} has the script {script!r}; the scripts"
                f" are {', '.join(SCRIPTS)}.{did_you_mean(str(script), SCRIPTS)}"
            )
        if isinstance(files, (str, Path)):
            out.append((script, files, files))
        elif (
            isinstance(files, (tuple, list))
            and len(files) == 2
            and all(isinstance(f, (str, Path)) for f in files)
        ):
            out.append((script, files[0], files[1]))
        else:
            raise TypeError(
                f"{key}[{script!r}] must be a font file's path"
                f" or a (regular, bold) pair of paths, not {files!r}."
            )
    return tuple(out)


def read_memory(key: str, value: object) -> int:
    """MARMEON_OG_IMAGES_MEMORY: bytes, 0 or more."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(
            f"{key} must be a number of bytes (an int), such"
            f" as 32 * 1024 * 1024, not {type(value).__name__} {value!r}."
        )
    if value < 0:
        raise ValueError(f"{key} must be 0 or more bytes, not {value}.")
    return value
