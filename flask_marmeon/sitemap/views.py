"""/sitemap.xml and /robots.txt (stub, see issue 3)."""

from __future__ import annotations

from flask import Flask

from .._state import MarmeonState


def init_app(app: Flask, state: MarmeonState) -> None:
    """Register the endpoints when a route is marked."""
