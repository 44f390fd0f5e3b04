"""Characters that HTML cannot carry, found fast.

An HTML parser reports as an error (and cannot give back as written) NUL,
the controls other than tab, newline, form feed and carriage return, DEL,
the C1 controls, noncharacters (U+FDD0..U+FDEF and the last two code points
of every plane), and lone surrogates, which UTF-8 cannot even encode. All of
them are characters that ``str.isprintable()`` refuses, so callers look here
only when it does.

Noncharacters beyond the first plane are found with a pattern for any astral
character, then filtered: a character class listing them makes the regular
expression engine many times slower on every string.
"""

from __future__ import annotations

import re

_BMP_UNCARRIABLE = re.compile(
    "[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff\ud800-\udfff]"
)
# JSON escapes the C0 controls itself, and a surrogate is refused apart.
_BMP_SCRIPT_ESCAPE = re.compile("[\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _is_nonchar(char: str) -> bool:
    return ord(char) & 0xFFFE == 0xFFFE


def _replace_astral(match: re.Match[str]) -> str:
    char = match.group()
    return "\ufffd" if _is_nonchar(char) else char


def _escape(char: str) -> str:
    code = ord(char)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _escape_match(match: re.Match[str]) -> str:
    return _escape(match.group())


def _escape_astral(match: re.Match[str]) -> str:
    char = match.group()
    return _escape(char) if _is_nonchar(char) else char


def replace_uncarriable(value: str) -> str:
    """Replace every character HTML cannot carry with U+FFFD.

    A carriage return is left alone: the caller decides what it becomes.
    """
    value = _BMP_UNCARRIABLE.sub("\ufffd", value)
    if not value.isascii():
        value = _ASTRAL.sub(_replace_astral, value)
    return value


def replace_surrogates(value: str) -> str:
    """Replace lone surrogates with U+FFFD, as a browser does with a URL."""
    return _SURROGATE.sub("\ufffd", value)


def has_surrogate(value: str) -> bool:
    """Whether ``value`` holds a lone surrogate."""
    return _SURROGATE.search(value) is not None


def needs_script_escape(text: str) -> bool:
    """Whether JSON written from ``text`` holds a character that
    :func:`escape_for_script` escapes (it may say so of one that it does not).

    ASCII text can only hold DEL among them, and ``str.isascii()`` costs
    nothing where ``str.isprintable()`` looks at every character.
    """
    if text.isascii():
        return "\x7f" in text
    return not text.isprintable()


def escape_for_script(json_text: str) -> str:
    """Write, in JSON text, the characters HTML reports as errors as ``\\uXXXX``.

    JSON's structure is ASCII, so they can only be inside strings, where the
    escape means the same character.
    """
    json_text = _BMP_SCRIPT_ESCAPE.sub(_escape_match, json_text)
    if not json_text.isascii():
        json_text = _ASTRAL.sub(_escape_astral, json_text)
    return json_text
