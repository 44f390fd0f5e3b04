"""The development preview, through the test client."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from lxml import html

from flask_marmeon import Marmeon
from flask_marmeon.audit.preview import cut, page_path

from .conftest import ORIGIN, TITLE_A, Site


def text(page: html.HtmlElement, part: str) -> str | None:
    """The text of a part of the search result (title, desc, ...)."""
    (element,) = page.xpath(f"//div[@class='serp']/div[@class='{part}']")
    return element.text  # type: ignore[no-any-return]


@pytest.fixture
def preview_app(site: Site) -> Flask:
    app = site.app()
    Marmeon(app)
    app.debug = True
    return app


def test_production_answers_404(preview_app: Flask) -> None:
    preview_app.debug = False
    client = preview_app.test_client()
    assert client.get("/_marmeon/preview").status_code == 404
    assert client.get("/_marmeon/preview?path=/a").status_code == 404
    preview_app.debug = True  # read at call time
    assert client.get("/_marmeon/preview").status_code == 200


def test_the_index_links_every_listed_url(preview_app: Flask) -> None:
    response = preview_app.test_client().get("/_marmeon/preview")
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    page = html.document_fromstring(response.data)
    links = [(a.get("href"), a.text) for a in page.xpath("//ul[@class='listed']//a")]
    assert links == [("?path=/a", f"{ORIGIN}/a"), ("?path=/b", f"{ORIGIN}/b")]


@pytest.mark.parametrize(
    "value",
    [
        "https://evil.example/a",
        "//evil.example/a",
        "/\\evil.example/a",
        "\\\\evil.example",
        "javascript:alert(1)",
        "a",
        "/a\nb",
        "",
    ],
)
def test_path_takes_only_a_path_on_the_app(preview_app: Flask, value: str) -> None:
    client: FlaskClient = preview_app.test_client()
    assert page_path(value) is None
    response = client.get("/_marmeon/preview", query_string={"path": value})
    assert response.status_code == 400


def test_a_page_is_drawn_with_its_findings(site: Site, preview_app: Flask) -> None:
    site.page("/b", title="Chains")
    response = preview_app.test_client().get("/_marmeon/preview?path=/b")
    assert response.status_code == 200
    page = html.document_fromstring(response.data)
    assert text(page, "title") == "Chains"
    cards = page.xpath("//div[@data-platform]")
    assert [(c.get("data-platform"), c.get("data-size")) for c in cards] == [
        ("Facebook / LinkedIn", "large"),
        ("Facebook / LinkedIn", "small"),
        ("X", "large"),
        ("X", "small"),
        ("Slack", "large"),
        ("Slack", "small"),
    ]
    # The real image, read through the app, in every card.
    sources = [c.find(".//img").get("src") for c in cards]
    assert all(src.startswith("data:image/png;base64,") for src in sources)
    codes = [li.get("data-code") for li in page.xpath("//aside//li[@data-code]")]
    # Across-page checks (the repeated description) are the audit's, not here.
    assert codes == ["title-too-short"]


def test_a_page_without_findings_says_so(preview_app: Flask) -> None:
    page = html.document_fromstring(
        preview_app.test_client().get("/_marmeon/preview?path=/a").data
    )
    assert page.xpath("//aside/p[@class='none']")[0].text == "No finding."
    assert text(page, "title") == TITLE_A


def test_a_site_that_must_not_be_indexed_is_said_once(site: Site) -> None:
    # MARMEON_INDEXABLE=0 make run: the preview reports as the audit does.
    app = site.app()
    app.config["MARMEON_INDEXABLE"] = False
    Marmeon(app)
    app.debug = True
    client = app.test_client()
    index = html.document_fromstring(client.get("/_marmeon/preview").data)
    assert [c.text for c in index.xpath("//main/ul/li/code")] == ["site-not-indexable"]
    page = html.document_fromstring(client.get("/_marmeon/preview?path=/a").data)
    assert page.xpath("//aside/p[@class='none']")[0].text == "No finding."


def test_search_results_are_cut_at_a_word() -> None:
    assert cut("short", 60) == "short"
    text = "word " * 20
    assert cut(text, 60) == ("word " * 12).strip() + " …"
    assert len(cut("x" * 200, 160)) == 162


def test_without_app_url_the_preview_says_what_to_set() -> None:
    app = Flask(__name__)
    app.debug = True
    Marmeon(app)
    response = app.test_client().get("/_marmeon/preview")
    assert response.status_code == 200
    assert "APP_URL" in html.document_fromstring(response.data).text_content()


def test_a_page_shows_its_links_in_and_out(preview_app: Flask, site: Site) -> None:
    # Issue 31: the home page links /a, /b and a page that is gone; /a is
    # linked by the home page only.
    site.nav.append("/gone")
    client = preview_app.test_client()
    home = html.document_fromstring(client.get("/_marmeon/preview?path=/").data)
    out = [
        (li.find("a").text, li.findtext("span"))
        for li in home.xpath("//section[@class='links-out']//li")
    ]
    assert out == [
        (f"{ORIGIN}/a", "200"),
        (f"{ORIGIN}/b", "200"),
        (f"{ORIGIN}/gone", "404"),
    ]
    codes = [li.get("data-code") for li in home.xpath("//li[@data-code]")]
    assert "link-broken" in codes
    page = html.document_fromstring(client.get("/_marmeon/preview?path=/a").data)
    linked = [
        (a.get("href"), a.text) for a in page.xpath("//section[@class='links-in']//a")
    ]
    assert linked == [("?path=/", f"{ORIGIN}/")]
    assert not page.xpath("//section[@class='links-out']//a")


def test_an_orphan_says_no_page_links_it(preview_app: Flask, site: Site) -> None:
    site.nav = ["/a"]
    client = preview_app.test_client()
    page = html.document_fromstring(client.get("/_marmeon/preview?path=/b").data)
    (none,) = page.xpath("//section[@class='links-in']//li")
    assert "page-orphan" in none.text_content()
