"""One sitemap build: marked routes -> providers -> entries -> XML files.

The build runs in a context of its own: a fresh :mod:`contextvars` context
(so no request of the caller is visible) with the app's own app context
pushed, so a provider gets a fresh ``g`` and may use database sessions.
"""

from __future__ import annotations

import contextvars
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask import Flask
from werkzeug.routing import Rule

from .._log import logger
from .._state import get_state
from ..routing.rule import is_marked
from .entries import (
    CompiledRule,
    Refused,
    SitemapEntry,
    compile_rule,
    expand,
    lastmod,
    normalize,
)
from .providers import Provider, entries_of, find_provider, provider_items
from .xml import (
    MAX_BYTES,
    SitemapFile,
    UrlsetWriter,
    escape,
    sitemap_index,
    url_element,
)


@dataclass(frozen=True)
class Sitemap:
    """A built sitemap: one file, or (``MARMEON_SITEMAP_INDEX``) several and
    their index."""

    files: tuple[SitemapFile, ...]
    #: The ``<sitemapindex>`` served at /sitemap.xml in index mode, else None.
    index: bytes | None = None

    def main(self) -> bytes:
        """What /sitemap.xml serves."""
        return self.index if self.index is not None else self.files[0].body

    def part(self, number: int) -> bytes | None:
        """What /sitemap-<number>.xml serves in index mode, else None."""
        if self.index is None or not 1 <= number <= len(self.files):
            return None
        return self.files[number - 1].body


class _Report:
    """What one route left out, said in one warning."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.reasons: Counter[str] = Counter()
        self.first: dict[str, str] = {}

    def refuse(self, refused: Refused) -> None:
        self.reasons[refused.kind] += 1
        self.first.setdefault(refused.kind, str(refused))

    def log(self) -> None:
        total = sum(self.reasons.values())
        if not total:
            return
        examples = "; ".join(self.first.values())
        logger.warning(
            "Sitemap: %d entr%s of the route %r (endpoint %r) left out, because"
            " the route would not answer them with 200: %s.",
            total,
            "y" if total == 1 else "ies",
            self.rule.rule,
            self.rule.endpoint,
            examples,
        )


class _Limits:
    """What did not fit, over all routes."""

    def __init__(self) -> None:
        self.entries = 0
        self.urls = 0
        #: Without the index, once something does not fit the rest is left out.
        self.full = False


def _params_and_dates(
    provider: Provider, where: str
) -> Iterator[tuple[Mapping[str, Any], str | None]]:
    # The hot loop of a large sitemap: the common shapes take no call.
    for item in provider_items(provider, where):
        entry = item if type(item) is SitemapEntry else normalize(item, where)
        when = entry.last_modified
        if when is None:
            yield entry.params, None
        elif type(when) is date:
            yield entry.params, when.isoformat()
        else:
            yield entry.params, lastmod(when, where)


def _write_route(
    app: Flask,
    compiled: CompiledRule,
    writer: UrlsetWriter,
    over: _Limits,
) -> None:
    rule = compiled.rule
    view_func = app.view_functions.get(str(rule.endpoint))
    provider = find_provider(rule, view_func)
    where = f"the route {rule.rule!r} (endpoint {rule.endpoint!r})"
    report = _Report(rule)
    per_entry = len(compiled.locales) or 1
    localized = bool(compiled.locales)
    if not (compiled.names - {"locale"} if localized else compiled.names):
        # A route without parameters is one entry; its provider may say
        # when the page changed, and the latest date counts.
        latest: str | None = None
        if provider is not None:
            for entry in entries_of(provider, where):
                if entry.params:
                    report.refuse(
                        Refused("a parameter is unknown: the route has none", "unknown")
                    )
                    continue
                date = lastmod(entry.last_modified, where)
                if date is not None and (latest is None or date > latest):
                    latest = date
        entries: Iterable[tuple[Mapping[str, Any], str | None]] = [({}, latest)]
    else:
        assert provider is not None  # the H10 checks ran before any build
        entries = _params_and_dates(provider, where)
    loc_of = compiled.loc
    add_one = writer.add_one
    for params, date in entries:
        if over.full:
            over.entries += 1
            over.urls += per_entry
            continue
        try:
            if localized:
                versions = expand(compiled, params)
            else:
                loc = loc_of(params)
        except Refused as refused:
            report.refuse(refused)
            continue
        if localized:
            fits = writer.add([url_element(v, date) for v in versions], date)
        else:
            if "&" in loc or "'" in loc or "<" in loc or ">" in loc or '"' in loc:
                loc = escape(loc)
            if date is None:
                fits = add_one(f"<url><loc>{loc}</loc></url>\n", None)
            else:
                fits = add_one(
                    f"<url><loc>{loc}</loc><lastmod>{date}</lastmod></url>\n", date
                )
        if not fits:
            over.full = not writer.split
            over.entries += 1
            over.urls += per_entry
    report.log()


def _build(app: Flask) -> Sitemap:
    with app.app_context():
        state = get_state(app)
        settings = state.settings
        origin = settings.app_url
        assert origin is not None  # the H10 checks ran before any build
        writer = UrlsetWriter(
            settings.sitemap_max_urls, MAX_BYTES, split=settings.sitemap_index
        )
        over = _Limits()
        for rule in list(app.url_map.iter_rules()):
            if is_marked(rule):
                compiled = compile_rule(rule, origin, settings.locales)
                _write_route(app, compiled, writer, over)
        if over.urls:
            logger.warning(
                "Sitemap: %d URLs (%d entries) left out, because a file holds at"
                " most %d URLs and %d bytes. Set MARMEON_SITEMAP_INDEX = True to"
                " split the sitemap into several files.",
                over.urls,
                over.entries,
                settings.sitemap_max_urls,
                MAX_BYTES,
            )
        files = tuple(writer.finish())
        if settings.sitemap_index:
            return Sitemap(files, sitemap_index(origin, files))
        return Sitemap(files)


def build_sitemap(app: Flask) -> Sitemap:
    """Build the app's sitemap in a context of its own (a fresh ``g``, no request)."""
    return contextvars.Context().run(_build, app)
