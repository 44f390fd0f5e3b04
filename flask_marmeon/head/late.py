"""A head() call made after the page's head was written for good.

Such a call would be lost (a second render of the page, a streamed template
past ``<head>``, an ``after_request`` hook): development raises, naming
where the call was made; production keeps the page as written and logs one
warning per endpoint. Nothing is lost silently.
"""

from __future__ import annotations

import inspect
from types import FrameType

from flask import current_app, request

from .._log import warn_once
from .._state import get_state

#: The frames of these packages are the way to the call, not its place.
_PASSED = ("flask_marmeon.", "jinja2.")


def call_site(frame: FrameType | None) -> str:
    """Where the call that reached ``frame`` was made: a template and its line,
    or the first function outside flask_marmeon (an ``after_request`` hook)."""
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            line = template.get_corresponding_lineno(frame.f_lineno)
            name = template.name
            if name is None:
                return f"a template from a string (render_template_string), line {line}"
            return f"the template {name!r}, line {line}"
        if not str(frame.f_globals.get("__name__", "")).startswith(_PASSED):
            code = frame.f_code
            # co_qualname from Python 3.11 (Class.method); co_name before.
            name = getattr(code, "co_qualname", code.co_name)
            return f"{name}() ({code.co_filename}, line {frame.f_lineno})"
        frame = frame.f_back
    return "an unknown place"


def late_call() -> None:
    """Say that a head() call came after the head was written for good.

    Development raises :class:`RuntimeError`; production logs once per
    endpoint and the call is left out (the page was sent as written).
    """
    where = call_site(inspect.currentframe())
    if current_app.debug:
        raise RuntimeError(
            f"head() was called in {where} after the page's head was written"
            " by render_head(), so its fields would be lost. Call head() in a"
            " layout (before_request), the view, or the page's templates while"
            " the page renders with render_template or render_template_string;"
            " not in a second render of the page, in a streamed template past"
            " <head>, or in an after_request hook."
        )
    endpoint = request.endpoint
    warn_once(
        get_state(),
        ("head.late", endpoint),
        "head() was called in %s after the page's head was written by"
        " render_head() (endpoint %r): its fields are left out of the page."
        " Call it before the page's head is written (a layout, the view, or"
        " the page's templates while the page renders). Logged once per"
        " endpoint.",
        where,
        endpoint,
    )
