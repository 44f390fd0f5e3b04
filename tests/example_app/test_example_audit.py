"""The example app proves itself: its own audit finds nothing to fix."""

from __future__ import annotations

from flask import Flask

from flask_marmeon.testing import assert_crawlable


def test_the_example_passes_its_own_audit_with_no_error_and_no_warning(
    site: Flask,
) -> None:
    report = assert_crawlable(site, warnings=True)
    # Every listed URL, in every language its page exists in (one feature
    # page exists in English only).
    assert report.pages == 54
    assert report.findings == ()


def test_no_page_has_an_attribute_html_does_not_know(site: Flask) -> None:
    # htmx reads data-hx-*, which HTML allows; a bare hx-boost is an error
    # for the W3C checker (it found 108 of them in the bodies).
    from lxml import html

    client = site.test_client()
    for path in ("/", "/notes/1", "/en/about", "/de/features", "/search?q=a"):
        page = html.document_fromstring(client.get(path).data)
        names = {name for element in page.iter() for name in element.attrib}
        assert not {name for name in names if name.startswith("hx-")}, path
        assert "data-hx-boost" in names, path
