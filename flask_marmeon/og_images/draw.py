"""The default drawing: a 1200x630 card with the site name, title and
description, and what an app's own drawing function is given.

The card: the app's background; at the top the logo (when the app has one)
and the site name in the accent color; the title in bold, as large as fits
in three lines (80 px down to 48 px, then cut with an ellipsis); the
description below it in two lines at most; an accent band along the bottom.
A title that reads right to left is set against the right margin, and the
site name (and the logo) with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .address import Texts
from .canvas import HEIGHT, RGB, SQUARE_SIZE, WIDTH, Colors
from .clusters import clusters, is_rtl
from .fonts import Fonts, FontSet
from .layout import Block, Line, Run, fit

MARGIN = 80
#: The width a text may take.
TEXT_WIDTH = WIDTH - 2 * MARGIN
TITLE_SIZES = (80, 72, 64, 56, 48)
TITLE_LINES = 3
LOGO_HEIGHT = 56
HEADER_TOP = 60
BAND = 12


@dataclass(frozen=True)
class Frame:
    """A card's size and where its texts go."""

    width: int
    height: int
    margin: int
    title_sizes: tuple[int, ...]
    title_lines: int
    description_sizes: tuple[int, ...]
    description_lines: int
    site_sizes: tuple[int, ...]
    #: Room left beside the site name (for the logo).
    site_room: int


#: The Open Graph card, 1200x630.
WIDE = Frame(
    WIDTH,
    HEIGHT,
    MARGIN,
    TITLE_SIZES,
    TITLE_LINES,
    (32,),
    2,
    (30,),
    320,
)
#: The square card of a Twitter ``summary`` (X and Slack crop its image
#: square), 630x630: the title in up to four lines, smaller.
SQUARE = Frame(
    SQUARE_SIZE,
    SQUARE_SIZE,
    56,
    (60, 54, 48, 42, 36),
    4,
    (26,),
    3,
    (26,),
    160,
)


@dataclass(frozen=True)
class Layouts:
    """The three texts laid out as the default card draws them."""

    frame: Frame
    site: Block
    title: Block
    description: Block


def lay_out(texts: Texts, fonts: Fonts) -> Layouts:
    """Fit the three texts (what the address and the drawing both use)."""
    frame = SQUARE if texts.square else WIDE
    width = frame.width - 2 * frame.margin
    return Layouts(
        frame,
        fit(
            texts.site,
            fonts.bold,
            sizes=frame.site_sizes,
            max_lines=1,
            width=width - frame.site_room,
        ),
        fit(
            texts.title,
            fonts.bold,
            sizes=frame.title_sizes,
            max_lines=frame.title_lines,
            width=width,
        ),
        fit(
            texts.description,
            fonts.regular,
            sizes=frame.description_sizes,
            max_lines=frame.description_lines,
            width=width,
        ),
    )


def _visual(runs: tuple[Run, ...], rtl: bool) -> list[Run]:
    """The runs left to right: in a right-to-left paragraph the order of the
    runs is reversed, a stretch of left-to-right runs keeping its own."""
    if not rtl:
        return list(runs)
    segments: list[list[Run]] = []
    after_rtl = True  # a right-to-left run is a segment alone (so is the first)
    for run in runs:
        run_rtl = any(is_rtl(char) for char in run.text)
        if run_rtl or after_rtl:
            segments.append([run])
        else:
            segments[-1].append(run)
        after_rtl = run_rtl
    return [run for segment in reversed(segments) for run in segment]


def _run_text(text: str, fonts: FontSet) -> str:
    """Without libraqm, a right-to-left run is drawn reversed cluster by
    cluster (the basic layout draws characters left to right)."""
    if fonts.raqm or not any(is_rtl(char) for char in text):
        return text
    return "".join(reversed(clusters(text)))


def draw_line(
    canvas: Image.Image,
    line: Line,
    fonts: FontSet,
    size: int,
    *,
    baseline: float,
    rtl: bool,
    fill: RGB,
    left: float,
    right: float,
) -> None:
    """Draw one laid-out line, each run with its face, on the baseline."""
    draw = ImageDraw.Draw(canvas)
    runs = _visual(line.runs, rtl)
    # A run's spaces at its ends are set apart: shaped with the run, a
    # right-to-left run would put its trailing space on the wrong side.
    pieces = []
    for run in runs:
        face = fonts.faces[run.face]
        core = run.text.strip(" ")
        lead = face.length(" ", size) * (len(run.text) - len(run.text.lstrip(" ")))
        trail = face.length(" ", size) * (len(run.text) - len(run.text.rstrip(" ")))
        before, after = (trail, lead) if rtl else (lead, trail)
        pieces.append((face, core, before, face.length(core, size), after))
    total = sum(before + width + after for _, _, before, width, after in pieces)
    x = right - total if rtl else left
    for face, core, before, width, after in pieces:
        x += before
        text = _run_text(core, fonts)
        if text and face.bitmap_size:
            _paste_bitmap(canvas, face.font(size), text, face.scale(size), x, baseline)
        elif text:
            draw.text(
                (x, baseline),
                text,
                font=face.font(size),
                fill=fill,
                anchor="ls",
                embedded_color=True,
            )
        x += width + after


def _paste_bitmap(
    canvas: Image.Image,
    font: ImageFont.FreeTypeFont,
    text: str,
    scale: float,
    x: float,
    baseline: float,
) -> None:
    """A bitmap color font has one size: draw at it, scale, paste."""
    ascent, descent = font.getmetrics()
    width = max(1, int(font.getlength(text)) + 2)
    glyphs = Image.new("RGBA", (width, ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(glyphs).text(
        (0, ascent), text, font=font, anchor="ls", embedded_color=True
    )
    size = (max(1, round(width * scale)), max(1, round((ascent + descent) * scale)))
    glyphs = glyphs.resize(size, Image.Resampling.LANCZOS)
    canvas.paste(glyphs, (round(x), round(baseline - ascent * scale)), glyphs)


def _block_height(block: Block, spacing: float) -> float:
    return len(block.lines) * block.size * spacing


def draw_card(
    layouts: Layouts, fonts: Fonts, colors: Colors, logo: Image.Image | None
) -> Image.Image:
    """The default card, from texts laid out by :func:`lay_out`."""
    frame = layouts.frame
    width, height, margin = frame.width, frame.height, frame.margin
    canvas = Image.new("RGB", (width, height), colors.background)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, height - BAND, width, height), fill=colors.accent)
    title = layouts.title
    # The header follows the title: on a card whose title reads right to
    # left, the logo and the site name stand against the right margin.
    rtl = title.rtl if title.lines else layouts.site.rtl
    left, right = margin, width - margin
    if logo is not None:
        x = width - margin - logo.width if rtl else margin
        canvas.paste(logo, (x, HEADER_TOP), logo)
        if rtl:
            right = x - 20
        else:
            left = margin + logo.width + 20
    site = layouts.site
    if site.lines:
        draw_line(
            canvas,
            site.lines[0],
            fonts.bold,
            site.size,
            baseline=HEADER_TOP + LOGO_HEIGHT / 2 + site.size * 0.36,
            rtl=rtl,
            fill=colors.accent,
            left=left,
            right=right,
        )
    description = layouts.description
    title_spacing, text_spacing, gap = 1.18, 1.4, 28.0
    texts = _block_height(title, title_spacing)
    if description.lines:
        texts += gap + _block_height(description, text_spacing)
    top = HEADER_TOP + LOGO_HEIGHT + 24
    bottom = height - BAND - 48
    y = top + max(0.0, (bottom - top - texts) / 2)
    # Each text's lines from y down, each baseline ``drop`` of the size
    # above the line's bottom.
    blocks = (
        (title, fonts.bold, title_spacing, 0.26, colors.title),
        (description, fonts.regular, text_spacing, 0.4, colors.text),
    )
    for block, faces, spacing, drop, fill in blocks:
        for line in block.lines:
            y += block.size * spacing
            draw_line(
                canvas,
                line,
                faces,
                block.size,
                baseline=y - block.size * drop,
                rtl=block.rtl,
                fill=fill,
                left=margin,
                right=width - margin,
            )
        y += gap
    return canvas
