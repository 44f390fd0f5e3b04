"""The notes site the tests of /sitemap.xml and /robots.txt serve: its
pages, the sitemap's index over them, and what robots.txt says of it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

from flask import Flask
from lxml import etree

from flask_marmeon import SitemapEntry, everyone

ORIGIN = "https://notes.example"
ReadSitemap = Callable[..., etree._Element]
ROBOTS = "User-agent: *\nDisallow: /_marmeon/\n\nSitemap: https://notes.example/sitemap.xml\n"


def page(**values: Any) -> str:
    return "page"


def mark_about(app: Flask) -> None:
    app.get("/about", sitemap=True, authorize=everyone)(page)


def note_pages(count: int) -> Callable[[], Iterator[SitemapEntry]]:
    def entries() -> Iterator[SitemapEntry]:
        for n in range(1, count + 1):
            yield SitemapEntry({"n": n}, last_modified=date(2024, 1, n))

    return entries


def index_app(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True, MARMEON_SITEMAP_MAX_URLS=2
    )
    app.get("/n/<int:n>", sitemap=note_pages(3), authorize=everyone)(page)
    return app
