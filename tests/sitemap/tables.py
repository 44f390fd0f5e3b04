"""Tables of the tests on real databases, each with an app whose paged route
reads it: ``ad`` (rows that come and go while a crawler reads every part,
and what a crawl must list) and ``item`` (the exports)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from lxml import etree
from sqlalchemy import Engine, Integer, create_engine, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.pool import NullPool

from flask_marmeon import Marmeon, SitemapEntry, everyone
from flask_marmeon.sqlalchemy import paged

from .conftest import SM

ORIGIN = "https://ads.example"


class Base(DeclarativeBase):
    pass


class Ad(Base):
    __tablename__ = "ad"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)


def ads_app(database: str, redis: str, *, ttl: float) -> Flask:
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


class Items(DeclarativeBase):
    pass


class Item(Items):
    __tablename__ = "item"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)


def items_app(
    engine: Engine, entry: Callable[[Any], SitemapEntry] | None = None
) -> Flask:
    """An app of https://shop.example with a paged route over ``item``, 10
    URLs a part; ``entry`` makes each row's entry (by default ``n``: its id)."""
    app = Flask("shop")
    app.config.update(APP_URL="https://shop.example", MARMEON_SITEMAP_MAX_URLS=10)
    Marmeon(app)
    app.add_url_rule(
        "/items/<int:n>",
        "items",
        str,
        authorize=everyone,
        sitemap=paged(
            Item.__table__.select(),
            key=Item.id,
            entry=entry or (lambda row: SitemapEntry({"n": row.id})),
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

    def check_crawl(
        self, crawls: int, ids: list[int], oldest: float, ended: float
    ) -> None:
        """Crawl number ``crawls`` listed ``ids``, its oldest part last
        modified at ``oldest``, ending at ``ended``: no row twice, and every
        row there from before the oldest part was read (one second for
        Last-Modified's whole seconds and one for the build) until the crawl
        ended."""
        twice = sorted({key for key in ids if ids.count(key) > 1})
        assert not twice, f"crawl {crawls}: rows listed twice: {twice[:10]}"
        since = oldest - 2
        # Copies made at once (the changer's thread adds to both).
        added, gone = self.added.copy(), self.gone.copy()
        expected = {
            key
            for key, came in added.items()
            if came < since and gone.get(key, ended + 1) > ended
        }
        missing = sorted(expected - set(ids))
        assert not missing, f"crawl {crawls}: rows missing: {missing[:10]}"
