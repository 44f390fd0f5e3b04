"""A route without parameters is one page, to IndexNow's changes as to the
sitemap: an entry its provider gives with params is not that page's."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timezone

from flask import Flask
from lxml import etree

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.sitemap.changes import changed_addresses

from .conftest import SM

SINCE = datetime(2026, 6, 1, tzinfo=timezone.utc)


def test_an_entry_with_params_does_not_date_a_page_without_them(
    app: Flask, read_sitemap: Callable[..., etree._Element]
) -> None:
    entries = [
        SitemapEntry({"page": 2}, datetime(2026, 7, 1, tzinfo=timezone.utc)),
        SitemapEntry({}, date(2026, 1, 1)),
    ]
    app.get("/about", sitemap=lambda: entries, authorize=everyone)(lambda: "about")
    # The sitemap leaves the entry with params out: the page's date is the other's.
    root = read_sitemap(app)
    assert [day.text for day in root.iter(f"{SM}lastmod")] == ["2026-01-01"]
    # So the page did not change after SINCE.
    assert changed_addresses(app, SINCE) == []
    entries.append(SitemapEntry({}, datetime(2026, 6, 2, tzinfo=timezone.utc)))
    assert changed_addresses(app, SINCE) == ["https://notes.example/about"]
