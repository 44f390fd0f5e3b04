"""What a new user trips on in the sitemap (issue 20): bad locale tags from a
``locales=`` function, messages that say what is wrong and how to fix it,
and the URL limit with an entry's own locales."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Blueprint, Flask
from lxml import etree

from flask_marmeon import SitemapEntry, check_routes, everyone, localized

from .conftest import locs

ORIGIN = "https://recipes.example"
ReadSitemap = Callable[..., etree._Element]


def recipes_app(
    make_app: Callable[..., Flask],
    entries: list[dict[str, Any]],
    *,
    locales: Any = None,
    **config: Any,
) -> Flask:
    app = make_app(APP_URL=ORIGIN, **{"APP_LOCALES": ["en", "fr"], **config})
    bp = localized(Blueprint("recipes", __name__))
    options: dict[str, Any] = {} if locales is None else {"locales": locales}

    @bp.get(
        "/r/<int:recipe_id>",
        sitemap=lambda: [SitemapEntry(**entry) for entry in entries],
        authorize=everyone,
        **options,
    )
    def recipe(recipe_id: int) -> str:
        return f"recipe {recipe_id}"

    app.register_blueprint(bp)
    return app


def warnings_of(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(
        r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING
    )


# -- a locales= function that returns a tag the app does not hold ----------


def test_a_bad_tag_from_a_locales_function_leaves_its_entries_out(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def recipe_locales(recipe_id: int) -> list[str]:
        return ["en", "fr_FR"] if recipe_id == 1 else ["en", "fr"]

    entries = [{"params": {"recipe_id": 1}}, {"params": {"recipe_id": 2}}]
    app = recipes_app(make_app, entries, locales=recipe_locales)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    # The entry whose function gave fr_FR is left out, the other is listed.
    assert found == [f"{ORIGIN}/en/r/2", f"{ORIGIN}/fr/r/2"]
    said = warnings_of(caplog)
    assert "'/<marmeon_locale:locale>/r/<int:recipe_id>'" in said
    assert "1 entry left out" in said
    assert "'fr_FR'" in said and "use '-'" in said and "'fr-FR'" in said


def test_a_bad_tag_from_a_locales_function_does_not_break_the_page(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = recipes_app(make_app, [], locales=lambda recipe_id: ["en", "fr_FR"])
    client = app.test_client()
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        # The page exists in the configured tag it names, and in no other.
        assert client.get("/en/r/1").status_code == 200
        assert client.get("/fr/r/1").status_code == 404
        assert client.get("/en/r/2").status_code == 200
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    # Logged naming the route and the fix, once.
    assert len(errors) == 1
    assert "/r/<int:recipe_id>" in errors[0] and "'fr-FR'" in errors[0]


def test_a_locales_list_with_an_underscore_says_tags_use_a_hyphen(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "fr-FR"])
    bp = localized(Blueprint("bp", __name__))
    bp.get("/a", locales=["en", "fr_FR"])(lambda: "a")
    app.register_blueprint(bp)
    (problem,) = check_routes(app)
    assert "Locale tags use '-', not '_': 'fr-FR'" in problem.reason
    assert "Did you mean 'fr-FR'?" in problem.reason


# -- messages that say what is wrong -------------------------------------------


def test_a_str_id_on_an_int_route_names_the_types(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = recipes_app(make_app, [{"params": {"recipe_id": "1"}}])
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        assert locs(read_sitemap(app)) == []
    said = warnings_of(caplog)
    # Not "would not answer them with 200": /en/r/1 does answer 200.
    assert "would not answer" not in said
    assert app.test_client().get("/en/r/1").status_code == 200
    assert "reads the address back" not in said
    assert "'1' of 'recipe_id' is a str" in said
    assert "gives the view an int" in said
    assert "wrong type for the converter" in said


@pytest.mark.parametrize(("value", "given"), [(True, "a bool"), (2.5, "a float")])
def test_a_value_of_another_type_names_the_types(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
    value: object,
    given: str,
) -> None:
    app = recipes_app(make_app, [{"params": {"recipe_id": value}}])
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        assert locs(read_sitemap(app)) == []
    said = warnings_of(caplog)
    assert (
        f"of 'recipe_id' is {given}, but the route's converter gives the view an int"
        in said
    )


def test_an_unknown_parameter_is_named_beside_the_missing_one(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # With a locales= function too: it is not called with the wrong names.
    for locales in (None, lambda recipe_id: ["en"]):
        caplog.clear()
        app = recipes_app(make_app, [{"params": {"id": 1}}], locales=locales)
        with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
            assert locs(read_sitemap(app)) == []
        said = warnings_of(caplog)
        assert "'recipe_id' is missing" in said
        assert "'id' is unknown to the route" in said


def test_a_failing_provider_is_logged_naming_the_route(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(APP_URL=ORIGIN)

    def recipes() -> list[SitemapEntry]:
        raise ConnectionError("database down")

    app.get("/r/<int:recipe_id>", sitemap=recipes, authorize=everyone)(
        lambda recipe_id: ""
    )
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        assert app.test_client().get("/sitemap.xml").status_code == 503
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    # In the message itself, not only inside the traceback.
    assert "'/r/<int:recipe_id>'" in record.getMessage()
    assert "ConnectionError: database down" in record.getMessage()
    assert record.exc_info is not None
    assert isinstance(record.exc_info[1], ConnectionError)


# -- the URL limit counts the locales written ---------------------------------


def test_the_url_limit_counts_an_entrys_own_locales(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    entries = [{"params": {"recipe_id": n}, "locales": ["en", "fr"]} for n in (1, 2, 3)]
    app = recipes_app(
        make_app,
        entries,
        APP_LOCALES=["en", "de-AT", "fr"],
        MARMEON_SITEMAP_MAX_URLS=2,
    )
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    # The first entry's two URLs fit; the two others do not.
    assert found == [f"{ORIGIN}/en/r/1", f"{ORIGIN}/fr/r/1"]
    said = warnings_of(caplog)
    assert "4 URLs (2 entries) left out" in said


def test_the_count_of_urls_left_out_skips_entries_left_out_for_other_reasons(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    entries = [
        {"params": {"recipe_id": 1}, "locales": ["en"]},
        {"params": {"recipe_id": 2}, "locales": ["en", "fr"]},
        {"params": {"recipe_id": "x"}, "locales": ["en"]},
        {"params": {"recipe_id": 4}},
    ]
    app = recipes_app(
        make_app,
        entries,
        APP_LOCALES=["en", "de-AT", "fr"],
        MARMEON_SITEMAP_MAX_URLS=1,
    )
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        assert locs(read_sitemap(app)) == [f"{ORIGIN}/en/r/1"]
    said = warnings_of(caplog)
    # Entry 2 (two URLs) and entry 4 (three: every locale) did not fit; the
    # third is not an address at all, and is said in the route's warning.
    assert "5 URLs (2 entries) left out" in said
    assert "refuses 'x'" in said
