"""Sitemap builds: marked routes -> providers -> entries -> XML files.

One path for every file: a build writes the entries of some routes into an
:class:`~.file_writer.UrlsetWriter`, route by route, through
:func:`~.route_writer.write_entries`. The site's build takes every route
whose provider gives its entries at once (one file, or several and their
index); a part takes one paged route's range of keys (one file). The index
also names each paged route's parts, from where they begin.

A build runs in a context of its own: a fresh :mod:`contextvars` context
(so no request of the caller is visible) with the app's own app context
pushed, so a provider gets a fresh ``g`` and may use database sessions.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, Concatenate, ParamSpec, TypeVar

from flask import Flask
from werkzeug.routing import Rule

from .._log import logger
from .._state import get_state
from ..head.url_policy import UrlPolicy
from ..i18n.own_address import elsewhere as _elsewhere
from ..i18n.urls import LOCALE_ARG
from ..routing.marks import is_marked
from .addresses import CompiledRule, compile_rule
from .counted import Counted, range_count
from .entries import single_entry
from .file_writer import MAX_BYTES, SitemapFile, UrlsetWriter
from .paged import PagedRoute, checked_starts, is_paged, paged_routes, part_size
from .providers import closed_after, find_provider, provider_items
from .report import Limits, RouteReport, failed_in
from .route_writer import write_entries
from .state import sitemap_state
from .xml import sitemap_index

_T = TypeVar("_T")
_P = ParamSpec("_P")
#: The files an index names at most (the format's limit, as its schema says).
MAX_FILES = 50_000
#: Ranges are decided one twentieth short of a full part (see _boundaries).
ROOM = 20
#: Says where each paged route's parts begin, or what their ranges are
#: (one item a part; raises when it cannot).
Boundaries = Callable[[PagedRoute], Sequence[Any]]
#: The ``<lastmod>`` of a part (its route, number and what Boundaries gave
#: for its route) once it has been built, else None.
Lastmod = Callable[[PagedRoute, int, tuple[Any, ...]], "str | None"]


def in_own_context(
    call: Callable[Concatenate[Flask, _P], _T],
) -> Callable[Concatenate[Flask, _P], _T]:
    """``call``, run as a build runs: in a fresh :mod:`contextvars` context
    with the app's own app context (a fresh ``g``, no request of the caller)."""

    @functools.wraps(call)
    def in_context(app: Flask, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        def run() -> _T:
            with app.app_context():
                return call(app, *args, **kwargs)

        return contextvars.Context().run(run)

    return in_context


@dataclass(frozen=True)
class EmptyRoute:
    """A marked route whose entries were all left out of the sitemap."""

    rule: str
    endpoint: str
    #: How many entries, and why they were left out.
    message: str


@dataclass(frozen=True)
class Sitemap:
    """The site's build: one file, or several and their index."""

    files: tuple[SitemapFile, ...]
    #: The ``<sitemapindex>`` served at /sitemap.xml in index mode, else None.
    index: bytes | None = None
    #: The files the index names, below the mount path: ``sitemap-1.xml``,
    #: ``sitemap-<slug>-1.xml``...
    names: tuple[str, ...] = ()
    #: Marked routes whose provider gave entries that were all left out (the
    #: sitemap lists none of their pages), each with the reasons: what
    #: check-routes and the audit warn of.
    empty_routes: tuple[EmptyRoute, ...] = ()
    #: The ``<lastmod>`` of each file the index names (None: not known).
    lastmods: tuple[str | None, ...] = ()

    def bodies(self) -> tuple[bytes, ...]:
        """The files in serving order: what /sitemap.xml sends, then in
        index mode /sitemap-1.xml, /sitemap-2.xml..."""
        if self.index is None:
            return (self.files[0].body,)
        return (self.index, *(file.body for file in self.files))


class _Build:
    """What the routes of one build share: the app's settings, the writer,
    what did not fit, the URL policy for images."""

    def __init__(self, app: Flask, *, split: bool, packed: bool = False):
        state = get_state(app)
        settings = state.settings
        self.app = app
        self.settings = settings
        origin = settings.app_url
        assert origin is not None  # the H10 checks ran before any build
        self.origin = origin
        # The format's 50 MiB; the slot lets tests reach it with a small file.
        self.max_bytes = sitemap_state(state).max_bytes or MAX_BYTES
        self.max_urls = settings.sitemap_max_urls
        self.over = Limits()
        self.writer = UrlsetWriter(
            self.max_urls, self.max_bytes, split=split, over=self.over, packed=packed
        )
        # The head's URL policy, for images: absolute against APP_URL's origin.
        self.policy = UrlPolicy(origin)

    def compile(self, rule: Rule) -> CompiledRule:
        settings = self.settings
        return compile_rule(rule, self.origin, settings.locales, settings.root)

    def route(
        self, compiled: CompiledRule, items: Iterable[object] | None
    ) -> EmptyRoute | None:
        """Write one route's entries: ``items``, else its provider's; say so
        when they were all left out."""
        app, rule = self.app, compiled.rule
        where = f"the route {rule.rule!r} (endpoint {rule.endpoint!r})"
        report = RouteReport(rule)
        report.unknown(compiled.unknown_locales)
        writer, policy = self.writer, self.policy
        before = writer.written()
        try:
            if items is None:
                items = route_items(app, compiled, where, report.refuse_unknown)
            write_entries(compiled, items, where, writer, report, policy)
        except Exception as error:
            # The provider's own exception (its database is down): the log's
            # message names the route, not only the traceback.
            failed_in(error, where)
            raise
        report.log(self.origin, dev=app.debug)
        left_out = report.left_out()
        if left_out is None or writer.written() > before:
            return None
        return EmptyRoute(rule.rule, str(rule.endpoint), left_out)


def route_items(
    app: Flask,
    compiled: CompiledRule,
    where: str,
    refuse: Callable[[str], object] | None = None,
) -> Iterable[object]:
    """A route's items as its provider gives them (its own iterator: no
    layer between it and the loop); a route without parameters' as its one
    entry (:func:`.entries.single_entry`)."""
    rule = compiled.rule
    provider = find_provider(rule, app.view_functions.get(str(rule.endpoint)))
    # Only a route without parameters may have none (H10).
    items = () if provider is None else provider_items(provider, where)
    if compiled.names - {LOCALE_ARG}:
        return items
    return (single_entry(items, where, refuse),)


@in_own_context
def build_sitemap(
    app: Flask,
    boundaries: Boundaries | None = None,
    *,
    files_listed: bool = True,
    lastmod: Lastmod | None = None,
) -> Sitemap:
    """Build the site's files in a context of their own (a fresh ``g``, no
    request). ``boundaries`` says where each paged route's parts begin
    (default: asked of each provider); ``files_listed=False`` leaves the
    files of the other routes (``sitemap-<n>.xml``) out of the index;
    ``lastmod`` gives the index's ``<lastmod>`` of a part built before."""
    settings = get_state(app).settings
    paged = [
        route
        for route in paged_routes(app)
        if settings.app_url is None or not _elsewhere(route.rule, settings.app_url)
    ]
    # With paged routes, /sitemap.xml is an index whatever the setting.
    split = settings.sitemap_index or bool(paged)
    build = _Build(app, split=split)
    empty: list[EmptyRoute] = []
    for rule in list(app.url_map.iter_rules()):
        if not is_marked(rule):
            continue
        if _elsewhere(rule, build.origin):
            logger.warning(
                "Sitemap: the route %r (endpoint %r) left out, because its"
                " pages are on the host %r, not at APP_URL %r.",
                rule.rule,
                rule.endpoint,
                rule.host or f"{rule.subdomain}.<server name>",
                build.origin,
            )
        elif not is_paged(getattr(rule, "marmeon_sitemap", None)):
            found = build.route(build.compile(rule), None)
            if found is not None:
                empty.append(found)
    build.over.log(build.max_urls, build.max_bytes, split=split)
    files = tuple(build.writer.finish())
    if not split:
        return Sitemap(files, empty_routes=tuple(empty))
    listed: list[tuple[str, str | None]] = []
    if files_listed and (not paged or any(file.urls for file in files)):
        listed += [
            (f"sitemap-{number}.xml", file.lastmod)
            for number, file in enumerate(files, start=1)
        ]
    for route in paged:
        starts = tuple(
            _boundaries(app, route) if boundaries is None else boundaries(route)
        )
        listed += [
            (
                f"sitemap-{route.slug}-{number}.xml",
                None if lastmod is None else lastmod(route, number, starts),
            )
            for number in range(1, len(starts) + 1)
        ]
    if len(listed) > MAX_FILES:
        logger.warning(
            "Sitemap: %d files left out of the index (their addresses still"
            " answer), because an index names at most %d files. Raise"
            " MARMEON_SITEMAP_MAX_URLS (now %d, at most 50000) for fewer,"
            " larger files.",
            len(listed) - MAX_FILES,
            MAX_FILES,
            build.max_urls,
        )
        del listed[MAX_FILES:]
    base = build.settings.site_base
    index = sitemap_index((f"{base}/{name}", day) for name, day in listed)
    return Sitemap(
        files,
        index,
        tuple(name for name, _ in listed),
        tuple(empty),
        tuple(day for _, day in listed),
    )


def part_entries(app: Flask, route: PagedRoute) -> int:
    """Entries per part of ``route``: each locale of a localized page counts."""
    build = _Build(app, split=False)
    compiled = build.compile(route.rule)
    option = compiled.locale_option
    versions = len(option) if isinstance(option, tuple) else len(compiled.locales)
    return part_size(build.max_urls, versions)


def _boundaries(app: Flask, route: PagedRoute) -> tuple[Any, ...]:
    """Ask a paged route's provider where its parts begin."""
    # Ranges are decided with room for one row in twenty more: they are
    # kept while every part fits (file_caches.py), so rows added here and
    # there do not shift every range after them.
    size = part_entries(app, route)
    given = route.provider.boundaries(size - size // ROOM)
    return checked_starts(given, route.where)


@dataclass(frozen=True)
class Part:
    """One part's build: its file, and whether its range held more entries
    than a part may (rows added since the ranges were decided)."""

    file: SitemapFile
    overflowed: bool


@in_own_context
def build_part(
    app: Flask,
    route: PagedRoute,
    number: int,
    start: Any,
    stop: Any | None,
    *,
    packed: bool = False,
) -> Part:
    """Build part ``number`` (from 1) of a paged route: the entries of its
    range of keys, from ``start`` up to ``stop`` (None: to the end), in one
    file; with ``packed``, kept gzip-compressed only, compressed as it is
    written (what the caches keep: its whole XML is never held)."""
    build = _Build(app, split=False, packed=packed)
    build.writer.track = True  # the part's <lastmod> in the index
    compiled = build.compile(route.rule)
    size = part_entries(app, route)
    span = f"keys from {start!r} {'to the end' if stop is None else f'up to {stop!r}'}"
    try:
        # One more than fits: a row added since the ranges were decided is
        # then seen, left out and logged. Only that many are read, whatever
        # the store gives (one that ignores stop would be read to its end),
        # and a generator is closed then (its session too), not when freed.
        # What it may return is what sitemap() may (an async generator...).
        entries = provider_items(
            lambda: route.provider.entries(start, stop, size + 1), route.where
        )
        with closed_after(entries):
            counted = Counted(islice(entries, size + 1))
            build.route(compiled, counted)
    except Exception as error:
        raise RuntimeError(
            f"Part {number} of {route.where} ({span}) failed: {error}"
        ) from error
    (file,) = build.writer.finish()
    if counted.count > size:
        # The log says how many wait: the rest of the range is counted (when
        # the provider can), never read into memory.
        total = range_count(route.provider, start, stop)
        build.over.beyond(None if total is None else max(0, total - size - 1))
    waiting = f"{route.where} ({span})"
    build.over.log(build.max_urls, build.max_bytes, split=False, waiting=waiting)
    return Part(file, counted.count > size or bool(build.over.urls))


def listed_rules(app: Flask) -> list[Rule]:
    """The marked rules whose pages the sitemap lists: those on APP_URL's
    host, in the url_map's order."""
    origin = get_state(app).settings.app_url or ""
    return [
        rule
        for rule in app.url_map.iter_rules()
        if is_marked(rule) and not _elsewhere(rule, origin)
    ]


build_boundaries = in_own_context(_boundaries)
