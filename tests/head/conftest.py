"""Helpers for the head's tests: call head() in a request, parse what comes out."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from typing import Any

import html5lib
import pytest
from flask import Flask, render_template
from jinja2 import DictLoader

from flask_marmeon import head, render_head
from flask_marmeon._context import request_state
from flask_marmeon.page import Page

from .template_site import TEMPLATES


def parse_head(html: str) -> ET.Element:
    """Parse a head's HTML in a document, refusing any HTML parse error."""
    document = f"<!DOCTYPE html><html><head>{html}</head><body></body></html>"
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False
    )
    root = parser.parse(document)
    assert parser.errors == [], parser.errors
    found = root.find("head")
    assert found is not None
    # Nothing of the head may have ended up in the body.
    body = root.find("body")
    assert body is not None and len(body) == 0 and not (body.text or "").strip()
    return found


def managed(head_el: ET.Element) -> list[ET.Element]:
    """The elements that carry data-marmeon, in document order."""
    return [el for el in head_el if "data-marmeon" in el.attrib]


def metas(head_el: ET.Element) -> list[tuple[str, str]]:
    """(name or property, content) of every meta, in order."""
    out = []
    for el in head_el.iter("meta"):
        key = el.get("property") or el.get("name")
        if key and key != "marmeon:app-url":
            out.append((key, el.get("content", "")))
    return out


def meta(head_el: ET.Element, key: str) -> list[str]:
    """The contents of the metas named ``key``."""
    return [content for name, content in metas(head_el) if name == key]


def links(head_el: ET.Element, rel: str) -> list[dict[str, str]]:
    return [dict(el.attrib) for el in head_el.iter("link") if el.get("rel") == rel]


def title(head_el: ET.Element) -> str | None:
    found = head_el.findall("title")
    assert len(found) <= 1
    return found[0].text or "" if found else None


RenderFn = Callable[..., ET.Element]


@pytest.fixture
def render_calls() -> Callable[..., str]:
    """``render_calls(app, call, call, ..., page=None)`` -> render_head()'s HTML.

    Each call is a dict of head() arguments, made in order inside one request.
    """

    def run(
        app: Flask,
        *calls: Mapping[str, Any],
        page: Page | None = None,
        path: str = "/",
        **environ: Any,
    ) -> str:
        with app.test_request_context(path, **environ):
            if page is not None:
                request_state("test").page = page
            for call in calls:
                head(**call)
            return str(render_head())

    return run


@pytest.fixture
def head_of(render_calls: Callable[..., str]) -> RenderFn:
    """Like ``render_calls`` but parsed: the <head> element."""

    def run(app: Flask, *calls: Mapping[str, Any], **kwargs: Any) -> ET.Element:
        return parse_head(render_calls(app, *calls, **kwargs))

    return run


@pytest.fixture
def site(make_app: Callable[..., Flask]) -> Callable[..., Flask]:
    """An app with the templates of template_site.py, a layout and one view
    per template."""

    def make(**config: Any) -> Flask:
        app = make_app(APP_URL="https://notes.example", **config)
        app.jinja_loader = DictLoader(TEMPLATES)

        @app.before_request
        def layout() -> None:
            head(title_template="%s · Notes", twitter={"site": "@notes"})

        @app.get("/t/<name>")
        def page(name: str) -> str:
            return render_template(f"{name}.html")

        return app

    return make
