"""Link-preview images: absolute, answering with an image, of the right size."""

from __future__ import annotations

from .conftest import DESCRIPTION_B, ORIGIN, TITLE_B, Site, codes, document, png

B = f"{ORIGIN}/b"
COVER = f"{ORIGIN}/cover.png"


def test_an_image_is_fetched_once_for_all_pages(site: Site) -> None:
    site.audit()
    assert site.hits.count("/cover.png") == 1


def test_a_relative_og_image_is_an_error(site: Site) -> None:
    site.page(
        "/b",
        title=TITLE_B,
        description=DESCRIPTION_B,
        image=None,
        extra='<meta property="og:image" content="/cover.png">',
    )
    assert codes(site.audit()) == [("image-not-absolute", B)]


def test_an_image_that_is_not_found_is_an_error(site: Site) -> None:
    del site.files["/cover.png"]
    report = site.audit()
    # One finding for the image, naming the pages that use it.
    (finding,) = report.findings
    assert (finding.code, finding.url) == ("image-status", COVER)
    assert "404" in finding.message and f"{ORIGIN}/a" in finding.message


def test_an_image_address_that_answers_html_is_an_error(site: Site) -> None:
    site.put("/cover.png", "<html></html>")
    assert codes(site.audit()) == [("image-status", COVER)]


def test_bytes_that_are_no_image_are_an_error(site: Site) -> None:
    site.put("/cover.png", b"not a png", type="image/png")
    assert codes(site.audit()) == [("image-status", COVER)]


def test_declared_sizes_that_differ_from_the_image_are_an_error(site: Site) -> None:
    site.put("/cover.png", png(1000, 630), type="image/png")
    (finding,) = site.audit().findings
    assert (finding.code, finding.url) == ("image-size-mismatch", COVER)
    assert "1200x630" in finding.message and "1000x630" in finding.message


def test_an_image_under_its_cards_minimum_is_a_warning(site: Site) -> None:
    site.put("/small.png", png(280, 150), type="image/png")
    site.put(
        "/b",
        document(
            f"<title>{TITLE_B}</title>"
            f'<meta name="description" content="{DESCRIPTION_B}">'
            f'<link rel="canonical" href="{B}">'
            '<meta name="twitter:card" content="summary_large_image">'
            f'<meta name="twitter:image" content="{ORIGIN}/small.png">'
        ),
    )
    report = site.audit()
    assert codes(report) == [("image-too-small", f"{ORIGIN}/small.png")]
    assert "300x157" in report.findings[0].message


def test_an_og_image_under_facebooks_minimum_is_a_warning(site: Site) -> None:
    site.put("/tiny.png", png(150, 150), type="image/png")
    site.page(
        "/b",
        title=TITLE_B,
        description=DESCRIPTION_B,
        image=None,
        extra=f'<meta property="og:image" content="{ORIGIN}/tiny.png">',
    )
    (finding,) = site.audit().findings
    assert (finding.code, finding.url) == ("image-too-small", f"{ORIGIN}/tiny.png")
    assert "200x200" in finding.message


def test_an_image_on_another_origin_is_neither_fetched_nor_judged(site: Site) -> None:
    site.page(
        "/b",
        title=TITLE_B,
        description=DESCRIPTION_B,
        image=None,
        extra='<meta property="og:image" content="https://cdn.example/c.png">'
        '<meta property="og:image:width" content="1">',
    )
    assert site.audit().findings == ()
