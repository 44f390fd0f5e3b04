"""Reading the localized sitemap in the i18n tests: its URLs with their
language versions, and the page each localized route renders."""

from __future__ import annotations

from flask import Flask
from lxml import etree

from flask_marmeon import head, render_head

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def page(title: str) -> str:
    head(title=title)
    return f"<!doctype html><html><head>{render_head()}</head><body></body></html>"


def read_sitemap(app: Flask) -> etree._Element:
    response = app.test_client().get("/sitemap.xml")
    assert response.status_code == 200
    return etree.fromstring(response.data)


def urls(root: etree._Element) -> dict[str, dict[str, str]]:
    """loc -> {hreflang: href} for every <url>."""
    found: dict[str, dict[str, str]] = {}
    for url in root.iter(f"{SM}url"):
        loc = url.findtext(f"{SM}loc")
        assert loc is not None and loc not in found
        links = url.findall(f"{XHTML}link")
        assert all(link.get("rel") == "alternate" for link in links)
        found[loc] = {link.get("hreflang"): link.get("href") for link in links}  # type: ignore[misc]
    return found
