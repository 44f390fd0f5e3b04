"""The head of real localized routes, from request to HTML."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from flask import Blueprint, Flask

from flask_marmeon import head, localized, render_head
from tests.documents import parse_head

LOCALES = ["en", "de-AT"]


def links(el: ET.Element, rel: str) -> list[tuple[str | None, str | None]]:
    return [
        (link.get("hreflang"), link.get("href"))
        for link in el.iter("link")
        if link.get("rel") == rel
    ]


def metas(el: ET.Element, prop: str) -> list[str | None]:
    return [m.get("content") for m in el.iter("meta") if m.get("property") == prop]


def document() -> str:
    return f"<!doctype html><html><head>{render_head()}</head><body></body></html>"


def site(
    make_app: Callable[..., Flask], *, use_localized: bool = True, **config: object
) -> Flask:
    app = make_app(**config)
    bp = Blueprint("docs", __name__)
    if use_localized:
        localized(bp)

    @bp.get("/about")
    def about() -> str:
        head(title="About", open_graph={"type": "website"})
        return document()

    app.register_blueprint(bp)

    @app.get("/de/plain")
    def plain() -> str:
        head(title="Plain", open_graph={"type": "website"})
        return document()

    return app


def test_a_localized_page_names_all_its_languages(
    make_app: Callable[..., Flask],
) -> None:
    app = site(
        make_app, APP_URL="https://notes.example/ignored/path", APP_LOCALES=LOCALES
    )
    el = parse_head(app.test_client().get("/de-at/about?utm_source=x").text)
    assert links(el, "canonical") == [(None, "https://notes.example/de-at/about")]
    assert links(el, "alternate") == [
        ("en", "https://notes.example/en/about"),
        ("de-AT", "https://notes.example/de-at/about"),
        ("x-default", "https://notes.example/about"),
    ]
    assert metas(el, "og:locale") == ["de_AT"]
    # Completed with CLDR's likely region (issue 12).
    assert metas(el, "og:locale:alternate") == ["en_US"]


def test_the_request_host_never_reaches_the_head(
    make_app: Callable[..., Flask],
) -> None:
    app = site(make_app, APP_URL="https://notes.example", APP_LOCALES=LOCALES)
    html = (
        app.test_client()
        .get(
            "/en/about",
            headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example"},
        )
        .text
    )
    assert "evil.example" not in html


def test_plain_routes_and_apps_without_localized_have_no_hreflang(
    make_app: Callable[..., Flask],
) -> None:
    app = site(make_app, APP_URL="https://notes.example", APP_LOCALES=LOCALES)
    el = parse_head(app.test_client().get("/de/plain").text)
    assert links(el, "alternate") == [] and metas(el, "og:locale") == []

    app = site(
        make_app,
        use_localized=False,
        APP_URL="https://notes.example",
        APP_LOCALES=LOCALES,
    )
    el = parse_head(app.test_client().get("/about").text)
    assert links(el, "alternate") == [] and links(el, "canonical") == []
    assert metas(el, "og:locale") == []


def test_without_app_url_the_block_is_left_out_and_said_once_per_app(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = site(make_app, APP_LOCALES=LOCALES)
    app.debug = True
    client = app.test_client()
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        first = parse_head(client.get("/de-at/about").text)
        client.get("/en/about")
        client.get("/de-at/about")
    assert links(first, "alternate") == [] and links(first, "canonical") == []
    messages = [r.getMessage() for r in caplog.records if "APP_URL" in r.getMessage()]
    assert len(messages) == 1


def test_og_locale_is_in_open_graph_form_whatever_the_configured_case(
    make_app: Callable[..., Flask],
) -> None:
    # Open Graph spells a locale language_TERRITORY (pt_BR); a BCP 47 tag is
    # case-insensitive, so "pt-br" in APP_LOCALES is still pt_BR there,
    # while hreflang keeps the tag as configured.
    app = site(make_app, APP_URL="https://notes.example", APP_LOCALES=["pt-br", "EN"])
    el = parse_head(app.test_client().get("/pt-br/about").text)
    assert metas(el, "og:locale") == ["pt_BR"]
    assert metas(el, "og:locale:alternate") == ["en_US"]
    assert ("pt-br", "https://notes.example/pt-br/about") in links(el, "alternate")
