"""/sitemap.xml, its parts and /robots.txt: when they exist, and what they send.

The endpoints are added when the edge starts (``flask_marmeon._edge``), after
the H10 checks: only when a route is marked (robots.txt also when the site
must not be indexed), and only on a path that no route of the app answers
(the app's own route on /sitemap.xml or /robots.txt wins, and so does a
catch-all that is not localized). The edge passes them without cookies.

Each answer is conditional and cacheable: a strong ``ETag`` (from the bytes of the
file; the gzip form has its own), ``Last-Modified`` (the build's time), 304
for ``If-None-Match`` / ``If-Modified-Since``, ``Cache-Control: public,
max-age=TTL``, and for a client that accepts it the gzip form, compressed
once per build (files.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException
from werkzeug.http import http_date
from werkzeug.routing.exceptions import RequestRedirect

from ... import _edge
from ..._log import logger
from ..._state import MarmeonState
from ...config import own_host
from ...i18n.urls import is_localized_rule
from ...robots_txt.text import SITEMAP_PATH, robots_modified, robots_txt
from ...routing.marks import is_marked
from ...shared_lock import Backend
from .. import checks
from ..paged import PagedRoute, paged_routes
from ..state import SitemapState
from .file_caches import FileCaches, StartsUnknown
from .ttl_cache import SitemapCache

ROBOTS_PATH = "/robots.txt"


def route_taking(app: Flask, path: str, origin: str) -> str | None:
    """The route of the app (not a localized one) that answers ``path``, as
    messages name it; None when none does."""
    adapter = app.url_map.bind(own_host(app.url_map, origin), "/")
    try:
        rule, _ = adapter.match(path, method="GET", return_rule=True)
    except RequestRedirect as redirect:
        return f"a redirect to {redirect.new_url!r}"
    except HTTPException as error:
        # 405: a route answers the path, with other methods.
        return "a route of other methods" if error.code == 405 else None
    if is_localized_rule(rule):
        return None
    return f"the route {rule.rule!r} (endpoint {rule.endpoint!r})"


def _unavailable(retry_after: int) -> Response:
    return Response(
        "The sitemap is not ready (being built, or rebuilt after an error);"
        " retry later.\n",
        status=503,
        mimetype="text/plain",
        headers={"Retry-After": str(retry_after), "Cache-Control": "no-store"},
    )


def _precondition_fails(tag: str, modified: int) -> bool:
    """RFC 9110's order (13.2.2): If-Match when sent, else
    If-Unmodified-Since (a date that is no HTTP date is ignored)."""
    if "If-Match" in request.headers:
        return _edge.if_match_fails(request.environ, tag)
    since = request.if_unmodified_since
    return since is not None and modified > since.timestamp()


def _not_modified(tag: str, modified: int, exact: bool) -> bool:
    """RFC 9110's order: If-None-Match when sent, else If-Modified-Since
    (the very date when ``exact``: a date that is not in order)."""
    if "If-None-Match" in request.headers:
        return request.if_none_match.contains_weak(tag)
    since = request.if_modified_since
    if since is None:
        return False
    return modified == since.timestamp() if exact else modified <= since.timestamp()


def send(
    body: bytes | Callable[[], bytes],
    *,
    etag: str,
    modified: float,
    ttl: float,
    mimetype: str,
    gzipped: Callable[[], bytes] | None = None,
    exact_since: bool = False,
) -> Response:
    """A conditional, cacheable answer; the gzip form when the client
    accepts it and ``gzipped`` gives it. ``exact_since``: ``modified`` is
    not in order (robots.txt's), so only the very date is not modified."""
    use_gzip = gzipped is not None and request.accept_encodings["gzip"] > 0
    tag = f"{etag}-gz" if use_gzip else etag
    seconds = int(modified)
    headers = {
        "Cache-Control": f"public, max-age={int(ttl)}",
        "ETag": f'"{tag}"',
        "Last-Modified": http_date(seconds),
    }
    if gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if _precondition_fails(tag, seconds):
        return Response(status=412, headers={"Cache-Control": "no-store"})
    if _not_modified(tag, seconds, exact_since):
        return Response(status=304, headers=headers)
    if use_gzip and gzipped is not None:
        headers["Content-Encoding"] = "gzip"
        return Response(gzipped(), mimetype=mimetype, headers=headers)
    # Kept compressed: decompressed only for a client that takes no gzip.
    text = body() if callable(body) else body
    return Response(text, mimetype=mimetype, headers=headers)


def _register(
    app: Flask, state: MarmeonState, caches: FileCaches
) -> list[_edge.CookieFree]:
    """Add the endpoints that should exist; return the paths they serve."""
    settings = state.settings
    marked = any(is_marked(rule) for rule in app.url_map.iter_rules())
    if not marked and settings.indexable:
        return []
    origin = settings.app_url or ""
    ttl = settings.sitemap_ttl
    host = own_host(app.url_map, origin) if app.url_map.host_matching else None
    serving = settings.sitemap_serve
    # MARMEON_SITEMAP_URL (an export on a CDN), else the app's own sitemap
    # when it serves one, else no Sitemap: line.
    named = settings.sitemap_url or (None if serving else "")
    text = robots_txt(
        origin, settings.root, settings.indexable, settings.robots_rules, named
    ).encode()
    robots_tag = hashlib.sha256(text).hexdigest()[:32]
    # The same in every process for the same text (no worker's start time).
    modified = robots_modified(text)

    def robots() -> Response:
        return send(
            text,
            etag=robots_tag,
            modified=modified,
            ttl=ttl,
            mimetype="text/plain",
            exact_since=True,
        )

    def serve(cache: SitemapCache, number: int, wait: float | None = None) -> Response:
        lookup = cache.get(wait)
        files = lookup.value
        if files is None:
            return _unavailable(lookup.retry_after)
        if not files.has(number):
            return _not_found()
        return send(
            lambda: files.body(number) or b"",
            etag=files.etag(number),
            modified=files.built_at,
            ttl=ttl,
            mimetype="application/xml",
            gzipped=lambda: files.gzipped(number),
        )

    def sitemap(number: int = 0) -> Response:
        if number and not _as_written(number):
            return _not_found()
        # With a shared store, another process's newer build is taken (in
        # the background: a store that hangs holds no request), so every
        # process soon serves the same index (the same ranges and dates)
        # without waiting for its own copy to go stale.
        caches.site.newest_soon()
        return serve(caches.site, number)

    def paged_part(route: PagedRoute, number: int) -> Response:
        if not _as_written(number):
            return _not_found()
        try:
            ranges = caches.ranges(route)
        except StartsUnknown as unknown:
            return _unavailable(unknown.retry_after)
        if number > len(ranges):
            return _not_found()
        part = caches.part(route, number, ranges)
        # With a shared store, another process's newer build of this range
        # first: every process serves the same part.
        part.newest()
        # Not waited for by a worker that serves one request at a time
        # (gunicorn's sync workers): it would hold the app's pages too.
        env = request.environ
        sync = env.get("wsgi.multiprocess") and not env.get("wsgi.multithread")
        return serve(part, 0, 0 if sync else None)

    free: list[_edge.CookieFree] = []

    def add(rule: str, endpoint: str, view: Callable[..., Response]) -> None:
        # Served without cookies: every path of the rule starts as it does.
        app.add_url_rule(rule, endpoint, view, methods=["GET"], host=host)
        free.append(_edge.CookieFree(rule.split("<")[0], endpoint))

    if not route_taking(app, ROBOTS_PATH, origin):
        add(ROBOTS_PATH, "marmeon_robots", robots)
    # MARMEON_SITEMAP_SERVE = False: no sitemap endpoint (an export serves it).
    if marked and serving and not route_taking(app, SITEMAP_PATH, origin):
        add(SITEMAP_PATH, "marmeon_sitemap", sitemap)
    paged = paged_routes(app) if marked and serving else []
    indexed = marked and "marmeon_sitemap" in app.view_functions

    def free_at(path: str, what: str) -> bool:
        """Whether no route of the app answers ``path``, the address of
        ``what`` (files the index would name). The app's route wins, as on
        /sitemap.xml; when the index (ours) would have named them, the log
        says they are left out of it, and why."""
        taker = route_taking(app, path, origin)
        if taker is not None and indexed:
            logger.warning(
                "Sitemap: %s are left out of the index, because %s answers"
                " their address %s. Give that route another path.",
                what,
                taker,
                path,
            )
        return taker is None

    served = [
        route
        for route in paged
        if free_at(f"/sitemap-{route.slug}-1.xml", f"the parts of {route.where}")
    ]
    # Only these are listed in the index: the others' addresses are the app's.
    caches.add_routes(served)
    split = settings.sitemap_index or bool(paged)
    if marked and split:
        caches.files_listed = free_at(
            "/sitemap-1.xml",
            "the files of the routes whose providers give their entries at once",
        )
    if marked and serving and split and caches.files_listed:
        add("/sitemap-<int(min=1):number>.xml", "marmeon_sitemap_part", sitemap)
    for route in served:
        add(
            f"/sitemap-{route.slug}-<int(min=1):number>.xml",
            f"marmeon_sitemap_{route.slug}",
            lambda number, route=route: paged_part(route, number),
        )
    return free


def _as_written(number: int) -> bool:
    # Werkzeug's int converter also takes "01": one file, one address.
    return request.path.endswith(f"-{number}.xml")


def _not_found() -> Response:
    return Response("Not Found\n", status=404, mimetype="text/plain")


def init_app(app: Flask, state: MarmeonState, sitemap_cache: Backend | None) -> None:
    """Make the app's sitemap cache (shared through ``sitemap_cache`` when
    given) and add the endpoints when the edge starts."""
    caches = FileCaches(app, state, sitemap_cache)
    state.add(SitemapState(caches))
    checks.init_app(state)
    _edge.on_start(state, lambda: _register(app, state, caches))
