"""A site whose pages change, and a local IndexNow endpoint."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from flask import Blueprint, Flask

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized
from tests.indexnow.endpoint import Endpoint, serve

KEY = "5f1c0e7d9a2b4c6e"
ORIGIN = "https://notes.example"
#: Before the first run's watermark (the tests' pages start "old").
OLD = datetime(2020, 1, 1, tzinfo=timezone.utc)


class Store:
    """The site's data: each page's last change, which a test moves."""

    def __init__(self) -> None:
        self.notes: dict[int, datetime | date | None] = {n: OLD for n in range(1, 6)}
        self.docs: dict[str, datetime | None] = {"intro": OLD, "faq": OLD}
        self.articles: dict[str, datetime] = {f"a{n:03}": OLD for n in range(30)}
        self.home: datetime = OLD
        self.fail = False

    def note_entries(self) -> Iterator[SitemapEntry]:
        if self.fail:
            raise ConnectionError("the notes database is down")
        for number, when in self.notes.items():
            yield SitemapEntry({"note_id": number}, when)


class Articles:
    """A paged provider over a dict (PagedProvider's own example)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def boundaries(self, size: int) -> list[str]:
        return sorted(self.store.articles)[::size]

    def entries(self, start: str, stop: str | None, limit: int) -> Iterator[object]:
        slugs = sorted(self.store.articles)
        at = bisect_left(slugs, start)
        end = len(slugs) if stop is None else bisect_left(slugs, stop)
        for slug in slugs[at : min(end, at + limit)]:
            yield {"params": {"slug": slug}, "last_modified": self.store.articles[slug]}


def make_site(
    instance: Path, store: Store, endpoint: str, redis: str | None = None, **config: Any
) -> Flask:
    app = Flask("indexnow_site", instance_path=str(instance))
    app.config.update(
        {
            "APP_URL": ORIGIN,
            "APP_LOCALES": ["en", "de-AT"],
            "MARMEON_INDEXNOW_KEY": KEY,
            "MARMEON_INDEXNOW_ENDPOINT": endpoint,
            **config,
        }
    )
    cache = None
    if redis is not None:
        from flask_caching import Cache

        cache = Cache(
            app, config={"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": redis}
        )
    Marmeon(app, sitemap_cache=cache)

    def home_entries() -> list[SitemapEntry]:
        return [SitemapEntry({}, store.home)]

    app.get("/", endpoint="home", sitemap=home_entries, authorize=everyone)(
        lambda: "home"
    )
    app.get(
        "/notes/<int:note_id>",
        endpoint="note",
        sitemap=store.note_entries,
        authorize=everyone,
    )(lambda note_id: f"note {note_id}")
    app.get(
        "/articles/<slug>",
        endpoint="article",
        sitemap=Articles(store),
        authorize=everyone,
    )(lambda slug: slug)
    app.get("/contact", endpoint="contact", sitemap=True, authorize=everyone)(
        lambda: "no date"
    )
    docs = localized(Blueprint("docs", __name__))

    def doc_entries() -> Iterator[SitemapEntry]:
        for name, when in store.docs.items():
            yield SitemapEntry({"name": name}, when)

    docs.get("/docs/<name>", endpoint="doc", sitemap=doc_entries, authorize=everyone)(
        lambda name: name
    )
    app.register_blueprint(docs)
    return app


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


@pytest.fixture
def store() -> Store:
    return Store()
