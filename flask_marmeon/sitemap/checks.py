"""The sitemap's start-up checks (H10): MARMEON_ROBOTS_RULES, and APP_URL
as soon as a route is marked (the sitemap's addresses are built from it)."""

from __future__ import annotations

from flask import Flask

from .._state import MarmeonState, get_state
from ..checks import Problem
from ..robots_txt.rules import rules_problems
from ..routing.marks import is_marked


def robots_rules_problems(app: Flask) -> list[Problem]:
    """What is wrong with MARMEON_ROBOTS_RULES (sitemap.E002, E004, E005)."""
    return rules_problems(get_state(app).settings.robots_rules)


def app_url_problems(app: Flask) -> list[Problem]:
    """APP_URL unset while a route is marked for the sitemap (sitemap.E003)."""
    if get_state(app).settings.app_url is not None:
        return []
    if not any(is_marked(rule) for rule in app.url_map.iter_rules()):
        return []
    return [
        Problem(
            "sitemap.E003",
            "APP_URL is not set, and the sitemap's addresses are built from it",
            "set app.config['APP_URL'] (or the APP_URL environment variable) to"
            " the site's public http(s) address, such as 'https://example.com'",
        )
    ]


def init_app(state: MarmeonState) -> None:
    """Register the sitemap's start-up checks."""
    state.checks.register(robots_rules_problems)
    state.checks.register(app_url_problems)
