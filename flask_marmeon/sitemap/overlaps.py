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


def _pattern(rule: Rule) -> str:
    pieces: list[str] = []
    parts = rule_parts(rule)
    for dynamic, data in parts.trace:
        if dynamic:
            pieces.append(f"(?:{parts.converters[data].regex})")
        else:
            pieces.append(re.escape(data))
    return "".join(pieces)


def segments(
    rule: Rule, fixed: Mapping[str, str] | None = None
) -> list[str | None] | None:
    """The rule's path segments, a segment with an argument as None; None when
    an argument can span several segments. ``fixed`` gives the text of
    arguments whose value is known (a localized rule's locale)."""
    text: list[str] = []
    parts = rule_parts(rule)
    for dynamic, data in parts.trace:
        if dynamic and fixed is not None and data in fixed:
            text.append(fixed[data])
        elif dynamic:
            if not parts.converters[data].part_isolating:
                return None
            text.append("\0")
        else:
            text.append(data)
    return [None if "\0" in part else part for part in "".join(text).split("/")]


def could_share(one: list[str | None] | None, two: list[str | None] | None) -> bool:
    """Whether two rules' segments (see :func:`segments`) can name one path."""
    if one is None or two is None:
        return True
    if len(one) != len(two):
        return False
    return all(a is None or b is None or a == b for a, b in zip(one, two, strict=True))


def literal_prefix(rule: Rule, fixed: Mapping[str, str] | None = None) -> str:
    """The rule's path up to its first argument (whose value ``fixed`` does
    not give)."""
    prefix = ""
    for dynamic, data in rule_parts(rule).trace:
        if dynamic:
            if fixed is None or data not in fixed:
                break
            data = fixed[data]
        prefix += data
    return prefix


def prefixes_meet(one: str, two: str) -> bool:
    """Whether paths starting with ``one`` and ``two`` can be the same."""
    return one.startswith(two) or two.startswith(one)


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
    own = segments(rule, fixed)
    prefix = literal_prefix(rule, fixed)
    others = [
        other
        for other in candidates
        if other is not rule
        and could_share(own, segments(other))
        and prefixes_meet(prefix, literal_prefix(other))
    ]
    static = frozenset(
        "".join(data for _, data in rule_parts(other).trace)
        for other in others
        if not rule_parts(other).converters
    )
    return static, _union(
        [_pattern(other) for other in others if rule_parts(other).converters]
    )


def _union(patterns: list[str]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    try:
        return re.compile("|".join(f"(?:{pattern})" for pattern in patterns))
    except re.error:
        # Converters with named groups cannot share one pattern: match all.
        return re.compile(".*", re.DOTALL)
