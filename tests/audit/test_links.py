"""Issue 31: the audit follows the site's links.

Each finding has a site that plants the mistake and its clean twin, which
differs only there and gets no such finding. The clean site (conftest.py)
is a home page linking the two listed pages.
"""

from __future__ import annotations

import pytest
from flask import Flask, Response, redirect, request

from flask_marmeon.audit import audit
from flask_marmeon.testing import assert_crawlable

from .conftest import DESCRIPTION_B, ORIGIN, TITLE_B, Site, codes, urlset

HOME, A, B = f"{ORIGIN}/", f"{ORIGIN}/a", f"{ORIGIN}/b"
TITLE_C = "Planting tomatoes on a balcony · Notes"
DESCRIPTION_C = "Which tomatoes grow in pots, how much sun they need, and when."


def only(site: Site, code: str) -> list[tuple[str, str]]:
    return [(c, url) for c, url in codes(site.audit()) if c == code]


def messages(site: Site, code: str) -> list[str]:
    return [f.message for f in site.audit().findings if f.code == code]


def test_the_clean_site_is_crawled_from_its_home_page(site: Site) -> None:
    report = site.audit()
    assert report.findings == ()
    assert site.hits.count("/") == 1 and site.hits.count("/a") == 1
    # The report names every page it fetched, listed first.
    assert report.urls == (A, B, HOME)


# link-broken


def test_a_link_to_a_missing_page_is_broken(site: Site) -> None:
    site.nav.append("/gone")
    assert only(site, "link-broken") == [("link-broken", HOME)]
    (message,) = messages(site, "link-broken")
    assert f"{ORIGIN}/gone" in message and "404" in message and "Fix" in message


def test_its_clean_twin_links_pages_that_answer(site: Site) -> None:
    site.nav.append("/a")  # twice, and to a page that answers
    assert only(site, "link-broken") == []


def test_a_link_to_a_view_that_raises_is_broken_and_the_audit_goes_on(
    site: Site,
) -> None:
    app = site.app()  # TESTING: Flask lets the exception out of the view
    site.nav.append("/raises")

    @app.before_request
    def broken() -> None:
        if request.path == "/raises":
            raise LookupError("no such note")

    report = audit(app)
    (item,) = [f for f in report.findings if f.code == "link-broken"]
    assert item.url == HOME
    assert "answers 500 (the view raised LookupError: no such note)" in item.message
    assert "/a" in site.hits and "/b" in site.hits  # the audit went on


def test_a_link_to_a_redirect_loop_is_broken_and_each_address_a_chain(
    site: Site,
) -> None:
    site.nav.append("/r1")
    site.put("/r1", "", status=302, headers={"Location": "/r2"})
    site.put("/r2", "", status=302, headers={"Location": f"{ORIGIN}/r1"})
    report = site.audit()
    found = codes(report)
    assert ("link-broken", HOME) in found
    assert ("redirect-chain", f"{ORIGIN}/r1") in found
    assert ("redirect-chain", f"{ORIGIN}/r2") in found
    assert site.hits.count("/r1") == 1 and site.hits.count("/r2") == 1
    (broken,) = [f for f in report.findings if f.code == "link-broken"]
    assert "loop" in broken.message


# link-redirect


def test_a_link_to_an_address_that_redirects_names_where_to_link(site: Site) -> None:
    site.nav[1] = "/old-b"
    site.put("/old-b", "", status=301, headers={"Location": "/b"})
    assert only(site, "link-redirect") == [("link-redirect", HOME)]
    (message,) = messages(site, "link-redirect")
    assert f"{ORIGIN}/old-b" in message and f"link to {B} instead" in message


def test_its_clean_twin_links_the_address_itself(site: Site) -> None:
    site.put("/old-b", "", status=301, headers={"Location": "/b"})  # unlinked
    assert only(site, "link-redirect") == []
    assert "/old-b" not in site.hits


def test_a_link_to_the_x_default_address_is_no_finding(site: Site) -> None:
    # /about redirects by language; the pages name it as x-default.
    alternates = (
        f'<link rel="alternate" hreflang="en" href="{ORIGIN}/en/about">'
        f'<link rel="alternate" hreflang="x-default" href="{ORIGIN}/about">'
    )
    site.put(
        "/sitemap.xml",
        urlset(
            extra=f"<url><loc>{ORIGIN}/en/about</loc>"
            f'<xhtml:link rel="alternate" hreflang="en" href="{ORIGIN}/en/about"/>'
            f'<xhtml:link rel="alternate" hreflang="x-default" href="{ORIGIN}/about"/>'
            "</url>"
        ),
        type="application/xml",
    )
    site.page("/en/about", image=None, extra=alternates)
    site.put("/about", "", status=302, headers={"Location": "/en/about"})
    site.nav = ["/about"]
    assert site.audit().findings == ()
    assert "/about" in site.hits  # followed, as a crawler does


# redirect-chain


def test_two_redirects_before_an_answer_are_a_chain(site: Site) -> None:
    site.nav[1] = "/older"
    site.put("/older", "", status=301, headers={"Location": "/old"})
    site.put("/old", "", status=301, headers={"Location": "/b"})
    assert only(site, "redirect-chain") == [("redirect-chain", f"{ORIGIN}/older")]
    (message,) = messages(site, "redirect-chain")
    assert "2 times" in message and f"straight to {B}" in message
    # The page that links it: link to the end instead.
    assert f"link to {B} instead" in messages(site, "link-redirect")[0]


def test_its_clean_twin_redirects_once(site: Site) -> None:
    site.nav[1] = "/old"
    site.put("/old", "", status=301, headers={"Location": "/b"})
    assert only(site, "redirect-chain") == []


# page-orphan


def orphan_site(site: Site) -> None:
    site.put("/sitemap.xml", urlset(A, B, f"{ORIGIN}/c"), type="application/xml")
    site.page("/c", title=TITLE_C, description=DESCRIPTION_C)


def test_a_listed_page_that_nothing_links_is_an_orphan(site: Site) -> None:
    orphan_site(site)
    assert only(site, "page-orphan") == [("page-orphan", f"{ORIGIN}/c")]
    (message,) = messages(site, "page-orphan")
    assert "Link it from a page" in message


def test_its_clean_twin_links_it(site: Site) -> None:
    orphan_site(site)
    site.nav.append("/c")
    assert site.audit().findings == ()


def test_a_page_that_only_links_itself_is_still_an_orphan(site: Site) -> None:
    orphan_site(site)
    site.page("/c", title=TITLE_C, description=DESCRIPTION_C)
    status, kind, body, headers = site.files["/c"]
    assert isinstance(body, str)
    site.put("/c", body.replace("</body>", '<a href="/c#top">Top</a></body>'))
    assert only(site, "page-orphan") == [("page-orphan", f"{ORIGIN}/c")]


def test_no_orphan_is_said_when_the_cap_left_pages_out(site: Site) -> None:
    orphan_site(site)
    site.nav += [f"/more/{n}" for n in range(5)]
    report = site.audit(max_pages=4)
    assert "audit-capped" in [code for code, _ in codes(report)]
    assert ("page-orphan", f"{ORIGIN}/c") not in codes(report)


# page-not-listed


def unlisted_site(site: Site, extra: str = "", canonical: str = "") -> None:
    site.nav.append("/c")
    site.page(
        "/c", title=TITLE_C, description=DESCRIPTION_C, extra=extra, canonical=canonical
    )


def test_an_indexable_page_reached_by_links_but_not_listed(site: Site) -> None:
    unlisted_site(site)
    assert only(site, "page-not-listed") == [("page-not-listed", f"{ORIGIN}/c")]
    (message,) = messages(site, "page-not-listed")
    assert f"{HOME} links to it" in message and "sitemap=" in message


@pytest.mark.parametrize(
    "twin",
    [
        {"extra": '<meta name="robots" content="noindex, follow">'},
        {"canonical": A},  # a version of /a: not a page of its own
        {"canonical": None},  # no canonical: the search engine picks
        {"listed": True},
    ],
)
def test_its_clean_twins_are_not_indexable_or_listed(
    site: Site, twin: dict[str, object]
) -> None:
    listed = twin.pop("listed", False)
    unlisted_site(site, **twin)  # type: ignore[arg-type]
    if listed:
        site.put("/sitemap.xml", urlset(A, B, f"{ORIGIN}/c"), type="application/xml")
    assert only(site, "page-not-listed") == []


def test_no_page_is_said_unlisted_when_a_sitemap_could_not_be_read(
    site: Site,
) -> None:
    unlisted_site(site)
    site.put("/sitemap.xml", "", status=503)
    assert only(site, "page-not-listed") == []


# canonical-not-ok


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("/gone", "answers 404"),
        ("/moved", f"redirects to {A}"),
        ("/hidden", "says noindex"),
    ],
)
def test_a_canonical_naming_a_page_that_is_not_one(
    site: Site, target: str, said: str
) -> None:
    site.put("/moved", "", status=301, headers={"Location": "/a"})
    site.page("/hidden", extra='<meta name="robots" content="noindex">')
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B, canonical=target)
    assert only(site, "canonical-not-ok") == [("canonical-not-ok", B)]
    (message,) = messages(site, "canonical-not-ok")
    assert f"{ORIGIN}{target}" in message and said in message


def test_its_clean_twin_names_a_page_that_answers(site: Site) -> None:
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B, canonical=A)
    found = codes(site.audit())
    assert ("canonical-mismatch", B) in found  # as before: not the listed URL
    assert [c for c, _ in found if c == "canonical-not-ok"] == []


def test_a_noindex_page_naming_itself_is_no_canonical_finding(site: Site) -> None:
    # A search page says noindex and names itself: no mixed signal.
    site.nav.append("/search")
    site.page("/search", extra='<meta name="robots" content="noindex">')
    assert site.audit().findings == ()


# What is not followed


def test_links_that_a_crawler_does_not_follow_are_not_fetched(site: Site) -> None:
    site.config["APPLICATION_ROOT"] = "/"
    site.put(
        "/",
        "<!doctype html><title>Home</title>"
        '<a href="/a">A</a> <a href="/b#part">B</a> <a href="/a#top">A again</a>'
        '<a href="/secret" rel="nofollow">secret</a>'
        '<a href="/private/x">robots.txt disallows it</a>'
        '<a href="https://elsewhere.example/c">another host</a>'
        '<a href="//elsewhere.example/d">another host</a>'
        '<a href="mailto:notes@notes.example">mail</a>'
        '<a href="javascript:void(0)">script</a>'
        '<a href="ftp://notes.example/f">ftp</a>'
        '<a href="http://notes.example/g">another scheme: another origin</a>'
        '<a href="#top">a fragment of this page</a>',
    )
    report = site.audit()
    assert report.findings == ()
    assert sorted(set(site.hits)) == [
        "/",
        "/a",
        "/b",
        "/cover.png",
        "/robots.txt",
        "/sitemap.xml",
    ]
    assert site.hits.count("/a") == 1 and site.hits.count("/b") == 1


def test_links_outside_the_mount_path_are_not_followed() -> None:
    app = Flask("mounted")
    app.config.update(APP_URL=ORIGIN, APPLICATION_ROOT="/blog")
    fetched: list[str] = []
    page = '<!doctype html><title>Blog</title><a href="/shop/x">shop</a>'

    @app.route("/", defaults={"path": ""})
    @app.route("/<path:path>")
    def serve(path: str) -> str:
        fetched.append(request.full_path)
        return page

    audit(app)
    assert all(not path.startswith("/shop") for path in fetched)


# Bounds


def endless(kind: str) -> Flask:
    """A link loop of endless new addresses, a redirect to ever new
    addresses, or a home page with 100,000 links."""
    app = Flask("endless")
    app.config["APP_URL"] = ORIGIN
    requests: list[str] = []
    app.config["REQUESTS"] = requests

    @app.before_request
    def count() -> None:
        requests.append(request.path)

    @app.get("/robots.txt")
    def robots() -> Response:
        return Response(f"Sitemap: {ORIGIN}/sitemap.xml\n", mimetype="text/plain")

    @app.get("/sitemap.xml")
    def sitemap() -> Response:
        return Response(urlset(f"{ORIGIN}/"), mimetype="application/xml")

    @app.get("/")
    def home() -> str:
        if kind == "wide":
            return "<title>Wide</title>" + "".join(
                f'<a href="/p/{n}">{n}</a>' for n in range(100_000)
            )
        return '<title>Home</title><a href="/p/0">start</a>'

    @app.get("/p/<int:n>")
    def step(n: int) -> Response | str:
        if kind == "redirects":
            return redirect(f"/p/{n + 1}")
        return f'<title>Page {n}</title><a href="/p/{n + 1}">next</a>'

    return app


@pytest.mark.parametrize("kind", ["loop", "redirects", "wide"])
def test_endless_addresses_are_bounded_by_max_pages_and_reported(kind: str) -> None:
    app = endless(kind)
    report = audit(app, max_pages=50)
    pages = [p for p in app.config["REQUESTS"] if p.startswith(("/p/", "/"))]
    assert len(pages) <= 50 + 2  # the cap, robots.txt and the sitemap
    (capped,) = [f for f in report.findings if f.code == "audit-capped"]
    assert "max_pages" in capped.message
    assert len(capped.message) < 1000


def test_assert_crawlable_fails_on_a_broken_link(site: Site) -> None:
    site.nav.append("/gone")
    with pytest.raises(AssertionError, match="link-broken"):
        assert_crawlable(site.app())
    site.nav.pop()
    assert_crawlable(site.app(), warnings=True)


def test_a_long_link_is_quoted_at_most_100_characters(site: Site) -> None:
    long_path = "/gone/" + "x" * 20_000
    site.nav.append(long_path)
    (message,) = messages(site, "link-broken")
    assert "x" * 101 not in message
    assert "20,0" in message  # its length is said
