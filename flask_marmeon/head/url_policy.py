"""The URL policy: absolute against APP_URL's origin, http(s) only.

The browser is the judge of what a URL means, so the decision is made with a
WHATWG URL parser (ada), the same algorithm the browser module runs with
``new URL()``:

1. Resolve the value against the origin of APP_URL. A value that fails to
   parse is left out, and so is one whose scheme is not ``http:``/``https:``.
2. A value that parses on its own (without a base) is a full URL and keeps
   its host (``https://cdn.example/x.png``).
3. Any other value is relative and must stay on APP_URL's origin:
   ``//other.example/x``, ``/\\other.example/x``, ``\\t//other.example`` and
   every other spelling that a browser resolves to another origin is left out.

Without APP_URL a relative value is left out (the server knows no origin it
may trust: never the request's Host). A kept URL is written as the parser
serializes it (its ``href``).
"""

from __future__ import annotations

import re
from typing import Any

import ada_url

_SCHEMES = frozenset(("http:", "https:"))
#: An origin no site has (.invalid is reserved), to tell a relative URL that
#: stays on the page's origin from one that names another host.
_PLACEHOLDER = "https://marmeon.invalid"


# A path that starts with one "/" and holds only characters that a URL's
# path keeps as they are (no "%", "\\", "?", "#", space, control or
# non-ASCII character), with no segment starting with "." (so no dot
# segment to remove), resolves against an origin to origin + path: the
# answer the parser gives (tests compare the two on a corpus), without its
# cost, for the commonest value, a page's own path. A compiled pattern
# checks the characters in a third of the instructions str.strip() with
# the same characters takes (callgrind, Python 3.11).
_PLAIN_PATH = re.compile(r"/(?!/)[A-Za-z0-9\-_~!$&'()*+,;=:@./]*").fullmatch


def is_plain_path(value: str) -> bool:
    """Whether ``value`` is a path that resolves to origin + ``value``."""
    return "/." not in value and _PLAIN_PATH(value) is not None


def decide(value: str, origin: str | None) -> str | None:
    """Return the absolute URL to write for ``value``, or None to leave it out.

    ``origin`` is APP_URL's origin (``"https://notes.example"``) or None.
    """
    if origin is not None and is_plain_path(value):
        return origin + value
    return decide_with_parser(value, origin)


def _parse(value: str, attributes: tuple[str, ...], base: str | None = None) -> Any:
    """The parser's ``attributes`` of ``value`` (resolved against ``base``),
    or None when it does not parse."""
    try:
        if base is not None:
            value = ada_url.join_url(base, value)
        return ada_url.parse_url(value, attributes=attributes)
    except ValueError:
        return None


def decide_with_parser(value: str, origin: str | None) -> str | None:
    """:func:`decide`, always asking the WHATWG URL parser."""
    alone = _parse(value, ("href", "protocol"))
    if alone is not None:
        # A full URL, but resolved against the base all the same: "https:x"
        # against an https base is relative in a browser (same scheme, no
        # slashes), so the base decides what it means.
        full = alone if origin is None else _parse(value, ("href", "protocol"), origin)
        return full["href"] if full and full["protocol"] in _SCHEMES else None
    if origin is None:
        return None
    resolved = _parse(value, ("href", "origin"), origin)
    if resolved is None or resolved["origin"] != origin:
        return None
    return str(resolved["href"])


class UrlPolicy:
    """:func:`decide` for one app, with a bounded memo of its decisions.

    Values repeat from request to request (a layout's image, a CDN's URL),
    so the parser's answers are kept, at most ``size`` of them (the memo
    starts again when full); the policy lives in the app's state. A plain
    path (:func:`is_plain_path`) is decided by its pattern each time and
    not kept: it is most pages' own address, new with every page never
    written before, and keeping each cost more than the pattern
    (benchmarks/head.py, new note each time: 1.25x the hand-written page
    kept, 1.22x not, same runs).
    """

    __slots__ = ("memo", "origin", "size")

    def __init__(self, origin: str | None, size: int = 2048) -> None:
        #: APP_URL's origin, or None.
        self.origin = origin
        self.size = size
        self.memo: dict[str, str | None] = {}

    def __call__(self, value: str) -> str | None:
        """The absolute URL to write for ``value``, or None to leave it out."""
        memo = self.memo
        # "" is never a decision: a miss without a raised KeyError (a page
        # never written before misses for its own URLs).
        href = memo.get(value, "")
        if href != "":
            return href
        origin = self.origin
        # is_plain_path(), inline: it runs for most URLs of every page.
        if origin is not None and "/." not in value and _PLAIN_PATH(value) is not None:
            return origin + value  # decide()'s own shortcut, not kept
        href = decide_with_parser(value, origin)
        if len(memo) >= self.size:
            memo.clear()
        memo[value] = href
        return href

    def carried(self, value: str) -> bool:
        """Whether a value the policy left out goes to the browser to resolve.

        Only when APP_URL is unset, and only a relative URL that stays on
        whatever origin it is resolved against: never a bad scheme, never
        ``//other.example/x`` or ``/\\other.example/x``, which name another host
        whatever the page's origin is.
        """
        if self.origin is not None or ada_url.check_url(value):
            return False
        resolved = _parse(value, ("origin",), _PLACEHOLDER)
        return resolved is not None and resolved["origin"] == _PLACEHOLDER


def explain(value: str, origin: str | None) -> str:
    """Say why :func:`decide` leaves ``value`` out, for a development warning."""
    alone = _parse(value, ("protocol",))
    if alone is not None and alone["protocol"] not in _SCHEMES:
        return f"its scheme {alone['protocol']!r} is not http: or https:"
    if origin is None:
        return (
            "it is relative and APP_URL is not set, so the server knows no"
            " origin to make it absolute against"
        )
    resolved = _parse(value, ("origin", "protocol"), origin)
    if resolved is None:
        return "it is not a valid URL"
    if resolved["protocol"] not in _SCHEMES:
        return f"its scheme {resolved['protocol']!r} is not http: or https:"
    return (
        f"a browser resolves it to another origin ({resolved['origin']}),"
        f" not APP_URL's ({origin}); write a path such as '/x', or a full URL"
    )
