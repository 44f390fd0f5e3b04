"""An app built with the extension, as the docs show it, passes its audit."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Blueprint, Flask, Response, render_template_string, url_for
from lxml import html

from flask_marmeon import SitemapEntry, authorize, everyone, head, localized
from flask_marmeon.audit import audit

from .conftest import png

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
{{ render_head() }}</head><body><p>{{ text }}</p>
<nav><a href="/notes/1">1</a> <a href="/notes/2">2</a> <a href="/notes/3">3</a>
<a href="/en-us/about">About</a> <a href="/de-de/about">Über</a></nav>
</body></html>"""


def build(make_app: Callable[..., Flask], **config: object) -> Flask:
    app = make_app(
        **config,
        APP_URL="https://notes.example",
        APP_LOCALES=["en-US", "de-DE"],
        # The browser module's address is team browser's to move out of
        # /_marmeon/ (which robots.txt disallows); the example's audit test
        # covers it. Here the audit's checks of the head are under test.
        MARMEON_BROWSER_SCRIPT=False,
    )
    notes = authorize(everyone)(Blueprint("notes", __name__))

    def note_pages() -> Iterator[SitemapEntry]:
        for note_id in (1, 2, 3):
            yield SitemapEntry(params={"note_id": note_id})

    @notes.get("/notes/<int:note_id>", sitemap=note_pages)
    def show(note_id: int) -> str:
        path = url_for("notes.show", note_id=note_id)
        cover = url_for("notes.cover", note_id=note_id)
        head(
            title=f"Note number {note_id} · Notes",
            description=f"The note number {note_id}: on sourdough, bicycles"
            " and house plants.",
            canonical=path,
            open_graph={
                "url": path,
                "image": {"url": cover, "width": 1200, "height": 630, "alt": "Cover"},
            },
            twitter={"card": "summary_large_image"},
            json_ld={
                "@context": "https://schema.org",
                "@type": "Article",
                "headline": "x",
            },
        )
        return render_template_string(PAGE, text=f"Note {note_id}")

    @notes.get("/notes/<int:note_id>/cover.png")
    def cover(note_id: int) -> Response:
        return Response(png(1200, 630), mimetype="image/png")

    pages = authorize(everyone)(localized(Blueprint("pages", __name__)))

    @pages.get("/about", sitemap=True)
    def about() -> str:
        head(
            title="About these notes",
            description="A small notes site, in two languages, that proves its head.",
            open_graph={"url": url_for("pages.about")},
            twitter={"card": "summary"},
        )
        return render_template_string(PAGE, text="About")

    app.register_blueprint(notes)
    app.register_blueprint(pages)
    return app


def test_a_clean_app_has_no_finding(make_app: Callable[..., Flask]) -> None:
    report = audit(build(make_app))
    assert report.pages == 5
    assert report.findings == ()


def test_an_app_that_must_not_be_indexed_is_one_finding(
    make_app: Callable[..., Flask],
) -> None:
    # A staging deployment (MARMEON_INDEXABLE=False): every answer says
    # noindex and robots.txt disallows everything, on purpose. That is one
    # error, said once, not three per page; the rest is still checked.
    app = build(make_app, MARMEON_INDEXABLE=False)
    report = audit(app)
    assert report.pages == 5
    assert [(f.code, f.url) for f in report.findings] == [
        ("site-not-indexable", "https://notes.example/robots.txt")
    ]
    assert "MARMEON_INDEXABLE" in report.findings[0].message


def test_a_mistake_in_a_view_is_found(make_app: Callable[..., Flask]) -> None:
    app = build(make_app)

    @app.after_request
    def forget(response: Response) -> Response:
        response.headers["X-Robots-Tag"] = "noindex"
        return response

    report = audit(app)
    assert {f.code for f in report.findings} == {"page-noindex"}
    assert len(report.errors) == 5


@pytest.mark.parametrize("locale", ["en-us", "de-de"])
def test_the_x_default_redirect_is_no_finding(
    make_app: Callable[..., Flask], locale: str
) -> None:
    app = build(make_app)
    client = app.test_client()
    page = html.document_fromstring(client.get(f"/{locale}/about").data)
    hrefs = page.xpath('//head/link[@hreflang="x-default"]/@href')
    assert hrefs == ["https://notes.example/about"]
    assert client.get("/about").status_code == 302
    assert audit(app).findings == ()
