"""Cover images drawn in code, so that the repository holds no binary files.

A link preview wants a raster image of about 1200 × 630 pixels (SVG is not
shown by most of them), so the covers are PNG files, written by hand: a
signature, a header chunk, the pixel rows through zlib, an end chunk.
"""

from __future__ import annotations

import colorsys
import struct
import zlib

#: The size link previews draw best (Open Graph's recommendation).
WIDTH = 1200
HEIGHT = 630


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _rgb(hue: float, lightness: float, saturation: float) -> bytes:
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return bytes(round(channel * 255) for channel in (red, green, blue))


def cover_png(seed: int, width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """A PNG of ``width`` × ``height`` in colours chosen by ``seed``.

    The picture is a plain background, a band across it and a square on the
    band, enough to tell two notes apart in a list of previews.
    """
    if width < 1 or height < 1:
        raise ValueError(
            f"A cover needs a size of at least 1 × 1, not {width} × {height}."
        )
    hue = (seed * 0.137) % 1.0
    background = _rgb(hue, 0.42, 0.55)
    band = _rgb(hue, 0.72, 0.50)
    mark = _rgb((hue + 0.5) % 1.0, 0.55, 0.65)
    top, bottom = height * 3 // 8, height * 5 // 8
    quarter = (bottom - top) // 4
    left = width // 10
    right = min(width, left + 2 * quarter)
    plain_row = b"\x00" + background * width
    band_row = b"\x00" + band * width
    mark_row = b"\x00" + band * left + mark * (right - left) + band * (width - right)
    rows = []
    for y in range(height):
        if top <= y < bottom:
            middle = top + quarter <= y < bottom - quarter
            rows.append(mark_row if middle else band_row)
        else:
            rows.append(plain_row)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(b"".join(rows), 6)),
            _chunk(b"IEND", b""),
        ]
    )
