"""What the head keeps per app: its part of the app's state, made in ``init_app``."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from .._state import MarmeonState
from .locales import OgLocales
from .memo import HeadMemo
from .stages import Stages
from .url_policy import UrlPolicy


def _new_mark() -> str:
    # NUL is never in a page's own text that HTML could carry, and the
    # random part is this app's and process's alone: no text a user writes
    # into a page can be taken for it.
    return f"\x00marmeon-head-{secrets.token_hex(8)}\x00"


#: How many kinds of JSON-LD error (a block's description) production logs.
JSON_LD_ERRORS_SIZE = 256


@dataclass(eq=False)
class HeadState:
    """The head's part of the per-app state."""

    #: The URL policy, with its memo of decisions.
    policy: UrlPolicy
    #: The JSON-LD errors logged already, by the block's description; at most
    #: JSON_LD_ERRORS_SIZE, so that blocks with ever new @types (text from
    #: users, say) cannot grow it without end.
    json_ld_errors: set[str] = field(default_factory=set)
    #: Heads written before (flask_marmeon.head.memo).
    pages: HeadMemo = field(default_factory=HeadMemo)
    #: og:locale of each of APP_LOCALES' tags, looked up once.
    og_locales: OgLocales = field(default_factory=OgLocales)
    #: The browser module's path below the mount path (``/marmeon.<hash>.js``
    #: style), set by flask_marmeon.browser's init_app; the head writes it.
    module_path: str = ""
    #: What render_head() writes while a page renders, where the head goes
    #: once the page has rendered (flask_marmeon.head.templates).
    mark: str = field(default_factory=_new_mark)
    #: The steps each subsystem registered at the head's stages, in its
    #: init_app (flask_marmeon.head.stages).
    stages: Stages = field(default_factory=Stages)


def head_state(state: MarmeonState) -> HeadState:
    """The head's part of the app's state."""
    # The dict itself, not state.part(): this runs on every page.
    part: HeadState = state.parts[HeadState]
    return part
