"""Crawl the example app as a search engine would: from its sitemap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from lxml import etree

from example_app.catalog import default_catalog
from example_app.models import Note, db
from tests.documents import sitemap_files

ORIGIN = "http://127.0.0.1:5000"  # the example's default APP_URL
NS = {
    "sm": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
LOCALES = ("en", "de")


def files_of(client: FlaskClient) -> list[etree._Element]:
    """The sitemap's files (the index's parts), each answered with 200."""

    def get(url: str) -> bytes:
        response = client.get(url[len(ORIGIN) :])
        assert response.status_code == 200, url
        return response.data

    return sitemap_files(get, ORIGIN)


def read_sitemap(client: FlaskClient) -> dict[str, tuple[str | None, dict[str, str]]]:
    """loc -> (lastmod, {hreflang: href}) for every <url> of the sitemap."""
    urls: dict[str, tuple[str | None, dict[str, str]]] = {}
    for url in (u for root in files_of(client) for u in root.findall("sm:url", NS)):
        loc = url.findtext("sm:loc", namespaces=NS)
        assert loc is not None and loc not in urls
        alternates = {
            link.get("hreflang"): link.get("href")
            for link in url.findall("xhtml:link", NS)
        }
        urls[loc] = (url.findtext("sm:lastmod", namespaces=NS), alternates)
    return urls


def test_sitemap_lists_every_note_and_every_page_in_each_language(
    site: Flask, site_client: FlaskClient
) -> None:
    urls = read_sitemap(site_client)
    with site.app_context():
        notes = db.session.scalars(db.select(Note)).all()
        updated = {
            f"{ORIGIN}/notes/{n.id}": n.updated.date().isoformat() for n in notes
        }
    assert len(notes) >= 24
    # Each localized page in the languages it is written in (issue 12: a
    # feature page may exist in some only).
    localized = {"/about": LOCALES, "/features": LOCALES} | {
        f"/features/{feature.slug}": feature.locales or LOCALES
        for feature in default_catalog().all()
    }
    assert any(len(locales) == 1 for locales in localized.values())
    expected = (
        {f"{ORIGIN}/"}
        | set(updated)
        | {
            f"{ORIGIN}/{locale}{path}"
            for path, locales in localized.items()
            for locale in locales
        }
    )
    assert set(urls) == expected
    for loc, date in updated.items():
        assert urls[loc][0] == date
    # The list changed when its latest note did.
    assert urls[f"{ORIGIN}/"][0] == max(updated.values())
    for path, locales in localized.items():
        alternates = {locale: f"{ORIGIN}/{locale}{path}" for locale in locales}
        alternates["x-default"] = f"{ORIGIN}{path}"
        for locale in locales:
            assert urls[f"{ORIGIN}/{locale}{path}"][1] == alternates


def test_every_page_of_the_sitemap_answers_with_a_head_that_parses(
    site_client: FlaskClient, parse: Callable[[str], Any]
) -> None:
    urls = read_sitemap(site_client)
    assert urls
    for loc, (_, alternates) in urls.items():
        assert loc.startswith(f"{ORIGIN}/")
        response = site_client.get(loc[len(ORIGIN) :])
        assert response.status_code == 200, loc
        assert response.mimetype == "text/html"
        page = parse(response.get_data(as_text=True))
        title = page.title()
        assert title and title.endswith(" · Marmeon Notes"), loc
        assert page.meta("description"), loc
        # The sitemap names each page by its canonical address.
        assert page.canonical() == loc
        # hreflang in the head and alternates in the sitemap agree, and only
        # localized pages have them.
        assert page.hreflang() == alternates, loc
        assert page.meta("robots") in (
            [],
            ["index, follow"],
            ["index, follow, max-image-preview:large"],  # the notes
        ), loc


def test_each_note_lists_its_cover_in_the_image_sitemap(
    site_client: FlaskClient, parse: Callable[[str], Any]
) -> None:
    image = "{http://www.google.com/schemas/sitemap-image/1.1}"
    covers = {
        url.findtext("sm:loc", namespaces=NS): [
            loc.text for loc in url.iter(f"{image}loc")
        ]
        for root in files_of(site_client)
        for url in root.findall("sm:url", NS)
    }
    notes = {loc: images for loc, images in covers.items() if "/notes/" in loc}
    assert notes
    for loc, images in notes.items():
        # The cover the sitemap names is the page's own og:image.
        page = parse(site_client.get(loc[len(ORIGIN) :]).get_data(as_text=True))
        assert images == page.meta("og:image"), loc
        response = site_client.get(images[0][len(ORIGIN) :])
        assert response.status_code == 200 and response.mimetype == "image/png"
    assert all(not images for loc, images in covers.items() if loc not in notes)


def test_pages_left_out_of_the_sitemap_still_have_a_head_that_parses(
    site_client: FlaskClient, parse: Callable[[str], Any]
) -> None:
    listed = read_sitemap(site_client)
    for path, status in [("/search?q=bread", 200), ("/no/such/page", 404)]:
        assert f"{ORIGIN}{path}" not in listed
        response = site_client.get(path)
        assert response.status_code == status
        page = parse(response.get_data(as_text=True))
        assert page.one_meta("robots").startswith("noindex")


def test_robots_txt_names_the_sitemap_on_app_url(site_client: FlaskClient) -> None:
    response = site_client.get("/robots.txt")
    assert response.status_code == 200
    lines = response.get_data(as_text=True).splitlines()
    assert "Disallow: /_marmeon/" in lines
    assert f"Sitemap: {ORIGIN}/sitemap.xml" in lines
