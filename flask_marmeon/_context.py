"""Request state: the private namespace on ``flask.g``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import g, has_request_context

from .page import Page

if TYPE_CHECKING:
    from .head.fields import HeadFragment

_ATTR = "_flask_marmeon"


@dataclass
class RequestState:
    """What one request has collected so far."""

    #: head() calls in call order: layouts (before_request hooks) first.
    fragments: list[HeadFragment] = field(default_factory=list)
    #: Set by the i18n module on a localized route.
    page: Page | None = None


def request_state(caller: str) -> RequestState:
    """Return this request's state, made on first use.

    ``caller`` names the public function for the error outside a request.
    """
    if not has_request_context():
        raise RuntimeError(
            f"{caller} works only while a request is handled: call it in a"
            " view, a before_request hook (a layout) or an error handler."
        )
    # One look through the proxy, then g's own dict (where g.get and
    # g.setdefault look): this runs for every head() call, and a missing
    # attribute of g costs a raised AttributeError.
    attrs = g._get_current_object().__dict__
    state: RequestState | None = attrs.get(_ATTR)
    if state is None:
        state = attrs[_ATTR] = RequestState()
    return state


def peek_request_state() -> RequestState | None:
    """This request's state if anything made it, without making it."""
    if not has_request_context():
        return None
    return current_request_state()


def current_request_state() -> RequestState | None:
    """Like :func:`peek_request_state`, for a caller that knows a request is
    being handled."""
    state: RequestState | None = g._get_current_object().__dict__.get(_ATTR)
    return state
