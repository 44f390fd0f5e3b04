"""Request state belongs to one request, even where requests share ``g``.

A request pushed while an app context of the same app is active (a test
fixture's ``with app.app_context():``) shares that context's ``g`` with the
other requests pushed under it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from flask import Blueprint, Flask

from flask_marmeon import head, localized, render_head
from flask_marmeon._context import peek_request_state, request_state
from tests.documents import parse_head


def document() -> str:
    return f"<!doctype html><html><head>{render_head()}</head><body></body></html>"


def titles(el: ET.Element) -> list[str | None]:
    return [title.text for title in el.iter("title")]


def test_one_requests_head_never_reaches_the_next_sharing_its_app_context(
    app: Flask,
) -> None:
    @app.get("/a")
    def a() -> str:
        head(title="A", json_ld={"@type": "Thing", "name": "a"})
        return document()

    @app.get("/b")
    def b() -> str:
        head(description="Only b")
        return document()

    with app.app_context():
        client = app.test_client()
        assert titles(parse_head(client.get("/a").text)) == ["A"]
        el = parse_head(client.get("/b").text)
    assert titles(el) == []
    assert el.find("script[@type='application/ld+json']") is None
    description = [
        m.get("content") for m in el.iter("meta") if m.get("name") == "description"
    ]
    assert description == ["Only b"]


def test_a_localized_requests_page_never_reaches_the_next(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
    bp = Blueprint("docs", __name__)
    localized(bp)

    @bp.get("/about")
    def about() -> str:
        return document()

    app.register_blueprint(bp)

    @app.get("/plain")
    def plain() -> str:
        head(title="Plain")
        return document()

    with app.app_context():
        client = app.test_client()
        first = parse_head(client.get("/de/about").text)
        second = parse_head(client.get("/plain").text)
    assert [link.get("rel") for link in first.iter("link")].count("alternate") == 3
    assert [link.get("rel") for link in second.iter("link")] == []


def test_state_is_made_for_the_request_being_handled(app: Flask) -> None:
    with app.app_context():
        with app.test_request_context("/a"):
            request_state("head()").fragments.append("kept")  # type: ignore[arg-type]
            assert peek_request_state() is request_state("head()")
        with app.test_request_context("/b"):
            assert peek_request_state() is None
            assert request_state("head()").fragments == []


def test_outside_a_request_the_state_is_refused_by_name(app: Flask) -> None:
    assert peek_request_state() is None
    with app.app_context(), pytest.raises(RuntimeError, match="head\\(\\) works"):
        request_state("head()")
