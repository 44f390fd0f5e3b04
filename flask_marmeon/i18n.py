"""Localized routes (stub, see issue 4)."""

from __future__ import annotations

from flask import Flask

from ._state import MarmeonState


def init_app(app: Flask, state: MarmeonState) -> None:
    """Install the locale URL processors."""


def selected_locale() -> str | None:
    """The locale of the current localized route, or None."""
    return None
