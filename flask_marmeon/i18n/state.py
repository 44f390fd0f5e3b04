"""What i18n keeps per app: its part of the app's state, made in ``init_app``."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._state import MarmeonState


@dataclass(eq=False)
class I18nState:
    """The i18n part of the per-app state."""

    #: Names of blueprints marked with localized().
    localized_blueprints: set[str] = field(default_factory=set)
    #: Whether the app's error handlers are wrapped (flask_marmeon.i18n.errors).
    error_handlers_wrapped: bool = False
    #: A path without a locale -> whether it is the redirect, on the app's
    #: own host (flask_marmeon.i18n.pages): the routes do not change once
    #: the app serves, and a client picks the paths, so bounded.
    x_default_redirects: dict[str, bool] = field(default_factory=dict)


def i18n_state(state: MarmeonState) -> I18nState:
    """The i18n part of the app's state."""
    return state.part(I18nState)
