"""The example app proves itself: its own audit finds nothing to fix."""

from __future__ import annotations

import pytest
from flask import Flask

from flask_marmeon.testing import assert_crawlable

#: Warnings that other branches fix, in the extension rather than the example:
#: og:locale "en" -> "en_US" (team head-server, CLDR likely subtags) and the
#: browser module under /_marmeon/, which robots.txt disallows (team browser
#: moves it to {root}/marmeon.<hash>.js). The example does not work around them.
FIXED_ELSEWHERE = {"og-locale-format", "resource-disallowed"}


@pytest.mark.xfail(
    strict=True,
    reason="until the og:locale (head-server) and module address (browser)"
    " branches are merged: then remove this mark",
)
def test_the_example_passes_its_own_audit_with_warnings(site: Flask) -> None:
    assert_crawlable(site, warnings=True)


def test_the_example_has_no_error_and_no_warning_of_its_own(site: Flask) -> None:
    report = assert_crawlable(site)
    assert report.pages == 53
    assert {f.code for f in report.warnings} <= FIXED_ELSEWHERE


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
