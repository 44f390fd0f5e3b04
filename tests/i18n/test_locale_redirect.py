"""The address of a localized page without its locale: redirected to the
visitor's locale (Accept-Language), for GET and HEAD only, and never where
the app's own route or no localized page answers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from .docs_site import LOCALES


def test_the_address_without_locale_redirects_to_the_visitors_locale(
    loc_app: Flask,
) -> None:
    response = loc_app.test_client().get(
        "/about?utm_source=x&q=a%20b", headers={"Accept-Language": "de-AT,en;q=0.5"}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/de-at/about?utm_source=x&q=a%20b"
    assert "Accept-Language" in response.vary
    assert response.cache_control.private
    assert not response.cache_control.public


@pytest.mark.parametrize(
    ("accept", "locales", "expected"),
    [
        ("en;q=0.3, de-AT;q=0.9", LOCALES, "/de-at/about"),
        ("de-AT;q=0.2, en;q=0.9", LOCALES, "/en/about"),
        ("de-CH", ["en", "de"], "/de/about"),  # a region falls back to its language
        ("de-CH, en;q=0.5", ["en", "de"], "/de/about"),
        ("de-CH, en;q=0.5", LOCALES, "/en/about"),  # no German without region
        ("fr;q=0, *;q=0.1", ["de-AT", "en"], "/de-at/about"),
        # q=0 means not acceptable: "*" never brings back a refused language.
        ("en;q=0, *", LOCALES, "/de-at/about"),
        ("de;q=0, *;q=0.5", LOCALES, "/en/about"),
        ("de", LOCALES, "/de-at/about"),
        ("fr, ja;q=0.5", LOCALES, "/en/about"),  # nothing fits: the first locale
        (None, ["de-AT", "en"], "/de-at/about"),
    ],
)
def test_the_redirect_follows_accept_language(
    make_localized: Callable[..., Flask],
    accept: str | None,
    locales: list[str],
    expected: str,
) -> None:
    app = make_localized(APP_LOCALES=locales)
    headers = {"Accept-Language": accept} if accept else {}
    response = app.test_client().get("/about", headers=headers)
    assert response.status_code == 302
    assert response.headers["Location"] == expected


def test_the_redirect_of_the_root_and_of_slash_routes(loc_app: Flask) -> None:
    client = loc_app.test_client()
    assert client.get("/").headers["Location"] == "/en/"
    assert client.get("/folder/").headers["Location"] == "/en/folder/"
    assert client.get("/folder").headers["Location"] == "/en/folder/"
    assert client.get("/notes/4").headers["Location"] == "/en/notes/4"


def test_the_redirect_is_for_get_and_head_only(loc_app: Flask) -> None:
    client = loc_app.test_client()
    assert client.head("/form").status_code == 302
    assert client.post("/form").status_code == 404
    assert client.post("/en/form").text == "POST"


def test_no_redirect_where_no_localized_page_exists(loc_app: Flask) -> None:
    client = loc_app.test_client()
    assert client.get("/nothing").status_code == 404
    assert client.get("/notes/not-a-number").status_code == 404
    # /de/looks-localized is a plain route: /looks-localized has no page.
    assert client.get("/looks-localized").status_code == 404


def test_a_route_of_the_app_wins_over_the_redirect(
    make_localized: Callable[..., Flask],
) -> None:
    app = make_localized()

    @app.get("/about")
    def own_about() -> str:
        return "own"

    assert app.test_client().get("/about").text == "own"


def test_a_catch_all_route_of_the_app_wins_over_the_redirect(
    make_localized: Callable[..., Flask],
) -> None:
    app = make_localized()

    @app.get("/<path:rest>")
    def catch_all(rest: str) -> str:
        return f"catch-all {rest}"

    client = app.test_client()
    assert client.get("/about").text == "catch-all about"
    assert client.get("/de-at/about").status_code == 200


def test_an_app_without_localized_routes_never_redirects(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_LOCALES=LOCALES)

    @app.get("/en/about")
    def about() -> str:
        return "plain"

    assert app.test_client().get("/about").status_code == 404
