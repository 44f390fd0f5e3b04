"""Text that HTML can carry, as ``head()`` keeps it.

An HTML parser reports as an error (and cannot give back as written) NUL,
the controls other than tab, newline, form feed and carriage return, DEL,
the C1 controls, noncharacters (U+FDD0..U+FDEF and the last two code points
of every plane), and lone surrogates, which UTF-8 cannot even encode. All of
them are characters that ``str.isprintable()`` refuses, so the patterns
below run only when it does. Noncharacters beyond the first plane are found
with a pattern for any astral character, then filtered: a character class
listing them makes the regular expression engine many times slower.
"""

from __future__ import annotations

import re

_BMP_UNCARRIABLE = re.compile(
    "[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff\ud800-\udfff]"
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _replace_astral(match: re.Match[str]) -> str:
    char = match.group()
    return "\ufffd" if ord(char) & 0xFFFE == 0xFFFE else char


def _plain(value: str) -> str:
    # A str subclass may redefine == and hash, and the head's writer keeps
    # what it wrote keyed on the values: from here on they are plain str.
    return value if type(value) is str else str.__str__(value)


def is_text(value: object) -> bool:
    """A str, or a lazy string (Flask-Babel's ``lazy_gettext``, anything
    with ``__html__``), as the head takes text everywhere."""
    return isinstance(value, str) or (
        not isinstance(value, type) and hasattr(type(value), "__html__")
    )


def clean_text(value: str) -> str:
    """Return ``value`` as HTML can carry it, as a plain ``str``: what a
    parser cannot give back as written (see the module) becomes U+FFFD, as
    the parser itself does with NUL, and a carriage return a newline, as its
    newline normalization would make it anyway."""
    # Every character to replace is one that str.isprintable() refuses, and
    # most text is printable: this is the fast way out.
    if value.isprintable():
        return _plain(value)
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    value = _BMP_UNCARRIABLE.sub("\ufffd", value)
    if not value.isascii():
        value = _ASTRAL.sub(_replace_astral, value)
    return _plain(value)


def clean_url(value: str) -> str:
    """Return a URL as the browser's URL parser receives it.

    A URL is decided on as the app wrote it, control characters and all (a
    browser strips some of them and keeps others percent-encoded); only lone
    surrogates become U+FFFD, as a browser's USVString conversion does. The
    page never holds the raw value: the server writes the parser's
    serialization, and the browser data escapes it.
    """
    if value.isprintable():
        return _plain(value)
    return _plain(_SURROGATE.sub("\ufffd", value))
