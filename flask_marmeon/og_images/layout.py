"""Texts fitted into lines: wrapped, sized, and cut where they stop.

:func:`fit` tries the sizes from the largest down and keeps the first at
which the text takes at most ``max_lines`` lines; at the smallest it cuts
the text after the last line with an ellipsis, at a cluster (at a space
when there is one in the line's second half). Its :attr:`Block.text` is
exactly what is drawn: the address carries it, and drawing it again gives
the same lines.

Widths come from Pillow (``getlength``), per run of one face; kerning
between words is left out, which the margins absorb.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

from .clusters import clean_prefix, clusters, is_rtl, is_strong, is_wide, no_line_start
from .face import REFERENCE_SIZE
from .fonts import FontSet

ELLIPSIS = "\u2026"


@dataclass(frozen=True)
class Run:
    """Clusters of one face, in logical order."""

    face: int
    text: str


@dataclass(frozen=True)
class Line:
    """One line: its runs in logical order."""

    runs: tuple[Run, ...]


@dataclass(frozen=True)
class Block:
    """A text laid out at one size."""

    size: int
    lines: tuple[Line, ...]
    #: What is drawn, in logical order ("" for nothing).
    text: str
    #: Whether the paragraph reads right to left (its first letter does).
    rtl: bool
    #: Characters that no font has, left out of ``text``.
    missing: str


def _faces(items: list[str], fonts: FontSet) -> tuple[list[tuple[str, int]], str]:
    """Each cluster with its face; the clusters no face has, left out."""
    out: list[tuple[str, int]] = []
    missing: dict[str, None] = {}
    previous: int | None = None
    for cluster in items:
        face = fonts.face_for(cluster, previous)
        if face is None:
            missing[cluster] = None
        else:
            out.append((cluster, face))
            previous = face
    return out, "".join(missing)


def _words(placed: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split into pieces a line may break between: a word with the spaces
    after it, or one CJK cluster."""
    words: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    for cluster, face in placed:
        breaks_before = bool(current) and (
            (current[-1][0] == " " and cluster != " ")
            or (is_wide(cluster) and not no_line_start(cluster))
            or (is_wide(current[-1][0]) and not no_line_start(cluster))
        )
        if breaks_before:
            words.append(current)
            current = []
        current.append((cluster, face))
    if current:
        words.append(current)
    return words


def _runs(items: Sequence[tuple[str, int]]) -> tuple[Run, ...]:
    return tuple(
        Run(face, "".join([cluster for cluster, _ in group]))
        for face, group in groupby(items, key=itemgetter(1))
    )


def _strip(items: list[tuple[str, int]]) -> list[tuple[str, int]]:
    end = len(items)
    while end and items[end - 1][0] == " ":
        end -= 1
    return items[:end]


def _joins(cluster: str) -> bool:
    """Whether the cluster's shape depends on its neighbours (Arabic,
    Syriac, N'Ko, Mongolian and the like): such runs are measured whole."""
    code = ord(cluster[0])
    return (
        0x0600 <= code <= 0x08FF
        or 0x1800 <= code <= 0x18AF
        or 0xFB50 <= code <= 0xFDFF
        or 0xFE70 <= code <= 0xFEFF
    )


def _width(fonts: FontSet, items: Sequence[tuple[str, int]]) -> float:
    """The width at :data:`REFERENCE_SIZE`: cluster by cluster (each face
    remembers them), joined runs whole."""
    total = 0.0
    for (face, joins), group in groupby(items, key=lambda i: (i[1], _joins(i[0]))):
        width = fonts.faces[face].width
        texts = [cluster for cluster, _ in group]
        for text in ["".join(texts)] if joins else texts:
            total += width(text)
    return total


#: A word to wrap: its clusters, its width without and with its spaces.
_Word = tuple[list[tuple[str, int]], float, float]


def _wrap(
    words: list[_Word], fonts: FontSet, scale: float, width: float
) -> list[list[tuple[str, int]]]:
    """Greedy lines; a word wider than a line is split between clusters."""
    limit = width / scale
    lines: list[list[tuple[str, int]]] = []
    line: list[tuple[str, int]] = []
    used = 0.0  # the line's width with its trailing spaces
    for word, bare, full in words:
        if used + bare <= limit:
            line += word
            used += full
            continue
        if line:
            lines.append(line)
        line, used = [], 0.0
        if bare <= limit:
            line, used = list(word), full
            continue
        for item in word:
            size = _width(fonts, [item])
            if line and item[0] != " " and used + size > limit:
                lines.append(line)
                line, used = [], 0.0
            if line or item[0] != " ":
                line.append(item)
                used += size
    if line:
        lines.append(line)
    return lines


def _cut(
    line: list[tuple[str, int]], fonts: FontSet, scale: float, width: float
) -> list[tuple[str, int]]:
    """The line shortened to end with an ellipsis and still fit."""
    ellipsis = (ELLIPSIS, fonts.face_for(ELLIPSIS, None) or 0)
    limit = width / scale - _width(fonts, [ellipsis])
    head = _strip(line)
    sizes = [_width(fonts, [item]) for item in head]
    total = sum(sizes)
    while head and total > limit:
        total -= sizes.pop()
        head.pop()
    head = _strip(head)
    # At a word when the line has a space in its second half.
    spaces = [i for i, (cluster, _) in enumerate(head) if cluster == " "]
    if spaces and spaces[-1] >= len(head) // 2:
        head = _strip(head[: spaces[-1]])
    return [*head, ellipsis]


_ASCII_WORD = re.compile(r"[^ ]+ *| +")


def _ascii_words(text: str, fonts: FontSet) -> list[_Word]:
    """The words of printable ASCII text, drawn by the first face."""
    width = fonts.faces[0].width
    space = width(" ")
    words: list[_Word] = []
    for token in _ASCII_WORD.findall(text):
        full = sum(map(width, token))
        bare = full - space * (len(token) - len(token.rstrip(" ")))
        words.append(([(char, 0) for char in token], bare, full))
    return words


def fit(
    text: str,
    fonts: FontSet,
    *,
    sizes: Sequence[int],
    max_lines: int,
    width: float,
) -> Block:
    """Lay ``text`` out at the largest of ``sizes`` where it takes at most
    ``max_lines`` lines, else at the smallest, cut with an ellipsis."""
    # No more clusters than could ever fit (a fifth of the smallest size
    # each): a title of 10,000 characters costs what a long one does.
    bound = int(max_lines * width / (sizes[-1] * 0.2)) + 1
    head = text[: bound * 4]
    missing = ""
    rtl = False
    simple = " ".join(head.split())[:bound] if head.isascii() else ""
    if (
        fonts.ascii
        and head.isascii()
        and head.isprintable()
        and (len(simple) == bound or len(text) <= bound * 4)
    ):
        # Most titles: printable ASCII, one face, clusters are characters,
        # lines break at spaces only; no Unicode tables needed. (ASCII has
        # no right-to-left letter.)
        words = _ascii_words(simple, fonts)
    else:
        # Cleaned before it is cut: removed characters (breaks, NUL, soft
        # hyphens, unassigned code points) take no room in the bound, and
        # a text of nothing else gives no clusters at all.
        cleaned, cut = clean_prefix(text, bound * 4)
        # The paragraph's direction: its first strong character's.
        rtl = next((is_rtl(char) for char in cleaned if is_strong(char)), False)
        items = clusters(cleaned)
        if cut and items:
            items.pop()  # perhaps half a cluster
        placed, missing = _faces(items[:bound], fonts)
        words = [
            (w, _width(fonts, _strip(w)), _width(fonts, w)) for w in _words(placed)
        ]
    if not words:
        return Block(sizes[-1], (), "", rtl, missing)
    lines: list[list[tuple[str, int]]] = []
    size = sizes[0]
    for size in sizes:
        lines = _wrap(words, fonts, size / REFERENCE_SIZE, width)
        if len(lines) <= max_lines:
            break
    else:
        lines = lines[:max_lines]
        lines[-1] = _cut(lines[-1], fonts, size / REFERENCE_SIZE, width)
    drawn = "".join(cluster for line in lines for cluster, _ in line)
    out = tuple(Line(_runs(_strip(line))) for line in lines)
    return Block(size, out, drawn.strip(), rtl, missing)
