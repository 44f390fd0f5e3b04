"""The watermark: the moment up to which every change has been accepted.

Kept in the shared ``sitemap_cache`` when the app has one (every process and
machine, and the task queue's worker, read the same), else in a file in the
app's instance folder. Its key names what the sitemap's keys name:
``MARMEON_CACHE_PREFIX``, else APP_URL's origin, the mount path and the
app's import name.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from flask import Flask

from .._state import get_state
from ..sitemap.entries import utc
from ..sitemap.state import sitemap_of

#: The file in the instance folder, without a shared cache.
FILE_NAME = "flask_marmeon-indexnow-watermark.txt"


def _key(app: Flask) -> str:
    name = get_state(app).settings.store_name(app.import_name)
    return f"flask_marmeon:indexnow:{name}:watermark"


def from_iso(text: str) -> datetime:
    """``datetime.fromisoformat``, reading a final ``Z`` as UTC on Python
    3.10 too (3.11 learnt it)."""
    if text[-1:] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    return datetime.fromisoformat(text)


def _parsed(text: object) -> datetime | None:
    # What cannot be read counts as no watermark: the next run starts over.
    if not isinstance(text, str):
        return None
    try:
        return utc(from_iso(text.strip()))
    except ValueError:
        return None


def read_watermark(app: Flask) -> datetime | None:
    """The watermark (aware, UTC), or None before the first run."""
    backend = sitemap_of(app).files.backend
    if backend is not None:
        with app.app_context():
            return _parsed(backend.get(_key(app)))
    try:
        return _parsed(Path(app.instance_path, FILE_NAME).read_text())
    except FileNotFoundError:
        return None


def write_watermark(app: Flask, moment: datetime) -> None:
    """Move the watermark to ``moment``."""
    text = utc(moment).isoformat()
    backend = sitemap_of(app).files.backend
    if backend is not None:
        with app.app_context():
            # 0: kept until it is moved (Flask-Caching's "no expiry").
            backend.set(_key(app), text, timeout=0)
        return
    path = Path(app.instance_path, FILE_NAME)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole, then renamed: a reader never sees half a date.
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_text(text + "\n")
    partial.replace(path)
