"""The covers are PNG files drawn in code."""

from __future__ import annotations

import struct
import zlib

import pytest

from example_app.covers import cover_png


def read_png(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, raw rows) of an 8-bit RGB PNG, checking every CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks = 8, []
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc
        chunks.append((kind, body))
        offset += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    width, height, depth, colour = struct.unpack(">IIBB", chunks[0][1][:10])
    assert (depth, colour) == (8, 2)
    return width, height, zlib.decompress(chunks[1][1])


@pytest.mark.parametrize("size", [(1200, 630), (40, 21), (1, 1)])
def test_a_cover_is_a_valid_png_of_the_size_asked(size: tuple[int, int]) -> None:
    width, height, rows = read_png(cover_png(7, *size))
    assert (width, height) == size
    assert len(rows) == height * (1 + 3 * width)


def test_two_notes_get_different_covers_and_one_note_always_the_same() -> None:
    assert cover_png(1) == cover_png(1)
    assert cover_png(1) != cover_png(2)


def test_a_cover_needs_a_size() -> None:
    with pytest.raises(ValueError, match="0 × 630"):
        cover_png(1, 0, 630)
