"""One route's entries -> ``<url>`` elements -> the writer: one loop.

Every entry goes through :func:`write_entries`: normalised (:mod:`.entries`),
its addresses built and checked (:mod:`.addresses`), its elements written by
:func:`.xml.url_elements`, and handed to the file writer
(:class:`.file_writer.UrlsetWriter`) with its URL count, day and flags, one
entry at a time; an entry of a rule with a shortcut (:mod:`.shortcut`)
takes it in the same loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from .addresses import Addresses, CompiledRule, addresses
from .arguments import Refused
from .entries import SitemapEntry, lastmod, normalize
from .file_writer import UrlsetWriter
from .images import absolute_images
from .report import RouteReport
from .shortcut import PLAIN_TEXT, shortcut_of
from .xml import url_elements, value_pieces_of

# How much text (characters) a route's loop keeps for the dates it has seen.
_KNOWN_TEXT = 1 << 20

_Written = tuple[tuple[str, ...], "str | None"]


def write_entries(
    compiled: CompiledRule,
    items: Iterable[object],
    where: str,
    writer: UrlsetWriter,
    report: RouteReport,
    policy: Callable[[str], str | None],
) -> None:
    """Write the ``<url>`` elements of every entry of ``items``, in order,
    each handed to ``writer`` whole (all its versions) as it is made."""
    shortcut = shortcut_of(compiled)
    # Without a shortcut, no value is in range(0) or of at most 0
    # characters: every entry goes the general way.
    name: Any = None
    int_kind = False
    bound = 0
    taken: frozenset[object] = frozenset()
    plain = PLAIN_TEXT.fullmatch
    usual = 1
    known_get: Any = None
    written: Any = None
    xhtml = bool(compiled.locales)
    add = writer.add
    # The day of each file's latest entry is for the index only.
    track = writer.track
    # A shortcut's text is ASCII when its route's is, and at most
    # `max_size` long: as many entries as fit in the writer's open batch go
    # into it directly, without a call per entry (see
    # UrlsetWriter.open_batch); any other entry is handed over with add().
    max_size = 0
    if shortcut is not None:
        name, bound, taken = shortcut.name, shortcut.bound, shortcut.taken
        # The most characters of a value: the shortcut takes ints in
        # range(bound), texts of at most bound characters.
        widest = len(str(bound - 1)) if shortcut.kind is int else bound
        int_kind = shortcut.kind is int
        usual = len(shortcut.versions)
        days = _Days(value_pieces_of(compiled.base, shortcut), usual, where, widest)
        known_get, written = days.known.get, days.written
        max_size = days.max_size if days.ascii else 0
    batch: list[str] = []
    fits = fits_left = 0
    if max_size:
        batch, fits = writer.open_batch(usual, max_size)
        fits_left = fits
    append = batch.append
    latest: str | None = None
    entry_type = SitemapEntry
    source = iter(items)
    for item in source:
        if type(item) is entry_type:
            entry = item
            # The slots themselves: the properties cost a call each.
            params: Any = item._params
        else:
            entry = normalize(item, where)
            # An entry given locales or images is not exactly a SitemapEntry:
            # it goes the general way.
            params = entry.params if type(entry) is entry_type else None
        # None when the params are not exactly one: no shortcut then.
        value: Any = (
            params.get(name) if type(params) is dict and len(params) == 1 else None
        )
        if (
            type(value) is int and 0 <= value < bound and value not in taken
            if int_kind
            else type(value) is str
            and len(value) <= bound
            and value not in taken
            and plain(value) is not None
        ):
            # The shortcut: a few comparisons stand for every check.
            when = entry._last_modified
            try:
                # Dates and None are kept by themselves; anything else
                # (a datetime, a mistake) is for written() to say. A
                # datetime is never kept by itself: it goes there at
                # once, as hashing an aware one costs a utcoffset().
                pieces, day = (
                    written(when)
                    if type(when) is datetime
                    else known_get(when) or written(when)
                )
            except TypeError:
                # Unhashable: no date. written() names the mistake.
                pieces, day = written(when)
            # str() of a str is the str itself.
            text = str(value).join(pieces)
            if fits_left:
                fits_left -= 1
                append(text)
                if track and day is not None and (latest is None or day > latest):
                    latest = day
                continue
            urls, pictured = usual, False
        else:
            day = lastmod(entry.last_modified, where)
            try:
                found = entry_addresses(compiled, entry, report)
            except Refused as refused:
                report.refuse(refused)
                continue
            images = entry.images
            pictures = absolute_images(images, policy, report.images) if images else ()
            urls, pictured = len(found.locs), bool(pictures)
            if not urls:
                continue
            text = url_elements(found, day, pictures)
        writer.count_batched(fits - fits_left, usual, max_size, latest, xhtml)
        going = add(text, urls, day, xhtml, pictured)
        if max_size:
            batch, fits = writer.open_batch(usual, max_size)
            fits_left = fits
            append = batch.append
        latest = None
        if not going:
            break
    else:
        writer.count_batched(fits - fits_left, usual, max_size, latest, xhtml)
        return
    # The file is full and there is no next one: the rest is left out, each
    # entry counted by the URLs it would have had.
    for item in source:
        entry = item if type(item) is entry_type else normalize(item, where)
        try:
            urls = len(entry_addresses(compiled, entry, report).locs)
        except Refused as refused:
            report.refuse(refused)
            continue
        if urls:
            writer.over.left_out(urls)


class _Days:
    """A planned route's pieces for each date: a site's pages share few
    dates, so the text of each date (or, for a datetime, of its day) is made
    once, while the memo stays small."""

    def __init__(
        self,
        pieces_of: Callable[[str | None], tuple[str, ...]],
        urls: int,
        where: str,
        widest: int,
    ) -> None:
        self.pieces_of = pieces_of
        self.where = where
        self.bare: _Written = (pieces_of(None), None)
        #: Pieces and day by date (and None: no date).
        self.known: dict[object, _Written] = {None: self.bare}
        #: How many dates are kept (their texts within _KNOWN_TEXT).
        self.keeps = _KNOWN_TEXT // (sum(map(len, self.bare[0])) + 30 * urls)
        #: Whether the route's text is ASCII (a day's always is).
        self.ascii = all(piece.isascii() for piece in self.bare[0])
        # Every day is written in ten characters (YYYY-MM-DD), and a value
        # of at most `widest` goes between each two pieces.
        dated = pieces_of("0000-00-00")
        #: The most characters of an entry's text.
        self.max_size = sum(map(len, dated)) + (len(dated) - 1) * widest

    def written(self, when: object) -> _Written:
        """The pieces and day of ``when`` (a date or a datetime)."""
        if type(when) is datetime:
            # A datetime is written as its day (an aware one's in UTC): the
            # date's own pieces, kept by that date, never by a text, so no
            # text given as last_modified is ever taken for a date. Rows
            # read from a table seldom share a datetime (each has its
            # second), so writing its day again for each (astimezone,
            # isoformat) was a fifth of a part's build (benchmarks/scale.py,
            # two languages).
            offset = when.utcoffset()
            when = (when - offset).date() if offset else when.date()
            found = self.known.get(when)
            if found is not None:
                return found
        day = lastmod(when, self.where)
        found = (self.pieces_of(day), day)
        if len(self.known) < self.keeps:
            self.known[when] = found
        return found


def entry_addresses(
    compiled: CompiledRule, entry: SitemapEntry, report: RouteReport
) -> Addresses:
    """An entry's addresses, in the locales it names that its route allows
    (every ``<loc>`` the sitemap writes for it; :class:`Refused` when it
    writes none)."""
    locales = None
    if compiled.locales:
        locales, unknown, refused = compiled.chosen_locales(entry.params, entry.locales)
        report.unknown(unknown)
        report.refused.update(dict.fromkeys(refused))
    return addresses(compiled, entry.params, locales)
