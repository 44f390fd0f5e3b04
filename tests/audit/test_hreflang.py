"""hreflang: the head's set against the sitemap's, return links, x-default."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Flask

from flask_marmeon import SitemapEntry, everyone, render_head
from flask_marmeon import head as set_head
from flask_marmeon import localized as localize
from flask_marmeon.audit import audit

from .conftest import ORIGIN, Site, codes, urlset

EN, DE, DEFAULT = f"{ORIGIN}/en/about", f"{ORIGIN}/de/about", f"{ORIGIN}/about"
LINKS = {"en": EN, "de": DE, "x-default": DEFAULT}


def links(alternates: dict[str, str], tag: str) -> str:
    if tag == "head":
        return "".join(
            f'<link rel="alternate" hreflang="{k}" href="{v}">'
            for k, v in alternates.items()
        )
    return "".join(
        f'<xhtml:link rel="alternate" hreflang="{k}" href="{v}"/>'
        for k, v in alternates.items()
    )


def localized(site: Site, head: dict[str, dict[str, str]] | None = None) -> None:
    """/en/about and /de/about, naming each other (and x-default) everywhere."""
    head = head or {}
    entries = "".join(
        f"<url><loc>{url}</loc>{links(LINKS, 'map')}</url>" for url in (EN, DE)
    )
    site.put("/sitemap.xml", urlset(extra=entries), type="application/xml")
    site.nav = ["/en/about", "/de/about"]  # a language switcher
    titles = {EN: "About the notes site", DE: "Über die Notizen"}
    for url in (EN, DE):
        site.page(
            url[len(ORIGIN) :],
            title=titles[url],
            extra=links(head.get(url, LINKS), "head"),
        )
    # x-default redirects by language: not a finding, and not fetched.
    site.put("/about", "", status=302, headers={"Location": EN})


def test_language_versions_that_name_each_other_have_no_finding(site: Site) -> None:
    localized(site)
    report = site.audit()
    assert report.findings == ()
    assert "/about" not in site.hits


def test_language_versions_may_share_a_description(site: Site) -> None:
    # Both pages have the default description: they name each other, so the
    # repeat is not a duplicate.
    localized(site)
    assert [f.code for f in site.audit().findings] == []


def test_a_head_set_other_than_the_sitemaps_is_an_error(site: Site) -> None:
    localized(site, {DE: {"de": DE, "x-default": DEFAULT, "en": EN + "/"}})
    found = codes(site.audit())
    assert ("hreflang-mismatch", DE) in found


def test_a_target_that_does_not_link_back_is_an_error(site: Site) -> None:
    # /de/about names only itself: /en/about names it, gets no link back, and
    # the sitemap's set no longer matches the German head either.
    localized(site, {DE: {"de": DE, "x-default": DEFAULT}})
    found = codes(site.audit())
    assert ("hreflang-no-return", EN) in found
    assert ("hreflang-mismatch", DE) in found
    assert ("hreflang-no-return", DE) not in found


def test_a_target_that_does_not_answer_is_an_error(site: Site) -> None:
    site.put(
        "/sitemap.xml",
        urlset(extra=f"<url><loc>{EN}</loc>{links(LINKS, 'map')}</url>"),
        type="application/xml",
    )
    site.page("/en/about", title="About the notes site", extra=links(LINKS, "head"))
    site.nav = []
    (finding,) = [f for f in site.audit().findings if f.code.startswith("hreflang")]
    assert (finding.code, finding.url) == ("hreflang-no-return", EN)
    assert "404" in finding.message


def test_no_x_default_is_an_error(site: Site) -> None:
    without = {"en": EN, "de": DE}
    localized(site, {EN: without, DE: without})
    found = codes(site.audit())
    assert ("hreflang-no-x-default", EN) in found
    assert ("hreflang-no-x-default", DE) in found


def test_a_localized_page_whose_x_default_is_taken_says_why(
    make_app: Callable[..., Flask],
) -> None:
    # The extension leaves x-default out where the address without a locale
    # is another page's (/contact of the app): the audit's error says so, so
    # that the fix is the page's address, not a link the head cannot take.
    app = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "de"])
    pages = localize(Blueprint("pages", __name__))

    @pages.get(
        "/<slug>",
        sitemap=lambda: [SitemapEntry(params={"slug": "contact"})],
        authorize=everyone,
    )
    def show(slug: str) -> str:
        set_head(title=f"The {slug} page of the notes")
        return f"<!doctype html><html><head>{render_head()}</head></html>"

    app.register_blueprint(pages)
    app.get("/contact")(lambda: "the app's own contact page")
    report = audit(app)
    said = [f for f in report.findings if f.code == "hreflang-no-x-default"]
    assert {f.url for f in said} == {f"{ORIGIN}/en/contact", f"{ORIGIN}/de/contact"}
    assert all("another page's" in f.message for f in said)
