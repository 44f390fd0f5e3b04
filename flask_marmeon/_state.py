"""Per-app state, kept at ``app.extensions["marmeon"]``.

The state holds what every module reads (the settings, the extension, the
lock, the once-memo) and one *part* per subsystem, keyed by the part's class.
This module names no subsystem: each one defines its part class next to its
code, adds it in its ``init_app`` (:meth:`MarmeonState.add`) and reads it
with a typed accessor of its own (``head.state.head_state(state)``, say).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

from flask import Flask, current_app

from .checks import Checks
from .config import Settings

_P = TypeVar("_P")


class Extension(Protocol):
    """What the state's modules read of the extension object (``Marmeon``),
    named here so that the state imports nothing above it."""

    def locale_selector(self) -> str | None:
        """The locale of a localized route, for Flask-Babel."""


@dataclass(eq=False)
class MarmeonState:
    """Everything the extension keeps for one app, made in ``init_app``.

    Modules that own a step keep their part here (see the module's text),
    never in module globals, so two apps in one process never share anything.
    """

    settings: Settings
    extension: Extension
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Keys already warned about: "once" means once per app and process.
    once: set[Hashable] = field(default_factory=set)
    #: The start-up checks each subsystem registered (H10, see checks.py).
    checks: Checks = field(default_factory=Checks)
    #: Each subsystem's part, by its class. A plain dict read with []: the
    #: head's look-up on every page is one dict look-up of a class (hashed
    #: by identity).
    parts: dict[type[Any], Any] = field(default_factory=dict)

    def add(self, part: object) -> None:
        """Keep ``part`` as its subsystem's part (once per class and app)."""
        kind = type(part)
        if kind in self.parts:
            raise RuntimeError(f"The app's state has a {kind.__name__} already.")
        self.parts[kind] = part

    def part(self, kind: type[_P]) -> _P:
        """The part of class ``kind``, or say that its subsystem is not set up."""
        try:
            return cast(_P, self.parts[kind])
        except KeyError:
            raise RuntimeError(
                f"The app's state has no {kind.__name__}: its subsystem's"
                " init_app has not run (it runs in Marmeon.init_app)."
            ) from None


def get_state(app: Flask | None = None) -> MarmeonState:
    """Return the app's state, or say how to set the extension up."""
    if app is None:
        app = current_app._get_current_object()  # type: ignore[attr-defined]
    try:
        state: MarmeonState = app.extensions["marmeon"]
    except KeyError:
        raise RuntimeError(
            f"flask_marmeon is not set up on the app {app.name!r}."
            " Did you forget Marmeon(app) or marmeon.init_app(app)?"
        ) from None
    return state
