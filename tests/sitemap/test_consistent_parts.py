"""Parts of a paged route stay consistent while rows come and go: real
PostgreSQL, one real Redis shared by two apps (two processes' worth of
caches), a thread that inserts and deletes rows all over the key range, and
a crawler that reads the index and every part again and again."""

from __future__ import annotations

import logging
import random
import threading
import time
from email.utils import parsedate_to_datetime

import pytest
from flask import Flask
from lxml import etree
from sqlalchemy import text

from .conftest import SM
from .servers import RedisServer
from .tables import ORIGIN, Table, ads_app, ids_of


def crawl(apps: list[Flask], rng: random.Random) -> tuple[list[int], float, float]:
    """One full crawl: the index from one app, each part from any; the ids
    listed, the oldest part's Last-Modified, and when the crawl ended."""
    index = rng.choice(apps).test_client().get("/sitemap.xml")
    assert index.status_code == 200
    parts = [
        loc.text or ""
        for loc in etree.fromstring(index.data).iter(f"{SM}loc")
        if "sitemap-ad-" in (loc.text or "")
    ]
    ids: list[int] = []
    oldest = time.time()
    for address in parts:
        path = address.removeprefix(ORIGIN)
        for _ in range(200):
            response = rng.choice(apps).test_client().get(path)
            if response.status_code != 503:
                break
            time.sleep(0.05)
        assert response.status_code == 200, (path, response.status_code)
        modified = parsedate_to_datetime(response.headers["Last-Modified"])
        oldest = min(oldest, modified.timestamp())
        ids += ids_of(response.data)
    return ids, oldest, time.time()


def test_every_crawl_lists_each_row_once_while_rows_come_and_go(
    postgres_url: str, redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table(postgres_url)
    # Two apps on one Redis: two processes' caches. A TTL of one second
    # rebuilds the ranges and parts again and again during the crawls.
    apps = [ads_app(postgres_url, redis_server.url, ttl=1) for _ in range(2)]
    changer = threading.Thread(target=table.change, daemon=True)
    changer.start()
    rng = random.Random(3)
    crawls = 0
    try:
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline or crawls < 3:
            ids, oldest, ended = crawl(apps, rng)
            crawls += 1
            table.check_crawl(crawls, ids, oldest, ended)
            time.sleep(0.2)
    finally:
        table.stop.set()
        changer.join(5)
    assert table.changes > 30
    # No part outgrew its range: the ranges stayed as first decided.
    assert not [r for r in caplog.records if "wait for the next" in r.getMessage()]


def test_a_part_that_outgrows_its_range_has_it_split(
    postgres_url: str, redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table(postgres_url)
    apps = [ads_app(postgres_url, redis_server.url, ttl=300) for _ in range(2)]
    first, second = (app.test_client() for app in apps)
    before = etree.fromstring(first.get("/sitemap.xml").data)
    assert len(list(before.iter(f"{SM}loc"))) == 22  # 2,000 rows, 95 a part
    # Part 5 (keys 3810 up to 4760) is built in the second app and kept.
    kept = ids_of(second.get("/sitemap-ad-5.xml").data)
    assert len(kept) == 95
    # Ten rows more in part 3's range (keys 1910 up to 2860): 105, more
    # than a part holds.
    with table.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO ad SELECT g * 10 + 1 FROM generate_series(191, 200) g")
        )
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        assert len(ids_of(second.get("/sitemap-ad-3.xml").data)) == 100
    (said,) = [r.getMessage() for r in caplog.records if "wait for" in r.getMessage()]
    # 105 rows in a range of 100 at most: the count is the true one.
    assert "Sitemap: 5 entries of the part of the route '/ads/<int:ad_id>'" in said

    def whole() -> list[int]:
        ids: list[int] = []
        index = etree.fromstring(first.get("/sitemap.xml").data)
        for number, loc in enumerate(index.iter(f"{SM}loc")):
            client = (first, second)[number % 2]
            response = client.get((loc.text or "").removeprefix(ORIGIN))
            assert response.status_code == 200
            ids += ids_of(response.data)
        return ids

    # The ranges are decided again (in the background): then every row is
    # in one part, whichever app serves it.
    deadline = time.monotonic() + 10
    while len(ids := whole()) != 2010:
        assert time.monotonic() < deadline, len(ids)
        time.sleep(0.1)
    assert sorted(ids) == sorted(set(ids))
    assert len(set(ids)) == 2010
    for client in (first, second):
        index = etree.fromstring(client.get("/sitemap.xml").data)
        # Part 3's range alone is split in two (53 and 52 rows, the second
        # half part 23); part 5, kept, is the same range, the same number.
        assert len(list(index.iter(f"{SM}loc"))) == 23
    assert ids_of(second.get("/sitemap-ad-5.xml").data) == kept
