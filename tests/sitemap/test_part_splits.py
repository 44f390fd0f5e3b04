"""A part whose range outgrows it is split, and only that one: the other
parts keep their ranges and their built files (real PostgreSQL, one real
Redis shared by two apps, two processes' worth of caches)."""

from __future__ import annotations

import logging
import time
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from lxml import etree
from sqlalchemy import event, text

from flask_marmeon import everyone
from flask_marmeon.sitemap.state import sitemap_of

from .conftest import SM, locs
from .paged_keys import Keys
from .servers import RedisServer
from .tables import ORIGIN, Table, ads_app, ids_of


def reads_of(app: Flask) -> list[tuple[Any, Any]]:
    """The ranges (start, stop) whose rows the app's paged route reads, in
    order, as they are read (not where parts begin, nor counts)."""
    provider = app.url_map._rules_by_endpoint["ad"][0].marmeon_sitemap
    engine = provider.session.kw["bind"]
    reads: list[tuple[Any, Any]] = []

    def note(conn: Any, cursor: Any, statement: str, params: Any, *rest: Any) -> None:
        if "WITH RECURSIVE" in statement or "count(" in statement:
            return
        if "FROM ad" in statement and ">=" in statement:
            values = list(params.values()) if isinstance(params, dict) else []
            # The key's bounds, then the limit.
            bounds = [value for value in values if isinstance(value, int)][:-1]
            reads.append((bounds[0], bounds[1] if len(bounds) > 1 else None))

    event.listen(engine, "before_cursor_execute", note)
    return reads


def index_of(app: Flask) -> list[str]:
    response = app.test_client().get("/sitemap.xml")
    assert response.status_code == 200
    return [loc.text or "" for loc in etree.fromstring(response.data).iter(f"{SM}loc")]


def parts_of(apps: list[Flask]) -> list[list[int]]:
    """Every part the index names (asked of one app after the other), each
    as its ids."""
    parts: list[list[int]] = []
    for number, address in enumerate(index_of(apps[0])):
        response = apps[number % 2].test_client().get(address.removeprefix(ORIGIN))
        assert response.status_code == 200, address
        parts.append(ids_of(response.data))
    return parts


def test_only_the_part_that_outgrows_its_range_is_split(
    postgres_url: str, redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table(postgres_url)  # ids 10, 20, ... 20,000
    apps = [ads_app(postgres_url, redis_server.url, ttl=300) for _ in range(2)]
    reads = [reads_of(app) for app in apps]
    # 2,000 rows, 95 a part: 22 parts. Every one but the third is built
    # (one app or the other) and kept in the store.
    assert len(index_of(apps[0])) == 22
    assert len(index_of(apps[1])) == 22  # each app keeps its copy
    before: dict[int, list[int]] = {}
    for number in [n for n in range(1, 23) if n != 3]:
        response = apps[number % 2].test_client().get(f"/sitemap-ad-{number}.xml")
        before[number] = ids_of(response.data)
    assert sum(map(len, before.values())) == 2000 - 95
    assert before[4][0] == 2860  # part 3 is the keys from 1910 up to 2860
    built = [len(app_reads) for app_reads in reads]
    # Thirty rows more in the middle of part 3's range: 125, more than the
    # 100 a part holds.
    with table.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO ad SELECT g * 10 + 5 FROM generate_series(221, 250) g")
        )
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        response = apps[1].test_client().get("/sitemap-ad-3.xml")
    assert len(ids_of(response.data)) == 100
    assert [r for r in caplog.records if "wait for" in r.getMessage()]
    # The ranges are decided again in the background, when next asked for
    # (a crawler asks for parts): part 3 alone is split (in two of 63 and
    # 62 rows), its second half part 23; every other part keeps its number,
    # its range and its file.
    deadline = time.monotonic() + 10
    while len(index_of(apps[0])) == 22 and time.monotonic() < deadline:
        assert apps[0].test_client().get("/sitemap-ad-1.xml").status_code == 200
        time.sleep(0.05)
    parts = parts_of(apps)
    assert len(parts) == 23
    assert [len(parts[2]), len(parts[22])] == [63, 62]
    assert parts[2][0] == 1910 and parts[22] == sorted(parts[22])
    assert parts[2][-1] < parts[22][0] and parts[22][-1] == 2850
    others = [n for n in range(1, 23) if n != 3]
    assert [parts[n - 1] for n in others] == [before[n] for n in others]
    # A crawler that fetched the index before the split and reads its parts
    # after lists no row twice and misses only the split's second half.
    crawled = [
        key
        for number in range(1, 23)
        for key in ids_of(apps[0].test_client().get(f"/sitemap-ad-{number}.xml").data)
    ]
    assert sorted(crawled) == sorted(set(crawled))
    every = [key for part in parts for key in part]
    assert set(every) - set(crawled) == set(parts[22])
    assert sorted(every) == sorted(set(every)) and len(every) == 2030
    # The only rows read since: part 3's (once, when it overflowed), then
    # its two halves'; no other part was built again.
    pairs = zip(built, reads, strict=True)
    since = [read for done, got in pairs for read in got[done:]]
    assert sorted(since) == [(1910, 2375), (1910, 2860), (2375, 2860)]
    # The other app takes the new index from the store at once (not when
    # its own copy goes stale, 300 s on): both serve the same.
    for _ in range(100):
        if index_of(apps[1]) == index_of(apps[0]):
            break
        time.sleep(0.05)
    assert index_of(apps[1]) == index_of(apps[0])


def test_rows_below_the_first_range_join_the_first_part(
    postgres_url: str, redis_server: RedisServer
) -> None:
    table = Table(postgres_url)  # ids 10, 20, ... 20,000
    # A TTL of one second: the ranges are looked at again each second.
    apps = [ads_app(postgres_url, redis_server.url, ttl=1) for _ in range(2)]
    assert parts_of(apps)[0][:2] == [10, 20]
    with table.engine.begin() as connection:
        connection.execute(text("INSERT INTO ad VALUES (3), (7)"))
    deadline = time.monotonic() + 15
    while (first := parts_of(apps)[0])[:3] != [3, 7, 10]:
        assert time.monotonic() < deadline, first[:3]
        time.sleep(0.2)
    parts = parts_of(apps)
    assert len(parts) == 22  # no part of its own: 97 rows fit the first
    every = [key for part in parts for key in part]
    assert sorted(every) == sorted(set(every)) and len(every) == 2002


class Splits(Keys):
    """Keys that split one range and count it, as paged() does."""

    def split(self, start: int | None, stop: int | None, size: int) -> list[int]:
        self.asked.append(("split", start, stop, size))
        at = 0 if start is None else bisect_left(self.keys, start)
        end = len(self.keys) if stop is None else bisect_left(self.keys, stop)
        return self.keys[at:end:size]

    def count(self, start: int, stop: int | None) -> int:
        end = len(self.keys) if stop is None else bisect_left(self.keys, stop)
        return end - bisect_left(self.keys, start)


def test_a_part_full_by_its_bytes_has_its_range_split_into_ranges_that_fit(
    make_app: Callable[..., Flask],
) -> None:
    def shop(provider: Splits, max_bytes: int | None = None) -> Flask:
        app = make_app(APP_URL="https://shop.example", MARMEON_SITEMAP_MAX_URLS=100)
        app.add_url_rule("/p/<int:n>", "p", str, authorize=everyone, sitemap=provider)
        if max_bytes is not None:
            sitemap_of(app).max_bytes = max_bytes
        return app

    # 300 keys of four digits: every URL as long as the next.
    keys = list(range(1000, 1300))
    measured = shop(Splits(keys)).test_client()
    assert len(locs(measured.get("/sitemap.xml").data)) == 4  # 95, 95, 95, 15
    small = measured.get("/sitemap-p-4.xml").data
    url = len(locs(small)[0]) + len("<url><loc></loc></url>")
    # A file holds about 60 such URLs (the format's 50 MiB made small).
    # Without a shared store: the process decides alone.
    provider = Splits(keys)
    app = shop(provider, len(small) + 45 * url + 400)
    client = app.test_client()
    assert len(locs(client.get("/sitemap.xml").data)) == 4
    first = locs(client.get("/sitemap-p-1.xml").data)
    assert 50 < len(first) < 95  # full by its bytes
    files = sitemap_of(app).files
    route = files.routes["p"]
    before = ((1000, 1095), (1095, 1190), (1190, 1285), (1285, None))
    deadline = time.monotonic() + 10
    while files.ranges(route) == before:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # Part 1's range alone split, in two that fit (48 and 47 rows, as even
    # as they go), the second half part 5; the others as they were.
    assert files.ranges(route) == (
        (1000, 1048),
        *before[1:],
        (1048, 1095),
    )
    assert ("split", 1000, 1095, 48) in provider.asked
    for number, size in ((1, 48), (5, 47), (4, 15)):
        assert len(locs(client.get(f"/sitemap-p-{number}.xml").data)) == size
