"""The listed pages: answers, robots, canonical, noindex, titles, descriptions."""

from __future__ import annotations

import pytest

from flask_marmeon.audit import audit

from .conftest import DESCRIPTION_B, ORIGIN, TITLE_A, TITLE_B, Site, codes

A, B = f"{ORIGIN}/a", f"{ORIGIN}/b"


def test_a_listed_page_that_is_not_found_is_an_error(site: Site) -> None:
    del site.files["/b"]
    broken, finding = site.audit().findings
    assert (finding.code, finding.url) == ("page-status", B)
    assert "404" in finding.message
    # The home page links it.
    assert (broken.code, broken.url) == ("link-broken", f"{ORIGIN}/")


def test_a_listed_page_that_redirects_is_an_error(site: Site) -> None:
    site.put("/b", "", status=301, headers={"Location": f"{ORIGIN}/c"})
    broken, finding = site.audit().findings
    assert (finding.code, finding.url) == ("page-redirect", B)
    assert f"{ORIGIN}/c" in finding.message
    # The home page links /b, which redirects to /c, which is not found.
    assert (broken.code, broken.url) == ("link-broken", f"{ORIGIN}/")


def test_a_listed_page_that_robots_txt_disallows_is_an_error(site: Site) -> None:
    site.put(
        "/robots.txt",
        f"User-agent: *\nDisallow: /b\n\nSitemap: {ORIGIN}/sitemap.xml\n",
        type="text/plain",
    )
    assert codes(site.audit()) == [("page-disallowed", B)]


def test_robots_txt_is_read_as_google_reads_it(site: Site) -> None:
    # The most specific group wins: Googlebot may read /b, others may not.
    site.put(
        "/robots.txt",
        "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n\n"
        f"Sitemap: {ORIGIN}/sitemap.xml\n",
        type="text/plain",
    )
    assert site.audit().findings == ()


def test_a_canonical_naming_another_url_is_an_error(site: Site) -> None:
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B, canonical=f"{A}?x=1")
    (finding,) = site.audit().findings
    assert (finding.code, finding.url) == ("canonical-mismatch", B)
    assert f"{A}?x=1" in finding.message


def test_a_relative_canonical_is_resolved_against_the_page(site: Site) -> None:
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B, canonical="/b")
    assert site.audit().findings == ()


def test_two_canonicals_are_an_error(site: Site) -> None:
    site.page(
        "/b",
        title=TITLE_B,
        description=DESCRIPTION_B,
        extra=f'<link rel="canonical" href="{B}">',
    )
    assert codes(site.audit()) == [("canonical-multiple", B)]


def test_no_canonical_is_a_warning(site: Site) -> None:
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B, canonical=None)
    report = site.audit()
    assert codes(report) == [("canonical-missing", B)]
    assert report.errors == ()


@pytest.mark.parametrize(
    "extra",
    [
        '<meta name="robots" content="noindex, follow">',
        '<meta name="googlebot" content="none">',
    ],
)
def test_a_noindex_meta_on_a_listed_page_is_an_error(site: Site, extra: str) -> None:
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B, extra=extra)
    assert codes(site.audit()) == [("page-noindex", B)]


@pytest.mark.parametrize("header", ["noindex", "googlebot: noindex, nofollow"])
def test_a_noindex_header_on_a_listed_page_is_an_error(site: Site, header: str) -> None:
    status, mimetype, body, _ = site.files["/b"]
    site.put("/b", body, headers={"X-Robots-Tag": header})
    assert codes(site.audit()) == [("page-noindex", B)]


def test_a_header_for_another_crawler_is_no_finding(site: Site) -> None:
    status, mimetype, body, _ = site.files["/b"]
    site.put("/b", body, headers={"X-Robots-Tag": "otherbot: noindex"})
    assert site.audit().findings == ()


@pytest.mark.parametrize(
    ("title", "code"),
    [
        (None, "title-missing"),
        ("", "title-missing"),
        ("x" * 61, "title-too-long"),
        ("Chains", "title-too-short"),
    ],
)
def test_titles(site: Site, title: str | None, code: str) -> None:
    site.page("/b", title=title, description=DESCRIPTION_B)
    report = site.audit()
    assert codes(report) == [(code, B)]
    assert report.errors == ()


def test_a_title_of_60_characters_is_fine(site: Site) -> None:
    site.page("/b", title="x" * 60, description=DESCRIPTION_B)
    assert site.audit().findings == ()


@pytest.mark.parametrize(
    ("description", "code"),
    [
        (None, "description-missing"),
        ("", "description-missing"),
        ("x" * 161, "description-too-long"),
        ("How to fix a chain.", "description-too-short"),
    ],
)
def test_descriptions(site: Site, description: str | None, code: str) -> None:
    site.page("/b", title=TITLE_B, description=description)
    assert codes(site.audit()) == [(code, B)]


def test_the_same_title_on_two_pages_is_a_warning_on_each(site: Site) -> None:
    site.page("/b", title=TITLE_A, description=DESCRIPTION_B)
    report = site.audit()
    assert codes(report) == [("title-duplicate", A), ("title-duplicate", B)]
    assert B in report.findings[0].message


def test_the_same_description_on_two_pages_is_a_warning_on_each(site: Site) -> None:
    site.page("/b", title=TITLE_B)
    assert codes(site.audit()) == [
        ("description-duplicate", A),
        ("description-duplicate", B),
    ]


def test_a_listed_file_that_is_not_html_is_only_checked_for_its_answer(
    site: Site,
) -> None:
    site.put("/b", b"%PDF-1.4", type="application/pdf")
    assert site.audit().findings == ()


@pytest.mark.parametrize("body", ["", "   ", "<!-- nothing -->"])
def test_an_empty_page_has_no_title_and_no_description(site: Site, body: str) -> None:
    site.put("/b", body)
    assert [code for code, _ in codes(site.audit())] == [
        "canonical-missing",
        "description-missing",
        "title-missing",
    ]


def test_a_view_that_raises_is_a_500_and_the_audit_goes_on(site: Site) -> None:
    app = site.app()  # TESTING: Flask lets the exception out of the view

    @app.before_request
    def broken() -> None:
        from flask import request

        if request.path == "/a":
            raise ZeroDivisionError("division by zero")

    report = audit(app)
    link, finding = report.findings
    assert (link.code, link.url) == ("link-broken", f"{ORIGIN}/")
    assert (finding.code, finding.url) == ("page-status", A)
    assert "500 (the view raised ZeroDivisionError: division by zero)" in (
        finding.message
    )


NO_URL = "https://[::1/"


@pytest.mark.parametrize(
    "extra",
    [
        f'<link rel="canonical" href="{NO_URL}">',
        f'<link rel="alternate" hreflang="de" href="{NO_URL}">',
        f'<link rel="stylesheet" href="{NO_URL}">',
        f'<script src="{NO_URL}"></script>',
        f'<meta property="og:image" content="{NO_URL}">',
        f'<meta name="twitter:image" content="{NO_URL}">',
    ],
)
def test_an_address_in_the_head_that_is_no_url_is_a_finding_not_a_crash(
    site: Site, extra: str
) -> None:
    # urljoin and urlsplit raise ValueError for an unclosed "[": the page is
    # still judged, and so is the other page.
    site.page("/b", title=TITLE_B, description=DESCRIPTION_B, extra=extra)
    report = site.audit()
    assert report.pages == 2
    assert all(f.url in (A, B, NO_URL) for f in report.findings)
