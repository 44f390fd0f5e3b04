"""One route's entries -> ``<url>`` elements -> the writer: one loop.

Every entry goes through :func:`write_entries`: normalised (:mod:`.entries`),
its addresses built and checked (:mod:`.addresses`), its elements written by
:func:`.xml.url_elements`, and handed to the writer in batches that the loop
knows fit. An entry of a planned rule (:mod:`.plan`) takes a short cut
through the same loop: a few comparisons instead of the checks, and
``value.join(pieces)`` instead of the writer's call, the pieces being that
call's own text for the route and date.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

from .addresses import Addresses, CompiledRule, Refused, addresses
from .entries import SitemapEntry, lastmod, normalize
from .images import absolute_images
from .plan import PLAIN_TEXT, make_plan
from .report import Limits, RouteReport
from .xml import UrlsetWriter, url_elements, value_pieces_of

# URLs the loop collects before handing them to the writer: few enough that
# a batch stays in the processor's cache while it is joined and encoded.
_BATCH = 512
# How much text (characters) a route's loop keeps for the dates it has seen.
_KNOWN_TEXT = 1 << 20

_Written = tuple[tuple[str, ...], "str | None"]
# A key no params hold (a route's parameters are identifiers).
_NO_NAME = "\0"


def write_entries(
    compiled: CompiledRule,
    items: Iterable[object],
    where: str,
    writer: UrlsetWriter,
    over: Limits,
    report: RouteReport,
    policy: Callable[[str], str | None],
) -> None:
    """Write the ``<url>`` elements of every entry of ``items``, in order;
    an entry is written whole (all its versions) or not at all."""
    plan = make_plan(compiled)
    # Without a plan, no params hold this name: every entry goes the general way.
    name: Any = _NO_NAME
    int_plan = False
    allowed: range = range(0)
    bound = 0
    taken: frozenset[object] = frozenset()
    plain = PLAIN_TEXT.fullmatch
    planned_urls = 1
    if plan is not None:
        name, bound, taken = plan.name, plan.bound, plan.taken
        int_plan = plan.kind is int
        # An int in a range is one test written in C.
        allowed = range(bound) if int_plan else range(0)
        planned_urls = len(plan.versions)
        days = _Days(value_pieces_of(compiled.base, plan), planned_urls, where)
        known_get = days.known.get
        written = days.written
        bare = days.bare
    usual = planned_urls if plan is not None else len(compiled.locales) or 1
    batch = _Batch(writer, over, xhtml=bool(compiled.locales), usual=usual)
    pending = batch.elements
    append = pending.append
    # Only an index names each file's latest lastmod.
    track = writer.split
    entry_type = SitemapEntry
    date_type = date
    count = 0
    latest: str | None = None
    # Room for one URL: an entry with its own locales may have fewer than
    # the usual, and a planned one finds the file full at its turn.
    limit = batch.make_room(1)
    # A planned entry (of usual URLs) fits in the batch while count <= edge.
    edge = limit - usual
    source = iter(items)
    for item in source:
        entry = item if type(item) is entry_type else normalize(item, where)
        when = entry.last_modified
        params = entry.params
        if type(params) is dict and len(params) == 1:
            # The short cut: a few comparisons stand for every check.
            value: Any = params.get(name)
            if (
                type(value) is int and value in allowed and value not in taken
                if int_plan
                else type(value) is str
                and len(value) <= bound
                and value not in taken
                and plain(value) is not None
            ) and not entry.given_more:
                if type(when) is date_type:
                    pieces, day = known_get(when) or written(when)
                elif when is None:
                    pieces, day = bare
                else:
                    pieces, day = written(when)
                if count > edge:
                    limit = batch.turn(count, latest, usual)
                    count = 0
                    latest = None
                    if limit <= 0:
                        if limit == 0:
                            break
                        limit = batch.make_room(usual)
                        edge = limit - usual
                        continue
                    edge = limit - usual
                # str() of a str is the str itself.
                append(str(value).join(pieces))
                count += usual
                if track and day is not None and (latest is None or day > latest):
                    latest = day
                continue
        day = lastmod(when, where)
        try:
            element, urls, pictured = _general(compiled, entry, report, policy, day)
        except Refused as refused:
            report.refuse(refused)
            continue
        if not urls:
            continue
        if count + urls > limit:
            limit = batch.turn(count, latest, urls)
            count = 0
            latest = None
            if limit <= 0:
                if limit == 0:
                    break
                limit = batch.make_room(usual)
                edge = limit - usual
                continue
            edge = limit - usual
        if urls != usual:
            batch.urls_of[len(pending)] = urls
        if pictured:
            batch.images = True
        append(element)
        count += urls
        if track and day is not None and (latest is None or day > latest):
            latest = day
    else:
        batch.flush(count, latest)
        return
    # A file is full and there is no index: the rest is left out, each
    # entry counted by the URLs it would have had.
    for item in source:
        entry = item if type(item) is entry_type else normalize(item, where)
        try:
            urls = len(_addresses_of(compiled, entry, report).locs)
        except Refused as refused:
            report.refuse(refused)
            continue
        if urls:
            over.left_out(urls)


class _Days:
    """A planned route's pieces for each date: a site's pages share few
    dates, so the text of each date (or, for a datetime, of its day) is made
    once, while the memo stays small."""

    def __init__(
        self, pieces_of: Callable[[str | None], tuple[str, ...]], urls: int, where: str
    ) -> None:
        self.pieces_of = pieces_of
        self.where = where
        self.bare: _Written = (pieces_of(None), None)
        self.known: dict[object, _Written] = {}
        self.room = _KNOWN_TEXT // (sum(map(len, self.bare[0])) + 30 * urls)

    def written(self, when: object) -> _Written:
        """The pieces and day of ``when`` (a date, a datetime or None)."""
        key: object = when if type(when) is date else None
        day = lastmod(when, self.where)
        if day is None:
            return self.bare
        known = self.known
        if key is None:
            key = day
            found = known.get(day)
            if found is not None:
                return found
        found = (self.pieces_of(day), day)
        if len(known) < self.room:
            known[key] = found
        return found


class _Batch:
    """The elements written but not yet handed to the writer.

    Each element is one entry's whole text (all its versions); most entries
    of a route have ``usual`` URLs, and :attr:`urls_of` gives the others'
    by their place. The loop keeps a batch within the URLs :meth:`make_room`
    gives; its bytes are counted once, when it is handed over, and a batch
    that would overflow the file is split then, entry by entry (rare: a
    file holds 50 MB).
    """

    def __init__(
        self, writer: UrlsetWriter, over: Limits, *, xhtml: bool, usual: int
    ) -> None:
        self.writer = writer
        self.over = over
        self.xhtml = xhtml
        self.usual = usual
        self.elements: list[str] = []
        self.urls_of: dict[int, int] = {}
        #: Whether an element holds images.
        self.images = False

    def make_room(self, need: int) -> int:
        """The URLs the next batch may take, at least ``need``; else 0 when
        nothing more is written (a full file, not split), or -1 when the entry
        is larger than any file."""
        writer = self.writer
        if self.over.full:
            return 0
        left, _ = writer.room()
        if need > left:
            if not writer.next_file():
                self.over.full = True
                return 0
            left, _ = writer.room()
            if need > left:
                return -1
        return min(left, max(_BATCH, need))

    def turn(self, count: int, latest: str | None, need: int) -> int:
        """Hand the batch over and start the next, for an entry of ``need``
        URLs: see :meth:`make_room`. When nothing more fits (0), or the entry
        fits in no file (-1), it is counted as left out."""
        self.flush(count, latest)
        limit = self.make_room(need)
        if limit <= 0:
            self.over.left_out(need)
        return limit

    def flush(self, count: int, latest: str | None) -> None:
        """Hand the elements to the writer: ``count`` URLs, ``latest`` the
        latest day of theirs."""
        elements = self.elements
        if not elements:
            return
        data = "".join(elements).encode()
        writer = self.writer
        if len(data) <= writer.room()[1]:
            writer.extend(data, count, latest, xhtml=self.xhtml, images=self.images)
        else:
            self._split()
        elements.clear()
        self.urls_of.clear()
        self.images = False

    def _split(self) -> None:
        # The elements one by one: as many as fit go to this file, the rest
        # to the next (or, without the index, are left out).
        writer, over = self.writer, self.over
        for place, element in enumerate(self.elements):
            urls = self.urls_of.get(place, self.usual)
            data = element.encode()
            if over.full:
                over.left_out(urls)
                continue
            left, room = writer.room()
            if urls > left or len(data) > room:
                if not writer.next_file():
                    over.full = True
                    over.left_out(urls)
                    continue
                left, room = writer.room()
                if urls > left or len(data) > room:
                    over.left_out(urls)  # larger than any file
                    continue
            writer.extend(
                data,
                urls,
                _day_of(element),
                xhtml=self.xhtml,
                images=b"<image:image>" in data,
            )


def _day_of(element: str) -> str | None:
    """The ``<lastmod>`` of an entry's elements."""
    start = element.find("<lastmod>")
    if start < 0:
        return None
    return element[start + 9 : element.index("</lastmod>", start)]


def _general(
    compiled: CompiledRule,
    entry: SitemapEntry,
    report: RouteReport,
    policy: Callable[[str], str | None],
    day: str | None,
) -> tuple[str, int, bool]:
    """An entry off the plan: its elements, how many URLs they are, and
    whether they list images."""
    found = _addresses_of(compiled, entry, report)
    pictures = (
        absolute_images(entry.images, policy, report.images) if entry.images else ()
    )
    return url_elements(found, day, pictures), len(found.locs), bool(pictures)


def _addresses_of(
    compiled: CompiledRule, entry: SitemapEntry, report: RouteReport
) -> Addresses:
    """An entry's addresses, in the locales it names that its route allows."""
    locales = None
    if compiled.locales:
        locales, unknown, refused = compiled.chosen_locales(entry.params, entry.locales)
        if unknown:
            report.unknown(unknown)
        if refused:
            report.refused_locales(refused)
    return addresses(compiled, entry.params, locales)


def write_single(
    compiled: CompiledRule,
    entries: Iterable[SitemapEntry],
    where: str,
    writer: UrlsetWriter,
    over: Limits,
    report: RouteReport,
    policy: Callable[[str], str | None],
) -> None:
    """A route without parameters is one entry: its provider may say when
    the page changed (the latest date counts), its locales and its images."""
    latest: str | None = None
    locales: list[str] | None = None
    images: list[str] = []
    for entry in entries:
        if entry.params:
            report.refuse(
                Refused("a parameter is unknown: the route has none", "unknown")
            )
            continue
        day = lastmod(entry.last_modified, where)
        if day is not None and (latest is None or day > latest):
            latest = day
        if entry.locales is not None:
            locales = [*(locales or ()), *entry.locales]
        images += entry.images or ()
    when = date.fromisoformat(latest) if latest is not None else None
    one = SitemapEntry({}, when, locales, images or None)
    write_entries(compiled, (one,), where, writer, over, report, policy)
