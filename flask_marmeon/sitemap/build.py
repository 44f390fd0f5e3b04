"""One sitemap build: marked routes -> providers -> entries -> XML files.

The build runs in a context of its own: a fresh :mod:`contextvars` context
(so no request of the caller is visible) with the app's own app context
pushed, so a provider gets a fresh ``g`` and may use database sessions.
"""

from __future__ import annotations

import contextvars
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from itertools import islice
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.routing import Rule

from .._log import logger
from .._state import get_state
from ..routing.rule import is_marked
from .entries import (
    LOCALE_ARG,
    PLAIN_TEXT,
    CompiledRule,
    Refused,
    SitemapEntry,
    ValuePlan,
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
    localized_elements,
    sitemap_index,
    url_element,
    value_pieces_of,
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


# <url> elements the general loop collects before handing them to the writer.
_BATCH = 4096
# Entries the planned loop takes from a provider at a time. Few, so that the
# entries a run holds never reach the garbage collector's threshold (700
# new container objects): a larger run makes it walk them, and now and then
# every object of the process, which costs more than the whole build.
_RUN = 256
# How much text (characters) a build keeps for the dates it has seen.
_KNOWN_TEXT = 1 << 20
# Entries of a batch off the planned shape after which the rest of the batch
# goes the general way at once.
_MAX_ODD = 16


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
    if not compiled.names - {LOCALE_ARG} if compiled.locales else not compiled.names:
        _write_single(compiled, provider, where, writer, over, report)
    else:
        assert provider is not None  # the H10 checks ran before any build
        items = provider_items(provider, where)
        plan = compiled.value_plan()
        if plan is not None:
            _write_planned(compiled, plan, items, where, writer, over, report)
        elif compiled.locales:
            _write_localized(compiled, items, where, writer, over, report)
        else:
            _write_plain(compiled, items, where, writer, over, report)
    report.log()


def _write_single(
    compiled: CompiledRule,
    provider: Provider | None,
    where: str,
    writer: UrlsetWriter,
    over: _Limits,
    report: _Report,
) -> None:
    # A route without parameters is one entry; its provider may say when
    # the page changed, and the latest date counts.
    latest: str | None = None
    if provider is not None:
        for entry in entries_of(provider, where):
            if entry.params:
                report.refuse(
                    Refused("a parameter is unknown: the route has none", "unknown")
                )
                continue
            day = lastmod(entry.last_modified, where)
            if day is not None and (latest is None or day > latest):
                latest = day
    _write_versions(compiled, {}, latest, writer, over, report)


def _write_versions(
    compiled: CompiledRule,
    params: Mapping[str, Any],
    day: str | None,
    writer: UrlsetWriter,
    over: _Limits,
    report: _Report,
) -> None:
    count = len(compiled.locales) or 1
    if over.full:
        over.entries += 1
        over.urls += count
        return
    try:
        versions = expand(compiled, params)
    except Refused as refused:
        report.refuse(refused)
        return
    if compiled.locales:
        elements = localized_elements(versions, day, escape_text=compiled.needs_escape)
    else:
        elements = [url_element(v, day) for v in versions]
    if not writer.add(elements, day):
        over.full = not writer.split
        over.entries += 1
        over.urls += count


def _write_localized(
    compiled: CompiledRule,
    items: Iterable[object],
    where: str,
    writer: UrlsetWriter,
    over: _Limits,
    report: _Report,
) -> None:
    for item in items:
        entry = item if type(item) is SitemapEntry else normalize(item, where)
        day = lastmod(entry.last_modified, where)
        _write_versions(compiled, entry.params, day, writer, over, report)


def _write_plain(
    compiled: CompiledRule,
    items: Iterable[object],
    where: str,
    writer: UrlsetWriter,
    over: _Limits,
    report: _Report,
) -> None:
    # Any entry of a route that is not localized; elements go to the writer
    # in batches that the loop knows fit.
    path_of = compiled.path
    origin = compiled.origin
    needs_escape = compiled.needs_escape
    # Only an index names each file's latest lastmod.
    track = writer.split
    full = over.full
    pending: list[str] = []
    append = pending.append
    count = pending_bytes = 0
    latest: str | None = None
    room_urls, room_bytes = writer.room()
    limit = min(room_urls, _BATCH)
    for item in items:
        if full:
            over.entries += 1
            over.urls += 1
            continue
        entry = item if type(item) is SitemapEntry else normalize(item, where)
        when = entry.last_modified
        if when is None:
            day = None
        elif type(when) is date:
            day = when.isoformat()
        else:
            day = lastmod(when, where)
        try:
            path = path_of(entry.params)
        except Refused as refused:
            report.refuse(refused)
            continue
        loc = origin + path
        if needs_escape:
            loc = escape(loc)
        if day is None:
            element = f"<url><loc>{loc}</loc></url>\n"
        else:
            element = f"<url><loc>{loc}</loc><lastmod>{day}</lastmod></url>\n"
        size = len(element) if element.isascii() else len(element.encode())
        if count >= limit or pending_bytes + size > room_bytes:
            # A batch is done, or the file is full.
            writer.extend(pending, latest)
            pending.clear()
            count = pending_bytes = 0
            latest = None
            room_urls, room_bytes = writer.room()
            if room_urls == 0 or size > room_bytes:
                if not writer.next_file():
                    full = over.full = True
                    over.entries += 1
                    over.urls += 1
                    continue
                room_urls, room_bytes = writer.room()
                if size > room_bytes:  # larger than any file: left out
                    over.entries += 1
                    over.urls += 1
                    continue
            limit = min(room_urls, _BATCH)
        append(element)
        count += 1
        pending_bytes += size
        if track and day is not None and (latest is None or day > latest):
            latest = day
    writer.extend(pending, latest)


# A marker for "no entry": the batch was read to its end.
_END = object()

_Written = tuple[tuple[str, ...], "str | None"]
# One run of planned entries: the elements' texts, their latest day (when
# tracked), and the entry that stopped the run (else _END).
_Run = tuple[list[str], "str | None", object]


def _write_planned(
    compiled: CompiledRule,
    plan: ValuePlan,
    items: Iterable[object],
    where: str,
    writer: UrlsetWriter,
    over: _Limits,
    report: _Report,
) -> None:
    # The hot loop of a large sitemap: entries of the plan's shape (see
    # ValuePlan) need a few comparisons, and the text of their <url>
    # elements is the value's text joined by pieces written once per date.
    # Runs of such entries go to the writer whole when they fit; any other
    # entry, and a run that does not fit, goes the general way, which
    # writes exactly what this loop would and knows the limits. Nothing is
    # reported or written before a run is known to fit.
    general: Callable[..., None] = (
        _write_localized if compiled.locales else _write_plain
    )
    run_of = _int_run if plan.kind is int else _str_run
    per_entry = len(plan.versions)
    xhtml = plan.default is not None
    track = writer.split
    pieces_of = value_pieces_of(compiled.origin, plan)
    bare: _Written = (pieces_of(None), None)
    # A site's pages share few dates: the text of each date (or, for a
    # datetime, of its day) is made once, as long as the memo stays small.
    known: dict[object, _Written] = {}
    room = _KNOWN_TEXT // (sum(map(len, bare[0])) + 30 * per_entry)

    def written(when: object) -> _Written:
        key: object = when if type(when) is date else None
        day = lastmod(when, where)
        if day is None:
            return bare
        if key is None:
            key = day
            found = known.get(day)
            if found is not None:
                return found
        found = (pieces_of(day), day)
        if len(known) < room:
            known[key] = found
        return found

    source = iter(items)
    while True:
        room_urls, _ = writer.room()
        size = min(room_urls // per_entry, _RUN)
        chunk = list(islice(source, size or _RUN))
        if not chunk:
            break
        if not size or over.full:
            general(compiled, chunk, where, writer, over, report)
            continue
        rest = iter(chunk)
        done = odd = 0
        while True:
            pending, latest, item = run_of(rest, plan, known, written, bare, track)
            if pending:
                data = "".join(pending).encode()
                urls_left, bytes_left = writer.room()
                if (
                    not over.full
                    and len(pending) * per_entry <= urls_left
                    and len(data) <= bytes_left
                ):
                    writer.extend_data(
                        data, len(pending) * per_entry, latest, xhtml=xhtml
                    )
                else:
                    run = chunk[done : done + len(pending)]
                    general(compiled, run, where, writer, over, report)
                done += len(pending)
            if item is _END:
                break
            done += 1
            odd += 1
            if odd >= _MAX_ODD:
                general(compiled, chunk[done - 1 :], where, writer, over, report)
                break
            general(compiled, (item,), where, writer, over, report)


def _int_run(
    rest: Iterator[object],
    plan: ValuePlan,
    known: dict[object, _Written],
    written: Callable[[object], _Written],
    bare: _Written,
    track: bool,
) -> _Run:
    """The entries of ``rest`` up to the first that is off an int plan."""
    name = plan.name
    bound = plan.bound
    taken = plan.taken
    known_get = known.get
    entry_type = SitemapEntry
    date_type = date
    pending: list[str] = []
    append = pending.append
    latest: str | None = None
    for item in rest:
        if type(item) is entry_type:
            params = item.params
            when = item.last_modified
        elif (
            type(item) is dict
            and len(item) == 2
            and "params" in item
            and "last_modified" in item
        ):
            params = item["params"]
            when = item["last_modified"]
        else:
            return pending, latest, item
        if type(params) is not dict or len(params) != 1:
            return pending, latest, item
        value = params.get(name)
        if type(value) is not int or value < 0 or value >= bound or value in taken:
            return pending, latest, item
        if type(when) is date_type:
            pieces, day = known_get(when) or written(when)
        elif when is None:
            pieces, day = bare
        else:
            pieces, day = written(when)
        append(str(value).join(pieces))
        if track and day is not None and (latest is None or day > latest):
            latest = day
    return pending, latest, _END


def _str_run(
    rest: Iterator[object],
    plan: ValuePlan,
    known: dict[object, _Written],
    written: Callable[[object], _Written],
    bare: _Written,
    track: bool,
) -> _Run:
    """The entries of ``rest`` up to the first that is off a str plan."""
    name = plan.name
    longest = plan.bound
    taken = plan.taken
    plain = PLAIN_TEXT.fullmatch
    known_get = known.get
    entry_type = SitemapEntry
    date_type = date
    pending: list[str] = []
    append = pending.append
    latest: str | None = None
    for item in rest:
        if type(item) is entry_type:
            params = item.params
            when = item.last_modified
        elif (
            type(item) is dict
            and len(item) == 2
            and "params" in item
            and "last_modified" in item
        ):
            params = item["params"]
            when = item["last_modified"]
        else:
            return pending, latest, item
        if type(params) is not dict or len(params) != 1:
            return pending, latest, item
        value = params.get(name)
        if (
            type(value) is not str
            or len(value) > longest
            or value in taken
            or plain(value) is None
        ):
            return pending, latest, item
        if type(when) is date_type:
            pieces, day = known_get(when) or written(when)
        elif when is None:
            pieces, day = bare
        else:
            pieces, day = written(when)
        append(value.join(pieces))
        if track and day is not None and (latest is None or day > latest):
            latest = day
    return pending, latest, _END


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
        over = _Limits()
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
                compiled = compile_rule(rule, origin, settings.locales)
                _write_route(app, compiled, writer, over)
        if over.urls:
            logger.warning(
                "Sitemap: %d URLs (%d entries) left out, because a file holds at"
                " most %d URLs and %d bytes.%s",
                over.urls,
                over.entries,
                settings.sitemap_max_urls,
                max_bytes,
                " Each of them is larger than a whole file may be."
                if settings.sitemap_index
                else " Set MARMEON_SITEMAP_INDEX = True to split the sitemap into"
                " several files.",
            )
        files = tuple(writer.finish())
        if settings.sitemap_index:
            return Sitemap(files, sitemap_index(origin, files))
        return Sitemap(files)


def build_sitemap(app: Flask) -> Sitemap:
    """Build the app's sitemap in a context of its own (a fresh ``g``, no request)."""
    return contextvars.Context().run(_build, app)
