"""IndexNow's start-up check (H10): MARMEON_INDEXNOW_KEY and
MARMEON_INDEXNOW_ENDPOINT (indexnow.E001 to E003)."""

from __future__ import annotations

import re

from flask import Flask

from .._state import MarmeonState, get_state
from ..checks import Problem
from ..config import web_url

# IndexNow's own pattern for a key (https://www.indexnow.org/documentation).
_INDEXNOW_KEY = re.compile(r"[A-Za-z0-9-]{8,128}")


def settings_problems(app: Flask) -> list[Problem]:
    """Why MARMEON_INDEXNOW_KEY or MARMEON_INDEXNOW_ENDPOINT stops the start
    (H10): a key the engines would refuse (indexnow.E001), a key without
    APP_URL (E002), an endpoint that is not an http(s) address (E003)."""
    settings = get_state(app).settings
    found: list[Problem] = []

    def add(id: str, message: str, hint: str) -> None:
        found.append(Problem(id, message, hint))

    key = settings.indexnow_key
    if key is not None and not (isinstance(key, str) and _INDEXNOW_KEY.fullmatch(key)):
        add(
            "indexnow.E001",
            f"MARMEON_INDEXNOW_KEY {key!r} is not an IndexNow key",
            "it must be 8 to 128 of the characters A-Z, a-z, 0-9 and '-',"
            " such as '5f1c0e7d9a2b4c6e'"
            ' (python -c "import uuid; print(uuid.uuid4().hex)")',
        )
    if key is not None and settings.app_url is None:
        add(
            "indexnow.E002",
            "MARMEON_INDEXNOW_KEY is set but APP_URL is not",
            "IndexNow's host and keyLocation are built from it. Set APP_URL"
            " to the site's public address, such as 'https://example.com'",
        )
    endpoint = settings.indexnow_endpoint
    if not isinstance(endpoint, str) or web_url(endpoint) is None:
        add(
            "indexnow.E003",
            f"MARMEON_INDEXNOW_ENDPOINT {endpoint!r} is not an http or https address",
            "leave it out for https://api.indexnow.org/indexnow, or name an"
            " engine's own, such as 'https://www.bing.com/indexnow'",
        )
    return found


def init_app(state: MarmeonState) -> None:
    """Register IndexNow's start-up check."""
    state.checks.register(settings_problems)
