"""A part's entries are counted as they pass to the writer (counted.Counted):
without a step of Python per entry (zip with a counter), yet counting
exactly what a plain generator would, also when the writer stops early and
when the rest is then read on (a full file's left-out entries)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice

import pytest

from flask_marmeon.sitemap.counted import Counted


class _Plain:
    """The plain twin: a generator counting each item it passes on."""

    def __init__(self, items: Iterable[object]) -> None:
        self.items = iter(items)
        self.count = 0

    def __iter__(self) -> Iterator[object]:
        for item in self.items:
            self.count += 1
            yield item


@pytest.mark.parametrize("rows", [0, 1, 7, 2_001])
@pytest.mark.parametrize("taken", [0, 1, 5, None])
def test_counts_what_the_plain_generator_counts(rows: int, taken: int | None) -> None:
    seen = []
    for kind in (Counted, _Plain):
        counted = kind(islice(range(rows), rows // 2 + 1))
        source = iter(counted)
        # The writer takes some, stops, and the rest is read on (left out).
        first = list(islice(source, taken)) if taken is not None else list(source)
        rest = list(source)
        seen.append((first, rest, counted.count))
    assert seen[0] == seen[1]
    assert seen[0][2] == min(rows, rows // 2 + 1)


def test_a_provider_that_stops_early_is_not_overcounted() -> None:
    counted = Counted(iter(["a", "b"]))
    assert list(counted) == ["a", "b"]
    assert counted.count == 2
