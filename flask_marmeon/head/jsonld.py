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
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

#: Beyond this, a browser's JSON.parse rounds an integer.
MAX_SAFE_INTEGER = 2**53 - 1


#: Where a value is: None for the block, else (the parent's path, key or index).
#: Built as the walk goes (a tuple is cheap) and spelled out only for an error.
Path: TypeAlias = "tuple[Path, object] | None"


def spell(path: Path) -> str:
    """``None`` -> ``""``; ``((None, "a"), 0)`` -> ``"['a'][0]"``."""
    keys = []
    while path is not None:
        path, key = path
        keys.append(f"[{key!r}]")
    return "".join(reversed(keys))


class JsonLdError(ValueError):
    """A value that JSON cannot write exactly; ``path`` says where it is."""

    def __init__(self, reason: str, path: Path) -> None:
        self.reason = reason
        self.path = spell(path)
        super().__init__(f"{self.path or 'the block'} {reason}")


def _refuse(value: Any, path: Path) -> JsonLdError:
    if isinstance(value, int):
        return JsonLdError(
            f"is the int {value!r}, beyond +/-(2**53 - 1), which a browser"
            " would round; write it as a string",
            path,
        )
    if isinstance(value, float):
        return JsonLdError(f"is {value!r}, which JSON cannot write", path)
    hint = ""
    if hasattr(value, "isoformat"):
        hint = "; write it as its ISO 8601 string with .isoformat()"
    return JsonLdError(
        f"is a {type(value).__name__} ({value!r:.60}), which JSON cannot write"
        f" exactly{hint}",
        path,
    )


def _check(value: Any, path: Path, seen: set[int]) -> None:
    """Raise :class:`JsonLdError` for anything JSON cannot write exactly.

    The leaves that blocks are made of (str, bool, None, int, float) are
    checked inline, without a call each: this runs on every request.
    """
    kind = type(value)
    mapping = kind is dict or (
        kind is not list and kind is not tuple and isinstance(value, Mapping)
    )
    if mapping:
        pairs: Any = value.items()
    elif isinstance(value, (list, tuple)):
        pairs = enumerate(value)
    elif isinstance(value, str) or value is None or isinstance(value, bool):
        return
    elif isinstance(value, int):
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return
        raise _refuse(value, path)
    elif isinstance(value, float):
        if math.isfinite(value):
            return
        raise _refuse(value, path)
    elif not isinstance(value, type) and hasattr(type(value), "__html__"):
        return  # a lazy string
    else:
        raise _refuse(value, path)
    if id(value) in seen:
        raise JsonLdError("refers back to itself (a cycle)", path)
    seen.add(id(value))
    for key, item in pairs:
        if mapping and not isinstance(key, str):
            raise JsonLdError(f"has the key {key!r}, but JSON keys are strings", path)
        item_kind = type(item)
        if item_kind is str or item_kind is bool or item is None:
            continue
        if item_kind is int:
            if -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                continue
            raise _refuse(item, (path, key))
        if item_kind is float and math.isfinite(item):
            continue
        if item_kind is dict and _text_leaves(item):
            # A node of text only (a Person, an Organization): no call, and
            # no container in it, so no cycle through it.
            continue
        _check(item, (path, key), seen)
    seen.discard(id(value))


def _text_leaves(node: dict[Any, Any]) -> bool:
    """Whether ``node`` has str keys and only str, bool or None values."""
    for key, item in node.items():
        if type(key) is not str:
            return False
        kind = type(item)
        if kind is not str and kind is not bool and item is not None:
            return False
    return True


def _default(value: Any) -> Any:
    # Called by the encoder for what it does not know; _check let through
    # only these.
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)


def _encoder(*, ascii_only: bool) -> Callable[[Any], str]:
    """Compact JSON (``,`` and ``:``), NaN refused, non-ASCII as it is or
    escaped: made once (json.dumps makes an encoder for every block; the
    private C encoder was measured and dropped, speedups.py)."""
    return json.JSONEncoder(
        ensure_ascii=ascii_only,
        allow_nan=False,
        separators=(",", ":"),
        check_circular=False,  # _check refuses cycles before writing
        default=_default,
    ).encode


_encode = _encoder(ascii_only=False)
_encode_ascii = _encoder(ascii_only=True)


def dumps(value: Any) -> str:
    """Write ``value`` as JSON that is safe inside ``<script>``.

    Raises :class:`JsonLdError` (a ValueError) for anything JSON cannot write
    exactly.
    """
    try:
        _check(value, None, set())
    except RecursionError:
        raise JsonLdError("is nested too deeply to write", None) from None
    text = _encode(value)
    # JSON escapes the C0 controls itself. What else HTML reports as an error
    # (DEL, C1 controls, noncharacters) is something str.isprintable()
    # refuses: such a block is written all in ASCII, every other character
    # escaped (rare, and means the same).
    if "\x7f" in text if text.isascii() else not text.isprintable():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise JsonLdError(
                "holds a lone surrogate, which UTF-8 cannot write", None
            ) from None
        text = _encode_ascii(value)
    return text.replace("<", "\\u003c")


#: The most characters of a block's @type that a message quotes.
QUOTED = 100


def _quote(kind: object) -> str:
    """``repr`` of an @type, cut to ``QUOTED`` characters with an ellipsis:
    the @type may be text from anyone, of any length."""
    if isinstance(kind, str) and len(kind) > QUOTED:
        return repr(kind[:QUOTED]) + "…"
    return repr(kind)[: QUOTED + 2]


def describe(block: Any) -> str:
    """Name a block in a message: its ``@type`` (at most ``QUOTED`` characters
    of it), or its graph's node count."""
    if isinstance(block, Mapping):
        kind = block.get("@type")
        if isinstance(kind, str):
            return f"@type {_quote(kind)}"
        if isinstance(kind, (list, tuple)) and kind:
            text = "@type " + ", ".join(_quote(k) for k in kind[:3])
            return text + (", …" if len(kind) > 3 else "")
        graph = block.get("@graph")
        if isinstance(graph, (list, tuple)):
            return f"graph of {len(graph)} node{'s' if len(graph) != 1 else ''}"
    # Read after "The JSON-LD block with ...".
    return "no @type"
