"""What the audit adds to an app at ``init_app``: the preview and the warning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask

from . import devwarn, preview

if TYPE_CHECKING:
    from .._state import MarmeonState


def init_app(app: Flask, state: MarmeonState) -> None:
    """Register ``/_marmeon/preview`` and the noindex development warning."""
    preview.register(app)
    devwarn.register(app, state)
