"""``GET /marmeon-og/<token>.png``: answered at the extension's WSGI edge.

In front of the app, as the browser module is: an image that caches keep
for a year carries no cookie (the app's session is never opened), and the
app's hooks (a sign-in wall, a locale redirect) have nothing to do with it.
The address is checked before anything else: one that the app did not sign
is 404, without drawing. A signed one is drawn once and kept (store.py);
``If-None-Match`` with its tag is 304, and ``If-Match`` without it 412,
both without drawing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.wrappers import Request, Response

from .._edge import if_match_fails, not_found, precondition_failed
from .._log import logger
from .address import etag_of, texts_of, token_of
from .app import loaded, render_png, signer_of
from .card import MIMETYPE
from .state import OgImagesState

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

#: A year, the longest that HTTP caches are asked to keep anything.
MAX_AGE = 31_536_000


class ImageEndpoint:
    """The WSGI endpoint for the app's generated images."""

    def __init__(self, app: Flask, og: OgImagesState) -> None:
        self.app = app
        self.og = og

    def __call__(
        self, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes] | None:
        path: str = environ.get("PATH_INFO", "")
        method: str = environ.get("REQUEST_METHOD", "GET")
        token = token_of(path)
        if token is None or method not in ("GET", "HEAD"):
            # Any other path under the prefix is the app's.
            return None
        signer = signer_of(self.og, self.app.secret_key)
        texts = texts_of(signer, token) if signer is not None else None
        if texts is None:
            return not_found(environ, start_response)
        og = self.og
        with self.app.app_context():
            digest = loaded(og).digest
            tag = etag_of(token, digest)
            if if_match_fails(environ, tag):
                return precondition_failed(environ, start_response)
            request = Request(environ)
            headers = {
                "Cache-Control": f"public, max-age={MAX_AGE}, immutable",
                "ETag": f'"{tag}"',
                "X-Content-Type-Options": "nosniff",
            }
            if request.if_none_match.contains_weak(tag):
                return Response(status=304, headers=headers)(environ, start_response)
            try:
                png = og.store.get(tag, lambda: render_png(og, texts))
            except Exception:
                logger.exception("The generated image %s could not be drawn.", path)
                return not_found(environ, start_response)
        response = Response(png, mimetype=MIMETYPE, headers=headers)
        return response(environ, start_response)
