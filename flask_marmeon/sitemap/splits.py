"""One part's range split when it outgrew its part, the others left as
they are.

A paged route's ranges are decided once, with room (build.py), and kept.
When rows added inside one range make it hold more than a part may, only
that range is split, by the provider's ``split(start, stop, size)``, into
ranges of even size with room again; every other range keeps its start
and its stop, so its part (and its built files, kept under its range) stays
valid. Rows whose keys are below the first range's start are found the same
way (``split(None, first, size)``): they get ranges of their own in front.
"""

from __future__ import annotations

import math
from typing import Any

from flask import Flask

from .._state import get_state
from .build import ROOM, in_own_context, part_entries
from .counted import range_count
from .paged import PagedRoute, checked_starts


def can_split(route: PagedRoute) -> bool:
    """Whether the route's provider splits one range (``split()``)."""
    return callable(getattr(route.provider, "split", None))


@in_own_context
def build_split(
    app: Flask, route: PagedRoute, start: Any, stop: Any | None, urls: int = 0
) -> tuple[Any, ...]:
    """Where parts begin within the range from ``start`` (None: the first
    key) up to ``stop`` (None: to the end) of a route whose provider can
    split (:func:`can_split`), ``start`` first; ``urls``: how many URLs the
    range's part held when it outgrew it (0: as many as a part may)."""
    size = part_entries(app, route)
    # A part that was full by its bytes before its URLs (long addresses,
    # many images) held fewer entries: ranges of that many, with room.
    max_urls = get_state(app).settings.sitemap_max_urls
    fits = max(1, min(size, size * urls // max_urls)) if urls else size
    target = max(1, fits - fits // ROOM)
    total = None if start is None else range_count(route.provider, start, stop)
    # Even ranges (125 rows: 63 and 62, not 95 and 30), each with room.
    step = math.ceil(total / math.ceil(total / target)) if total else target
    split = getattr(route.provider, "split", None)
    assert callable(split)  # can_split(route) was asked first
    found = checked_starts(split(start, stop, step), route.where, "split()")
    if start is None:
        return found
    # The range keeps its own start (its first row may be gone since).
    return (start, *found[1:])
