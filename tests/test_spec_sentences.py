"""Sentences of the specification that no other test tried on their own.

Each test quotes its sentence (marmeon-search-engines-and-sharing.txt,
mapped onto Flask by API.md) and checks it on a real app.
"""

from __future__ import annotations

from collections.abc import Iterator

import html5lib
from flask import Flask, render_template_string
from lxml import etree

from flask_marmeon import SitemapEntry, everyone, head, raise_on_problems

PAGE = "<!DOCTYPE html><html><head>{{ render_head() }}</head><body></body></html>"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def metas(html: bytes, key: str) -> list[str]:
    """The content of every meta whose property or name is ``key``."""
    document = html5lib.parse(html, namespaceHTMLElements=False)
    return [
        str(element.get("content"))
        for element in document.iter("meta")
        if key in (element.get("property"), element.get("name"))
    ]


def test_article_authors_are_written_as_given(app: Flask) -> None:
    # "openGraph.article.authors are written as given, so pass what the
    # preview should show, such as a profile URL": no author is made
    # absolute or left out as a URL would be.
    authors = ["/users/ada", "Ada Lovelace", "//other.example/grace"]

    @app.get("/")
    def note() -> str:
        head(open_graph={"type": "article", "article": {"authors": authors}})
        return render_template_string(PAGE)

    page = app.test_client().get("/")
    assert metas(page.data, "article:author") == authors


def test_the_sitemap_is_made_when_a_crawler_asks(app: Flask) -> None:
    # "The file is made when a crawler asks, from the routes the app loaded
    # at start. Nothing is generated at build time": neither the start-up
    # checks, nor the app's pages, nor robots.txt call the provider.
    calls: list[int] = []

    def notes() -> Iterator[SitemapEntry]:
        calls.append(1)
        yield SitemapEntry(params={"note_id": 1})

    app.get("/notes/<int:note_id>", sitemap=notes, authorize=everyone)(
        lambda note_id: f"note {note_id}"
    )
    raise_on_problems(app)
    client = app.test_client()
    assert client.get("/notes/1").status_code == 200
    assert client.get("/robots.txt").status_code == 200
    assert calls == []
    answer = client.get("/sitemap.xml")
    assert answer.status_code == 200 and calls == [1]
    locs = [loc.text for loc in etree.fromstring(answer.data).iter(f"{SITEMAP}loc")]
    assert locs == ["https://notes.example/notes/1"]
