"""robots.txt: the specification's file, and the app's rules per crawler.

``MARMEON_ROBOTS_RULES`` is a list of rules, each a ``User-agent`` group::

    app.config["MARMEON_ROBOTS_RULES"] = [
        {"user_agent": ["GPTBot", "CCBot"], "disallow": ["/"]},
        {"user_agent": "*", "disallow": ["/admin/"], "allow": ["/admin/help"]},
    ]

The groups are written in order after the default ``User-agent: *`` group,
which a rule naming ``*`` replaces (keeping the extension's own
``Disallow`` of its internal endpoints). Paths are the app's: they get the
mount path. The ``Sitemap:`` line stays. A site that must not be indexed
ignores the rules: everything is disallowed.

:func:`rules_problems` says what is wrong with the setting (H10, at start and
in ``flask marmeon check-routes``), so that :func:`robots_txt` only ever
writes rules that were checked.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Sequence
from typing import Any

#: The keys a rule may have.
RULE_KEYS = ("user_agent", "disallow", "allow")
#: What the extension keeps crawlers out of: its internal endpoints.
INTERNAL_PATH = "/_marmeon/"
SITEMAP_PATH = "/sitemap.xml"


def robots_txt(
    origin: str,
    root: str,
    indexable: bool,
    rules: Sequence[Any] = (),
    sitemap: str | None = None,
) -> str:
    """The robots.txt text, from configuration only: the groups (the
    default one, or the rules'), then the sitemap's address; for a site
    that must not be indexed, everything disallowed and no sitemap.

    ``rules`` are MARMEON_ROBOTS_RULES, already checked by
    :func:`rules_problems`. ``sitemap`` is the address the ``Sitemap:`` line
    names (MARMEON_SITEMAP_URL; default: the app's own /sitemap.xml; ``""``:
    none, the app serving none).
    """
    if not indexable:
        return f"User-agent: *\nDisallow: {root}/\n"
    groups: list[str] = []
    if not any("*" in _agents(rule) for rule in rules):
        groups.append(f"User-agent: *\nDisallow: {root}{INTERNAL_PATH}\n")
    for rule in rules:
        agents = _agents(rule)
        lines = [f"User-agent: {agent}" for agent in agents]
        disallow = _paths(rule.get("disallow"))
        allow = _paths(rule.get("allow"))
        if "*" in agents:
            disallow = [INTERNAL_PATH, *disallow]
        lines += [f"Disallow: {root}{path}" for path in disallow]
        lines += [f"Allow: {root}{path}" for path in allow]
        if not disallow and not allow:
            lines.append("Disallow:")  # an empty group: everything allowed
        groups.append("\n".join(lines) + "\n")
    if sitemap is None:
        sitemap = f"{origin}{root}{SITEMAP_PATH}"
    return "\n".join(groups) + (f"\nSitemap: {sitemap}\n" if sitemap else "")


# robots.txt's Last-Modified is taken from its text (see robots_modified):
# 2001-01-02 (UTC), plus up to about twenty years.
_DATES_FROM = 978_393_600
_DATES_SPAN = 20 * 365 * 86_400


def robots_modified(text: bytes) -> int:
    """robots.txt's ``Last-Modified`` (seconds since the epoch), the same
    in every process and on every machine for the same text, and another
    one for another text.

    The text is made from configuration, so no process knows when it last
    changed; a worker's start time would give each worker its own date for
    one ``ETag``. A date read from the text's digest is stable, but not in
    order: an ``If-Modified-Since`` is therefore answered 304 only when it
    names this date exactly (see the robots view).
    """
    digest = int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
    return _DATES_FROM + digest % _DATES_SPAN


def _agents(rule: Any) -> list[str]:
    value = rule.get("user_agent") if isinstance(rule, dict) else None
    return [value] if isinstance(value, str) else list(value or ())


def _paths(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value or ())


def rules_problems(rules: Any) -> list[str]:
    """Why MARMEON_ROBOTS_RULES stops the start (H10), one reason each."""
    if rules is None:
        return []
    if isinstance(rules, dict | str) or not isinstance(rules, list | tuple):
        return [
            "MARMEON_ROBOTS_RULES must be a list of rules such as"
            ' [{"user_agent": "GPTBot", "disallow": ["/"]}],'
            f" not {type(rules).__name__}"
        ]
    reasons: list[str] = []
    for number, rule in enumerate(rules, 1):
        where = f"MARMEON_ROBOTS_RULES rule {number}"
        if not isinstance(rule, dict):
            reasons.append(
                f"{where} must be a dict with the keys 'user_agent', 'disallow'"
                f" and 'allow', not {rule!r}"
            )
            continue
        reasons += _rule_problems(where, rule)
    return reasons


def _rule_problems(where: str, rule: dict[Any, Any]) -> list[str]:
    reasons: list[str] = []
    for key in rule:
        if key not in RULE_KEYS:
            close = difflib.get_close_matches(str(key), RULE_KEYS, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            reasons.append(
                f"{where} has the key {key!r}; a rule has 'user_agent',"
                f" 'disallow' and 'allow'.{hint}"
            )
    if "user_agent" not in rule:
        reasons.append(
            f"{where} has no 'user_agent': name the crawlers it is for, such"
            " as 'GPTBot', or '*' for all"
        )
    else:
        reasons += _agent_problems(where, rule["user_agent"])
    for key in ("disallow", "allow"):
        if key in rule:
            reasons += _path_problems(f"{where}'s {key!r}", rule[key])
    return reasons


def _agent_problems(where: str, value: Any) -> list[str]:
    agents = [value] if isinstance(value, str) else value
    if not isinstance(agents, list | tuple) or not agents:
        return [
            f"{where}'s 'user_agent' must be a crawler's name or a list of"
            f" them, such as ['GPTBot', 'CCBot'], not {value!r}"
        ]
    reasons = []
    for agent in agents:
        if not isinstance(agent, str) or not agent.strip():
            reasons.append(f"{where}'s 'user_agent' holds {agent!r}: give a name")
        elif any(char in agent for char in "\r\n") or not agent.isprintable():
            reasons.append(
                f"{where}'s 'user_agent' {agent!r} holds a line break or a"
                " control character, which would end its line of robots.txt"
            )
    return reasons


def _path_problems(where: str, value: Any) -> list[str]:
    paths = [value] if isinstance(value, str) else value
    if not isinstance(paths, list | tuple):
        return [f"{where} must be a list of paths such as ['/admin/'], not {value!r}"]
    reasons = []
    for path in paths:
        if not isinstance(path, str) or not path.startswith("/"):
            reasons.append(
                f"{where} holds {path!r}: a path starts with '/' (the app's"
                " path, such as '/admin/'; the mount path is added)"
            )
        elif not path.isprintable() or any(char.isspace() for char in path):
            reasons.append(
                f"{where} holds {path!r}, with a space, a line break or a control"
                " character: percent-encode it (a line break would end its line"
                " of robots.txt)"
            )
        elif "#" in path:
            reasons.append(
                f"{where} holds {path!r}, with '#': crawlers read the rest of"
                " its line as a comment, so the rule would name another path."
                " Percent-encode it as %23 (a URL's fragment never reaches the"
                " server, so no path a crawler asks for holds '#')"
            )
    return reasons
