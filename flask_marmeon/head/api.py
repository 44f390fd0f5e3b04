"""``head()`` and ``render_head()``: the head's edge, where Flask's globals are read.

Everything between them (merge, resolve, the URL policy, the writers) is pure
and lives in the sibling modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from flask import current_app, has_app_context, has_request_context, request
from markupsafe import Markup

from .. import browser
from .._context import peek_request_state, request_state
from .._log import first_time, logger, warn_once
from .._state import MarmeonState, get_state
from . import jsonld
from .fields import JsonLd, OpenGraph, Robots, Text, Twitter, make_fragment
from .merge import merge
from .render import app_url_meta, render
from .resolve import Element, resolve
from .serialize import browser_data
from .urls import explain, make_policy

if TYPE_CHECKING:
    from collections.abc import Callable

_EXTRA_KEY = "head"


def head(
    *,
    title: Text | None = None,
    title_template: str | None = None,
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
    raises :class:`TypeError` naming it, a value outside the listed choices
    :class:`ValueError`.
    """
    state = request_state("head()")
    fields: dict[str, object] = {
        "title": title,
        "title_template": title_template,
        "description": description,
        "canonical": canonical,
        "robots": robots,
        "open_graph": open_graph,
        "twitter": twitter,
        "json_ld": json_ld,
    }
    if unknown:
        fields.update(unknown)
    state.fragments.append(make_fragment(fields))


@dataclass(frozen=True)
class _AppHead:
    """What is computed once per app for the head."""

    app_url: str | None
    head_meta: str
    policy: Callable[[str], str | None]
    module_src: str | None


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
                policy=make_policy(settings.app_url),
                module_src=module_src,
            )
            state.extra[_EXTRA_KEY] = found
    return found


def _nonce(state: MarmeonState) -> str | None:
    if not has_request_context():
        return None
    source = state.settings.csp_nonce
    nonce = source() if source is not None else getattr(request, "csp_nonce", None)
    if nonce is not None and not isinstance(nonce, str):
        raise TypeError(
            f"MARMEON_CSP_NONCE returned {nonce!r}; it must return the nonce"
            " as a str, or None for no nonce attribute."
        )
    return nonce


def _write_json_ld(
    elements: list[Element], state: MarmeonState, dev: bool
) -> list[Element]:
    """Write each block's JSON; a block JSON cannot write is a bug in the app."""
    out: list[Element] = []
    for element in elements:
        if element.block is None:
            out.append(element)
            continue
        try:
            text = jsonld.dumps(element.block)
        except jsonld.JsonLdError as error:
            what = jsonld.describe(element.block)
            if dev:
                raise ValueError(
                    f"The JSON-LD block with {what} cannot be written as JSON"
                    f" exactly: {error}. Pass only str, int, float, bool, None,"
                    " lists and dicts with str keys."
                ) from error
            if first_time(state, ("head.json_ld", what)):
                logger.error(
                    "The JSON-LD block with %s is left out of the page: %s.",
                    what,
                    error,
                )
            continue
        out.append(element._replace(text=text, block=None))
    return out


def _apply_policy(
    elements: list[Element], app: _AppHead, state: MarmeonState, dev: bool
) -> list[Element]:
    """Make every URL absolute or leave it out, with the elements of its group."""
    out: list[Element] = []
    dropped: set[int] = set()
    policy = app.policy
    for element in elements:
        if element.group is not None and element.group in dropped:
            continue
        url_attr = element.url_attr
        if url_attr is None:
            out.append(element)
            continue
        attrs = element.attrs
        raw = next(value for name, value in attrs if name == url_attr)
        href = policy(raw)
        if href is None:
            dropped.add(element.group or 0)
            if dev:
                if element.from_page and app.app_url is None:
                    warn_once(
                        state,
                        "head.hreflang-without-app-url",
                        "APP_URL is not set, so the head of a localized page"
                        " leaves out its hreflang links and its default"
                        " canonical. Set APP_URL to the site's public address.",
                    )
                else:
                    logger.warning(
                        "The head leaves out %s %r: %s.",
                        element.field,
                        raw,
                        explain(raw, app.app_url),
                    )
            continue
        if href != raw:
            attrs = tuple(
                (name, href if name == url_attr else value) for name, value in attrs
            )
            element = element._replace(attrs=attrs)
        out.append(element)
    return out


def render_head() -> Markup:
    """The merged head of the current request, as HTML.

    A Jinja global: write ``{{ render_head() }}`` inside ``<head>``. In
    development (``app.debug``) a JSON-LD block that JSON cannot write exactly
    raises :class:`ValueError`; in production it is left out and logged once.
    """
    if not has_app_context():
        return Markup("")
    state = get_state()
    app = _app_head(state)
    dev = current_app.debug
    request_state_ = peek_request_state()
    if request_state_ is None:
        elements: list[Element] = []
        page = None
    else:
        page = request_state_.page
        merged = merge(request_state_.fragments)
        elements = resolve(merged, page, state.settings.locales)
        if merged.json_ld:
            elements = _write_json_ld(elements, state, dev)
    final = _apply_policy(elements, app, state, dev)
    nonce = _nonce(state)
    data = module_src = None
    if app.module_src is not None:
        data = browser_data(elements, dev=dev, app_url=app.app_url)
        # The module's path is relative to the app's root (see browser.py).
        module_src = app.module_src
        if has_request_context() and request.script_root:
            module_src = request.script_root + module_src
    return render(
        final,
        head_meta=app.head_meta,
        nonce=nonce,
        data=data,
        module_src=module_src,
    )
