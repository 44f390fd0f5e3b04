"""Serves the browser module under /_marmeon/ (stub, see issue 5)."""

from __future__ import annotations

from flask import Flask

from ._state import MarmeonState


def init_app(app: Flask, state: MarmeonState) -> None:
    """Register the browser module's endpoint."""
