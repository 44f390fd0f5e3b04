"""IndexNow's start-up check (H10): MARMEON_INDEXNOW_KEY and
MARMEON_INDEXNOW_ENDPOINT (indexnow.E001)."""

from __future__ import annotations

from flask import Flask

from .._state import MarmeonState, get_state
from ..checks import Problem
from ..config import indexnow_problems


def settings_problems(app: Flask) -> list[Problem]:
    """The key and the endpoint's problems, each naming its setting."""
    return [
        Problem("indexnow.E001", reason)
        for reason in indexnow_problems(get_state(app).settings)
    ]


def init_app(state: MarmeonState) -> None:
    """Register IndexNow's start-up check."""
    state.checks.register(settings_problems, tag="indexnow")
