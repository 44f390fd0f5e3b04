"""flask_marmeon: search engines and link previews for Flask."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .errors import StartupError as StartupError
from .extension import Marmeon as Marmeon
from .head import render_head as render_head
from .page import Alternate as Alternate
from .page import Page as Page

try:
    __version__ = version("flask-marmeon")
except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0.0.0"

__all__ = [
    "Alternate",
    "Marmeon",
    "Page",
    "StartupError",
    "render_head",
]
