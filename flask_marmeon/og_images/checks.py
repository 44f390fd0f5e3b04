"""The generated images' start-up check (H10): SECRET_KEY, the logo and
the fonts (og_images.E001)."""

from __future__ import annotations

from flask import Flask

from .._state import MarmeonState
from ..checks import Problem
from .settings import problems
from .state import og_images_of


def look_problems(app: Flask) -> list[Problem]:
    """The look's problems, each naming its setting and file."""
    return [
        Problem("og_images.E001", reason)
        for reason in problems(og_images_of(app).look, app.secret_key)
    ]


def init_app(state: MarmeonState) -> None:
    """Register the generated images' start-up check."""
    state.checks.register(look_problems, tag="og_images")
