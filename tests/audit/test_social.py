"""Cards, Open Graph, JSON-LD and the files a page loads."""

from __future__ import annotations

import pytest

from .conftest import DESCRIPTION_B, ORIGIN, TITLE_B, Site, codes, document

B = f"{ORIGIN}/b"


def page_b(site: Site, head: str) -> None:
    """/b with ``head`` alone (title and description kept clean)."""
    site.put(
        "/b",
        document(
            f"<title>{TITLE_B}</title>"
            f'<meta name="description" content="{DESCRIPTION_B}">'
            f'<link rel="canonical" href="{B}">{head}'
        ),
    )


def test_a_page_with_no_open_graph_and_no_card_is_fine(site: Site) -> None:
    page_b(site, "")
    assert site.audit().findings == ()


def test_summary_large_image_without_an_image_is_a_warning(site: Site) -> None:
    page_b(site, '<meta name="twitter:card" content="summary_large_image">')
    assert codes(site.audit()) == [("card-no-image", B)]


@pytest.mark.parametrize("key", ["og:locale", "og:locale:alternate"])
def test_og_locale_that_is_not_language_territory_is_a_warning(
    site: Site, key: str
) -> None:
    page_b(
        site,
        f'<meta property="og:url" content="{B}"><meta property="{key}" content="de">',
    )
    report = site.audit()
    assert codes(report) == [("og-locale-format", B)]
    assert "'de'" in report.findings[0].message


def test_json_ld_that_does_not_parse_is_an_error(site: Site) -> None:
    page_b(site, '<script type="application/ld+json">{"@type": "Article",}</script>')
    assert codes(site.audit()) == [("jsonld-invalid", B)]


@pytest.mark.parametrize(
    "block",
    [
        '{"@context": "https://schema.org", "headline": "x"}',
        '{"@graph": [{"@type": "Thing"}, {"name": "x"}]}',
        '[{"@type": "Thing"}, "text"]',
    ],
)
def test_a_json_ld_node_without_type_is_an_error(site: Site, block: str) -> None:
    page_b(site, f'<script type="application/ld+json">{block}</script>')
    assert codes(site.audit()) == [("jsonld-no-type", B)]


def test_a_script_that_robots_txt_blocks_is_a_warning(site: Site) -> None:
    script = f"{ORIGIN}/private/app.js"
    for path in ("/a", "/b"):
        status, mimetype, body, headers = site.files[path]
        assert isinstance(body, str)
        site.put(
            path,
            body.replace("</body>", '<script src="/private/app.js"></script></body>'),
        )
    report = site.audit()
    # One finding for the file, naming the pages that load it.
    (finding,) = report.findings
    assert (finding.code, finding.url) == ("resource-disallowed", script)
    assert "1 other pages" in finding.message or "and 1 other" in finding.message


def test_a_stylesheet_that_robots_txt_blocks_is_a_warning(site: Site) -> None:
    page_b(site, '<link rel="stylesheet" href="/private/site.css">')
    assert codes(site.audit()) == [
        ("resource-disallowed", f"{ORIGIN}/private/site.css")
    ]


def test_a_script_on_another_origin_is_not_judged(site: Site) -> None:
    page_b(site, '<script src="https://cdn.example/private/app.js"></script>')
    assert site.audit().findings == ()
