"""A bound rule's path as the sitemap reads it: its static text and its
arguments in order, and each argument's converter.

Read from the rule's text by Werkzeug's documented syntax, each converter
made by the public ``Rule.get_converter`` (Werkzeug keeps the same in
private attributes, ``Rule._trace`` and ``_converters``, which can change in
any release), once per rule: a bound rule's text and converters do not
change, and a build reads every rule of the app for each marked one
(:mod:`.overlaps`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from werkzeug.routing import BaseConverter, Rule, parse_converter_args

#: ``<converter(arguments):name>``, the converter and its arguments optional
#: (Werkzeug's documented rule syntax).
_ARGUMENT = re.compile(
    r"<(?:(?P<converter>[A-Za-z_]\w*)(?:\((?P<args>.*?)\))?:)?(?P<name>[A-Za-z_]\w*)>"
)
#: Where a rule keeps its parts (each rule belongs to one app's map).
_MEMO = "_marmeon_rule_parts"


@dataclass(frozen=True)
class RuleParts:
    """A rule's path: ``(is_argument, text or name)`` in order, static texts
    merged (the host part left off), and each argument's converter."""

    trace: tuple[tuple[bool, str], ...]
    converters: Mapping[str, BaseConverter]


def _converter(rule: Rule, found: re.Match[str]) -> BaseConverter:
    args, kwargs = parse_converter_args(found["args"]) if found["args"] else ((), {})
    return rule.get_converter(
        found["name"], found["converter"] or "default", args, kwargs
    )


def public_parts(rule: Rule) -> RuleParts:
    """The parts from the rule's text and public API."""
    trace: list[tuple[bool, str]] = []
    # The host's or subdomain's arguments are arguments of the rule too.
    host = (rule.host if rule.map.host_matching else rule.subdomain) or ""
    converters = {
        found["name"]: _converter(rule, found) for found in _ARGUMENT.finditer(host)
    }
    text = rule.rule
    position = 0
    for found in _ARGUMENT.finditer(text):
        if found.start() > position:
            trace.append((False, text[position : found.start()]))
        converters[found["name"]] = _converter(rule, found)
        trace.append((True, found["name"]))
        position = found.end()
    if position < len(text):
        trace.append((False, text[position:]))
    return RuleParts(tuple(trace), converters)


def rule_parts(rule: Rule) -> RuleParts:
    """The rule's parts, read once and kept on the rule."""
    parts: RuleParts | None = rule.__dict__.get(_MEMO)
    if parts is None:
        parts = public_parts(rule)
        setattr(rule, _MEMO, parts)
    return parts
