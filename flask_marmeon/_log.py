"""The ``flask_marmeon`` logger and the once-per-key memo.

Handlers and levels are the application's business: nothing here adds a
handler or sets a level (Flask's own logging module does the same).
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._state import MarmeonState

logger = logging.getLogger("flask_marmeon")


def first_time(state: MarmeonState, key: Hashable) -> bool:
    """Return True the first time ``key`` is seen for this app in this process.

    The memo lives in the app's state, never in a module global, so two apps
    in one process each warn once.
    """
    with state.lock:
        if key in state.once:
            return False
        state.once.add(key)
        return True


def warn_once(state: MarmeonState, key: Hashable, msg: str, *args: object) -> None:
    """Log ``msg % args`` at WARNING the first time ``key`` is seen for the app."""
    if first_time(state, key):
        logger.warning(msg, *args)
