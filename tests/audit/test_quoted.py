"""Issue 28, L12: no message quotes more than 100 characters of any value
taken from a page or an answer: text, an address, a header, a Location."""

from __future__ import annotations

import pytest

from .conftest import DESCRIPTION_B, ORIGIN, TITLE_B, Site, document, head, urlset

LONG = "q" * 20_000


def planted(site: Site, where: str) -> None:
    """One value of 20,000 characters, in ``where``."""
    b = f"{ORIGIN}/b"
    if where == "canonical":
        site.page("/b", title=TITLE_B, description=DESCRIPTION_B, canonical=f"/{LONG}")
    elif where == "two canonicals":
        extra = f'<link rel="canonical" href="/{LONG}">'
        site.page("/b", title=TITLE_B, description=DESCRIPTION_B, extra=extra)
    elif where == "location":
        site.put("/b", "", status=301, headers={"Location": f"/{LONG}"})
    elif where == "robots meta":
        extra = f'<meta name="robots" content="noindex, {LONG}">'
        site.page("/b", title=TITLE_B, description=DESCRIPTION_B, extra=extra)
    elif where == "x-robots-tag":
        site.put(
            "/b",
            document(head(b, title=TITLE_B, description=DESCRIPTION_B)),
            headers={"X-Robots-Tag": f"noindex, {LONG}"},
        )
    elif where == "image":
        site.page("/b", title=TITLE_B, description=DESCRIPTION_B, image=f"x{LONG}")
        status, kind, body, headers = site.files["/b"]
        assert isinstance(body, str)
        site.put("/b", body.replace(f"{ORIGIN}x{LONG}", LONG))
    elif where == "image size":
        extra = f'<meta property="og:image:width" content="{LONG}">'
        site.page("/b", title=TITLE_B, description=DESCRIPTION_B)
        status, kind, body, headers = site.files["/b"]
        assert isinstance(body, str)
        site.put("/b", body.replace('content="1200"', f'content="{LONG}"'))
    elif where == "hreflang":
        extra = f'<link rel="alternate" hreflang="de" href="/{LONG}">'
        site.page("/b", title=TITLE_B, description=DESCRIPTION_B, extra=extra)
    elif where == "link":
        site.nav.append(f"/{LONG}")
    elif where == "redirected link":
        site.nav.append("/old")
        site.put("/old", "", status=301, headers={"Location": f"/{LONG}"})
    elif where == "sitemap root":
        site.put("/sitemap.xml", f"<{LONG}/>", type="application/xml")
    elif where == "listed url":
        site.put("/sitemap.xml", urlset(f"{ORIGIN}/a", f"{ORIGIN}/{LONG}"))


@pytest.mark.parametrize(
    "where",
    [
        "canonical",
        "two canonicals",
        "location",
        "robots meta",
        "x-robots-tag",
        "image",
        "image size",
        "hreflang",
        "link",
        "redirected link",
        "sitemap root",
        "listed url",
    ],
)
def test_no_message_quotes_more_than_100_characters(site: Site, where: str) -> None:
    planted(site, where)
    report = site.audit()
    assert report.findings, "the planted value makes a finding"
    for item in report.findings:
        assert "q" * 101 not in item.message, (item.code, len(item.message))
        assert len(item.message) < 1_000, item.code
