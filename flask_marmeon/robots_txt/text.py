"""robots.txt's text: the specification's file, with the app's rules per crawler.

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

:func:`.rules.rules_problems` says what is wrong with the setting (H10, at
start and in ``flask marmeon check-routes``), so that :func:`robots_txt` only
ever writes rules that were checked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

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
    :func:`.rules.rules_problems`. ``sitemap`` is the address the ``Sitemap:`` line
    names (MARMEON_SITEMAP_URL; default: the app's own /sitemap.xml; ``""``:
    none, the app serving none).
    """
    if not indexable:
        return f"User-agent: *\nDisallow: {root}/\n"
    groups: list[str] = []
    if not any("*" in _listed(rule["user_agent"]) for rule in rules):
        groups.append(f"User-agent: *\nDisallow: {root}{INTERNAL_PATH}\n")
    for rule in rules:
        agents = _listed(rule["user_agent"])
        lines = [f"User-agent: {agent}" for agent in agents]
        disallow = _listed(rule.get("disallow"))
        allow = _listed(rule.get("allow"))
        if "*" in agents:
            # A rule may name the internal path itself: one line says it.
            disallow = [INTERNAL_PATH, *(p for p in disallow if p != INTERNAL_PATH)]
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


def _listed(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value or ())
