"""The app's part for generated images, and the way to it.

Apart from generator.py so that the start-up checks (routing/checks.py) reach
the look without importing what serves and draws.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import Flask

from .settings import Look
from .store import ImageStore

if TYPE_CHECKING:
    from PIL import Image

    from .fonts import Fonts


@dataclass(eq=False)
class Loaded:
    """The look's files, loaded: fonts, logo, and the digest of it all."""

    fonts: Fonts
    logo: Image.Image | None
    digest: str


@dataclass(eq=False)
class OgImagesState:
    """The app's part for generated images (one of ``MarmeonState.parts``)."""

    look: Look
    store: ImageStore
    #: APP_URL's origin and the mount path: part of what the addresses sign,
    #: and where a redirect to the current look's address points.
    scope: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)
    loaded: Loaded | None = None
    #: (digest of the texts given, key) -> the image's path (the texts cut
    #: to what is drawn), or None when it cannot be drawn.
    addresses: dict[Hashable, str | None] = field(default_factory=dict)


def og_images_of(app: Flask) -> OgImagesState:
    """The app's part for generated images (set up by ``Marmeon.init_app``)."""
    from .._state import get_state

    og: OgImagesState | None = get_state(app).parts.get(OgImagesState)
    if og is None:
        raise RuntimeError(
            f"Generated images are not set up on the app {app.name!r}: did you"
            " forget Marmeon(app)?"
        )
    return og
