"""One font file as the images draw with it: what it covers, its Pillow
fonts by size, and the widths it has measured."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PIL import ImageFont

from .settings import bitmap_size

#: Widths are measured once at this size and scaled.
REFERENCE_SIZE = 100
#: The most widths a face remembers (then it starts again).
WIDTHS_SIZE = 20_000


@dataclass(eq=False)
class Face:
    """One font file: what it covers, and its Pillow fonts by size."""

    path: Path
    script: str
    covers: frozenset[int]
    #: The size a bitmap font must be loaded at; None for an outline font.
    bitmap_size: int | None
    layout: ImageFont.Layout
    fonts: dict[int, ImageFont.FreeTypeFont] = field(default_factory=dict)
    #: Widths at REFERENCE_SIZE of clusters and joined runs, measured once
    #: (shaping with libraqm costs a fraction of a millisecond a call).
    widths: dict[str, float] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, script: str, layout: ImageFont.Layout) -> Face:
        """Read the file's characters and kind (raises OSError when it cannot)."""
        from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

        with TTFont(str(path), fontNumber=0, lazy=True) as font:
            covers = frozenset(font.getBestCmap() or {})
        return cls(path, script, covers, bitmap_size(path), layout)

    def has(self, cluster: str) -> bool:
        """Whether the face has every character of ``cluster`` (joiners and
        variation selectors aside, which fonts may leave out)."""
        covers = self.covers
        return all(
            ord(char) in covers or char in "\u200c\u200d\ufe0e\ufe0f"
            for char in cluster
        )

    def scale(self, size: int) -> float:
        """How much the glyphs drawn by :meth:`font` are scaled for ``size``."""
        return size / self.bitmap_size if self.bitmap_size else 1.0

    def font(self, size: int) -> ImageFont.FreeTypeFont:
        """The Pillow font for ``size`` (a bitmap font: its own size)."""
        size = self.bitmap_size or size
        font = self.fonts.get(size)
        if font is None:
            font = ImageFont.truetype(str(self.path), size, layout_engine=self.layout)
            self.fonts[size] = font
        return font

    def length(self, text: str, size: int) -> float:
        """The advance of ``text`` at ``size``, in pixels."""
        return self.font(size).getlength(text) * self.scale(size)

    def width(self, text: str) -> float:
        """The advance of ``text`` at :data:`REFERENCE_SIZE`, remembered."""
        width = self.widths.get(text)
        if width is None:
            if len(self.widths) >= WIDTHS_SIZE:
                self.widths.clear()
            width = self.widths[text] = self.length(text, REFERENCE_SIZE)
        return width
