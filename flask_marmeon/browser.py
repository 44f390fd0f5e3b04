"""Serves the browser module under /_marmeon/ (see issue 5)."""

from __future__ import annotations

import hashlib
from importlib.resources import files

from flask import Flask

from ._state import MarmeonState

_MODULE = "marmeon.js"


def init_app(app: Flask, state: MarmeonState) -> None:
    """Hash the module once and register its endpoint."""
    source = files("flask_marmeon").joinpath("static").joinpath(_MODULE).read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:12]
    state.extra["browser_module_path"] = f"/_marmeon/marmeon.{digest}.js"


def module_path(state: MarmeonState) -> str:
    """The module's URL path, with its content hash: ``/_marmeon/marmeon.<hash>.js``."""
    path: str = state.extra["browser_module_path"]
    return path
