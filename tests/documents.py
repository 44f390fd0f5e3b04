"""Parsing a whole page in the tests, as a browser does (html5lib).

Imported as ``tests.documents`` (the project root is on pytest's path).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import html5lib


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
