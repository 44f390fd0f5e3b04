"""The IndexNow key file: ``/<key>.txt`` under the mount path.

An engine that receives a submission fetches ``keyLocation`` and compares
its text with the key sent: the file proves that whoever submits controls
the site. It is served like robots.txt: added when the edge starts (after
the H10 checks, which say whether the key is well formed), only when no
route of the app answers its path, and passed without cookies
(:class:`flask_marmeon._edge.CookieFree`). On a deployment that must not be
indexed it answers 404: a staging copy proves nothing to an engine.
"""

from __future__ import annotations

from flask import Flask, Response

from .. import _edge
from .._log import logger
from .._state import MarmeonState
from ..config import own_host
from ..sitemap.serving.views import route_taking
from . import checks

ENDPOINT = "marmeon_indexnow_key"


def key_path(key: str) -> str:
    """The key file's path below the mount path."""
    return f"/{key}.txt"


def _register(app: Flask, state: MarmeonState) -> list[_edge.CookieFree]:
    settings = state.settings
    key = settings.indexnow_key
    if key is None:
        return []
    origin = settings.app_url or ""
    path = key_path(key)
    taker = route_taking(app, path, origin)
    if taker is not None:
        logger.warning(
            "IndexNow: the key file %s is not served, because %s answers its"
            " address; engines will refuse the submissions (403). Give that"
            " route another path.",
            path,
            taker,
        )
        return []

    def serve() -> Response:
        if not settings.indexable:
            return Response(
                "Not Found\n",
                status=404,
                mimetype="text/plain",
                headers={"Cache-Control": "no-store"},
            )
        return Response(
            key,
            mimetype="text/plain",
            headers={"Cache-Control": f"public, max-age={int(settings.sitemap_ttl)}"},
        )

    host = own_host(app.url_map, origin) if app.url_map.host_matching else None
    app.add_url_rule(path, ENDPOINT, serve, methods=["GET"], host=host)
    return [_edge.CookieFree(path, ENDPOINT)]


def init_app(app: Flask, state: MarmeonState) -> None:
    """Serve the key file once the edge starts (when a key is set)."""
    _edge.on_start(state, lambda: _register(app, state))
    checks.init_app(state)
