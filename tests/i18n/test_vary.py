"""Issue 21, point 3: every answer of an address without a locale (a
localized route's address with its locale left out) says
``Vary: Accept-Language``, whatever its status and method."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Blueprint, Flask

from flask_marmeon import everyone, localized


def note_locales(note_id: int) -> list[str]:
    # Note 2 exists in German only, note 9 in no language at all.
    return {2: ["de"], 9: []}.get(note_id, ["en", "de"])


@pytest.fixture
def site(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
    docs = localized(Blueprint("docs", __name__))
    docs.get("/about", endpoint="about")(lambda: "about")
    docs.get(
        "/notes/<int:note_id>",
        endpoint="note",
        sitemap=lambda: [],
        authorize=everyone,
        locales=note_locales,
    )(lambda note_id: f"note {note_id}")
    docs.post("/form", endpoint="form")(lambda: "posted")
    docs.get("/guide/", endpoint="guide", locales=["de"])(lambda: "guide")
    app.register_blueprint(docs)
    app.get("/plain", endpoint="plain")(lambda: "plain")
    return app


def vary(response: object) -> set[str]:
    header = response.headers.get("Vary", "")  # type: ignore[attr-defined]
    return {token.strip().lower() for token in header.split(",") if token.strip()}


@pytest.mark.parametrize("language", ["en", "de", "fr", ""])
def test_the_redirect_varies(site: Flask, language: str) -> None:
    response = site.test_client().get("/notes/1", headers={"Accept-Language": language})
    assert response.status_code == 302
    assert "accept-language" in vary(response)


def test_a_404_of_an_address_without_a_locale_varies(site: Flask) -> None:
    client = site.test_client()
    # The page exists in no language: 404 for everyone, from the redirect's
    # decision that read Accept-Language.
    for language in ("en", "de"):
        response = client.get("/notes/9", headers={"Accept-Language": language})
        assert response.status_code == 404
        assert "accept-language" in vary(response), language


@pytest.mark.parametrize("method", ["post", "put", "delete", "head", "options"])
def test_every_method_varies(site: Flask, method: str) -> None:
    response = getattr(site.test_client(), method)(
        "/form", headers={"Accept-Language": "de"}
    )
    assert "accept-language" in vary(response), response.status_code


def test_an_address_no_locale_answers_does_not_vary(site: Flask) -> None:
    client = site.test_client()
    for path in ("/nowhere", "/de/nowhere", "/notes/x"):
        response = client.get(path, headers={"Accept-Language": "de"})
        assert response.status_code == 404, path
        assert "accept-language" not in vary(response), path
    assert "accept-language" not in vary(client.get("/plain"))


def test_a_route_ending_in_a_slash_varies_for_every_method(site: Flask) -> None:
    client = site.test_client()
    assert "accept-language" in vary(client.get("/guide"))
    assert "accept-language" in vary(client.post("/guide"))
    assert "accept-language" in vary(client.post("/guide/"))
