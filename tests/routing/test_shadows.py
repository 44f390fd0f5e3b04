"""A plain route that takes a localized route's address is an H10 problem
naming both routes (flask_marmeon.routing.shadows)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Blueprint, Flask

from flask_marmeon import StartupError, check_routes, localized


@pytest.fixture
def site(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
    docs = localized(Blueprint("docs", __name__))
    docs.get("/about", endpoint="about")(lambda: "about")
    docs.get("/notes/<int(min=5):note_id>", endpoint="note")(lambda note_id: "n")
    docs.get("/english", endpoint="english", locales=["en"])(lambda: "english")
    app.register_blueprint(docs)
    return app


def reasons(app: Flask) -> list[str]:
    return [str(problem) for problem in check_routes(app)]


def test_a_plain_route_at_a_localized_address_stops_the_start(site: Flask) -> None:
    site.get("/de/about", endpoint="german_about")(lambda: "plain")
    with pytest.raises(StartupError) as raised:
        site.test_client().get("/about", headers={"Accept-Language": "de"})
    (problem,) = raised.value.problems
    assert problem.startswith("route '/de/about' (endpoint 'german_about')")
    assert "'/<marmeon_locale:locale>/about' (endpoint 'docs.about')" in problem
    assert "in 'de'" in problem
    assert raised.value.code == "H10"


@pytest.mark.parametrize(
    ("rule", "address"),
    [
        ("/de/notes/7", "/de/notes/7"),  # one value of a route with arguments
        ("/en/notes/<int:n>", "/en/notes/5"),  # the same pattern
        ("/de/<path:rest>", "/de/about"),  # a catch-all takes them all
        ("/en/<slug>", "/en/about"),
    ],
)
def test_shadows_of_every_shape(site: Flask, rule: str, address: str) -> None:
    site.add_url_rule(rule, endpoint="plain", view_func=lambda **kw: "plain")
    found = reasons(site)
    assert found and all(p.startswith(f"route {rule!r}") for p in found)
    assert any(address in p for p in found), found


@pytest.mark.parametrize(
    "rule",
    [
        "/de/notes/3",  # below the converter's min=5: not the route's address
        "/de/english",  # the localized route has no German page (locales=)
        "/de/looks-localized",  # no localized route there
        "/fr/about",  # not a locale of the app
        "/about/de",
    ],
)
def test_no_shadow(site: Flask, rule: str) -> None:
    site.add_url_rule(rule, endpoint="plain", view_func=lambda: "plain")
    assert reasons(site) == []
    assert site.test_client().get(rule).text == "plain"
