"""Parts of a paged route stay consistent while rows come and go: real
PostgreSQL, one real Redis shared by two apps (two processes' worth of
caches), a thread that inserts and deletes rows all over the key range, and
a crawler that reads the index and every part again and again."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from flask import Flask
from lxml import etree
from sqlalchemy import Integer, create_engine, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.pool import NullPool

from flask_marmeon import Marmeon, SitemapEntry, everyone
from flask_marmeon.sqlalchemy import paged

from .conftest import SM
from .servers import RedisServer

ORIGIN = "https://ads.example"


class Base(DeclarativeBase):
    pass


class Ad(Base):
    __tablename__ = "ad"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


def make_app(database: str, redis: str, *, ttl: float) -> Flask:
    from flask_caching import Cache

    app = Flask("ads")
    app.config.update(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=100, MARMEON_SITEMAP_TTL=ttl
    )
    cache = Cache(app, config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": redis})
    Marmeon(app, sitemap_cache=cache)
    engine = create_engine(database, poolclass=NullPool)
    app.add_url_rule(
        "/ads/<int:ad_id>",
        "ad",
        lambda ad_id: "ad",
        authorize=everyone,
        sitemap=paged(
            Ad.__table__.select(),
            key=Ad.id,
            entry=lambda row: SitemapEntry({"ad_id": row.id}),
            session=sessionmaker(engine),
        ),
    )
    return app


def ids_of(body: bytes) -> list[int]:
    found = [loc.text or "" for loc in etree.fromstring(body).iter(f"{SM}loc")]
    return [int(loc.rsplit("/", 1)[1]) for loc in found]


class Table:
    """The ad table, changed by a thread as another program would: each
    change deletes a random row and adds one next to it (keys all over the
    range), noting when each row came and went."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(url, poolclass=NullPool)
        Base.metadata.create_all(self.engine)
        self.added: dict[int, float] = {}
        self.gone: dict[int, float] = {}
        with self.engine.begin() as connection:
            connection.execute(
                text("INSERT INTO ad SELECT g * 10 FROM generate_series(1, 2000) g")
            )
        for key in range(10, 20_001, 10):
            self.added[key] = 0.0
        self.stop = threading.Event()
        self.changes = 0

    def change(self) -> None:
        rng = random.Random(7)
        step = 0
        while not self.stop.is_set():
            step += 1
            if step % 10 == 0 and step <= 600:
                # Sixty rows more, spread evenly over the key range: every
                # range from the second on shifts when ranges are decided
                # afresh, yet no part outgrows the room its range keeps.
                self.add(10 + step * 7919 % 19_990)
            else:
                # A row goes and another comes next to it.
                alive = [key for key in self.added if key not in self.gone]
                # Never the smallest key: rows below the first range wait
                # for the next ranges (docs/large-sites.rst).
                victim = rng.choice(alive[1:])
                if self.add(victim + rng.randint(1, 9)):
                    self.gone[victim] = time.time()
                    with self.engine.begin() as connection:
                        connection.execute(
                            text("DELETE FROM ad WHERE id = :k"), {"k": victim}
                        )
            time.sleep(0.005)

    def add(self, key: int) -> bool:
        if key in self.added:
            return False
        with self.engine.begin() as connection:
            connection.execute(text("INSERT INTO ad (id) VALUES (:k)"), {"k": key})
        self.added[key] = time.time()
        self.changes += 1
        return True


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
    apps = [make_app(postgres_url, redis_server.url, ttl=1) for _ in range(2)]
    changer = threading.Thread(target=table.change, daemon=True)
    changer.start()
    rng = random.Random(3)
    crawls = 0
    try:
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline or crawls < 3:
            ids, oldest, ended = crawl(apps, rng)
            crawls += 1
            twice = sorted({key for key in ids if ids.count(key) > 1})
            assert not twice, f"crawl {crawls}: rows listed twice: {twice[:10]}"
            # A row there from before the oldest part was read (one second
            # for Last-Modified's whole seconds and one for the build) until
            # the crawl ended is listed.
            since = oldest - 2
            # Copies made at once (the changer's thread adds to both).
            added, gone = table.added.copy(), table.gone.copy()
            expected = {
                key
                for key, came in added.items()
                if came < since and gone.get(key, ended + 1) > ended
            }
            missing = sorted(expected - set(ids))
            assert not missing, f"crawl {crawls}: rows missing: {missing[:10]}"
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
    apps = [make_app(postgres_url, redis_server.url, ttl=300) for _ in range(2)]
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
