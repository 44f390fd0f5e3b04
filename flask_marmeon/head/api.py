"""``head()`` and ``render_head()``: the head's edge, where Flask's globals are read.

Everything between them (merge, resolve, the URL policy, the writers) is pure
and lives in the sibling modules. A head() call made after the page's head
was written for good would be lost (a second render of the page, a streamed
template past ``<head>``, an ``after_request`` hook): development raises,
naming where the call was made; production keeps the page as written and
logs one warning per endpoint (:func:`late_call`).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from types import FrameType
from typing import TYPE_CHECKING

from flask import Request, current_app, has_app_context, request
from markupsafe import Markup

from .._context import RequestState, current_request, request_state, state_for, state_of
from .._log import logger, warn_once
from .._state import MarmeonState, get_state
from ..page import Page
from . import roles
from .elements import Slot
from .fragment import build_fragment
from .html import nonce_attribute, write_head
from .json_ld_blocks import texts
from .merge import EMPTY, MergedHead, merge
from .resolve import resolve
from .stages import StageContext
from .state import head_state
from .table import HEAD
from .types import HeadFields
from .url_policy import explain

if TYPE_CHECKING:
    # typing's own from Python 3.11; a string here at run time.
    from typing_extensions import Unpack

#: The key of the JSON-LD blocks, checked when set and written first.
_JSON_LD = HEAD.named(roles.JSON_LD)


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


def head(**fields: Unpack[HeadFields]) -> None:
    """Add fields to the current page's head.

    The fields are :class:`HeadFields`: ``title``, ``title_template``,
    ``description``, ``canonical``, ``robots``, ``icons``, ``theme_color``,
    ``manifest``, ``feeds``, ``verification``, ``other``, ``facebook``,
    ``open_graph``, ``twitter`` and ``json_ld``.

    Call it in a ``before_request`` hook of the app or a blueprint (a layout),
    in a view, in an error handler, or in the page's templates (``head`` is a
    Jinja global: ``{% do head(title=post.title) %}``). Each call is one
    fragment; when the head is written, the fragments merge in call order, so
    the page wins over its layouts and its templates over the view. ``None``
    means "not set by this call".

    A call made after the page's head was written for good (a second render
    of the page, an ``after_request`` hook) raises :class:`RuntimeError` in
    development, naming where it was made; production leaves it out and logs
    one warning per endpoint.

    Every argument and key is checked here: an unknown one or a wrong type
    raises :class:`TypeError` naming it (with the right spelling when one is
    close), a value outside the listed choices :class:`ValueError`. Outside a
    request, :class:`RuntimeError` says where it may be called.
    """
    state = request_state("head()")
    if state.written:
        late_call()  # raises in development
        return
    fragment = build_fragment(fields)
    blocks = fragment.get(_JSON_LD)
    # The app itself, not the proxy: each read through the proxy is a further
    # look-up in Python (about 0.7 us).
    flask_app = current_app._get_current_object()  # type: ignore[attr-defined]
    if blocks and flask_app.debug:
        # Development: a block JSON cannot write (a date) fails here, at the
        # line that made it, not later where the head is written. In
        # production the writer leaves it out and logs it, as before (the
        # check costs what writing the block costs).
        texts(blocks, get_state(flask_app), dev=True)
    state.fragments.append(fragment)


def _nonce(state: MarmeonState, req: Request | None) -> str | None:
    if req is None:
        return None
    source = state.settings.csp_nonce
    if source is not None:
        nonce = source()
    else:
        # Flask-Talisman sets request.csp_nonce on the request object.
        nonce = getattr(req, "csp_nonce", None)
    if nonce is not None and not isinstance(nonce, str):
        raise TypeError(
            f"The CSP nonce {nonce!r} is not a str. MARMEON_CSP_NONCE must"
            " return the nonce as a str, or None for no nonce attribute."
        )
    return nonce


def _warn_left_out(slot: Slot, raw: str, state: MarmeonState) -> None:
    app_url = state.settings.app_url
    if slot.from_page and app_url is None:
        warn_once(
            state,
            "head.hreflang-without-app-url",
            "APP_URL is not set, so the head leaves out a page's default"
            " canonical and its hreflang links. Set APP_URL to the site's"
            " public address.",
        )
        return
    logger.warning(
        "The head leaves out %s %r: %s.", slot.field, raw, explain(raw, app_url)
    )


def _write(
    nonce_attr: str,
    merged: MergedHead,
    page: Page | None,
    json_ld: Sequence[str],
    state: MarmeonState,
    dev: bool = False,
) -> str:
    """The ``before resolve`` steps, resolve (with the ``resolve`` steps),
    and write the head (what the memo keeps, in production)."""
    settings = state.settings
    head_part = head_state(state)
    stages = head_part.stages
    context = StageContext(state, None, page, dev)
    context.json_ld = json_ld
    for step in stages.before_resolve:
        merged = step(merged, context)
    resolved = resolve(
        merged,
        context.page,
        head_part.policy,
        context.json_ld,
        indexable=settings.indexable,
        og_locales=head_part.og_locales,
        steps=stages.resolve,
        context=context,
    )
    if dev:
        # Development warns for each URL left out, on every page.
        for slot, raw in resolved.left_out:
            _warn_left_out(slot, raw, state)
    return write_head(
        resolved,
        app_url=settings.app_url,
        nonce_attr=nonce_attr,
        # The mount path from the configuration, never the request's.
        module_src=(
            settings.root + head_part.module_path if settings.browser_script else None
        ),
        dev=dev,
    )


def render_head() -> Markup:
    """The merged head of the current request, as HTML.

    A Jinja global: write ``{{ render_head() }}`` inside ``<head>``. While a
    page renders (``render_template``, ``render_template_string``), it
    leaves a mark that is filled with the head once the page has rendered,
    so that the ``head()`` calls of the page's templates count wherever they
    are (flask_marmeon.head.templates). Called elsewhere (plain Python, a
    streamed template), it writes the head at once. Either way the head is
    then written for good: a later ``head()`` call is late.

    In development (``app.debug``) a JSON-LD block that JSON cannot write
    exactly raises :class:`ValueError`; in production it is left out and
    logged once.
    """
    req = current_request()
    if req is not None:
        request_state_ = state_of(req)
        if request_state_ is not None and request_state_.rendering:
            request_state_.marks += 1
            flask_app = current_app._get_current_object()  # type: ignore[attr-defined]
            mark = request_state_.mark = head_state(get_state(flask_app)).mark
            return Markup(mark)
    return Markup(written_head(req))


def written_head(req: Request | None, held: RequestState | None = None) -> str:
    """The head's text for the request ``req`` (or outside one), written for
    good; ``held`` is the request's state when the caller has it already."""
    request_state_: RequestState | None = None
    if req is not None:
        request_state_ = held if held is not None else state_for(req)
        request_state_.written = True
    elif not has_app_context():
        return ""
    flask_app = current_app._get_current_object()  # type: ignore[attr-defined]
    state = get_state(flask_app)
    dev: bool = flask_app.debug
    json_ld: Sequence[str]
    if request_state_ is not None:
        merged = merge(request_state_.fragments)
        # The ``merged`` steps: what they give keys the memo.
        context = StageContext(state, request_state_, request_state_.page, dev)
        for step in head_state(state).stages.merged:
            merged = step(merged, context)
        page, json_ld = context.page, context.json_ld
    else:
        merged, json_ld, page = EMPTY, (), None
    nonce_attr = nonce_attribute(_nonce(state, req))
    if dev:
        return _write(nonce_attr, merged, page, json_ld, state, dev)
    return head_state(state).pages.text(
        nonce_attr, _write, merged, page, json_ld, state
    )
