"""One sitemap build: marked routes -> providers -> entries -> XML files.

The build runs in a context of its own: a fresh :mod:`contextvars` context
(so no request of the caller is visible) with the app's own app context
pushed, so a provider gets a fresh ``g`` and may use database sessions.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.routing import Rule

from .._log import logger
from .._state import get_state
from ..head.urls import UrlPolicy
from ..i18n.urls import LOCALE_ARG
from ..routing.rule import is_marked
from .addresses import CompiledRule, compile_rule
from .providers import entries_of, find_provider, provider_items
from .report import Limits, RouteReport, failed_in
from .write import write_entries, write_single
from .xml import MAX_BYTES, SitemapFile, UrlsetWriter, sitemap_index


@dataclass(frozen=True)
class EmptyRoute:
    """A marked route whose entries were all left out of the sitemap."""

    rule: str
    endpoint: str
    #: How many entries, and why they were left out.
    message: str


@dataclass(frozen=True)
class Sitemap:
    """A built sitemap: one file, or (``MARMEON_SITEMAP_INDEX``) several and
    their index."""

    files: tuple[SitemapFile, ...]
    #: The ``<sitemapindex>`` served at /sitemap.xml in index mode, else None.
    index: bytes | None = None
    #: Marked routes whose provider gave entries that were all left out (the
    #: sitemap lists none of their pages), each with the reasons: what
    #: check-routes and the audit warn of.
    empty_routes: tuple[EmptyRoute, ...] = ()

    def main(self) -> bytes:
        """What /sitemap.xml serves."""
        return self.index if self.index is not None else self.files[0].body

    def part(self, number: int) -> bytes | None:
        """What /sitemap-<number>.xml serves in index mode, else None."""
        if self.index is None or not 1 <= number <= len(self.files):
            return None
        return self.files[number - 1].body


def _write_route(
    app: Flask,
    compiled: CompiledRule,
    writer: UrlsetWriter,
    over: Limits,
    policy: Callable[[str], str | None],
    origin: str,
) -> EmptyRoute | None:
    """Write one route's entries; say so when they were all left out."""
    rule = compiled.rule
    before = writer.written()
    view_func = app.view_functions.get(str(rule.endpoint))
    provider = find_provider(rule, view_func)
    where = f"the route {rule.rule!r} (endpoint {rule.endpoint!r})"
    report = RouteReport(rule)
    report.unknown(compiled.unknown_locales)
    try:
        if not compiled.names - {LOCALE_ARG}:
            entries = entries_of(provider, where) if provider is not None else ()
            write_single(compiled, entries, where, writer, over, report, policy)
        else:
            assert provider is not None  # the H10 checks ran before any build
            items = provider_items(provider, where)
            write_entries(compiled, items, where, writer, over, report, policy)
    except Exception as error:
        # The provider's own exception (its database is down): the log's
        # message names the route, not only the traceback.
        failed_in(error, where)
        raise
    report.log(origin, dev=app.debug)
    left_out = report.left_out()
    if left_out is None or writer.written() > before:
        return None
    return EmptyRoute(rule.rule, str(rule.endpoint), left_out)


def _elsewhere(rule: Rule, origin: str) -> bool:
    """Whether the rule answers on another host than APP_URL's (a blueprint's
    subdomain, a host rule): APP_URL + its path would be a 404."""
    if rule.map.host_matching:
        return bool(rule.host) and rule.host != urlsplit(origin).netloc
    return bool(rule.subdomain) and rule.subdomain != rule.map.default_subdomain


def _build(app: Flask) -> Sitemap:
    with app.app_context():
        state = get_state(app)
        settings = state.settings
        origin = settings.app_url
        assert origin is not None  # the H10 checks ran before any build
        # The format's 50 MiB; the slot lets tests reach it with a small file.
        max_bytes = state.sitemap_max_bytes or MAX_BYTES
        writer = UrlsetWriter(
            settings.sitemap_max_urls, max_bytes, split=settings.sitemap_index
        )
        over = Limits()
        # The head's URL policy, for images: absolute against APP_URL's origin.
        policy = UrlPolicy(origin)
        empty: list[EmptyRoute] = []
        for rule in list(app.url_map.iter_rules()):
            if is_marked(rule) and _elsewhere(rule, origin):
                logger.warning(
                    "Sitemap: the route %r (endpoint %r) left out, because its"
                    " pages are on the host %r, not at APP_URL %r.",
                    rule.rule,
                    rule.endpoint,
                    rule.host or f"{rule.subdomain}.<server name>",
                    origin,
                )
            elif is_marked(rule):
                compiled = compile_rule(rule, origin, settings.locales, settings.root)
                found = _write_route(app, compiled, writer, over, policy, origin)
                if found is not None:
                    empty.append(found)
        over.log(settings.sitemap_max_urls, max_bytes, split=settings.sitemap_index)
        files = tuple(writer.finish())
        index = None
        if settings.sitemap_index:
            index = sitemap_index(origin + settings.root, files)
        return Sitemap(files, index, tuple(empty))


def build_sitemap(app: Flask) -> Sitemap:
    """Build the app's sitemap in a context of its own (a fresh ``g``, no request)."""
    return contextvars.Context().run(_build, app)
