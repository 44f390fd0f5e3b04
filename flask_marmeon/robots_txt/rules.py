"""MARMEON_ROBOTS_RULES checked: what is wrong with the setting, one reason
each (H10, at start and in ``flask marmeon check-routes``), so that
:func:`.text.robots_txt` only ever writes rules that were checked."""

from __future__ import annotations

from typing import Any

from ..checks import Problem
from ..errors import did_you_mean

#: The setting's shape: a list of dicts with the known keys.
SHAPE_ID = "sitemap.E002"
#: A rule's crawlers (``user_agent``).
AGENT_ID = "sitemap.E004"
#: A rule's paths (``disallow``, ``allow``).
PATH_ID = "sitemap.E005"

#: The keys a rule may have.
RULE_KEYS = ("user_agent", "disallow", "allow")


def rules_problems(rules: Any) -> list[Problem]:
    """Why MARMEON_ROBOTS_RULES stops the start (H10), one problem each: the
    setting's shape (sitemap.E002), a rule's crawlers (E004), its paths (E005)."""
    if rules is None:
        return []
    if isinstance(rules, dict | str) or not isinstance(rules, list | tuple):
        return [
            Problem(
                SHAPE_ID,
                "MARMEON_ROBOTS_RULES must be a list of rules such as"
                ' [{"user_agent": "GPTBot", "disallow": ["/"]}],'
                f" not {type(rules).__name__}",
            )
        ]
    found: list[Problem] = []
    for number, rule in enumerate(rules, 1):
        where = f"MARMEON_ROBOTS_RULES rule {number}"
        if not isinstance(rule, dict):
            reason = (
                f"{where} must be a dict with the keys 'user_agent', 'disallow'"
                f" and 'allow', not {rule!r}"
            )
            found.append(Problem(SHAPE_ID, reason))
            continue
        found += _rule_problems(where, rule)
    return found


def _rule_problems(where: str, rule: dict[Any, Any]) -> list[Problem]:
    reasons: list[str] = []
    for key in rule:
        if key not in RULE_KEYS:
            reasons.append(
                f"{where} has the key {key!r}; a rule has 'user_agent',"
                f" 'disallow' and 'allow'.{did_you_mean(str(key), RULE_KEYS)}"
            )
    found = [Problem(SHAPE_ID, reason) for reason in reasons]
    if "user_agent" not in rule:
        found.append(
            Problem(
                AGENT_ID,
                f"{where} has no 'user_agent'",
                "name the crawlers it is for, such as 'GPTBot', or '*' for all",
            )
        )
    else:
        found += _agent_problems(where, rule["user_agent"])
    for key in ("disallow", "allow"):
        if key in rule:
            found += _path_problems(f"{where}'s {key!r}", rule[key])
    return found


def _agent_problems(where: str, value: Any) -> list[Problem]:
    agents = [value] if isinstance(value, str) else value
    if not isinstance(agents, list | tuple) or not agents:
        reason = (
            f"{where}'s 'user_agent' must be a crawler's name or a list of"
            f" them, such as ['GPTBot', 'CCBot'], not {value!r}"
        )
        return [Problem(AGENT_ID, reason)]
    reasons = []
    for agent in agents:
        if not isinstance(agent, str) or not agent.strip():
            reasons.append(f"{where}'s 'user_agent' holds {agent!r}: give a name")
        elif any(char in agent for char in "\r\n") or not agent.isprintable():
            reasons.append(
                f"{where}'s 'user_agent' {agent!r} holds a line break or a"
                " control character, which would end its line of robots.txt"
            )
    return [Problem(AGENT_ID, reason) for reason in reasons]


def _path_problems(where: str, value: Any) -> list[Problem]:
    paths = [value] if isinstance(value, str) else value
    if not isinstance(paths, list | tuple):
        reason = f"{where} must be a list of paths such as ['/admin/'], not {value!r}"
        return [Problem(PATH_ID, reason)]
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
    return [Problem(PATH_ID, reason) for reason in reasons]
