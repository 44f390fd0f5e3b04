"""Per-page locales: the route option locales=, available_locales, the page,
the redirect, the 404 and the start-up check (issue 12)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Blueprint, Flask

from flask_marmeon import StartupError, check_routes, current_page, everyone, localized
from flask_marmeon.i18n import available_locales, best_locale
from flask_marmeon.i18n.negotiate import lookup

LOCALES = ["en", "de", "de-AT", "fr"]
#: Note 1 exists in English only; note 2 in German and French.
NOTES: dict[int, list[str]] = {1: ["en"], 2: ["fr", "de"]}


def note_locales(note_id: int) -> list[str]:
    return NOTES.get(note_id, LOCALES)


def page_json() -> dict[str, Any]:
    page = current_page()
    return {
        "locale": page.locale,
        "alternates": [dict(a) for a in page.alternates],
        "canonical_path": page.canonical_path,
        "hreflang_paths": [list(p) for p in page.hreflang_paths],
    }


@pytest.fixture
def notes_app(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=LOCALES)
    notes = localized(Blueprint("notes", __name__))

    @notes.get(
        "/notes/<int:note_id>",
        sitemap=lambda: [],
        authorize=everyone,
        locales=note_locales,
    )
    def show(note_id: int) -> dict[str, Any]:
        return page_json()

    @notes.get("/pricing", locales=["fr", "EN"])
    def pricing() -> dict[str, Any]:
        return page_json()

    @notes.get("/everywhere")
    def everywhere() -> dict[str, Any]:
        return page_json()

    app.register_blueprint(notes)
    return app


def test_the_option_is_kept_on_the_rule_and_its_copies(notes_app: Flask) -> None:
    rules = {r.endpoint: r for r in notes_app.url_map.iter_rules()}
    assert rules["notes.pricing"].marmeon_locales == ("fr", "EN")  # type: ignore[attr-defined]
    assert rules["notes.show"].marmeon_locales is note_locales  # type: ignore[attr-defined]
    assert rules["notes.everywhere"].marmeon_locales is None  # type: ignore[attr-defined]
    copy = rules["notes.pricing"].empty()
    assert copy.marmeon_locales == ("fr", "EN")  # type: ignore[attr-defined]


def test_available_locales_in_app_locales_order(notes_app: Flask) -> None:
    rules = {r.endpoint: r for r in notes_app.url_map.iter_rules()}
    with notes_app.app_context():
        from flask_marmeon.extension import get_state

        state = get_state(notes_app)
        show = rules["notes.show"]
        # The callable gets the view's arguments, not the locale.
        assert available_locales(state, show, {"note_id": 2, "locale": "x"}) == (
            "de",
            "fr",
        )
        assert available_locales(state, show, {"note_id": 9}) == tuple(LOCALES)
        assert available_locales(state, rules["notes.pricing"], {}) == ("en", "fr")
        assert available_locales(state, rules["notes.everywhere"], {}) == tuple(LOCALES)
        assert available_locales(state, rules["static"], {}) == ()


def test_the_page_names_only_its_locales(notes_app: Flask) -> None:
    body = notes_app.test_client().get("/fr/notes/2?x=1").json
    assert body == {
        "locale": "fr",
        "alternates": [
            {"locale": "de", "hreflang": "de", "href": "/de/notes/2?x=1"},
            {"locale": "fr", "hreflang": "fr", "href": "/fr/notes/2?x=1"},
        ],
        "canonical_path": "/fr/notes/2",
        "hreflang_paths": [
            ["de", "/de/notes/2"],
            ["fr", "/fr/notes/2"],
            ["x-default", "/notes/2"],
        ],
    }


@pytest.mark.parametrize(
    "path", ["/de/notes/1", "/de-at/notes/1", "/fr/notes/1", "/de/pricing"]
)
def test_a_locale_the_page_lacks_answers_404(notes_app: Flask, path: str) -> None:
    assert notes_app.test_client().get(path).status_code == 404


def test_the_pages_own_locales_answer(notes_app: Flask) -> None:
    client = notes_app.test_client()
    for path in ("/en/notes/1", "/de/notes/2", "/en/pricing", "/de-at/everywhere"):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize(
    ("accept", "path", "location"),
    [
        # The visitor's first choice, when the page has it.
        ("fr, en;q=0.5", "/notes/2", "/fr/notes/2"),
        # German is the best the visitor and the page share.
        ("de-AT, fr;q=0.1", "/notes/2", "/de/notes/2"),
        # Nothing shared: the first of the page's locales, not the app's.
        ("de", "/notes/1", "/en/notes/1"),
        ("it", "/notes/2", "/de/notes/2"),
        ("", "/pricing", "/en/pricing"),
        # A refusal holds: English is refused, French is what is left.
        ("en;q=1, *;q=0.5, fr;q=0", "/pricing", "/en/pricing"),
        ("en;q=0, de;q=0.9", "/pricing", "/fr/pricing"),
    ],
)
def test_the_redirect_picks_the_best_of_the_pages_locales(
    notes_app: Flask, accept: str, path: str, location: str
) -> None:
    response = notes_app.test_client().get(
        path, headers={"Accept-Language": accept} if accept else {}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == location


def test_a_page_in_no_locale_is_not_redirected_to(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=LOCALES)
    bp = localized(Blueprint("bp", __name__))
    bp.get("/gone/<int:n>", locales=lambda n: [])(lambda n: "never")
    app.register_blueprint(bp)
    client = app.test_client()
    assert client.get("/gone/1").status_code == 404
    assert client.get("/en/gone/1").status_code == 404


@pytest.mark.parametrize(
    ("accept", "best"),
    [
        # RFC 4647 lookup: the longest configured prefix wins.
        ("de-AT-x-foo", "de-AT"),
        ("de-at-1996", "de-AT"),
        ("de-CH", "de"),
        ("DE-at", "de-AT"),
        ("de_AT", "de-AT"),
        # A language reaches a configured region only when it is not itself
        # configured (Werkzeug's best_match, as before).
        ("fr-CA, de;q=0.5", "fr"),
        ("*", "en"),
        ("de;q=0, *", "en"),
        ("de;q=0, en;q=0, fr;q=0, *", None),
    ],
)
def test_best_locale_steps_long_tags_down(accept: str, best: str | None) -> None:
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    parsed = parse_accept_header(accept, LanguageAccept)
    assert best_locale(parsed, LOCALES) == best


def test_lookup_is_rfc_4647() -> None:
    tags = {"de": "de", "de-at": "de-AT", "zh-hant": "zh-Hant"}
    assert lookup("zh-Hant-CN-x-private1-private2", tags) == "zh-Hant"
    assert lookup("de-AT-x-foo", tags) == "de-AT"
    assert lookup("de-x-foo", tags) == "de"
    assert lookup("*", tags) is None
    assert lookup("it", tags) is None


class LookedUp(dict[str, str]):
    """Tags that remember every spelling they were asked for."""

    def __init__(self, tags: dict[str, str]) -> None:
        super().__init__(tags)
        self.asked: list[str] = []

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.append(key)
        return super().get(key, default)


def test_lookup_of_a_huge_range_asks_only_for_what_a_tag_could_be() -> None:
    # Accept-Language is the client's: a range of thousands of subtags (an
    # 8 KB header, gunicorn's limit) was cut one subtag at a time and each
    # rest joined again, quadratic work on every redirect of the address
    # without a locale (0.3 s for 16 KB).
    tags = LookedUp({"de": "de", "de-at": "de-AT"})
    huge = "de-AT" + "-ab" * 8000
    assert lookup(huge, tags) == "de-AT"
    assert tags.asked == ["de-at"]
    tags.asked.clear()
    assert lookup("x" + "-x" * 8000, tags) is None
    # Cut one subtag at a time, and a single letter left at the end with it.
    assert tags.asked == ["x-x-x", "x"]


def test_a_header_of_thousands_of_ranges_tries_each_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    # 8 KB of ranges no locale has, then one that reaches de-AT through
    # Werkzeug (a language to its configured region): Werkzeug is asked
    # about that one only, and a repeated range is tried once.
    asked: list[str] = []
    best_match = LanguageAccept.best_match

    def counting(self: LanguageAccept, matches: Any, default: Any = None) -> Any:
        asked.extend(value for value, _ in self)
        return best_match(self, matches, default)

    monkeypatch.setattr(LanguageAccept, "best_match", counting)
    header = ",".join([f"x{i}" for i in range(1500)] + ["it"] * 500 + ["at-AT"])
    parsed = parse_accept_header(header + ",de;q=0.5", LanguageAccept)
    assert best_locale(parsed, ["en", "de-AT"]) == "de-AT"
    assert asked == ["de"]
    assert best_locale(parsed, ["en", "it"]) == "it"


def test_a_region_without_its_language_reaches_the_configured_region(
    make_app: Callable[..., Flask],
) -> None:
    assert best_locale([("de", 1)], ["en", "de-AT"]) == "de-AT"
    assert best_locale([("de-AT-x-foo", 1)], ["en", "de", "de-AT"]) == "de-AT"


# -- the start-up check (H10) ---------------------------------------------


def test_a_tag_not_in_app_locales_stops_the_start(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de-AT"])
    bp = localized(Blueprint("bp", __name__))
    bp.get("/a", locales=["en", "de-CH"])(lambda: "a")
    app.register_blueprint(bp)
    (problem,) = check_routes(app)
    assert problem.rule == "/<marmeon_locale:locale>/a"
    assert problem.endpoint == "bp.<lambda>"
    assert problem.id == "i18n.E001"
    assert "'de-CH', which is not one of APP_LOCALES" in problem.message
    assert "Did you mean 'de-AT'?" in problem.hint
    with pytest.raises(StartupError, match=r"de-CH") as info:
        app.test_client().get("/en/a")
    assert info.value.code == "H10"


def test_locales_on_a_route_that_is_not_localized_stops_the_start(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en"])
    app.get("/plain", locales=["en"], sitemap=True, authorize=everyone)(lambda: "p")
    app.get("/other", endpoint="other", locales=["en"])(lambda: "o")
    problems = {p.endpoint: p for p in check_routes(app)}
    assert set(problems) == {"<lambda>", "other"}
    for problem in problems.values():
        assert problem.id == "i18n.E003"
        assert "is not a localized route" in problem.message
        assert "localized(bp)" in problem.hint
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 1
    assert "'/other'" in result.output and "'/plain'" in result.output


def test_an_empty_list_stops_the_start(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en"])
    bp = localized(Blueprint("bp", __name__))
    bp.get("/a", locales=[])(lambda: "a")
    app.register_blueprint(bp)
    (problem,) = check_routes(app)
    assert problem.id == "i18n.E004"
    assert "exists in no locale" in problem.message


@pytest.mark.parametrize("value", ["en", 3, ["en", 2]])
def test_locales_of_the_wrong_type_is_a_type_error(
    make_app: Callable[..., Flask], value: object
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en"])
    with pytest.raises(TypeError, match=r"locales= of the route '/a' must be"):
        app.get("/a", locales=value)(lambda: "a")


def test_a_callable_returning_a_stranger_tag_names_the_route(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
    bp = localized(Blueprint("bp", __name__))
    bp.get("/a/<int:n>", endpoint="a", locales=lambda n: ["en", "it"])(lambda n: "")
    bp.get("/b", endpoint="b", locales=lambda: "en")(lambda: "b")
    app.register_blueprint(bp)
    app.config["PROPAGATE_EXCEPTIONS"] = True
    client = app.test_client()
    # Issue 20: a stranger tag is logged, and the page still answers in the
    # configured tags the function named (no longer a 500 in every locale).
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        assert client.get("/en/a/1").status_code == 200
        assert client.get("/de/a/1").status_code == 404
    (error,) = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert "'/<marmeon_locale:locale>/a/<int:n>'" in error and "'it'" in error
    with pytest.raises(TypeError, match=r"must return a list of locale tags"):
        client.get("/en/b")


def test_a_misspelled_option_suggests_locales(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    with pytest.raises(TypeError, match=r"Did you mean locales=\?"):
        app.get("/a", locale=["en"])(lambda: "a")


def test_the_apps_layouts_run_for_a_locale_the_page_lacks(
    make_app: Callable[..., Flask],
) -> None:
    from flask import g

    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
    bp = localized(Blueprint("bp", __name__))
    bp.get("/a", endpoint="a", locales=["en"])(lambda: "never in German")
    app.register_blueprint(bp)
    app.before_request(lambda: setattr(g, "layout", current_page().locale) or None)
    app.register_error_handler(404, lambda e: (f"404 layout={g.layout}", 404))
    response = app.test_client().get("/de/a")
    assert (response.status_code, response.text) == (404, "404 layout=de")
