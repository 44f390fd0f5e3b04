"""Fixtures for the example app's tests: a fresh site per test, and a parser."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import html5lib
import pytest
from flask import Flask
from flask.testing import FlaskClient

from example_app import create_app


@pytest.fixture
def site(tmp_path: Path) -> Flask:
    """The example app on a database of its own, seeded as on a first run."""
    return create_app({"TESTING": True}, instance_path=tmp_path / "instance")


@pytest.fixture
def site_client(site: Flask) -> FlaskClient:
    return site.test_client()


@dataclass
class Document:
    """A page parsed by html5lib, with the lookups the tests need."""

    root: ET.Element

    @property
    def head(self) -> ET.Element:
        element = self.root.find("head")
        assert element is not None
        return element

    @property
    def body(self) -> ET.Element:
        element = self.root.find("body")
        assert element is not None
        return element

    def title(self) -> str | None:
        element = self.head.find("title")
        return None if element is None else (element.text or "")

    def meta(self, key: str) -> list[str]:
        """The content of every head meta whose property or name is ``key``."""
        return [
            element.get("content", "")
            for element in self.head.iter("meta")
            if key in (element.get("property"), element.get("name"))
        ]

    def one_meta(self, key: str) -> str:
        values = self.meta(key)
        assert len(values) == 1, (key, values)
        return values[0]

    def links(self, rel: str) -> list[ET.Element]:
        return [e for e in self.head.iter("link") if e.get("rel") == rel]

    def canonical(self) -> str:
        (link,) = self.links("canonical")
        return link.get("href", "")

    def hreflang(self) -> dict[str, str]:
        return {
            e.get("hreflang", ""): e.get("href", "")
            for e in self.links("alternate")
            if e.get("hreflang")
        }

    def json_ld(self) -> list[Any]:
        return [
            json.loads(e.text or "")
            for e in self.head.iter("script")
            if e.get("type") == "application/ld+json"
        ]


@pytest.fixture
def parse() -> Callable[[str], Document]:
    """Parse a whole page; fail on any HTML5 parse error."""

    def parse(text: str) -> Document:
        parser = html5lib.HTMLParser(
            tree=html5lib.getTreeBuilder("etree", ET), namespaceHTMLElements=False
        )
        root = parser.parse(text)
        assert parser.errors == [], parser.errors
        document = Document(root)
        # Head elements found in the body mean the head was cut short.
        for tag in ("title", "meta", "link"):
            assert document.body.find(f".//{tag}") is None, tag
        return document

    return parse
