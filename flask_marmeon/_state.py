"""Per-app state, kept at ``app.extensions["marmeon"]``."""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import Flask, current_app

from .config import Settings

if TYPE_CHECKING:
    from ._edge import Edge
    from .extension import Marmeon
    from .head.app import HeadState
    from .og_images.state import OgImagesState
    from .sitemap.cache import SitemapCache
    from .sitemap.file_caches import FileCaches


@dataclass(eq=False)
class MarmeonState:
    """Everything the extension keeps for one app, made in ``init_app``.

    Modules that own a step keep their part here, each in a typed field,
    never in module globals, so two apps in one process never share anything.
    """

    settings: Settings
    extension: Marmeon
    #: The head's part (flask_marmeon.head.app.HeadState).
    head: HeadState
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Keys already warned about: "once" means once per app and process.
    once: set[Hashable] = field(default_factory=set)
    #: Names of blueprints marked with localized().
    localized_blueprints: set[str] = field(default_factory=set)
    #: The sitemap's files (flask_marmeon.sitemap.cache), set by init_app
    #: (the endpoints that serve them are added when the edge starts, and
    #: only when a route is marked).
    sitemap_cache: SitemapCache | None = None
    #: Every sitemap file's cache: the site's build (``sitemap_cache``), and
    #: each paged route's boundaries and parts (flask_marmeon.sitemap.file_caches).
    sitemap_files: FileCaches | None = None
    #: The WSGI wrapper of app.wsgi_app (flask_marmeon._edge), set by init_app.
    edge: Edge | None = None
    #: The largest sitemap file in bytes; None for the format's 50 MiB (tests
    #: lower it to reach the limit with a small file).
    sitemap_max_bytes: int | None = None
    #: The browser module's path below the mount path (``/marmeon.<hash>.js``
    #: style), set by flask_marmeon.browser's init_app.
    browser_module_path: str = ""
    #: Whether the app's error handlers are wrapped (flask_marmeon.i18n.errors).
    error_handlers_wrapped: bool = False
    #: Generated images (flask_marmeon.og_images.app), set by init_app.
    og_images: OgImagesState | None = None


def get_state(app: Flask | None = None) -> MarmeonState:
    """Return the app's state, or say how to set the extension up."""
    if app is None:
        app = current_app._get_current_object()  # type: ignore[attr-defined]
    assert app is not None
    try:
        state: MarmeonState = app.extensions["marmeon"]
    except KeyError:
        raise RuntimeError(
            f"flask_marmeon is not set up on the app {app.name!r}."
            " Did you forget Marmeon(app) or marmeon.init_app(app)?"
        ) from None
    return state
