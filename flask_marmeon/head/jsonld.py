"""A strict JSON writer for JSON-LD blocks and the browser data.

A block is written only when JSON says exactly what the app passed: the text
parses back (in Python and in a browser) to an equal object. Everything
else is refused with :class:`JsonLdError`: a cycle, a ``datetime``/``date``,
a ``set``, ``bytes``, a ``Decimal``, NaN or Infinity, an int beyond
+/-(2**53 - 1) (a browser would round it), a dict key that is not a string, a
lone surrogate, and any other object. A tuple is written as an array; a lazy
string (Flask-Babel's ``lazy_gettext``) as its text.

The text is safe inside ``<script>``: every ``<`` is written ``\\u003c`` (so
neither ``</script>`` nor ``<!--`` can appear), and the characters an HTML
parser reports as errors (DEL, the C1 controls, noncharacters) are escaped
too. JSON writes the C0 controls escaped already.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

#: Beyond this, a browser's JSON.parse rounds an integer.
MAX_SAFE_INTEGER = 2**53 - 1

# Structure characters are ASCII, so these can only occur inside strings,
# where a \uXXXX escape means the same character.
_ESCAPE = re.compile(
    "[<\x7f-\x9f\ufdd0-\ufdef"
    + "".join(
        f"{chr(p + 0xFFFE)}{chr(p + 0xFFFF)}" for p in range(0, 0x110000, 0x10000)
    )
    + "]"
)
_SURROGATE = re.compile("[\ud800-\udfff]")

_encode = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, separators=(",", ":"), check_circular=False
).encode


class JsonLdError(ValueError):
    """A value that JSON cannot write exactly; ``path`` says where it is."""

    def __init__(self, reason: str, path: str) -> None:
        self.reason = reason
        self.path = path
        super().__init__(f"{path or 'the block'} {reason}")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _check_str(value: str, path: str) -> str:
    if _SURROGATE.search(value) is not None:
        raise JsonLdError("holds a lone surrogate, which UTF-8 cannot write", path)
    return value


def _plain(value: Any, path: str, seen: set[int]) -> Any:
    """Return ``value`` as the plain JSON types, or raise :class:`JsonLdError`."""
    if isinstance(value, str):
        return _check_str(str(value), path)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return int(value)
        raise JsonLdError(
            f"is the int {value!r}, beyond +/-(2**53 - 1), which a browser"
            " would round; write it as a string",
            path,
        )
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        raise JsonLdError(f"is {value!r}, which JSON cannot write", path)
    if isinstance(value, (Mapping, list, tuple)):
        if id(value) in seen:
            raise JsonLdError("refers back to itself (a cycle)", path)
        seen.add(id(value))
        try:
            if isinstance(value, Mapping):
                out: dict[str, Any] = {}
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise JsonLdError(
                            f"has the key {key!r}, but JSON keys are strings", path
                        )
                    out[_check_str(str(key), path)] = _plain(
                        item, f"{path}[{key!r}]", seen
                    )
                return out
            return [_plain(item, f"{path}[{i}]", seen) for i, item in enumerate(value)]
        finally:
            seen.discard(id(value))
    if not isinstance(value, type) and hasattr(type(value), "__html__"):
        # A lazy string is text.
        return _check_str(str(value), path)
    hint = ""
    if hasattr(value, "isoformat"):
        hint = "; write it as its ISO 8601 string with .isoformat()"
    raise JsonLdError(
        f"is a {type(value).__name__} ({value!r:.60}), which JSON cannot write"
        f" exactly{hint}",
        path,
    )


def dumps(value: Any) -> str:
    """Write ``value`` as JSON that is safe inside ``<script>``.

    Raises :class:`JsonLdError` (a ValueError) for anything JSON cannot write
    exactly.
    """
    try:
        plain = _plain(value, "", set())
    except RecursionError:
        raise JsonLdError("is nested too deeply to write", "") from None
    text = _encode(plain)
    return _ESCAPE.sub(_escape_char, text)


def dumps_trusted(value: Any) -> str:
    """Write a value built by flask_marmeon itself (only plain JSON types)."""
    return _ESCAPE.sub(_escape_char, _encode(value))


def describe(block: Any) -> str:
    """Name a block in a message: its ``@type``, or its graph's node count."""
    if isinstance(block, Mapping):
        kind = block.get("@type")
        if isinstance(kind, str):
            return f"@type {kind!r}"
        if isinstance(kind, (list, tuple)) and kind:
            return "@type " + ", ".join(repr(k) for k in kind)
        graph = block.get("@graph")
        if isinstance(graph, (list, tuple)):
            return f"graph of {len(graph)} node{'s' if len(graph) != 1 else ''}"
    return "block without @type"
