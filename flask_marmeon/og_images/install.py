"""What ``Marmeon.init_app`` does for generated images: read the look
(shapes checked by config.py, files at start-up, see look.problems) and put the
endpoint at the extension's WSGI edge, in front of the app: the image is
public, carries no cookie and runs none of the app's hooks. Register the
head's step that names a page's generated images (head_step.py)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from .._edge import add_front
from .._state import MarmeonState
from ..head.stages import BEFORE_RESOLVE
from ..head.state import head_state
from . import checks
from .address import PREFIX
from .head_step import generated_images
from .serve import ImageEndpoint
from .settings import look_of
from .state import OgImagesState
from .store import ImageStore


def init_app(app: Flask, state: MarmeonState, shared: Any | None) -> None:
    """Make the look (files checked at start-up) and serve images."""
    settings = state.settings
    look = look_of(settings, app.root_path, app.static_folder)
    # The shared store only when asked: images of pages without end (a
    # search page's titles) would crowd the sitemap's files out of it.
    store = ImageStore(
        shared if look.shared else None,
        settings.store_name(app.import_name),
        app.app_context,
        memory_bytes=look.memory,
    )
    og = OgImagesState(look, store, settings.site_base)
    state.add(og)
    add_front(state, PREFIX, ImageEndpoint(app, og))
    state.checks.register(checks.look_problems)
    # The head names each OgImage's address before it resolves.
    head_state(state).stages.add(BEFORE_RESOLVE, generated_images(og, settings.root))
