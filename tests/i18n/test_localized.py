"""Localized routes: URLs under each locale, url_for, and the mistakes
localized() refuses (the redirect and the page object: test_locale_redirect.py,
test_localized_page.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Blueprint, Flask, request, url_for

from flask_marmeon import Marmeon, current_page, localized

from .docs_site import LOCALES, docs_blueprint

# -- URLs under each locale -------------------------------------------------


@pytest.mark.parametrize(
    ("path", "locale"), [("/en/about", "en"), ("/de-at/about", "de-AT")]
)
def test_routes_answer_under_each_locale_in_lower_case(
    loc_app: Flask, path: str, locale: str
) -> None:
    response = loc_app.test_client().get(path)
    assert response.status_code == 200
    assert response.json is not None
    assert response.json["locale"] == locale


@pytest.mark.parametrize(
    "path", ["/fr/about", "/DE-AT/about", "/De-At/about", "/de/about"]
)
def test_unknown_locale_or_other_spelling_is_404(loc_app: Flask, path: str) -> None:
    assert loc_app.test_client().get(path).status_code == 404


def test_the_view_gets_no_locale_argument(loc_app: Flask) -> None:
    client = loc_app.test_client()
    assert client.get("/de-at/about").json["args"] == {}  # type: ignore[index]
    assert client.get("/en/notes/3").json["note_id"] == 3  # type: ignore[index]


def test_the_locale_comes_before_the_blueprint_url_prefix(
    make_localized: Callable[..., Flask],
) -> None:
    app = make_localized(bp_options={"url_prefix": "/docs"})
    client = app.test_client()
    assert client.get("/de-at/docs/about").status_code == 200
    assert client.get("/docs/de-at/about").status_code == 404


def test_the_locale_comes_before_the_registration_url_prefix(
    make_localized: Callable[..., Flask],
) -> None:
    app = make_localized(register={"url_prefix": "/help/"})
    response = app.test_client().get("/en/help/about")
    assert response.status_code == 200
    assert response.json is not None
    assert response.json["hreflang_paths"][-1] == ["x-default", "/help/about"]


def test_blueprints_nested_in_a_localized_blueprint_are_localized(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_LOCALES=LOCALES)
    outer = localized(Blueprint("outer", __name__, url_prefix="/outer"))
    inner = Blueprint("inner", __name__, url_prefix="/inner")

    @inner.get("/page")
    def page() -> str:
        return f"{current_page().locale} {sorted(request.view_args or {})}"

    outer.register_blueprint(inner)
    app.register_blueprint(outer)
    response = app.test_client().get("/de-at/outer/inner/page")
    assert response.text == "de-AT []"
    with app.test_request_context("/de-at/outer/inner/page"):
        assert url_for("outer.inner.page", locale="en") == "/en/outer/inner/page"


def test_a_localized_blueprint_nested_in_a_plain_one_gets_the_locale_first(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_LOCALES=LOCALES)
    outer = Blueprint("outer", __name__, url_prefix="/outer")
    inner = localized(Blueprint("inner", __name__))

    @inner.get("/page")
    def page() -> str:
        return str(current_page().locale)

    outer.register_blueprint(inner)
    app.register_blueprint(outer)
    assert app.test_client().get("/en/outer/page").text == "en"


def test_a_blueprint_registered_twice_is_localized_both_times(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_LOCALES=LOCALES)
    bp = localized(Blueprint("bp", __name__))

    @bp.get("/x")
    def x() -> str:
        return str(current_page().locale)

    app.register_blueprint(bp, url_prefix="/one")
    app.register_blueprint(bp, url_prefix="/two", name="bp2")
    client = app.test_client()
    assert client.get("/de-at/one/x").text == "de-AT"
    assert client.get("/de-at/two/x").text == "de-AT"


def test_localized_returns_the_same_blueprint_and_is_idempotent() -> None:
    bp = Blueprint("bp", __name__)
    assert localized(bp) is bp
    assert localized(bp) is bp
    assert len(bp.deferred_functions) == 1


# -- url_for ----------------------------------------------------------------


def test_url_for_keeps_the_current_locale_and_takes_another(loc_app: Flask) -> None:
    links = loc_app.test_client().get("/de-at/links").json
    assert links == {
        "same": "/de-at/notes/7",
        "other": "/de-at/notes/7",
        "other_spelling": "/de-at/about",
        "none": "/de-at/about",
        "plain": "/plain",
    }
    links = loc_app.test_client().get("/en/links").json
    assert links is not None
    assert links["same"] == "/en/notes/7"
    assert links["other"] == "/de-at/notes/7"


def test_url_for_outside_a_localized_page_uses_the_first_locale(
    loc_app: Flask,
) -> None:
    with loc_app.test_request_context("/plain"):
        assert url_for("docs.about") == "/en/about"
        assert url_for("plain", locale="de-AT") == "/plain?locale=de-AT"


def test_url_for_refuses_a_locale_the_app_does_not_have(loc_app: Flask) -> None:
    with loc_app.test_request_context("/en/about"):
        with pytest.raises(ValueError, match=r"'de'.*Did you mean 'de-AT'\?"):
            url_for("docs.about", locale="de")
        with pytest.raises(TypeError, match="locale="):
            url_for("docs.about", locale=3)


# -- mistakes ----------------------------------------------------------------


def test_localized_takes_a_blueprint() -> None:
    with pytest.raises(TypeError, match="flask.Blueprint, not Flask"):
        localized(Flask("x"))  # type: ignore[arg-type]


def test_localized_after_registration_is_refused(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_LOCALES=LOCALES)
    bp = Blueprint("late", __name__)
    app.register_blueprint(bp)
    with pytest.raises(ValueError, match=r"'late' after it was registered"):
        localized(bp)


def test_a_localized_blueprint_needs_app_locales(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app()
    with pytest.raises(ValueError, match=r"'docs' is localized, but APP_LOCALES"):
        app.register_blueprint(docs_blueprint())


def test_app_locales_from_the_environment(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APP_LOCALES", "en,de-AT")
    app = make_app()
    app.register_blueprint(docs_blueprint())
    assert app.test_client().get("/de-at/about").status_code == 200


def test_a_localized_blueprint_needs_the_extension_first() -> None:
    app = Flask("x")
    app.config["APP_LOCALES"] = LOCALES
    with pytest.raises(RuntimeError, match=r"Call Marmeon\(app\).*before"):
        app.register_blueprint(docs_blueprint())
    Marmeon(app)
    app.register_blueprint(docs_blueprint(), name="docs2")
    assert app.test_client().get("/en/about").status_code == 200


def test_routes_added_before_localized_are_localized_too(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_LOCALES=LOCALES)
    bp = Blueprint("early", __name__)

    @bp.get("/early")
    def early() -> str:
        return str(current_page().locale)

    localized(bp)
    app.register_blueprint(bp)
    client = app.test_client()
    assert client.get("/de-at/early").text == "de-AT"
    assert client.get("/early").status_code == 302
