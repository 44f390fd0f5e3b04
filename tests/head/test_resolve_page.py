"""The head of a localized page: canonical, hreflang, og:locale from the Page."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from flask import Flask

from flask_marmeon.page import Page

from .conftest import RenderFn, links, meta

LOCALES = ["en", "de-AT", "fr"]
PAGE = Page(
    locale="de-AT",
    canonical_path="/de-at/about",
    hreflang_paths=(
        ("en", "/en/about"),
        ("de-AT", "/de-at/about"),
        ("fr", "/fr/about"),
        ("x-default", "/about"),
    ),
)


@pytest.fixture
def localized_app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(APP_URL="https://notes.example", APP_LOCALES=LOCALES)


def test_canonical_and_hreflang_of_a_localized_page(
    localized_app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        localized_app, {"title": "About"}, page=PAGE, path="/de-at/about?utm=1"
    )
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/de-at/about"
    ]
    assert [(link["hreflang"], link["href"]) for link in links(el, "alternate")] == [
        ("en", "https://notes.example/en/about"),
        ("de-AT", "https://notes.example/de-at/about"),
        ("fr", "https://notes.example/fr/about"),
        ("x-default", "https://notes.example/about"),
    ]


def test_an_explicit_canonical_wins_and_keeps_its_query(
    localized_app: Flask, head_of: RenderFn
) -> None:
    el = head_of(localized_app, {"canonical": "/de-at/notes?page=2"}, page=PAGE)
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/de-at/notes?page=2"
    ]
    assert len(links(el, "alternate")) == 4


def test_og_locale_and_its_alternates(localized_app: Flask, head_of: RenderFn) -> None:
    el = head_of(localized_app, {"open_graph": {}}, page=PAGE)
    assert meta(el, "og:locale") == ["de_AT"]
    # A tag without a region gets CLDR's likely one (issue 12).
    assert meta(el, "og:locale:alternate") == ["en_US", "fr_FR"]
    el = head_of(localized_app, {"open_graph": {"locale": "de_DE"}}, page=PAGE)
    assert meta(el, "og:locale") == ["de_DE"]
    assert meta(el, "og:locale:alternate") == ["en_US", "fr_FR"]
    el = head_of(localized_app, {"title": "no og"}, page=PAGE)
    assert meta(el, "og:locale") == [] and meta(el, "og:locale:alternate") == []


def test_a_page_that_is_not_localized_gets_none_of_it(
    localized_app: Flask, head_of: RenderFn
) -> None:
    el = head_of(localized_app, {"open_graph": {}}, page=Page())
    assert links(el, "canonical") == [] and links(el, "alternate") == []
    assert meta(el, "og:locale") == []
    el = head_of(localized_app, {"open_graph": {}})
    assert links(el, "alternate") == [] and meta(el, "og:locale") == []


def test_without_app_url_the_block_is_left_out_and_said_once(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    from .conftest import parse_head

    app = make_app(APP_LOCALES=LOCALES)
    app.debug = True
    calls = ({"open_graph": {}, "canonical": "https://notes.example/x"},)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        el = parse_head(render_calls(app, {"open_graph": {}}, page=PAGE))
        render_calls(app, {"open_graph": {}}, page=PAGE)
        kept = parse_head(render_calls(app, *calls, page=PAGE))
    assert links(el, "canonical") == [] and links(el, "alternate") == []
    assert meta(el, "og:locale") == ["de_AT"]  # not a URL: still written
    # An explicit full canonical is not part of the block.
    assert [link["href"] for link in links(kept, "canonical")] == [
        "https://notes.example/x"
    ]
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1 and "APP_URL" in messages[0] and "hreflang" in messages[0]
    # Another app says it once too.
    other = make_app(APP_LOCALES=LOCALES)
    other.debug = True
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        render_calls(other, {}, page=PAGE)
    assert len(caplog.records) == 2


def test_without_app_url_production_says_nothing(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(APP_LOCALES=LOCALES)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        render_calls(app, {}, page=PAGE)
    assert caplog.records == []


def test_a_real_localized_route_gives_its_page_to_the_head(
    localized_app: Flask,
) -> None:
    from flask import Blueprint, render_template_string

    from flask_marmeon import head, localized

    from .conftest import parse_head

    docs = localized(Blueprint("docs", __name__))

    @docs.get("/about")
    def about() -> str:
        head(title="About", open_graph={})
        return render_template_string("{{ render_head() }}")

    localized_app.register_blueprint(docs)
    el = parse_head(localized_app.test_client().get("/fr/about?utm_source=x").text)
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/fr/about"
    ]
    assert [(link["hreflang"], link["href"]) for link in links(el, "alternate")] == [
        ("en", "https://notes.example/en/about"),
        ("de-AT", "https://notes.example/de-at/about"),
        ("fr", "https://notes.example/fr/about"),
        ("x-default", "https://notes.example/about"),
    ]
    assert meta(el, "og:locale") == ["fr_FR"]
    assert meta(el, "og:locale:alternate") == ["en_US", "de_AT"]


def test_og_locale_alternates_are_the_languages_the_page_exists_in(
    localized_app: Flask, head_of: RenderFn
) -> None:
    # A page in fewer languages than APP_LOCALES (issue 12): its alternates
    # come from its hreflang, never from the configuration.
    page = Page(
        locale="fr",
        canonical_path="/fr/about",
        hreflang_paths=(
            ("fr", "/fr/about"),
            ("en", "/en/about"),
            ("x-default", "/about"),
        ),
    )
    el = head_of(localized_app, {"open_graph": {}}, page=page)
    assert meta(el, "og:locale") == ["fr_FR"]
    assert meta(el, "og:locale:alternate") == ["en_US"]
    assert [link["hreflang"] for link in links(el, "alternate")] == [
        "fr",
        "en",
        "x-default",
    ]


def test_an_error_page_on_a_localized_url_has_no_canonical_nor_hreflang(
    localized_app: Flask, make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    # Team i18n's Page for an error page: the visitor's locale, no address.
    page = Page(locale="de-AT", canonical_path=None)
    el = head_of(localized_app, {"title": "Not found", "open_graph": {}}, page=page)
    assert links(el, "canonical") == [] and links(el, "alternate") == []
    assert meta(el, "og:locale") == ["de_AT"]
    assert meta(el, "og:locale:alternate") == []
    # The app's own canonical is still written.
    el = head_of(localized_app, {"canonical": "/404"}, page=page)
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/404"
    ]
    # Without APP_URL nothing of it goes to the browser either.
    bare = make_app(APP_LOCALES=LOCALES)
    el = head_of(bare, {"title": "Not found"}, page=page)
    assert [s for s in el.iter("script") if "data-marmeon-data" in s.attrib] == []
