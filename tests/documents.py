"""Reading what the extension writes in the tests: a whole page, as a
browser does (html5lib), and the schemas its sitemaps must pass.

Imported as ``tests.documents`` (the project root is on pytest's path).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import html5lib
from lxml import etree

import flask_marmeon.audit

#: The XSDs the audit ships (sitemaps.org 0.9, xhtml:link, Google's images).
SCHEMAS = Path(flask_marmeon.audit.__file__).parent / "schemas"
_XSD = "{http://www.w3.org/2001/XMLSchema}"


def parse_head(html: str) -> ET.Element:
    """The ``<head>`` of a whole page, which must parse without an error."""
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree", ET), namespaceHTMLElements=False
    )
    root = parser.parse(html)
    assert parser.errors == [], parser.errors
    element = root.find("head")
    assert element is not None
    return element


def strict_schema(name: str) -> etree.XMLSchema:
    """The audit's schema ``name`` (``sitemap.xsd``, ``siteindex.xsd``), made
    as strict as a test of the extension's own files may be.

    The audit reads any site's sitemaps, so its schemas accept elements of
    other namespaces unchecked (``processContents="lax"``) and any number of
    entries (it counts them itself). The extension writes only xhtml:link
    and image:image, each validated here, and at most 50,000 entries a file,
    the protocol's limit.
    """
    document = etree.parse(str(SCHEMAS / name))
    for wildcard in document.iter(f"{_XSD}any"):
        wildcard.set("processContents", "strict")
    for element in document.iter(f"{_XSD}element"):
        if element.get("maxOccurs") == "unbounded":
            element.set("maxOccurs", "50000")
    return etree.XMLSchema(document)


SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def locs(xml: etree._Element | bytes) -> list[str]:
    """The sitemap's <loc> texts in file order (of a parsed root or of a
    file's bytes)."""
    root = etree.fromstring(xml) if isinstance(xml, bytes) else xml
    return [loc.text or "" for loc in root.iter(f"{SITEMAP}loc")]


def sitemap_files(get: Callable[[str], bytes], origin: str) -> list[etree._Element]:
    """The ``<urlset>`` roots of the sitemap, each read with ``get`` (an
    absolute URL -> the body): /sitemap.xml itself, or every file its index
    names (the notes are in parts of their own)."""
    root = etree.fromstring(get(f"{origin}/sitemap.xml"))
    if root.tag != f"{SITEMAP}sitemapindex":
        return [root]
    return [etree.fromstring(get(loc.text or "")) for loc in root.iter(f"{SITEMAP}loc")]
