"""What the audit adds to an app: the preview (at ``init_app``) and, in
development, the warning that a route marked for the sitemap renders noindex.

The warning is checked where the marked route's answer is seen (an
``after_request`` hook), from the answer itself, so a head written by hand
counts as much as ``head(robots=...)``. Said once per route.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.util import find_spec
from typing import TYPE_CHECKING

from flask import Blueprint, Flask, Response, request

from .._log import warn_once
from . import preview
from .document import parse
from .fetch import Fetched
from .page_checks import noindex_reason

if TYPE_CHECKING:
    from .._state import MarmeonState


def init_app(app: Flask, state: MarmeonState) -> None:
    """Register ``/_marmeon/preview`` (it answers only in development)."""
    blueprint = Blueprint(
        "_marmeon", __name__, template_folder="templates", url_prefix="/_marmeon"
    )
    blueprint.add_url_rule("/preview", "preview", preview.view)
    app.register_blueprint(blueprint)


def development_hook(app: Flask, state: MarmeonState) -> Callable[[], None] | None:
    """What to run at the first request handled in development (the edge's
    ``on_development``): the noindex warning's hook, on a site that may be
    indexed (a deployment that must not be says noindex on purpose; the
    setting is read once). Production requests then pass no hook of the
    audit."""
    if not state.settings.indexable:
        return None
    return lambda: install_warning(app, state)


def install_warning(app: Flask, state: MarmeonState) -> None:
    """Install the warning's hook on ``app``, to run after every hook of the app.

    Should the app leave development, the hook does nothing.
    """

    def warn_if_noindex(response: Response) -> Response:
        if app.debug:
            check(state, response)
        return response

    # First in the list: Flask calls the app's after_request hooks last
    # added first, so this one sees the answer every other hook made.
    app.after_request_funcs.setdefault(None, []).insert(0, warn_if_noindex)


def check(state: MarmeonState, response: Response) -> None:
    """Warn once for the route when its 200 answer says noindex."""
    rule = request.url_rule
    if rule is None or not getattr(rule, "marmeon_sitemap", False):
        return
    key = ("audit-noindex", rule.endpoint)
    if response.status_code != 200 or key in state.once:
        return
    robots: tuple[str, ...] = ()
    html = response.mimetype == "text/html" and not response.is_streamed
    if html and find_spec("lxml") is not None:
        answer = Fetched(request.base_url, 200, response.headers, response.get_data())
        robots = parse(answer).robots
    reason = noindex_reason(response.headers, robots)
    if reason is not None:
        warn_once(
            state,
            key,
            "The route %r is marked for the sitemap but its page says noindex (%s):"
            " search engines will report it. Leave it out of the sitemap, or let it"
            " be indexed.",
            rule.rule,
            reason,
        )
