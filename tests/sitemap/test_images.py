"""Images in the sitemap: Google's image extension, URLs as the head writes them."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Blueprint, Flask
from lxml import etree

from flask_marmeon import SitemapEntry, everyone, localized
from flask_marmeon.audit.site import Schemas
from flask_marmeon.sitemap.xml import IMAGE_NS

from .conftest import SM

ORIGIN = "https://notes.example"
IMAGE = f"{{{IMAGE_NS}}}"
ReadSitemap = Callable[..., etree._Element]


def images_by_loc(root: etree._Element) -> dict[str, list[str]]:
    return {
        url.findtext(f"{SM}loc") or "": [
            image.findtext(f"{IMAGE}loc") or "" for image in url.iter(f"{IMAGE}image")
        ]
        for url in root.iter(f"{SM}url")
    }


def site(app: Flask, entries: list[Any]) -> Flask:
    app.get("/notes/<int:n>", sitemap=lambda: entries, authorize=everyone)(
        lambda n: f"note {n}"
    )
    return app


def test_images_are_written_absolute_under_each_url(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    site(
        app,
        [
            SitemapEntry({"n": 1}, images=["/covers/1.png", "covers/a b.png"]),
            {"params": {"n": 2}, "images": ["https://cdn.example/2.jpg?s=1&t=2"]},
            SitemapEntry({"n": 3}),
        ],
    )
    root = read_sitemap(app)  # valid against the 0.9 and the image XSDs
    assert root.nsmap["image"] == IMAGE_NS
    assert images_by_loc(root) == {
        f"{ORIGIN}/notes/1": [
            f"{ORIGIN}/covers/1.png",
            f"{ORIGIN}/covers/a%20b.png",
        ],
        f"{ORIGIN}/notes/2": ["https://cdn.example/2.jpg?s=1&t=2"],
        f"{ORIGIN}/notes/3": [],
    }


def test_the_namespace_is_declared_only_when_an_image_is_written(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    # An entry whose images are all left out writes none.
    site(app, [SitemapEntry({"n": 1}), SitemapEntry({"n": 2}, images=["mailto:x"])])
    body = app.test_client().get("/sitemap.xml").data
    assert b"xmlns:image" not in body and b"<image:" not in body
    assert "image" not in read_sitemap(app).nsmap


LEFT_OUT = [
    "//evil.example/x.png",
    "/\\evil.example/x.png",
    "javascript:alert(1)",
    "data:image/png;base64,AAAA",
    "ftp://files.example/x.png",
]


@pytest.mark.parametrize("debug", [True, False], ids=["development", "production"])
def test_foreign_relatives_and_bad_schemes_are_left_out(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
    debug: bool,
) -> None:
    app = make_app(APP_URL=ORIGIN)
    app.debug = debug
    site(app, [SitemapEntry({"n": 1}, images=[*LEFT_OUT, "/ok.png"])])
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = images_by_loc(read_sitemap(app))
    assert found == {f"{ORIGIN}/notes/1": [f"{ORIGIN}/ok.png"]}
    warnings = [r.getMessage() for r in caplog.records]
    if debug:
        (warning,) = warnings
        assert (
            "5 image URLs left out" in warning and "'//evil.example/x.png'" in warning
        )
        assert "another origin" in warning and "'/notes/<int:n>'" in warning
    else:
        assert warnings == []


def test_at_most_a_thousand_images_per_url_with_a_warning(
    app: Flask, read_sitemap: ReadSitemap, caplog: pytest.LogCaptureFixture
) -> None:
    many = [f"/i/{n}.png" for n in range(1005)]
    site(app, [SitemapEntry({"n": 1}, images=many), SitemapEntry({"n": 2})])
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = images_by_loc(read_sitemap(app))
    assert found[f"{ORIGIN}/notes/1"] == [f"{ORIGIN}/i/{n}.png" for n in range(1000)]
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "5 images left out, because a page lists at most 1000" in warning


def test_every_language_version_lists_the_images(
    make_app: Callable[..., Flask], read_sitemap: ReadSitemap
) -> None:
    app = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "de-AT"])
    docs = localized(Blueprint("docs", __name__))
    docs.get(
        "/notes/<int:n>",
        sitemap=lambda: [SitemapEntry({"n": 1}, images=["/c.png"])],
        authorize=everyone,
    )(lambda n: "note")
    app.register_blueprint(docs)
    found = images_by_loc(read_sitemap(app))
    assert found == {
        f"{ORIGIN}/en/notes/1": [f"{ORIGIN}/c.png"],
        f"{ORIGIN}/de-at/notes/1": [f"{ORIGIN}/c.png"],
    }


def test_a_route_without_parameters_gathers_its_entries_images(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    app.get(
        "/gallery",
        sitemap=lambda: [
            SitemapEntry(images=["/a.png"]),
            SitemapEntry(images=["/b.png"]),
        ],
        authorize=everyone,
    )(lambda: "gallery")
    assert images_by_loc(read_sitemap(app)) == {
        f"{ORIGIN}/gallery": [f"{ORIGIN}/a.png", f"{ORIGIN}/b.png"]
    }


def test_images_under_a_mount_path_are_the_heads_addresses(
    make_app: Callable[..., Flask], read_sitemap: ReadSitemap
) -> None:
    # A path the app passes itself is taken as it is against the origin, as
    # the head takes canonical="/notes/1".
    app = make_app(APP_URL=ORIGIN, APPLICATION_ROOT="/blog")
    site(app, [SitemapEntry({"n": 1}, images=["/blog/c.png"])])
    assert images_by_loc(read_sitemap(app)) == {
        f"{ORIGIN}/blog/notes/1": [f"{ORIGIN}/blog/c.png"]
    }


def test_an_image_url_over_2048_characters_is_left_out_with_a_warning(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    # <image:loc> holds at most 2,048 characters, as <loc> does (the audit's
    # schema says so): a longer one made the extension's own audit call the
    # whole file invalid. A path that the policy percent-encodes past the
    # limit counts as written.
    fits = "/i/" + "a" * (2048 - len(ORIGIN) - 3)
    images = [fits, fits + "a", "/i/" + "\u00e9" * 400, "/ok.png"]
    site(app, [SitemapEntry({"n": 1}, images=images)])
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        root = etree.fromstring(app.test_client().get("/sitemap.xml").data)
    Schemas.load().urlset.assertValid(root)
    assert images_by_loc(root) == {
        f"{ORIGIN}/notes/1": [ORIGIN + fits, f"{ORIGIN}/ok.png"]
    }
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "2 image URLs left out, because they are longer than 2048" in warning


def test_a_percent_sign_that_escapes_nothing_is_escaped_itself(app: Flask) -> None:
    # A browser keeps a "%" that two hex digits do not follow as it is (the
    # head writes it so), but it makes no URI (xsd:anyURI): the extension's
    # own audit called the sitemap invalid. Written as %25 there.
    images = ["https://cdn.example/%", "/x%zz.png", "/a%2", "/ok%20.png", "/%E2%82%AC"]
    site(app, [SitemapEntry({"n": 1}, images=images)])
    root = etree.fromstring(app.test_client().get("/sitemap.xml").data)
    Schemas.load().urlset.assertValid(root)
    assert images_by_loc(root) == {
        f"{ORIGIN}/notes/1": [
            "https://cdn.example/%25",
            f"{ORIGIN}/x%25zz.png",
            f"{ORIGIN}/a%252",
            f"{ORIGIN}/ok%20.png",
            f"{ORIGIN}/%E2%82%AC",
        ]
    }
