"""Flask-Babel sees the locale of a localized route, already in before_request."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Blueprint, Flask, g

from flask_marmeon import localized
from flask_marmeon.i18n import selected_locale

flask_babel = pytest.importorskip("flask_babel")


def babel_app(make_app: Callable[..., Flask], selector: str) -> Flask:
    app = make_app(APP_LOCALES=["en", "de-AT"])
    marmeon = app.extensions["marmeon"].extension
    if selector == "marmeon":
        flask_babel.Babel(app, locale_selector=marmeon.locale_selector)
    elif selector == "none":
        flask_babel.Babel(app)
    else:
        flask_babel.Babel(app, locale_selector=lambda: "fr")

    @app.before_request
    def layout() -> None:
        g.babel_in_hook = str(flask_babel.get_locale())

    docs = localized(Blueprint("docs", __name__))

    @docs.get("/about")
    def about() -> str:
        return f"{g.babel_in_hook} {flask_babel.get_locale()}"

    app.register_blueprint(docs)

    @app.get("/plain")
    def plain() -> str:
        return f"{g.babel_in_hook} {flask_babel.get_locale()}"

    return app


@pytest.mark.parametrize("selector", ["marmeon", "none"])
def test_get_locale_is_the_routes_locale_already_in_before_request(
    make_app: Callable[..., Flask], selector: str
) -> None:
    client = babel_app(make_app, selector).test_client()
    assert client.get("/de-at/about").text == "de_AT de_AT"
    assert client.get("/en/about").text == "en en"
    # Elsewhere Flask-Babel keeps its default locale.
    assert client.get("/plain").text == "en en"


def test_the_apps_own_selector_wins(make_app: Callable[..., Flask]) -> None:
    client = babel_app(make_app, "own").test_client()
    assert client.get("/de-at/about").text == "fr fr"


def test_a_locale_babel_computed_earlier_is_not_kept(
    make_app: Callable[..., Flask],
) -> None:
    app = babel_app(make_app, "marmeon")
    # Requests inside one app context share g, and Flask-Babel caches the
    # locale there: the route's locale must still win.
    with app.app_context():
        assert str(flask_babel.get_locale()) == "en"
        with app.test_client() as client:
            assert client.get("/de-at/about").text == "de_AT de_AT"


def test_selected_locale_is_in_babels_spelling(make_app: Callable[..., Flask]) -> None:
    app = babel_app(make_app, "marmeon")
    with app.test_request_context("/de-at/about"):
        assert selected_locale() is None
        app.preprocess_request()
        assert selected_locale() == "de_AT"
    assert selected_locale() is None
