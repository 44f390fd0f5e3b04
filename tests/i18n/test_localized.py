"""Localized routes: URLs under each locale, url_for, the redirect, the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Blueprint, Flask, g, render_template_string, request, url_for

from flask_marmeon import Marmeon, Page, current_page, localized
from flask_marmeon.i18n import make_page, strip_locale

LOCALES = ["en", "de-AT"]


def page_json(page: Page) -> dict[str, Any]:
    return {
        "locale": page.locale,
        "alternates": [dict(a) for a in page.alternates],
        "canonical_path": page.canonical_path,
        "hreflang_paths": [list(p) for p in page.hreflang_paths],
    }


def docs_blueprint(**options: Any) -> Blueprint:
    docs = localized(Blueprint("docs", __name__, **options))

    @docs.get("/")
    def index() -> str:
        return "index"

    @docs.get("/about")
    def about() -> dict[str, Any]:
        return {"args": dict(request.view_args or {}), **page_json(current_page())}

    @docs.get("/notes/<int:note_id>")
    def note(note_id: int) -> dict[str, Any]:
        return {"note_id": note_id, **page_json(current_page())}

    @docs.get("/links")
    def links() -> dict[str, str]:
        return {
            "same": url_for("docs.note", note_id=7),
            "other": url_for("docs.note", note_id=7, locale="de-AT"),
            "other_spelling": url_for("docs.about", locale="DE-at"),
            "none": url_for("docs.about", locale=None),
            "plain": url_for("plain"),
        }

    @docs.route("/form", methods=["GET", "POST"])
    def form() -> str:
        return request.method

    @docs.get("/folder/")
    def folder() -> str:
        return "folder"

    return docs


@pytest.fixture
def make_localized(make_app: Callable[..., Flask]) -> Callable[..., Flask]:
    """An app with APP_URL, two locales and the docs blueprint."""

    def make(
        bp_options: dict[str, Any] | None = None,
        register: dict[str, Any] | None = None,
        **config: Any,
    ) -> Flask:
        config.setdefault("APP_URL", "https://notes.example")
        config.setdefault("APP_LOCALES", LOCALES)
        app = make_app(**config)

        @app.get("/plain")
        def plain() -> dict[str, Any]:
            return page_json(current_page())

        @app.get("/de/looks-localized")
        def looks_localized() -> dict[str, Any]:
            return page_json(current_page())

        app.register_blueprint(docs_blueprint(**(bp_options or {})), **(register or {}))
        return app

    return make


@pytest.fixture
def loc_app(make_localized: Callable[..., Flask]) -> Flask:
    return make_localized()


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


# -- the address without a locale -------------------------------------------


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


# -- the page object ---------------------------------------------------------


def test_the_page_object_of_a_localized_page(loc_app: Flask) -> None:
    body = loc_app.test_client().get("/de-at/notes/5?page=2&utm_source=x").json
    assert body == {
        "note_id": 5,
        "locale": "de-AT",
        "alternates": [
            {
                "locale": "en",
                "hreflang": "en",
                "href": "/en/notes/5?page=2&utm_source=x",
            },
            {
                "locale": "de-AT",
                "hreflang": "de-AT",
                "href": "/de-at/notes/5?page=2&utm_source=x",
            },
        ],
        "canonical_path": "/de-at/notes/5",
        "hreflang_paths": [
            ["en", "/en/notes/5"],
            ["de-AT", "/de-at/notes/5"],
            ["x-default", "/notes/5"],
        ],
    }


def test_the_root_page_has_the_root_as_x_default(loc_app: Flask) -> None:
    with loc_app.test_request_context("/en/"):
        loc_app.preprocess_request()
        page = current_page()
    assert page.hreflang_paths[-1] == ("x-default", "/")
    assert page.canonical_path == "/en/"


def test_a_query_with_unsafe_characters_is_kept_encoded(loc_app: Flask) -> None:
    body = loc_app.test_client().get('/en/about?q="<x>" é').json
    assert body is not None
    assert body["alternates"][1]["href"] == "/de-at/about?q=%22%3Cx%3E%22%20%C3%A9"


def test_plain_routes_get_no_alternates_even_if_they_look_localized(
    loc_app: Flask,
) -> None:
    empty = page_json(Page())
    client = loc_app.test_client()
    assert client.get("/plain").json == empty
    assert client.get("/de/looks-localized").json == empty


def test_the_page_is_there_before_before_request_hooks(
    make_localized: Callable[..., Flask],
) -> None:
    app = make_localized()

    @app.before_request
    def layout() -> None:
        g.seen = current_page().locale

    @app.get("/seen")
    def seen() -> str:
        return str(g.seen)

    app.view_functions["docs.index"] = lambda: str(g.seen)
    assert app.test_client().get("/de-at/").text == "de-AT"
    assert app.test_client().get("/seen").text == "None"


def test_addresses_start_with_application_root_not_the_script_root(
    make_localized: Callable[..., Flask],
) -> None:
    # The contract changed (issue 9): the mount path is APPLICATION_ROOT; the
    # request's SCRIPT_NAME, which a client can set, is never followed.
    for config, prefix in (({}, ""), ({"APPLICATION_ROOT": "/app"}, "/app")):
        client = make_localized(**config).test_client()
        body = client.get("/en/about", base_url="http://localhost/app/").json
        assert body is not None
        assert body["canonical_path"] == f"{prefix}/en/about"
        assert body["hreflang_paths"][-1] == ["x-default", f"{prefix}/about"]
        response = client.get("/about", base_url="http://localhost/app/")
        assert response.headers["Location"] == f"{prefix}/en/about"


def test_the_jinja_global_page(loc_app: Flask) -> None:
    template = (
        "{{ page.locale }}|{% for a in page.alternates %}"
        "<a hreflang={{ a.hreflang }} href={{ a.href }}>{% endfor %}"
    )
    with loc_app.test_request_context("/de-at/about?x=1"):
        loc_app.preprocess_request()
        assert render_template_string(template) == (
            "de-AT|<a hreflang=en href=/en/about?x=1>"
            "<a hreflang=de-AT href=/de-at/about?x=1>"
        )
    with loc_app.test_request_context("/plain"):
        assert render_template_string(template) == "None|"
    with loc_app.app_context():
        assert render_template_string(template) == "None|"


def test_current_page_outside_a_request_says_where_it_works(loc_app: Flask) -> None:
    with loc_app.app_context():
        with pytest.raises(RuntimeError, match=r"current_page\(\) works only"):
            current_page()


def test_make_page_and_strip_locale_are_pure() -> None:
    page = make_page(
        ["en", "de-AT"], "en", {"en": "/en/a", "de-AT": "/de-at/a"}, "/a", "x=1"
    )
    assert page.locale == "en"
    assert page.is_localized
    assert [a["href"] for a in page.alternates] == ["/en/a?x=1", "/de-at/a?x=1"]
    assert page.hreflang_paths == (
        ("en", "/en/a"),
        ("de-AT", "/de-at/a"),
        ("x-default", "/a"),
    )
    assert strip_locale("/app/de-at/a/b", "de-AT", "/app") == "/app/a/b"
    assert strip_locale("/de-at", "de-AT") == "/"
    assert strip_locale("/de-at/", "de-AT") == "/"
    assert not Page().is_localized


def test_page_alternates_is_a_list_of_locale_hreflang_href() -> None:
    # API: "page.alternates, a list of {"locale", "hreflang", "href"}".
    page = make_page(
        ["en", "de-AT"], "en", {"en": "/en/a", "de-AT": "/de-at/a"}, "/a", ""
    )
    assert page.alternates == [
        {"locale": "en", "hreflang": "en", "href": "/en/a"},
        {"locale": "de-AT", "hreflang": "de-AT", "href": "/de-at/a"},
    ]
    assert Page().alternates == []


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
