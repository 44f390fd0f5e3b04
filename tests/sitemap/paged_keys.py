"""A paged provider for the sitemap tests: a sorted list of ints."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import Any

from flask_marmeon import SitemapEntry


class Keys:
    """A paged provider over a sorted list of ints; counts its calls."""

    def __init__(self, keys: list[int], *, fail: set[int] | None = None) -> None:
        self.keys = keys
        self.fail = fail or set()
        self.asked: list[tuple[Any, ...]] = []

    def boundaries(self, size: int) -> list[int]:
        self.asked.append(("boundaries", size))
        return self.keys[::size]

    def entries(self, start: int, stop: int | None, limit: int) -> Iterator[object]:
        self.asked.append(("entries", start, stop, limit))
        if start in self.fail:
            raise ConnectionError("the store is down")
        at = bisect_left(self.keys, start)
        end = len(self.keys) if stop is None else bisect_left(self.keys, stop)
        for key in self.keys[at : min(end, at + limit)]:
            yield SitemapEntry({"n": key})
