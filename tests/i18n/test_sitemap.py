"""The localized sitemap, and head and sitemap telling the same story."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import html5lib
import pytest
from flask import Blueprint, Flask, abort
from lxml import etree

from flask_marmeon import (
    SitemapEntry,
    StartupError,
    everyone,
    head,
    localized,
    render_head,
)
from flask_marmeon.sitemap.build import build_sitemap
from tests.documents import strict_schema

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def page(title: str) -> str:
    head(title=title)
    return f"<!doctype html><html><head>{render_head()}</head><body></body></html>"


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


def read_sitemap(app: Flask) -> etree._Element:
    response = app.test_client().get("/sitemap.xml")
    assert response.status_code == 200
    return etree.fromstring(response.data)


def urls(root: etree._Element) -> dict[str, dict[str, str]]:
    """loc -> {hreflang: href} for every <url>."""
    found: dict[str, dict[str, str]] = {}
    for url in root.iter(f"{SM}url"):
        loc = url.findtext(f"{SM}loc")
        assert loc is not None and loc not in found
        links = url.findall(f"{XHTML}link")
        assert all(link.get("rel") == "alternate" for link in links)
        found[loc] = {link.get("hreflang"): link.get("href") for link in links}  # type: ignore[misc]
    return found


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


# -- languages per page (issue 12) ---------------------------------------------

ORIGIN = "https://notes.example"


def locale_site(
    make_app: Callable[..., Flask],
    entries: list[Any],
    option: object = None,
    rule_text: str = "/notes/<int:note_id>",
    **config: Any,
) -> Flask:
    """An app with three locales and one localized route; ``option`` is what
    the route's ``locales=`` stores on the rule (``rule.marmeon_locales``)."""
    config.setdefault("APP_LOCALES", ["en", "de-AT", "fr"])
    app = make_app(APP_URL=ORIGIN, **config)
    docs = localized(Blueprint("docs", __name__))
    docs.get(rule_text, sitemap=lambda: entries, authorize=everyone)(
        lambda **values: page(repr(values))
    )
    app.register_blueprint(docs)
    if option is not None:
        for rule in app.url_map.iter_rules():
            if rule.endpoint.startswith("docs."):
                rule.marmeon_locales = option  # type: ignore[attr-defined]
    return app


def valid_urls(app: Flask) -> dict[str, dict[str, str]]:
    schema = strict_schema("sitemap.xsd")
    root = read_sitemap(app)
    schema.assertValid(root)
    return urls(root)


def versions(number: int, *tags: str) -> dict[str, str]:
    found = {tag: f"{ORIGIN}/{tag.lower()}/notes/{number}" for tag in tags}
    return {**found, "x-default": f"{ORIGIN}/notes/{number}"}


def test_an_entrys_locales_name_its_only_urls_and_links(
    make_app: Callable[..., Flask],
) -> None:
    app = locale_site(
        make_app,
        [
            SitemapEntry({"note_id": 1}, locales=["en"]),
            # In APP_LOCALES order, whatever the order given.
            {"params": {"note_id": 2}, "locales": ["fr", "de-AT"]},
            SitemapEntry({"note_id": 3}),
            SitemapEntry({"note_id": 4}, locales=[]),  # in no language: none
        ],
    )
    found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/de-at/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/en/notes/3": versions(3, "en", "de-AT", "fr"),
        f"{ORIGIN}/de-at/notes/3": versions(3, "en", "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/3": versions(3, "en", "de-AT", "fr"),
    }
    assert list(found[f"{ORIGIN}/de-at/notes/2"]) == ["de-AT", "fr", "x-default"]
    statuses = crawl(app, list(found))
    assert set(statuses.values()) == {200}


def crawl(app: Flask, addresses: list[str]) -> dict[str, int]:
    client = app.test_client()
    return {a: client.get(a.removeprefix(ORIGIN)).status_code for a in addresses}


@pytest.mark.parametrize("rule_text", ["/notes/<int:note_id>", "/notes/<note_id>"])
def test_the_routes_locales_apply_and_an_entrys_own_narrow_them(
    make_app: Callable[..., Flask],
    rule_text: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A list on the route (the planned way for these rules) and entries
    # that say otherwise (the general way) in one provider. An entry's own
    # locales win within the route's: /en/notes/3 answers 404 (the route
    # refuses "en"), so the sitemap does not name it.
    entries: list[Any] = [SitemapEntry({"note_id": n}) for n in (1, 2)]
    entries.append(SitemapEntry({"note_id": 3}, locales=["en", "fr"]))
    entries.append(SitemapEntry({"note_id": 4}, locales=["fr"]))
    if rule_text.endswith("<note_id>"):
        entries = [
            SitemapEntry({"note_id": str(e.params["note_id"])}, locales=e.locales)
            for e in entries
        ]
    app = locale_site(make_app, entries, option=("fr", "de-AT"), rule_text=rule_text)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/de-at/notes/1": versions(1, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/1": versions(1, "de-AT", "fr"),
        f"{ORIGIN}/de-at/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/2": versions(2, "de-AT", "fr"),
        f"{ORIGIN}/fr/notes/3": versions(3, "fr"),
        f"{ORIGIN}/fr/notes/4": versions(4, "fr"),
    }
    assert set(crawl(app, list(found)).values()) == {200}
    assert app.test_client().get("/en/notes/3").status_code == 404
    warnings = [r.getMessage() for r in caplog.records if "/notes/" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "'en'" in warnings[0] and "404" in warnings[0]


def test_a_callable_option_is_called_with_the_entrys_params(
    make_app: Callable[..., Flask],
) -> None:
    calls: list[dict[str, Any]] = []

    def available(**values: Any) -> list[str]:
        calls.append(values)
        return ["en"] if values["note_id"] % 2 else ["en", "fr"]

    entries = [SitemapEntry({"note_id": n}) for n in (1, 2)]
    # The route says note 3 exists in "en" only, and note 4 in "en" and
    # "fr": an entry's own locales narrow what the route says, and never
    # name a version that answers 404.
    entries.append(SitemapEntry({"note_id": 3}, locales=["de-AT"]))
    entries.append(SitemapEntry({"note_id": 4}, locales=["fr", "de-AT"]))
    app = locale_site(make_app, entries, option=available)
    found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/en/notes/2": versions(2, "en", "fr"),
        f"{ORIGIN}/fr/notes/2": versions(2, "en", "fr"),
        f"{ORIGIN}/fr/notes/4": versions(4, "fr"),
    }
    # Never with the locale.
    assert calls == [{"note_id": n} for n in (1, 2, 3, 4)]
    calls.clear()
    assert set(crawl(app, list(found)).values()) == {200}
    client = app.test_client()
    assert client.get("/de-at/notes/3").status_code == 404
    assert client.get("/de-at/notes/4").status_code == 404


def test_a_tag_not_in_app_locales_is_left_out_with_one_warning(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    entries = [
        SitemapEntry({"note_id": 1}, locales=["en", "it"]),
        # A tag in another case is that tag (BCP 47), as for the page.
        SitemapEntry({"note_id": 2}, locales=["EN", "es"]),
        SitemapEntry({"note_id": 3}, locales=["it"]),
    ]
    app = locale_site(make_app, entries)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/en/notes/2": versions(2, "en"),
    }
    warnings = [r.getMessage() for r in caplog.records if "/notes/" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "'it', 'es'" in warnings[0] and "APP_LOCALES" in warnings[0]


@pytest.mark.parametrize("option", [("EN", "de-at"), lambda note_id: ["DE-AT"]])
def test_a_routes_tag_in_another_case_is_the_tag_as_for_the_page(
    make_app: Callable[..., Flask], option: Any
) -> None:
    # The H10 check, the converter and the page take "de-at" for "de-AT":
    # the sitemap names the versions the page answers, spelled as configured.
    entries = [
        SitemapEntry({"note_id": 1}),
        SitemapEntry({"note_id": 2}, locales=["de-AT", "en"]),
    ]
    app = locale_site(make_app, entries, option=option)
    found = valid_urls(app)
    tags = ("en", "de-AT") if isinstance(option, tuple) else ("de-AT",)
    assert found == {
        f"{ORIGIN}/{tag.lower()}/notes/{n}": versions(n, *tags)
        for n in (1, 2)
        for tag in tags
    }
    assert set(crawl(app, list(found)).values()) == {200}


def test_the_limit_counts_the_urls_written(make_app: Callable[..., Flask]) -> None:
    # Five entries in one language each fit in five URLs; in all three
    # languages one entry would take three.
    entries = [SitemapEntry({"note_id": n}, locales=["fr"]) for n in range(1, 6)]
    entries.append(SitemapEntry({"note_id": 6}))
    app = locale_site(make_app, entries, MARMEON_SITEMAP_MAX_URLS=5)
    found = valid_urls(app)
    assert sorted(found) == sorted(f"{ORIGIN}/fr/notes/{n}" for n in range(1, 6))
    app = locale_site(
        make_app, entries, MARMEON_SITEMAP_MAX_URLS=3, MARMEON_SITEMAP_INDEX=True
    )
    client = app.test_client()
    index = etree.fromstring(client.get("/sitemap.xml").data)
    parts = [loc.text or "" for loc in index.iter(f"{SM}loc")]
    sizes = [
        len(etree.fromstring(client.get(p.removeprefix(ORIGIN)).data)) for p in parts
    ]
    assert sizes == [3, 2, 3]


def test_an_entry_whose_locales_function_answers_404_is_left_out(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # locales=lambda note_id: Note.query.get_or_404(note_id).locales: the
    # page of a note deleted since answers 404, so its entry is left out
    # (one warning for the route) and the rest of the sitemap is served.
    def available(note_id: int) -> list[str]:
        if note_id == 2:
            abort(404)
        return ["en"]

    entries = [SitemapEntry({"note_id": n}) for n in (1, 2, 3)]
    entries.append(SitemapEntry({"note_id": 2}, locales=["en"]))
    app = locale_site(make_app, entries, option=available)
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        found = valid_urls(app)
    assert found == {
        f"{ORIGIN}/en/notes/1": versions(1, "en"),
        f"{ORIGIN}/en/notes/3": versions(3, "en"),
    }
    assert app.test_client().get("/en/notes/2").status_code == 404
    warnings = [r.getMessage() for r in caplog.records if "/notes/" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "2 entries left out" in warnings[0] and "404" in warnings[0]


def test_a_locales_function_that_returns_a_str_fails_alike_in_sitemap_and_page(
    make_app: Callable[..., Flask],
) -> None:
    # "en" is iterable too: it would be the locales "e" and "n". The sitemap
    # and the page check the function's result with the same words.
    entries = [SitemapEntry({"note_id": 1})]
    app = locale_site(make_app, entries, option=lambda note_id: "en")
    app.config["PROPAGATE_EXCEPTIONS"] = True
    with pytest.raises(TypeError) as from_page:
        app.test_client().get("/en/notes/1")
    with pytest.raises(TypeError) as from_sitemap:
        build_sitemap(app)
    assert str(from_sitemap.value) == str(from_page.value)
    assert "must return a list of locale tags" in str(from_sitemap.value)
