"""``GET /marmeon-og/<token>.png``: answered at the extension's WSGI edge.

In front of the app, as the browser module is: an image that caches keep
for a year carries no cookie (the app's session is never opened), and the
app's hooks (a sign-in wall, a locale redirect) have nothing to do with it.
The address is checked before anything else: one that the app did not sign
is 404, without drawing (the signature binds APP_URL's origin and the
mount path; SECRET_KEY_FALLBACKS still verify). One written for another
look is a 301 to the current look's address. A signed one is drawn once
and kept (store.py); ``If-None-Match`` with its tag is 304, and
``If-Match`` without it 412, both without drawing. Any method but GET and
HEAD is a 405, without a cookie.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.wrappers import Request, Response

from .._edge import if_match_fails, not_found, precondition_failed
from .._log import logger
from .address import Texts, etag_of, payload_of, token_of
from .canvas import MIMETYPE
from .generator import image_path, loaded, render_png, signer_of
from .state import OgImagesState

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

#: A year, the longest that HTTP caches are asked to keep anything.
MAX_AGE = 31_536_000
#: How long the redirect from another look's address may be kept.
REDIRECT_MAX_AGE = 86_400


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
        if token is None:
            # Any other path under the prefix is the app's.
            return None
        if method not in ("GET", "HEAD"):
            # Answered here, before the app: no session, no cookie.
            allowed = {"Allow": "GET, HEAD"}
            refused = Response("Method Not Allowed\n", 405, allowed, "text/plain")
            return refused(environ, start_response)
        app = self.app
        signer = signer_of(
            self.og, app.secret_key, app.config.get("SECRET_KEY_FALLBACKS")
        )
        read = payload_of(signer, token) if signer is not None else None
        if read is None:
            return not_found(environ, start_response)
        written_for, texts = read
        og = self.og
        with app.app_context():
            digest = loaded(og).digest
            if written_for != digest:
                return self._moved(environ, start_response, texts, path)
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

    def _moved(
        self,
        environ: WSGIEnvironment,
        start_response: StartResponse,
        texts: Texts,
        path: str,
    ) -> Iterable[bytes]:
        """An address written for another look (colors, logo, fonts, the
        drawing): 301 to the current look's address of the same texts, at
        APP_URL's origin and the mount path (never the request's host)."""
        current = image_path(
            self.og,
            self.app.secret_key,
            (texts.title, texts.description, texts.site),
            page_path=path,
            square=texts.square,
        )
        if current is None:
            return not_found(environ, start_response)
        moved = Response(status=301, headers={"Location": self.og.scope + current})
        # Kept a day, not a year: the look may change again.
        moved.cache_control.public = True
        moved.cache_control.max_age = REDIRECT_MAX_AGE
        return moved(environ, start_response)
