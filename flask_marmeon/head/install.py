"""What the head adds to an app in ``Marmeon.init_app``: its part of the
app's state and its own steps at its stages."""

from __future__ import annotations

from .._state import MarmeonState
from . import json_ld_blocks
from .locales import OgLocales
from .resolve import head_steps
from .stages import MERGED, RESOLVE
from .state import HeadState
from .url_policy import UrlPolicy


def init_app(state: MarmeonState) -> HeadState:
    """Add the head's part to ``state`` and register its steps; the part."""
    settings = state.settings
    part = HeadState(
        UrlPolicy(settings.app_url), og_locales=OgLocales(settings.locales)
    )
    state.add(part)
    part.stages.add(MERGED, json_ld_blocks.written)
    for step in head_steps(part.og_locales):
        part.stages.add(RESOLVE, step)
    return part
