"""Which other routes could take a marked route's addresses.

An address of a marked route is matched back through the router only when
another GET route could answer it: a route without arguments on exactly that
path, or one whose pattern matches it. Two rules whose paths start
differently, or have different numbers of segments, never meet, so most
routes have no rival at all and no address of theirs is matched back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from werkzeug.routing import Rule

from .rule_parts import rule_parts

Rivals = tuple[frozenset[str], "re.Pattern[str] | None"]
NO_RIVALS: Rivals = (frozenset(), None)
#: A rule's path up to its first argument, and its segments (see _shape).
_Shape = tuple[str, "list[str | None] | None"]


def _pattern(rule: Rule) -> str:
    parts = rule_parts(rule)
    return "".join(
        f"(?:{parts.converters[data].regex})" if dynamic else re.escape(data)
        for dynamic, data in parts.trace
    )


def _shape(rule: Rule, fixed: Mapping[str, str] | None = None) -> _Shape:
    """The rule's path up to its first argument (whose value ``fixed`` does
    not give: a localized rule's locale), and its segments, a segment with
    an argument as None; None when an argument can span several segments."""
    text: list[str] = []
    spans = False
    parts = rule_parts(rule)
    for dynamic, data in parts.trace:
        if dynamic and fixed is not None and data in fixed:
            data = fixed[data]
        elif dynamic:
            spans = spans or not parts.converters[data].part_isolating
            data = "\0"
        text.append(data)
    path = "".join(text)
    segments = [None if "\0" in part else part for part in path.split("/")]
    return path.partition("\0")[0], None if spans else segments


def _could_share(one: _Shape, two: _Shape) -> bool:
    """Whether two rules' shapes (see :func:`_shape`) can name one path."""
    (prefix, segments), (other_prefix, other_segments) = one, two
    if not (prefix.startswith(other_prefix) or other_prefix.startswith(prefix)):
        return False
    if segments is None or other_segments is None:
        return True
    return len(segments) == len(other_segments) and all(
        a is None or b is None or a == b
        for a, b in zip(segments, other_segments, strict=True)
    )


def answers_get(rule: Rule) -> bool:
    """Whether a request for the rule's address reaches it (GET, not build-only)."""
    if rule.build_only or getattr(rule, "websocket", False):
        return False
    return rule.methods is None or "GET" in rule.methods


def rivals_of(
    rule: Rule, candidates: list[Rule], fixed: Mapping[str, str] | None = None
) -> Rivals:
    """The paths of the routes without arguments among ``candidates`` that
    could take an address of ``rule`` (with ``fixed`` arguments), and one
    pattern for the addresses of the others."""
    own = _shape(rule, fixed)
    others = [
        other
        for other in candidates
        if other is not rule and _could_share(own, _shape(other))
    ]
    static = frozenset(
        "".join(data for _, data in rule_parts(other).trace)
        for other in others
        if not rule_parts(other).converters
    )
    patterns = [_pattern(other) for other in others if rule_parts(other).converters]
    if not patterns:
        return static, None
    try:
        return static, re.compile("|".join(f"(?:{one})" for one in patterns))
    except re.error:
        # Converters with named groups cannot share one pattern: match all.
        return static, re.compile(".*", re.DOTALL)


def could_take(rivals: Rivals, decoded_path: str) -> bool:
    """Whether one of ``rivals`` could take the (decoded) path."""
    static, pattern = rivals
    return decoded_path in static or (
        pattern is not None and pattern.fullmatch(decoded_path) is not None
    )
