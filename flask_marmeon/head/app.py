"""What the head keeps per app: ``MarmeonState.head``, made in ``init_app``."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Settings
from .locales import OgLocales
from .memo import HeadMemo
from .urls import UrlPolicy

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

    @classmethod
    def for_settings(cls, settings: Settings) -> HeadState:
        """The head's state for an app with these settings."""
        return cls(
            policy=UrlPolicy(settings.app_url),
            og_locales=OgLocales(settings.locales),
        )
