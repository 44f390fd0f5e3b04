"""Request state: the private namespace on ``flask.g``.

The state names the request it belongs to. ``g`` belongs to the app
context, and a request pushed while an app context of the same app is
active (``with app.app_context():`` around a test client, a common test
fixture) shares that context's ``g`` with every other such request: the
state of one request is not the next one's, so a state made for another
request is replaced, never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Request, g, request

from .page import Page

_ATTR = "_flask_marmeon"


@dataclass
class RequestState:
    """What one request has collected so far."""

    #: The request this state belongs to.
    request: Request
    #: head() calls in call order: layouts (before_request hooks) first;
    #: each a ``head.fragment.HeadFragment`` (the head's type: the state
    #: imports nothing above it).
    fragments: list[dict[str, Any]] = field(default_factory=list)
    #: Set by the i18n module on a localized route.
    page: Page | None = None
    #: An error handler of the app is rendering: the head names no address
    #: of the page's own (flask_marmeon.head.own_addresses).
    error_page: bool = False
    #: Template renders under way (a render inside a render counts twice):
    #: render_head() leaves a mark while one is, filled when the outermost
    #: returns (flask_marmeon.head.templates).
    rendering: int = 0
    #: The marks render_head() left in the outermost render under way.
    marks: int = 0
    #: The text of those marks (the app's, kept here by render_head()).
    mark: str = ""
    #: The page's head was written for good: a later head() call is late.
    written: bool = False


def current_request() -> Request | None:
    """The request being handled, or None outside a request."""
    try:
        req: Request = request._get_current_object()  # type: ignore[attr-defined]
    except RuntimeError:
        return None
    return req


def request_state(caller: str) -> RequestState:
    """Return this request's state, made on first use.

    ``caller`` names the public function for the error outside a request.
    """
    req = current_request()
    if req is None:
        raise RuntimeError(
            f"{caller} works only while a request is handled: call it in a"
            " view, a before_request hook (a layout) or an error handler."
        )
    return state_for(req)


def state_for(req: Request) -> RequestState:
    """The state of ``req``, the request being handled, made on first use
    (for a caller that holds the request already)."""
    # One look through the proxy, then g's own dict (where g.get and
    # g.setdefault look): this runs for every head() call, and a missing
    # attribute of g costs a raised AttributeError.
    attrs = g._get_current_object().__dict__
    state: RequestState | None = attrs.get(_ATTR)
    if state is None or state.request is not req:
        state = attrs[_ATTR] = RequestState(req)
    return state


def peek_request_state() -> RequestState | None:
    """This request's state if anything made it, without making it."""
    req = current_request()
    if req is None:
        return None
    return state_of(req)


def state_of(req: Request) -> RequestState | None:
    """The state of ``req``, the request being handled, if anything made it."""
    state: RequestState | None = g._get_current_object().__dict__.get(_ATTR)
    if state is None or state.request is not req:
        return None
    return state
