"""Text as it is drawn: cleaned, then split into grapheme clusters.

A cluster is what a reader sees as one character (a letter and its marks, an
emoji with its modifiers and joiners, a flag's two letters, an Indic
conjunct): text is cut, wrapped and given a font cluster by cluster, so a
line never ends in the middle of one ("never cut mid-glyph").
"""

from __future__ import annotations

import unicodedata

#: Zero width joiner: joins the clusters on both sides (emoji sequences).
ZWJ = "\u200d"
_KEEP_FORMAT = frozenset("\u200c\u200d")
_VIRAMAS = frozenset(
    "\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d4d\u0dca\u1039\u17d2"
)


#: The most combining marks drawn on one base character: what real text
#: needs (a Hebrew letter with its point, vowel and accent; an Indic
#: consonant with its vowel sign and nasal), not what stacked "zalgo" text
#: piles up, which costs drawing time and address length.
MAX_MARKS = 3
#: The most characters of one cluster (a joiner sequence: an emoji family,
#: a chain of conjuncts); what follows starts a new one.
MAX_CLUSTER = 16


#: The most characters of a text that are looked at: a text whose first
#: this many characters all clean away draws nothing (a bound on the work
#: one text can cost, whatever it holds).
SCAN = 65_536


def clean(text: str) -> str:
    """The text with what cannot be drawn taken out (all of it: see
    :func:`clean_prefix` for the bounded form)."""
    return clean_prefix(text, None)[0]


def clean_prefix(text: str, limit: int | None) -> tuple[str, bool]:
    """The text with what cannot be drawn taken out, and whether it was cut.

    Control characters, line and paragraph breaks and odd spaces become one
    space; format characters (bidi overrides, soft hyphens) go, except the
    joiners that emoji and some scripts need; lone surrogates, private-use
    and unassigned characters go, and U+FFFD (the head writes it for
    characters HTML cannot carry, NUL among them). Runs of spaces become
    one; the ends are stripped. The result is NFC.

    ``limit`` counts what is kept, not what is removed: the result stops at
    ``limit`` characters kept (cut: True), so a text that starts with any
    number of removed characters still gives what follows them. At most
    :data:`SCAN` characters are looked at. A base character keeps at most
    :data:`MAX_MARKS` combining marks.
    """
    out: list[str] = []
    space = False
    marks = 0  # on the last character kept
    cut = limit is not None and len(text) > SCAN
    category = unicodedata.category
    for char in text[:SCAN] if limit is not None else text:
        kind = category(char)
        if kind[0] == "Z" or kind == "Cc":
            space = bool(out)
            continue
        if kind[0] == "M":
            # Stacked marks beyond what real text needs take no room in the
            # limit (clusters() drops them as well).
            if marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        if (
            kind in ("Cs", "Co", "Cn")
            or (kind == "Cf" and char not in _KEEP_FORMAT)
            or char == "\ufffd"
        ):
            continue
        if limit is not None and len(out) >= limit:
            cut = True
            break
        if space:
            out.append(" ")
            space = False
        out.append(char)
    # Normalized after cleaning: a removed character no longer stands
    # between a letter and its mark.
    return unicodedata.normalize("NFC", "".join(out)), cut


def _extends(char: str) -> bool:
    """Whether ``char`` joins the cluster before it without being a mark."""
    code = ord(char)
    return (
        0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # emoji tag sequences
        or 0xE0100 <= code <= 0xE01EF
        or char in _KEEP_FORMAT
    )


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def clusters(text: str) -> list[str]:
    """``text`` split into grapheme clusters (a simplified UAX #29), with at
    most :data:`MAX_MARKS` combining marks on each base character (the
    rest are left out) and :data:`MAX_CLUSTER` characters in a cluster."""
    out: list[str] = []
    marks = 0  # on the last base character
    for char in text:
        mark = unicodedata.category(char) in ("Mn", "Me", "Mc")
        extends = mark or _extends(char)
        if out:
            last = out[-1]
            if (
                extends
                or last[-1] == ZWJ
                or last[-1] in _VIRAMAS
                or (_regional(char) and len(last) == 1 and _regional(last))
            ):
                if mark:
                    if marks >= MAX_MARKS:
                        continue
                    marks += 1
                elif not extends:
                    marks = 0  # a base character joined to the cluster
                if len(last) < MAX_CLUSTER:
                    out[-1] = last + char
                    continue
                if extends:
                    continue  # nothing to draw it on in a new cluster
        out.append(char)
        marks = 1 if mark else 0
    return out


def is_emoji(cluster: str) -> bool:
    """Whether ``cluster`` is an emoji (or an emoji sequence)."""
    return "\ufe0f" in cluster or ZWJ in cluster or ord(cluster[0]) >= 0x1F000


def is_rtl(char: str) -> bool:
    """Whether ``char`` is a strong right-to-left letter (Arabic, Hebrew...)."""
    return unicodedata.bidirectional(char) in ("R", "AL")


def is_strong(char: str) -> bool:
    """Whether ``char`` sets a direction (a letter of some script)."""
    return unicodedata.bidirectional(char) in ("L", "R", "AL")


def is_wide(cluster: str) -> bool:
    """Whether a line may break on either side of ``cluster`` (CJK text has
    no spaces between words)."""
    wide = unicodedata.east_asian_width(cluster[0]) in ("W", "F")
    return wide and cluster[0] not in _NO_LINE_START


#: Closing punctuation that must not start a line (kinsoku).
_NO_LINE_START = frozenset("、。，．・：；！？）」』】〉》〕｝ー々")


def no_line_start(cluster: str) -> bool:
    """Whether a line must not start with ``cluster``."""
    return cluster[0] in _NO_LINE_START or unicodedata.category(cluster[0]) in (
        "Pe",
        "Pf",
        "Po",
    )
