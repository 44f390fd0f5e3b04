"""The localized sitemap, and head and sitemap telling the same story."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import html5lib
import pytest
from flask import Blueprint, Flask
from lxml import etree

from flask_marmeon import SitemapEntry, StartupError, everyone, localized

from .sitemap_urls import XHTML, page, read_sitemap, urls

XHTML_NS = "http://www.w3.org/1999/xhtml"


def make_site(make_app: Callable[..., Flask], notes: int = 3, **config: Any) -> Flask:
    config.setdefault("APP_URL", "https://notes.example")
    config.setdefault("APP_LOCALES", ["en", "de-AT"])
    app = make_app(**config)

    def note_pages() -> Iterator[SitemapEntry]:
        for number in range(1, notes + 1):
            yield SitemapEntry(params={"note_id": number})

    docs = localized(Blueprint("docs", __name__))

    @docs.get("/about", sitemap=True, authorize=everyone)
    def about() -> str:
        return page("About")

    @docs.get("/notes/<int:note_id>", sitemap=note_pages, authorize=everyone)
    def note(note_id: int) -> str:
        return page(f"Note {note_id}")

    app.register_blueprint(docs)

    help_pages = localized(Blueprint("help", __name__, url_prefix="/help"))

    @help_pages.get("/", sitemap=True, authorize=everyone)
    def help_index() -> str:
        return page("Help")

    app.register_blueprint(help_pages)

    @app.get("/de/looks-localized", sitemap=True, authorize=everyone)
    def looks_localized() -> str:
        return page("Plain")

    return app


def test_a_localized_route_appears_once_per_locale_with_every_version(
    make_app: Callable[..., Flask],
) -> None:
    app = make_site(make_app)
    found = urls(read_sitemap(app))
    origin = "https://notes.example"
    about = {
        "en": f"{origin}/en/about",
        "de-AT": f"{origin}/de-at/about",
        "x-default": f"{origin}/about",
    }
    assert found[f"{origin}/en/about"] == about
    assert found[f"{origin}/de-at/about"] == about
    for number in (1, 2, 3):
        versions = {
            "en": f"{origin}/en/notes/{number}",
            "de-AT": f"{origin}/de-at/notes/{number}",
            "x-default": f"{origin}/notes/{number}",
        }
        assert found[versions["en"]] == versions
        assert found[versions["de-AT"]] == versions
    assert found[f"{origin}/de-at/help/"]["x-default"] == f"{origin}/help/"
    # A plain route whose URL looks localized is one <url> without links.
    assert found[f"{origin}/de/looks-localized"] == {}
    # 2 locales x (about + 3 notes + help) + the plain route.
    assert len(found) == 2 * 5 + 1


def test_xmlns_xhtml_is_declared_with_links_and_only_then(
    make_app: Callable[..., Flask],
) -> None:
    root = read_sitemap(make_site(make_app))
    assert root.nsmap.get("xhtml") == XHTML_NS

    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de-AT"])

    @app.get("/about", sitemap=True, authorize=everyone)
    def about() -> str:
        return "about"

    root = read_sitemap(app)
    assert "xhtml" not in root.nsmap
    assert root.find(f".//{XHTML}link") is None


def test_each_language_counts_and_an_entry_that_does_not_fit_is_left_out_whole(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # about (2 URLs) + notes 1, 2 (4 URLs) = 6; note 3 would need 8 > 7.
    app = make_site(make_app, MARMEON_SITEMAP_MAX_URLS=7)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = urls(read_sitemap(app))
    assert len(found) == 6
    origin = "https://notes.example"
    assert f"{origin}/en/notes/2" in found and f"{origin}/de-at/notes/2" in found
    assert not any("/notes/3" in loc for loc in found)
    # Every version a <url> names is in the file: nothing half-written.
    for links in found.values():
        for hreflang, href in links.items():
            assert hreflang == "x-default" or href in found
    assert any("left out" in record.getMessage() for record in caplog.records)


def test_a_provider_entry_with_a_locale_is_left_out(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de-AT"])
    docs = localized(Blueprint("docs", __name__))

    def entries() -> list[dict[str, Any]]:
        return [
            {"params": {"slug": "a"}},
            {"params": {"slug": "b", "locale": "en"}},
        ]

    @docs.get("/<slug>", sitemap=entries, authorize=everyone)
    def show(slug: str) -> str:
        return slug

    app.register_blueprint(docs)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = urls(read_sitemap(app))
    assert sorted(found) == [
        "https://notes.example/de-at/a",
        "https://notes.example/en/a",
    ]
    assert any("'locale'" in record.getMessage() for record in caplog.records)


def head_of(html: str) -> tuple[str | None, dict[str, str]]:
    """(canonical, {hreflang: href}) of a page, which must parse cleanly."""
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree", ET), namespaceHTMLElements=False
    )
    root = parser.parse(html)
    assert parser.errors == []
    links = root.findall("./head/link")
    canonical = [e.get("href") for e in links if e.get("rel") == "canonical"]
    hreflang = {
        e.get("hreflang", ""): e.get("href", "")
        for e in links
        if e.get("rel") == "alternate"
    }
    return (canonical[0] if canonical else None), hreflang


def test_head_and_sitemap_tell_the_same_story(make_app: Callable[..., Flask]) -> None:
    app = make_site(make_app)
    client = app.test_client()
    found = urls(read_sitemap(app))
    assert found
    for loc, alternates in found.items():
        path = loc.removeprefix("https://notes.example")
        response = client.get(path)
        assert response.status_code == 200, loc
        canonical, hreflang = head_of(response.text)
        assert hreflang == alternates, loc
        if alternates:
            assert canonical == loc
        # x-default is the address without a locale, which redirects.
        if "x-default" in alternates:
            default = alternates["x-default"].removeprefix("https://notes.example")
            redirect = client.get(default, headers={"Accept-Language": "de-AT"})
            assert redirect.status_code == 302
            assert redirect.headers["Location"] == alternates["de-AT"].removeprefix(
                "https://notes.example"
            )


def test_x_default_is_named_only_where_it_redirects(
    make_app: Callable[..., Flask],
) -> None:
    # x-default is "the address without a locale that redirects to the
    # visitor's". A page's value can make that address another one's: a
    # route of the app (/contact), robots.txt, the sitemap, another locale's
    # page (/en/x of /de/en/x). Neither head nor sitemap names it then; the
    # page's languages are still named.
    origin = "https://notes.example"
    app = make_app(APP_URL=origin, APP_LOCALES=["en", "de"])
    slugs = ["ok", "contact", "robots.txt", "sitemap.xml", "en/x"]
    pages = localized(Blueprint("pages", __name__))

    @pages.get(
        "/<path:slug>",
        sitemap=lambda: [SitemapEntry(params={"slug": slug}) for slug in slugs],
        authorize=everyone,
    )
    def show(slug: str) -> str:
        return page(slug)

    app.register_blueprint(pages)
    app.get("/contact")(lambda: "the contact page")
    client = app.test_client()
    found = urls(read_sitemap(app))
    assert len(found) == 2 * len(slugs)
    for slug in slugs:
        for locale in ("en", "de"):
            loc = f"{origin}/{locale}/{slug}"
            versions = {"en": f"{origin}/en/{slug}", "de": f"{origin}/de/{slug}"}
            if slug == "ok":
                versions["x-default"] = f"{origin}/ok"
            assert found[loc] == versions, loc
            response = client.get(f"/{locale}/{slug}")
            assert response.status_code == 200
            assert head_of(response.text) == (loc, versions)
    default = client.get("/ok", headers={"Accept-Language": "de"})
    assert default.status_code == 302 and default.headers["Location"] == "/de/ok"
    for slug in slugs[1:]:
        assert client.get(f"/{slug}").status_code == 200  # not a redirect


def test_whether_x_default_is_named_never_follows_the_request_s_host(
    make_app: Callable[..., Flask],
) -> None:
    # The answer is the app's routes' on its own host, kept per path: a
    # client that writes Host (or X-Forwarded-Host) changes neither the
    # head nor what the app keeps.
    from flask_marmeon._state import get_state
    from flask_marmeon.i18n.state import i18n_state

    origin = "https://notes.example"
    app = make_app(APP_URL=origin, APP_LOCALES=["en", "de"])
    pages = localized(Blueprint("pages", __name__))

    @pages.get("/<slug>", authorize=everyone)
    def show(slug: str) -> str:
        return page(slug)

    app.register_blueprint(pages)
    app.get("/contact")(lambda: "the contact page")
    client = app.test_client()
    for number in range(40):
        for slug, named in (("ok", True), ("contact", False)):
            response = client.get(
                f"/en/{slug}",
                headers={
                    "Host": f"forged-{number}.example",
                    "X-Forwarded-Host": f"other-{number}.example",
                },
            )
            assert response.status_code == 200
            _, hreflang = head_of(response.text)
            assert ("x-default" in hreflang) is named, (number, slug)
            if named:
                assert hreflang["x-default"] == f"{origin}/{slug}"
    assert i18n_state(get_state(app)).x_default_redirects == {
        "/ok": True,
        "/contact": False,
    }


def test_a_plain_route_on_a_localized_address_stops_the_start(
    make_app: Callable[..., Flask],
) -> None:
    # Issue 21: such a route used to be served instead of the localized page
    # (whose entry the sitemap then left out); it is now an H10 problem that
    # names both routes, for a single address as for a catch-all.
    app = make_site(make_app)

    # A plain route answers the German address of note 2 (the second locale).
    @app.get("/de-at/notes/2")
    def shadow_note() -> str:
        return "shadow"

    # And the first locale's address of note 3.
    @app.get("/en/notes/3")
    def shadow_first() -> str:
        return "shadow"

    with pytest.raises(StartupError) as raised:
        read_sitemap(app)
    problems = raised.value.problems
    assert len(problems) == 2
    localized_rule = "'/<marmeon_locale:locale>/notes/<int:note_id>'"
    assert problems[0].startswith("route '/de-at/notes/2' (endpoint 'shadow_note')")
    assert problems[1].startswith("route '/en/notes/3' (endpoint 'shadow_first')")
    assert all(localized_rule in problem for problem in problems)
    assert all("(endpoint 'docs.note')" in problem for problem in problems)

    # A catch-all under /de-at/ takes every German address (its static first
    # segment wins in the router): one problem per localized route it takes.
    app = make_site(make_app)

    @app.get("/de-at/<path:rest>")
    def shadow_all(rest: str) -> str:
        return f"catch-all {rest}"

    with pytest.raises(StartupError) as raised:
        read_sitemap(app)
    taken = raised.value.problems
    assert taken and all(p.startswith("route '/de-at/<path:rest>'") for p in taken)
    assert any(localized_rule in problem for problem in taken)


def test_addresses_and_links_are_escaped(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de-AT"])
    docs = localized(Blueprint("docs", __name__))

    def entries() -> list[SitemapEntry]:
        return [SitemapEntry(params={"slug": "a&b'c"})]

    @docs.get("/tags/<slug>", sitemap=entries, authorize=everyone)
    def tag(slug: str) -> str:
        return page(slug)

    app.register_blueprint(docs)
    body = app.test_client().get("/sitemap.xml").data
    assert b"a&amp;b&apos;c" in body and b"a&b" not in body
    found = urls(etree.fromstring(body))
    assert found["https://notes.example/de-at/tags/a&b'c"] == {
        "en": "https://notes.example/en/tags/a&b'c",
        "de-AT": "https://notes.example/de-at/tags/a&b'c",
        "x-default": "https://notes.example/tags/a&b'c",
    }
