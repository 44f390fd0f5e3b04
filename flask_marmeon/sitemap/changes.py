"""The addresses of the pages that changed after a moment: what IndexNow sends.

The same entries as the sitemap's, read the same way: every marked route's
provider (a paged one by its parts, or by its own ``changed(since)`` when it
has one, which reads only the changed rows), each entry normalised
(:mod:`.entries`) and its addresses made as the sitemap makes its ``<loc>``
(:func:`.route_writer.entry_addresses`: every locale of a localized page).
An entry without ``last_modified`` is never among them.

A ``last_modified`` that is a datetime is compared as it is (a naive one is
taken as UTC); one that is a date has no time, so it counts as changed after
any moment of that day (UTC): it may be sent by each run of its day, but a
change is never missed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime
from functools import partial

from flask import Flask

from .._state import get_state
from .addresses import compile_rule
from .arguments import Refused
from .build import in_own_context, listed_rules, route_items
from .entries import SitemapEntry, lastmod, normalize, utc
from .paged import PagedProvider, is_paged, part_range
from .providers import provider_items
from .report import RouteReport
from .route_writer import entry_addresses

#: Entries per range when a paged route is read by its parts.
_PART = 50_000


class FindingFailed(Exception):
    """A provider failed while changes were being found; the message names
    its route."""


def changed_after(when: object, since: datetime, where: str) -> bool:
    """Whether an entry's ``last_modified`` is later than ``since`` (aware,
    UTC); a date counts as its whole day. TypeError (naming the route) for
    a value that is neither."""
    if isinstance(when, datetime):
        return utc(when) > since
    if isinstance(when, date):
        return when >= since.date()
    lastmod(when, where)  # None passes; anything else raises its TypeError
    return False


@in_own_context
def changed_addresses(app: Flask, since: datetime) -> list[str]:
    """Every address of the sitemap whose entry's ``last_modified`` is later
    than ``since``, in the sitemap's order, each once. Raises
    :class:`FindingFailed` when a provider fails."""
    since = utc(since)
    settings = get_state(app).settings
    origin = settings.app_url
    assert origin is not None  # the H10 checks ran first
    found: dict[str, None] = {}
    entry_type = SitemapEntry
    for rule in listed_rules(app):
        where = f"the route {rule.rule!r} (endpoint {rule.endpoint!r})"
        compiled = compile_rule(rule, origin, settings.locales, settings.root)
        report = RouteReport(rule)
        try:
            # One loop per entry of the whole site: what it does to an
            # entry that did not change is the cost (benchmarks/indexnow.py).
            option: object = getattr(rule, "marmeon_sitemap", None)
            items = (
                _paged(option, since, where)  # type: ignore[arg-type]
                if is_paged(option)
                else route_items(app, compiled, where)
            )
            for item in items:
                try:
                    # An entry with an aware datetime: its slot, compared
                    # as it is (whatever the zone), and most go no further.
                    if item._last_modified <= since:  # type: ignore[attr-defined]
                        continue
                except (AttributeError, TypeError):
                    # A dict, no date, a date, a naive datetime, a mistake.
                    pass
                entry = item if type(item) is entry_type else normalize(item, where)
                if not changed_after(entry.last_modified, since, where):
                    continue
                try:
                    locs = entry_addresses(compiled, entry, report).locs
                except Refused:
                    continue  # not in the sitemap either (its warning says why)
                found.update(dict.fromkeys(locs))
        except Exception as error:
            raise FindingFailed(
                f"Finding the changed pages failed in {where}: {error}"
            ) from error
    return list(found)


def _paged(provider: PagedProvider, since: datetime, where: str) -> Iterator[object]:
    """A paged route's entries: only the changed ones when its provider can
    say which (``changed(since)``), else every part's."""
    changed: Callable[[datetime], Iterable[object] | None] | None
    changed = getattr(provider, "changed", None)
    given = changed(since) if callable(changed) else None
    if given is not None:
        yield from given
        return
    starts = tuple(provider.boundaries(_PART))
    for number in range(1, len(starts) + 1):
        start, stop = part_range(starts, number)
        # Every entry of the range: it was just decided, so it holds about
        # a part, but a row added meanwhile is not left out.
        entries = partial(provider.entries, start, stop, sys.maxsize)
        yield from provider_items(entries, where)
