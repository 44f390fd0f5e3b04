"""Error pages of localized URLs: no canonical, no hreflang of the URL, and
the visitor's locale (issue 12)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import html5lib
import pytest
from flask import Blueprint, Flask, abort
from werkzeug.exceptions import HTTPException

from flask_marmeon import current_page, everyone, head, localized, render_head
from tests.documents import parse_head

LOCALES = ["en", "de", "de-AT"]


def error_document(error: HTTPException | Exception) -> tuple[str, int]:
    code = error.code if isinstance(error, HTTPException) else 500
    head(title=f"Error {code}", open_graph={"type": "website"})
    page = current_page()
    babel = _babel_locale()
    html = (
        f"<!doctype html><html lang={page.locale}><head>{render_head()}</head>"
        f"<body><p id=locale>{page.locale}</p><p id=babel>{babel}</p>"
        f"<p id=alternates>{len(page.alternates)}</p></body></html>"
    )
    return html, code


def _babel_locale() -> str:
    from flask import current_app

    if "babel" not in current_app.extensions:
        return "-"
    import flask_babel

    return str(flask_babel.get_locale())


def make_site(
    make_app: Callable[..., Flask], *, handlers_on: str = "app", babel: bool = True
) -> Flask:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=LOCALES)
    # A 500 goes to the app's handler, as in production.
    app.config["PROPAGATE_EXCEPTIONS"] = False
    if babel:
        flask_babel = pytest.importorskip("flask_babel")
        flask_babel.Babel(
            app, locale_selector=app.extensions["marmeon"].extension.locale_selector
        )
    notes = localized(Blueprint("notes", __name__))

    @notes.get(
        "/notes/<int:note_id>",
        sitemap=lambda: [{"params": {"note_id": 1}}],
        authorize=everyone,
        locales=lambda note_id: ["en"] if note_id == 3 else LOCALES,
    )
    def show(note_id: int) -> str:
        if note_id == 2:
            abort(404)
        if note_id == 5:
            raise RuntimeError("boom")
        if note_id == 6:
            # The view names its address, then finds the note is missing.
            head(canonical=f"/de/notes/{note_id}", open_graph={"url": "/de/notes/6"})
            abort(404)
        head(title="Note")
        return f"<!doctype html><html><head>{render_head()}</head></html>"

    @app.get("/plain/<int:n>")
    def plain(n: int) -> str:
        abort(404)

    target = notes if handlers_on == "blueprint" else app
    target.register_error_handler(404, error_document)
    if handlers_on == "blueprint":
        app.register_error_handler(404, error_document)
    app.register_error_handler(500, error_document)
    app.register_blueprint(notes)
    return app


def texts(html: str) -> dict[str, str]:
    root = ET.fromstring(
        ET.tostring(
            html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
        )
    )
    return {p.get("id") or "": p.text or "" for p in root.iter("p")}


@pytest.mark.parametrize("handlers_on", ["app", "blueprint"])
@pytest.mark.parametrize(
    ("path", "code", "locale"),
    [
        ("/de/notes/2", 404, "de"),  # the view says the note is missing
        ("/de-at/notes/3", 404, "de-AT"),  # the note lacks the locale
        ("/de/notes/5", 500, "de"),  # the view fails
        ("/de/notes/6", 404, "de"),  # after it named its address
        ("/de/no-such-page", 404, "de"),  # no route matches
        ("/de-at/notes/x", 404, "de-AT"),
    ],
)
def test_an_error_page_names_no_address_and_speaks_the_visitors_locale(
    make_app: Callable[..., Flask],
    handlers_on: str,
    path: str,
    code: int,
    locale: str,
) -> None:
    app = make_site(make_app, handlers_on=handlers_on)
    response = app.test_client().get(path)
    assert response.status_code == code
    html = response.text
    el = parse_head(html)
    rels = [link.get("rel") for link in el.iter("link")]
    assert "canonical" not in rels
    assert "alternate" not in rels
    assert not [m for m in el.iter("meta") if m.get("property") == "og:url"]
    og = [m.get("content") for m in el.iter("meta") if m.get("property") == "og:locale"]
    assert len(og) == 1 and og[0] in _og_forms(locale)
    found = texts(html)
    assert found["locale"] == locale
    assert found["babel"] == locale.replace("-", "_")
    assert found["alternates"] == "0"


def _og_forms(tag: str) -> set[str]:
    # og:locale of a tag without a region is completed from CLDR (de ->
    # de_DE) by the head's resolve step; this test is about the language.
    return {tag.replace("-", "_"), {"de": "de_DE"}.get(tag, tag)}


def test_the_page_itself_keeps_its_addresses(make_app: Callable[..., Flask]) -> None:
    app = make_site(make_app)
    el = parse_head(app.test_client().get("/de/notes/1").text)
    canonical = [
        link.get("href") for link in el.iter("link") if link.get("rel") == "canonical"
    ]
    assert canonical == ["https://notes.example/de/notes/1"]


def test_a_plain_routes_error_page_is_left_alone(
    make_app: Callable[..., Flask],
) -> None:
    app = make_site(make_app)
    response = app.test_client().get("/plain/1")
    assert response.status_code == 404
    assert texts(response.text)["locale"] == "None"


def test_an_unknown_first_segment_is_no_locale(make_app: Callable[..., Flask]) -> None:
    app = make_site(make_app)
    response = app.test_client().get("/it/notes/1")
    assert response.status_code == 404
    assert texts(response.text)["locale"] == "None"


def test_handlers_are_wrapped_once_and_still_called_as_flask_would(
    make_app: Callable[..., Flask],
) -> None:
    app = make_site(make_app, babel=False)
    client = app.test_client()
    for _ in range(3):
        assert client.get("/de/notes/2").status_code == 404
    handler = app.error_handler_spec[None][404][
        next(iter(app.error_handler_spec[None][404]))
    ]
    assert handler.__wrapped__ is error_document  # type: ignore[attr-defined]
