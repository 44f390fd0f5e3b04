"""A part's entries, counted as they pass to the writer: the count says
whether the part's range held more rows than a part may (build.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import count
from operator import itemgetter
from typing import Any


class Counted:
    """Items passed on, counted."""

    def __init__(self, items: Iterable[object]) -> None:
        self.items = iter(items)
        # zip() takes an item, then a number: the numbers taken are the
        # items passed on, counted without a step of Python per item (a
        # generator's is one per row of a part; issue 27).
        self._numbers = count()
        self._count: int | None = None

    def __iter__(self) -> Iterator[object]:
        return map(itemgetter(0), zip(self.items, self._numbers, strict=False))

    @property
    def count(self) -> int:
        """How many items were passed on (read once they all were)."""
        if self._count is None:
            self._count = next(self._numbers)
        return self._count


def range_count(provider: object, start: Any, stop: Any | None) -> int | None:
    """How many entries the range holds, when the provider can count them
    (``count(start, stop)``: paged() does, in one ``COUNT``); None when it
    cannot, or fails (the count only informs)."""
    count = getattr(provider, "count", None)
    if not callable(count):
        return None
    try:
        total = count(start, stop)
    except Exception:
        return None
    return total if isinstance(total, int) and not isinstance(total, bool) else None
