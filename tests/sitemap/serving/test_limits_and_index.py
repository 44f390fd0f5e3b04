"""What does not fit in one file: the URL and byte limits leave the rest
out (and log it), and the index splits the sitemap into parts within them."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from lxml import etree

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.sitemap.state import sitemap_of

from ..conftest import SM, crawl, locs
from .notes_site import (
    ORIGIN,
    ROBOTS,
    ReadSitemap,
    mark_about,
    note_pages,
    page,
)


def test_what_does_not_fit_is_left_out_and_logged(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=3)
    app.get("/n/<int:n>", sitemap=note_pages(5), authorize=everyone)(page)
    app.get("/z", endpoint="z", sitemap=True, authorize=everyone)(page)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    assert found == [f"{ORIGIN}/n/{n}" for n in (1, 2, 3)]
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "3 URLs (3 entries) left out" in warning
    assert "at most 3 URLs" in warning


def test_the_index_splits_the_sitemap(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    index_schema: etree.XMLSchema,
) -> None:
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=2, MARMEON_SITEMAP_INDEX=True
    )
    app.get("/n/<int:n>", sitemap=note_pages(5), authorize=everyone)(page)
    client = app.test_client()
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    index = etree.fromstring(response.data)
    index_schema.assertValid(index)
    assert index.tag == f"{SM}sitemapindex"
    parts = [loc.text or "" for loc in index.iter(f"{SM}loc")]
    assert parts == [f"{ORIGIN}/sitemap-{n}.xml" for n in (1, 2, 3)]
    assert [m.text for m in index.iter(f"{SM}lastmod")] == [
        "2024-01-02",
        "2024-01-04",
        "2024-01-05",
    ]
    everything: list[str] = []
    for part in parts:
        found = locs(read_sitemap(app, part.removeprefix(ORIGIN)))
        assert 1 <= len(found) <= 2
        everything += found
    assert everything == [f"{ORIGIN}/n/{n}" for n in range(1, 6)]
    assert set(crawl(app, everything, ORIGIN).values()) == {200}
    assert client.get("/sitemap-4.xml").status_code == 404
    assert client.get("/sitemap-0.xml").status_code == 404
    assert client.get("/robots.txt").text == ROBOTS


def test_without_the_index_there_are_no_parts(app: Flask) -> None:
    mark_about(app)
    assert app.test_client().get("/sitemap-1.xml").status_code == 404


def long_pages(count: int) -> Callable[[], Iterator[SitemapEntry]]:
    def entries() -> Iterator[SitemapEntry]:
        for n in range(count):
            yield SitemapEntry({"slug": f"{n}-" + "x" * 80})

    return entries


def test_the_byte_limit_leaves_the_rest_out(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(APP_URL=ORIGIN)
    # The format's 50 MiB, scaled down through the state's slot for tests.
    sitemap_of(app).max_bytes = 600
    app.get("/p/<slug>", sitemap=long_pages(10), authorize=everyone)(page)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        response = app.test_client().get("/sitemap.xml")
    assert len(response.data) <= 600
    found = locs(read_sitemap(app))
    assert 1 <= len(found) < 10
    assert found == [f"{ORIGIN}/p/{n}-" + "x" * 80 for n in range(len(found))]
    (warning,) = [r.getMessage() for r in caplog.records]
    assert f"{10 - len(found)} URLs ({10 - len(found)} entries) left out" in warning
    assert "600 bytes" in warning


def test_the_index_keeps_each_file_within_the_byte_limit(
    make_app: Callable[..., Flask], read_sitemap: ReadSitemap
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True)
    sitemap_of(app).max_bytes = 600
    app.get("/p/<slug>", sitemap=long_pages(10), authorize=everyone)(page)
    client = app.test_client()
    index = etree.fromstring(client.get("/sitemap.xml").data)
    parts = [loc.text or "" for loc in index.iter(f"{SM}loc")]
    assert len(parts) > 1
    everything: list[str] = []
    for part in parts:
        path = part.removeprefix(ORIGIN)
        assert len(client.get(path).data) <= 600
        everything += locs(read_sitemap(app, path))
    assert everything == [f"{ORIGIN}/p/{n}-" + "x" * 80 for n in range(10)]


def test_files_whose_address_the_app_takes_are_not_indexed(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # The app's own /sitemap-<year>.xml wins, as its /sitemap.xml would; the
    # index then names no address of it, and the log says why.
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=2, MARMEON_SITEMAP_INDEX=True
    )
    app.get("/n/<int:n>", sitemap=note_pages(5), authorize=everyone)(page)
    app.get("/sitemap-<int:year>.xml", endpoint="yearly")(lambda year: "mine")
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        index = client.get("/sitemap.xml").data
    assert locs(etree.fromstring(index)) == []
    assert client.get("/sitemap-1.xml").text == "mine"
    (warning,) = [m for m in caplog.messages if "/sitemap-1.xml" in m]
    assert "'/sitemap-<int:year>.xml'" in warning
