"""robots.txt and the sitemaps: each mistake, and the clean site."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from .conftest import ORIGIN, Site, codes, urlset

ROBOTS = f"{ORIGIN}/robots.txt"
SITEMAP = f"{ORIGIN}/sitemap.xml"
#: Every file of the clean site: robots, sitemap, pages, the cover, and the
#: home page, where the crawl starts.
EVERY_FILE = {"/robots.txt", "/sitemap.xml", "/a", "/b", "/cover.png", "/"}


def test_a_clean_site_has_no_finding(site: Site) -> None:
    report = site.audit()
    assert report.findings == ()
    assert report.pages == 2
    # Every file was read through the app.
    assert set(site.hits) == EVERY_FILE


def test_robots_txt_that_does_not_answer_is_an_error(site: Site) -> None:
    del site.files["/robots.txt"]
    # The usual sitemap address is still read, so the pages are audited.
    assert codes(site.audit()) == [("robots-missing", ROBOTS)]


def test_robots_txt_that_names_no_sitemap_is_an_error(site: Site) -> None:
    site.put("/robots.txt", "User-agent: *\nDisallow:\n", type="text/plain")
    assert codes(site.audit()) == [("robots-no-sitemap", ROBOTS)]


def test_a_sitemap_that_does_not_answer_is_an_error(site: Site) -> None:
    site.put("/sitemap.xml", "boom", status=500, type="text/plain")
    report = site.audit()
    assert codes(report) == [("sitemap-status", SITEMAP)]
    assert report.pages == 0


def test_a_sitemap_that_is_not_xml_is_invalid(site: Site) -> None:
    site.put("/sitemap.xml", "<urlset><url>", type="application/xml")
    (finding,) = site.audit().findings
    assert (finding.code, finding.url) == ("sitemap-invalid", SITEMAP)
    assert "well-formed" in finding.message


def test_a_sitemap_against_the_schema_is_invalid(site: Site) -> None:
    bad = urlset(f"{ORIGIN}/a", f"{ORIGIN}/b").replace(
        f"<loc>{ORIGIN}/b</loc>", f"<loc>{ORIGIN}/b</loc><lastmod>yesterday</lastmod>"
    )
    site.put("/sitemap.xml", bad, type="application/xml")
    (finding,) = site.audit().findings
    assert finding.code == "sitemap-invalid"
    assert "lastmod" in finding.message


def test_an_extension_element_is_validated_against_its_schema(site: Site) -> None:
    # An xhtml:link that is not an alternate, an image:image without its loc.
    for extra in (
        f'<xhtml:link rel="next" hreflang="de" href="{ORIGIN}/c"/>',
        '<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
        "<image:title>x</image:title></image:image>",
    ):
        body = urlset(f"{ORIGIN}/a", f"{ORIGIN}/b").replace(
            f"<loc>{ORIGIN}/b</loc>", f"<loc>{ORIGIN}/b</loc>{extra}"
        )
        site.put("/sitemap.xml", body, type="application/xml")
        assert [f.code for f in site.audit().findings] == ["sitemap-invalid"], extra


def test_a_valid_image_extension_is_no_finding(site: Site) -> None:
    body = urlset(f"{ORIGIN}/a", f"{ORIGIN}/b").replace(
        f"<loc>{ORIGIN}/b</loc>",
        f"<loc>{ORIGIN}/b</loc>"
        '<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
        f"<image:loc>{ORIGIN}/cover.png</image:loc></image:image>",
    )
    site.put("/sitemap.xml", body, type="application/xml")
    assert site.audit().findings == ()


def test_over_50000_urls_is_too_large(site: Site) -> None:
    # On another origin, so that the test fetches none of them.
    urls = [f"https://elsewhere.example/p{i}" for i in range(50_001)]
    site.put("/sitemap.xml", urlset(*urls), type="application/xml")
    report = site.audit(max_pages=60_000)
    assert codes(report) == [("sitemap-too-large", SITEMAP)]
    assert report.pages == 50_001
    # None of the listed URLs; the home page and the pages it links.
    assert site.hits == ["/robots.txt", "/sitemap.xml", "/", "/a", "/b"]
    # By default the audit stops listing at 10,000 URLs, and says so.
    report = site.audit()
    assert report.pages == 10_000
    assert [code for code, _ in codes(report)] == ["sitemap-too-large", "audit-capped"]


def test_over_50_mib_uncompressed_is_too_large(site: Site) -> None:
    # 51 MiB of blanks compress to a few dozen kilobytes: the audit stops
    # inflating at the limit.
    body = urlset(f"{ORIGIN}/a").replace("</urlset>", " " * (51 << 20) + "</urlset>")
    site.put("/sitemap.xml", gzip.compress(body.encode()), type="application/gzip")
    assert codes(site.audit()) == [("sitemap-too-large", SITEMAP)]


def test_a_gzip_sitemap_is_read(site: Site) -> None:
    body = urlset(f"{ORIGIN}/a", f"{ORIGIN}/b")
    site.put("/sitemap.xml", gzip.compress(body.encode()), type="application/gzip")
    report = site.audit()
    assert report.findings == () and report.pages == 2


def index(*locs: str) -> str:
    parts = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex'
        f' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{parts}</sitemapindex>'
    )


def test_every_part_of_an_index_is_read(site: Site) -> None:
    site.put(
        "/sitemap.xml",
        index(f"{ORIGIN}/sitemap-1.xml", f"{ORIGIN}/sitemap-2.xml"),
        type="application/xml",
    )
    site.put("/sitemap-1.xml", urlset(f"{ORIGIN}/a"), type="application/xml")
    site.put("/sitemap-2.xml", urlset(f"{ORIGIN}/b"), type="application/xml")
    report = site.audit()
    assert report.findings == () and report.pages == 2
    site.put("/sitemap-2.xml", "gone", status=404, type="text/plain")
    assert codes(site.audit()) == [("sitemap-status", f"{ORIGIN}/sitemap-2.xml")]


def test_an_index_inside_an_index_is_invalid(site: Site) -> None:
    site.put("/sitemap.xml", index(f"{ORIGIN}/inner.xml"), type="application/xml")
    site.put("/inner.xml", index(f"{ORIGIN}/sitemap-1.xml"), type="application/xml")
    assert codes(site.audit()) == [("sitemap-invalid", f"{ORIGIN}/inner.xml")]


def test_a_sitemap_on_another_origin_is_not_fetched(site: Site) -> None:
    site.put(
        "/robots.txt",
        "User-agent: *\nDisallow:\n\nSitemap: https://cdn.example/sitemap.xml\n",
        type="text/plain",
    )
    report = site.audit()
    assert report.findings == () and report.pages == 0
    # Not the sitemap; the home page and the pages it links.
    assert site.hits == ["/robots.txt", "/", "/a", "/b"]


def test_a_sitemap_that_starts_as_gzip_but_does_not_inflate_is_invalid(
    site: Site,
) -> None:
    # The two magic bytes, then garbage; then a stream cut short.
    packed = gzip.compress(urlset(f"{ORIGIN}/a").encode())
    for body in (b"\x1f\x8bnot gzip at all", packed[:30]):
        site.put("/sitemap.xml", body, type="application/gzip")
        (finding,) = site.audit().findings
        assert (finding.code, finding.url) == ("sitemap-invalid", SITEMAP)


def test_entities_in_a_sitemap_are_not_read(site: Site, tmp_path: Path) -> None:
    # An external entity (a file, an address) and an internal one: the audit
    # reads neither, reports the file and goes on to the pages it names.
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    body = urlset(f"{ORIGIN}/a&file;&net;&x;", f"{ORIGIN}/b").replace(
        "<urlset",
        f'<!DOCTYPE urlset [<!ENTITY file SYSTEM "file://{secret}">'
        '<!ENTITY net SYSTEM "http://127.0.0.1:9/x"><!ENTITY x "/x">]><urlset',
    )
    site.put("/sitemap.xml", body, type="application/xml")
    report = site.audit()
    assert codes(report) == [("sitemap-invalid", SITEMAP)]
    assert "SECRET" not in report.findings[0].message
    assert report.pages == 2
    assert set(site.hits) == EVERY_FILE


@pytest.mark.parametrize("bad", ["https://[::1/", "http://[notes.example]/a"])
def test_a_loc_or_a_sitemap_that_is_no_url_is_not_fetched(site: Site, bad: str) -> None:
    # urlsplit raises ValueError for these: the audit goes on.
    site.put("/sitemap.xml", urlset(bad, f"{ORIGIN}/a"), type="application/xml")
    report = site.audit()
    assert report.pages == 2
    site.put("/robots.txt", f"Sitemap: {bad}\n", type="text/plain")
    assert site.audit().pages == 0
