"""What the audit adds to an app: the preview (at ``init_app``) and the
noindex warning (in development)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask

from . import noindex_warning, preview

if TYPE_CHECKING:
    from .._state import MarmeonState


def init_app(app: Flask, state: MarmeonState) -> None:
    """Register ``/_marmeon/preview``."""
    preview.register(app)


def development_hook(app: Flask, state: MarmeonState) -> Callable[[], None] | None:
    """What to run at the first request handled in development (the edge's
    ``on_development``): the noindex warning's hook, when wanted. Production
    requests then pass no hook of the audit."""
    if not noindex_warning.wanted(state):
        return None
    return lambda: noindex_warning.install(app, state)
