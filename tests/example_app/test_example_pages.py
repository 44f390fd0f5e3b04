"""The example app's pages: each shows a part of flask_marmeon."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.test import Client

from example_app.models import Note, db
from flask_marmeon import current_page

ORIGIN = "http://127.0.0.1:5000"  # the example's default APP_URL
Parse = Callable[[str], Any]


def get_page(client: FlaskClient, parse: Parse, path: str, status: int = 200) -> Any:
    response = client.get(path)
    assert response.status_code == status, path
    return parse(response.get_data(as_text=True))


def site_graph(page: Any) -> dict[str, Any]:
    (graph,) = [block for block in page.json_ld() if "@graph" in block]
    return {node["@type"]: node for node in graph["@graph"]}


def test_a_note_page_sets_every_field_of_the_head(
    site: Flask, site_client: FlaskClient, parse: Parse
) -> None:
    with site.app_context():
        note = db.session.get(Note, 3)
        assert note is not None
    page = get_page(site_client, parse, "/notes/3")
    url, cover = f"{ORIGIN}/notes/3", f"{ORIGIN}/notes/3/cover.png"
    assert page.title() == f"{note.title} · Marmeon Notes"
    assert page.one_meta("description") == note.summary
    assert page.canonical() == url
    assert page.one_meta("robots") == "index, follow, max-image-preview:large"
    assert page.one_meta("og:type") == "article"
    assert page.one_meta("og:url") == url
    assert page.one_meta("og:title") == note.title
    assert page.one_meta("og:site_name") == "Marmeon Notes"
    assert page.one_meta("og:image") == cover
    assert page.one_meta("og:image:width") == "1200"
    assert page.one_meta("og:image:height") == "630"
    alt = page.one_meta("og:image:alt")
    assert note.title in alt
    assert page.one_meta("article:published_time") == note.created.isoformat()
    assert page.one_meta("article:modified_time") == note.updated.isoformat()
    assert page.meta("article:author") == [note.author]
    assert page.meta("article:tag") == note.tag_list
    assert page.one_meta("twitter:card") == "summary_large_image"
    assert page.one_meta("twitter:site") == "@marmeon_notes"
    assert page.one_meta("twitter:title") == note.title
    assert page.one_meta("twitter:image") == cover
    assert page.one_meta("twitter:image:alt") == alt
    # The layout's graph, then the page's article, which points at it.
    graph, article = page.json_ld()
    assert "@graph" in graph
    assert article["@type"] == "Article"
    assert article["headline"] == note.title
    assert article["datePublished"] == note.created.isoformat()
    assert article["publisher"] == {"@id": site_graph(page)["Organization"]["@id"]}
    # The cover in the page has its size and text, so the layout never jumps.
    (image,) = page.body.iter("img")
    assert image.get("src") == "/notes/3/cover.png"
    assert (image.get("width"), image.get("height")) == ("1200", "630")
    assert image.get("alt") == alt


def test_markup_in_a_title_stays_text_in_the_head_and_the_json_ld(
    site: Flask, site_client: FlaskClient, parse: Parse
) -> None:
    with site.app_context():
        odd = db.session.scalars(
            db.select(Note).where(Note.title.contains("</script>"))
        ).one()
        markup = db.session.scalars(
            db.select(Note).where(Note.title.contains("<markup>"))
        ).one()
    for note in (odd, markup):
        page = get_page(site_client, parse, f"/notes/{note.id}")
        assert page.one_meta("og:title") == note.title
        assert page.json_ld()[-1]["headline"] == note.title


def test_the_layout_gives_every_page_the_site_graph_and_the_card(
    site_client: FlaskClient, parse: Parse
) -> None:
    for path, status in [("/", 200), ("/de/about", 200), ("/nowhere", 404)]:
        page = get_page(site_client, parse, path, status)
        nodes = site_graph(page)
        assert set(nodes) == {"Organization", "WebSite"}
        assert nodes["WebSite"]["publisher"] == {"@id": nodes["Organization"]["@id"]}
        assert nodes["Organization"]["@id"] == f"{ORIGIN}/#org"
        # The layout's card is the large one: every page has a picture, a
        # generated one where it has none of its own (MARMEON_OG_IMAGES).
        assert page.one_meta("twitter:card") == "summary_large_image"
        assert "/marmeon-og/" in page.one_meta("og:image")
        assert page.one_meta("og:image:width") == "1200"
        assert page.one_meta("og:site_name") == "Marmeon Notes"


def test_search_results_are_noindex_but_followed(
    site_client: FlaskClient, parse: Parse
) -> None:
    page = get_page(site_client, parse, "/search?q=sourdough")
    assert page.one_meta("robots") == "noindex, follow"
    assert page.title() == "Search · Marmeon Notes"
    found = [a.get("href") for a in page.body.iter("a") if "/notes/" in a.get("href")]
    assert len(found) == 3


def test_the_404_page_has_a_head_of_its_own(
    site_client: FlaskClient, parse: Parse
) -> None:
    for path in ("/nowhere", "/notes/99999", "/en/features/no-such-feature"):
        page = get_page(site_client, parse, path, 404)
        assert page.title() == "Page not found · Marmeon Notes"
        assert page.one_meta("robots") == "noindex"
        assert page.one_meta("description")


def test_about_in_german_is_translated_and_names_both_languages(
    site_client: FlaskClient, parse: Parse
) -> None:
    page = get_page(site_client, parse, "/de/about")
    assert page.root.get("lang") == "de"
    assert page.title() == "Über uns · Marmeon Notes"
    assert page.one_meta("og:locale") == "de_DE"
    assert page.meta("og:locale:alternate") == ["en_US"]
    assert page.canonical() == f"{ORIGIN}/de/about"
    assert page.hreflang() == {
        "en": f"{ORIGIN}/en/about",
        "de": f"{ORIGIN}/de/about",
        "x-default": f"{ORIGIN}/about",
    }
    (h1,) = page.body.iter("h1")
    assert h1.text == "Über uns"
    english = get_page(site_client, parse, "/en/about")
    assert english.title() == "About · Marmeon Notes"
    assert english.one_meta("og:locale") == "en_US"


def test_the_language_switcher_is_built_from_page_alternates(
    site: Flask, site_client: FlaskClient, parse: Parse
) -> None:
    path = "/de/features/sitemap?ref=switcher"
    page = get_page(site_client, parse, path)
    with site.test_request_context(path):
        site.preprocess_request()
        alternates = current_page().alternates
    (switcher,) = [n for n in page.body.iter("nav") if n.get("class") == "languages"]
    links = list(switcher.iter("a"))
    assert [(a.get("hreflang"), a.get("href")) for a in links] == [
        (alternate["hreflang"], alternate["href"]) for alternate in alternates
    ]
    # The query is kept, so a switch keeps what the visitor was looking at.
    assert all(a.get("href", "").endswith("?ref=switcher") for a in links)
    assert [a.text for a in links] == ["English", "Deutsch"]
    assert [a.get("aria-current") for a in links] == [None, "page"]
    # Pages that are not localized have no switcher.
    home = get_page(site_client, parse, "/")
    assert not [n for n in home.body.iter("nav") if n.get("class") == "languages"]


def test_links_in_a_german_page_stay_in_german(
    site_client: FlaskClient, parse: Parse
) -> None:
    page = get_page(site_client, parse, "/de/features")
    (switcher,) = [n for n in page.body.iter("nav") if n.get("class") == "languages"]
    # Every link but the language switcher's.
    links = [a for a in page.body.iter("a") if a not in switcher.iter("a")]
    hrefs = [a.get("href", "") for a in links]
    assert "/de/about" in hrefs
    assert "/de/features/head" in hrefs
    # Only a page that exists in English only is linked in English, and the
    # link says so (issue 12).
    english = [a for a in links if a.get("href", "").startswith("/en/")]
    assert [(a.get("href"), a.get("hreflang")) for a in english] == [
        ("/en/features/per-page-languages", "en")
    ]


def test_the_address_without_a_language_redirects_to_the_visitors(
    site_client: FlaskClient,
) -> None:
    response = site_client.get("/about", headers={"Accept-Language": "de-CH"})
    assert response.status_code == 302
    assert response.location.endswith("/de/about")
    response = site_client.get("/features", headers={"Accept-Language": "fr"})
    assert response.location.endswith("/en/features")


def test_a_cover_is_a_png_of_the_size_the_head_announces(
    site_client: FlaskClient,
) -> None:
    response = site_client.get("/notes/3/cover.png")
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert response.data[12:16] == b"IHDR"
    assert struct.unpack(">II", response.data[16:24]) == (1200, 630)
    again = site_client.get(
        "/notes/3/cover.png", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304
    assert site_client.get("/notes/99999/cover.png").status_code == 404


def head_addresses(page: Any) -> list[str]:
    """Every address the head names: canonical, the og and twitter URLs,
    hreflang, and the URLs of the JSON-LD blocks (``@id``, ``url``...)."""
    found = [link.get("href", "") for link in page.links("canonical")]
    found += page.hreflang().values()
    for key in ("og:url", "og:image", "twitter:image"):
        found += page.meta(key)

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value.startswith(ORIGIN):
            found.append(value)

    # The JSON-LD's @context (https://schema.org) is no address of the site.
    walk(page.json_ld())
    return found


def test_the_head_does_not_follow_a_mount_path_the_client_sends(
    site: Flask, site_client: FlaskClient, parse: Parse
) -> None:
    # gunicorn takes a SCRIPT_NAME request header (from 127.0.0.1 by
    # default), and ProxyFix(x_prefix=1) the client's X-Forwarded-Prefix:
    # url_for then starts with it. The head's addresses come from the
    # configuration (docs/deployment.rst), so the example builds its own
    # paths under APPLICATION_ROOT.
    proxied = Client(ProxyFix(site.wsgi_app, x_prefix=1))
    for path in ("/", "/notes/3", "/en/about", "/de/features", "/search"):
        page = get_page(site_client, parse, path)
        expected = head_addresses(page)
        assert expected and all(url.startswith(f"{ORIGIN}/") for url in expected)
        forged = site_client.get(path, environ_overrides={"SCRIPT_NAME": "/evil"})
        assert forged.status_code == 200, path
        assert head_addresses(parse(forged.get_data(as_text=True))) == expected
        forged = proxied.get(path, headers={"X-Forwarded-Prefix": "/evil"})
        assert forged.status_code == 200, path
        assert head_addresses(parse(forged.get_data(as_text=True))) == expected
