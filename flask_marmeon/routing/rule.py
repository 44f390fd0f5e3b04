"""The url_rule_class that takes the route options (stub, see issue 3)."""

from __future__ import annotations

from flask import Flask

from .._state import MarmeonState


def init_app(app: Flask, state: MarmeonState) -> None:
    """Install the rule class on the app."""
