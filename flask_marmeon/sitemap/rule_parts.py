"""A bound rule's path as the sitemap reads it: its static text and its
arguments in order, and each argument's converter.

Werkzeug keeps both on the rule, in private attributes (``Rule._trace``,
``Rule._converters``) that can change in any release. They are read only
when the probe below, run once at import, finds them as expected on a
sample map; otherwise (and in the tests, on purpose) the public way is
taken: the rule's text parsed by its documented syntax, each converter made
by the public ``Rule.get_converter``. Both give the same parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from werkzeug.routing import BaseConverter, Map, Rule, parse_converter_args

#: ``<converter(arguments):name>``, the converter and its arguments optional
#: (Werkzeug's documented rule syntax).
_ARGUMENT = re.compile(
    r"<(?:(?P<converter>[A-Za-z_]\w*)(?:\((?P<args>.*?)\))?:)?(?P<name>[A-Za-z_]\w*)>"
)


@dataclass(frozen=True)
class RuleParts:
    """A rule's path: ``(is_argument, text or name)`` in order, static texts
    merged (the host part left off), and each argument's converter."""

    trace: tuple[tuple[bool, str], ...]
    converters: Mapping[str, BaseConverter]


def _merged(trace: list[tuple[bool, str]]) -> tuple[tuple[bool, str], ...]:
    out: list[tuple[bool, str]] = []
    for dynamic, data in trace:
        if not dynamic and out and not out[-1][0]:
            out[-1] = (False, out[-1][1] + data)
        elif dynamic or data:
            out.append((dynamic, data))
    return tuple(out)


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
        trace.append((False, text[position : found.start()]))
        converters[found["name"]] = _converter(rule, found)
        trace.append((True, found["name"]))
        position = found.end()
    trace.append((False, text[position:]))
    return RuleParts(_merged(trace), converters)


def private_parts(rule: Rule) -> RuleParts:
    """The parts as Werkzeug compiled them (its private attributes)."""
    trace = list(rule._trace)
    for position, (dynamic, data) in enumerate(trace):
        if not dynamic and data == "|":
            trace = trace[position + 1 :]
            break
    return RuleParts(_merged(trace), dict(rule._converters))


def same(one: RuleParts, two: RuleParts) -> bool:
    """Whether two readings of a rule agree (converters by kind and pattern)."""

    def kinds(parts: RuleParts) -> dict[str, tuple[type, str, bool]]:
        return {
            name: (type(c), c.regex, c.part_isolating)
            for name, c in parts.converters.items()
        }

    return one.trace == two.trace and kinds(one) == kinds(two)


#: The sample the probe reads: every argument shape the sitemap handles.
SAMPLE = (
    "/",
    "/notes/<int:note_id>",
    "/a/<string(length=2):x>-<path:rest>/z",
    "/<a>.<b>",
    "/d/<float(signed=True):f>/<uuid:u>/<any(x, y):choice>/",
)


def probe(read: Callable[[Rule], RuleParts] = private_parts) -> bool:
    """Whether ``read`` gives the public parts of every sample rule (False
    when it raises: an attribute gone, or of another shape)."""
    url_map = Map([Rule(text, endpoint=str(n)) for n, text in enumerate(SAMPLE)])
    url_map.add(Rule("/s/<x>", endpoint="sub", subdomain="<sub>"))
    try:
        return all(
            same(read(rule), public_parts(rule)) for rule in url_map.iter_rules()
        )
    except Exception:
        return False


#: Whether this Werkzeug's private attributes read as expected (the probe).
PRIVATE_OK = probe()


def rule_parts(rule: Rule) -> RuleParts:
    """The rule's parts: from Werkzeug's compiled rule when the probe passed,
    else from its text and public API."""
    return private_parts(rule) if PRIVATE_OK else public_parts(rule)
