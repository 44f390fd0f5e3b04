"""Routes whose entries come in parts: the :class:`PagedProvider` protocol.

A route marked ``sitemap=<a paged provider>`` gets parts of its own, at
``/sitemap-<slug>-<n>.xml``. The store says where parts begin
(:meth:`PagedProvider.boundaries`), so the index never needs every entry;
a part is the entries of its own range of keys
(:meth:`PagedProvider.entries`), read when the part is first requested.

A part's address names the route and the part's number; its range is the
``n``-th range decided from the boundaries, which any process can ask of
the store (or of the shared cache), so any process answers any part's
address. A part is kept under its range, not only its number
(serving/file_caches.py), and the ranges are kept: a part that outgrows
its own has it split in two or more (splits.py), the first piece keeping
its number, the others numbered after the last part; every other part
stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Protocol, runtime_checkable

from flask import Flask
from werkzeug.routing import Rule

from ..routing.marks import is_marked
from .entries import shown


@runtime_checkable
class PagedProvider(Protocol):
    """What ``sitemap=`` takes for a route whose entries come in parts.

    Any store that can list its keys in order plugs in: a database table
    (:func:`flask_marmeon.sqlalchemy.paged`), a search index, an API, a
    key-value store. Keys are values the store orders (ints, strings,
    dates, tuples of these), unique within the route. An object with these
    two methods is a paged provider; it may also have ``problems()``,
    returning a list of strings that say what is wrong with it (each is an
    H10 problem of its route), ``changed(since)``, returning the
    entries whose ``last_modified`` is later than ``since`` (an aware
    datetime in UTC), or None: ``flask marmeon indexnow`` then reads only
    those instead of every part; and ``split(start, stop, size)``, returning
    where parts of ``size`` entries begin within the range of keys from
    ``start`` (None: the first key) up to ``stop`` (None: to the end), as
    ``boundaries()`` does for all: when one part's range outgrows it, only
    that range is then split (without it, every range is decided again).

    Example, over a dict of slugs kept in a sorted list::

        from bisect import bisect_left
        from flask_marmeon import SitemapEntry

        class Articles:
            def __init__(self, updated):       # slug -> date
                self.updated = updated
                self.slugs = sorted(updated)

            def boundaries(self, size):
                return self.slugs[::size]

            def entries(self, start, stop, limit):
                at = bisect_left(self.slugs, start)
                end = len(self.slugs) if stop is None else bisect_left(self.slugs, stop)
                for slug in self.slugs[at : min(end, at + limit)]:
                    yield SitemapEntry({"slug": slug}, self.updated[slug])

        app.add_url_rule("/articles/<slug>", view_func=show, authorize=everyone,
                         sitemap=Articles(store))
    """

    def boundaries(self, size: int) -> Iterable[Any]:
        """The key each part begins with, in order: the first key, then
        every ``size``-th one after it (nothing when there are no entries).
        Asked when no ranges are known (or none were found, then once per
        ``MARMEON_SITEMAP_TTL``) and, for a provider without ``split()``,
        when a part's range has outgrown it; the ranges are kept meanwhile.
        Never asked for the entries."""
        ...

    def entries(self, start: Any, stop: Any | None, limit: int) -> Iterable[object]:
        """The entries (:class:`~flask_marmeon.SitemapEntry` or their dict
        form) whose keys are from ``start`` up to ``stop`` (not included;
        ``None``: to the end), in key order. Only the first ``limit`` are
        used: give no more. Like a ``sitemap()`` provider, it may return a
        list, a generator, an async generator or a coroutine of a list."""
        ...


def is_paged(option: object) -> bool:
    """Whether a route's ``sitemap=`` is a paged provider."""
    return isinstance(option, PagedProvider) and not isinstance(option, type)


def provider_problems(rule: Rule) -> list[str]:
    """What a paged provider says is wrong with it (H10), if anything."""
    provider: object = getattr(rule, "marmeon_sitemap", None)
    problems = getattr(provider, "problems", None)
    if not is_paged(provider) or not callable(problems):
        return []
    return [str(problem) for problem in problems()]


@dataclass(frozen=True)
class PagedRoute:
    """A marked route with a paged provider, and the name in its parts' addresses."""

    rule: Rule
    provider: PagedProvider
    #: ``/sitemap-<slug>-<n>.xml``: lower-case letters, digits and dashes.
    slug: str

    @property
    def where(self) -> str:
        """The route, as messages name it."""
        return f"the route {self.rule.rule!r} (endpoint {self.rule.endpoint!r})"


def paged_routes(app: Flask) -> list[PagedRoute]:
    """The app's marked routes with a paged provider, in the url_map's
    order, each with its slug (made from its endpoint; a number is added
    when two endpoints would give the same)."""
    found: list[PagedRoute] = []
    taken: set[str] = set()
    for rule in app.url_map.iter_rules():
        option: object = getattr(rule, "marmeon_sitemap", None)
        if not is_marked(rule) or not is_paged(option):
            continue
        base = re.sub(r"[^a-z0-9]+", "-", str(rule.endpoint).lower()).strip("-")
        base = base or "route"
        slug, number = base, 1
        while slug in taken:
            number += 1
            slug = f"{base}-{number}"
        taken.add(slug)
        found.append(PagedRoute(rule, option, slug))  # type: ignore[arg-type]
    return found


def part_size(max_urls: int, urls_per_entry: int) -> int:
    """Entries per part: as many as fit when each has all its versions."""
    return max(1, max_urls // max(1, urls_per_entry))


def checked_starts(
    given: object, where: str, method: str = "boundaries()"
) -> tuple[Any, ...]:
    """What a paged provider's ``boundaries()`` (or ``method``) gave, as a
    tuple of keys; TypeError or ValueError, naming the route, when it is no
    list of keys or names a key twice in a row (which would make a part of
    an empty range).

    Whether the keys are in order is the store's to say: its order (a
    database's collation, say) need not be Python's.
    """
    asked = f"{method} of the paged provider of {where}"
    if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
        raise TypeError(
            f"{asked} returned {shown(given)}; it must return the key each part"
            " begins with, in order (a list, empty when there are no entries)."
        )
    starts = tuple(given)
    for before, after in pairwise(starts):
        if type(before) is type(after) and before == after:
            raise ValueError(
                f"{asked} gave the key {shown(after)} twice in a row; each part"
                " begins with its own key: the first key, then every size-th"
                " one after it, each once."
            )
    return starts


def part_range(starts: tuple[Any, ...], number: int) -> tuple[Any, Any | None]:
    """The range of keys of part ``number`` (from 1): its start, and the
    next part's (None for the last part: to the end)."""
    return starts[number - 1], starts[number] if number < len(starts) else None
