"""``head()`` and ``render_head()``: the head's edge, where Flask's globals are read.

Everything between them (merge, resolve, the URL policy, the writers) is pure
and lives in the sibling modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from flask import (
    Request,
    current_app,
    has_app_context,
    has_request_context,
    request,
)
from markupsafe import Markup

from .. import browser
from .._context import current_request_state, request_state
from .._log import first_time, logger, warn_once
from .._state import MarmeonState, get_state
from . import jsonld, serialize
from .fields import JsonLd, OpenGraph, Robots, Text, Twitter, build_fragment
from .merge import merge
from .render import HeadWriter, app_url_meta
from .resolve import Place, Slot, resolve
from .urls import explain, make_policy

_EXTRA_KEY = "head"


def head(
    *,
    title: Text | None = None,
    title_template: Text | None = None,
    description: Text | None = None,
    canonical: Text | None = None,
    robots: Robots | None = None,
    open_graph: OpenGraph | None = None,
    twitter: Twitter | None = None,
    json_ld: JsonLd | None = None,
    **unknown: NoReturn,
) -> None:
    """Add fields to the current page's head.

    Call it in a ``before_request`` hook of the app or a blueprint (a layout),
    in a view, or in an error handler. Each call is one fragment; when the
    head is written, the fragments merge in call order, so the page wins over
    its layouts. ``None`` means "not set by this call".

    Every argument and key is checked here: an unknown one or a wrong type
    raises :class:`TypeError` naming it (with the right spelling when one is
    close), a value outside the listed choices :class:`ValueError`. Outside a
    request, :class:`RuntimeError` says where it may be called.
    """
    state = request_state("head()")
    state.fragments.append(
        build_fragment(
            title,
            title_template,
            description,
            canonical,
            robots,
            open_graph,
            twitter,
            json_ld,
            unknown,
        )
    )


@dataclass(frozen=True)
class _AppHead:
    """What is computed once per app for the head."""

    app_url: str | None
    head_meta: str
    writer: HeadWriter
    module_src: str | None
    #: The browser data's opening text, in production and in development.
    data_openings: tuple[str, str]


def _app_head(state: MarmeonState) -> _AppHead:
    found: _AppHead | None = state.extra.get(_EXTRA_KEY)
    if found is not None:
        return found
    with state.lock:
        found = state.extra.get(_EXTRA_KEY)
        if found is None:
            settings = state.settings
            module_src = None
            if settings.browser_script:
                module_src = browser.module_path(state)
            found = _AppHead(
                app_url=settings.app_url,
                head_meta=app_url_meta(settings.app_url),
                writer=HeadWriter(make_policy(settings.app_url), settings.app_url),
                module_src=module_src,
                data_openings=(
                    serialize.opening(dev=False, app_url=settings.app_url),
                    serialize.opening(dev=True, app_url=settings.app_url),
                ),
            )
            state.extra[_EXTRA_KEY] = found
    return found


def _nonce(state: MarmeonState, req: Request | None) -> str | None:
    if req is None:
        return None
    source = state.settings.csp_nonce
    if source is not None:
        nonce = source()
    else:
        # Flask-Talisman sets request.csp_nonce on the request object.
        nonce = req.__dict__.get("csp_nonce")
        if nonce is None:
            nonce = getattr(req, "csp_nonce", None)
    if nonce is not None and not isinstance(nonce, str):
        raise TypeError(
            f"The CSP nonce {nonce!r} is not a str. MARMEON_CSP_NONCE must"
            " return the nonce as a str, or None for no nonce attribute."
        )
    return nonce


def _json_ld(blocks: tuple[Any, ...], state: MarmeonState, dev: bool) -> list[str]:
    """Write each block's JSON; a block JSON cannot write is a bug in the app."""
    out: list[str] = []
    for block in blocks:
        try:
            text = jsonld.dumps(block)
        except jsonld.JsonLdError as error:
            what = jsonld.describe(block)
            if dev:
                raise ValueError(
                    f"The JSON-LD block with {what} cannot be written as JSON"
                    f" exactly: {error}. Pass only str, int, float, bool, None,"
                    " lists and dicts with str keys (a date as its ISO string)."
                ) from error
            if first_time(state, ("head.json_ld", what)):
                logger.error(
                    "The JSON-LD block with %s is left out of the page: %s.",
                    what,
                    error,
                )
            continue
        out.append(text)
    return out


def _warn_left_out(slot: Slot, raw: str, app: _AppHead, state: MarmeonState) -> None:
    if slot.from_page and app.app_url is None:
        warn_once(
            state,
            "head.hreflang-without-app-url",
            "APP_URL is not set, so the head of a localized page leaves out its"
            " hreflang links and its default canonical. Set APP_URL to the"
            " site's public address.",
        )
        return
    logger.warning(
        "The head leaves out %s %r: %s.", slot.field, raw, explain(raw, app.app_url)
    )


def render_head() -> Markup:
    """The merged head of the current request, as HTML.

    A Jinja global: write ``{{ render_head() }}`` inside ``<head>``. In
    development (``app.debug``) a JSON-LD block that JSON cannot write exactly
    raises :class:`ValueError`; in production it is left out and logged once.
    """
    if has_request_context():
        req: Request | None = request._get_current_object()  # type: ignore[attr-defined]
        request_state_ = current_request_state()
    elif has_app_context():
        req = request_state_ = None
    else:
        return Markup("")
    flask_app = current_app._get_current_object()  # type: ignore[attr-defined]
    state = get_state(flask_app)
    app = _app_head(state)
    dev: bool = flask_app.debug
    places: list[Place] = []
    values: list[str] = []
    json_ld: list[str] = []
    if request_state_ is not None:
        merged = merge(request_state_.fragments)
        places, values = resolve(merged, request_state_.page, state.settings.locales)
        if merged.json_ld:
            json_ld = _json_ld(merged.json_ld, state, dev)
    module_src = app.module_src
    if module_src is not None and req is not None and req.script_root:
        # The module's path is relative to the app's root (see browser.py).
        module_src = req.script_root + module_src

    left_out = None
    if dev:

        def left_out(slot: Slot, raw: str) -> None:
            _warn_left_out(slot, raw, app, state)

    return app.writer.render(
        places,
        values,
        json_ld,
        head_meta=app.head_meta,
        nonce=_nonce(state, req),
        data_opening=app.data_openings[dev],
        module_src=module_src,
        left_out=left_out,
    )
