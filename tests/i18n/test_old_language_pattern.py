"""What Flask's URL-processor ``lang_code`` pattern leaves behind after a
move to localized(): an old prefix (H10, i18n.E002, whose hint is to remove
it) and ``url_for(..., lang_code=...)`` (a development warning)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from flask import Blueprint, Flask, url_for

from flask_marmeon import check_routes, everyone, localized


def _site(make_app: Callable[..., Flask], prefix: str | None, **route: object) -> Flask:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
    pages = localized(Blueprint("pages", __name__, url_prefix=prefix))

    @pages.get("/about", **route)  # type: ignore[arg-type]
    def about(**values: str) -> str:
        return "about"

    app.register_blueprint(pages)
    return app


@pytest.mark.parametrize("name", ["lang_code", "lang", "language"])
def test_an_old_prefix_on_a_marked_route_says_to_remove_it(
    make_app: Callable[..., Flask], name: str
) -> None:
    app = _site(make_app, f"/<{name}>", sitemap=True, authorize=everyone)
    problems = check_routes(app)
    hints = {problem.id: problem.hint for problem in problems}
    assert "i18n.E002" in hints
    for hint in hints.values():
        assert f"remove the old language prefix '/<{name}>'" in hint
        assert "sitemap=<function>" not in hint


def test_an_old_prefix_on_an_unmarked_route_is_a_problem_too(
    make_app: Callable[..., Flask],
) -> None:
    app = _site(make_app, "/<string:lang_code>")
    (problem,) = [p for p in check_routes(app) if p.id == "i18n.E002"]
    assert problem.rule == "/<marmeon_locale:locale>/<string:lang_code>/about"
    assert "url_for(..., locale=...)" in problem.hint


def test_a_route_with_its_own_first_parameter_is_no_old_prefix(
    make_app: Callable[..., Flask],
) -> None:
    app = _site(make_app, "/<section>", sitemap=True, authorize=everyone)
    problems = check_routes(app)
    assert not [p for p in problems if p.id == "i18n.E002"]
    (e007,) = [p for p in problems if p.id == "routing.E007"]
    assert "sitemap=<function>" in e007.hint


@pytest.mark.parametrize("debug", [True, False])
def test_url_for_with_lang_code_on_a_localized_endpoint_warns_once_in_development(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture, debug: bool
) -> None:
    app = _site(make_app, None)
    app.debug = debug
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        with app.test_request_context("/"):
            for _ in range(3):
                assert (
                    url_for("pages.about", lang_code="de") == "/en/about?lang_code=de"
                )
            assert url_for("pages.about", locale="de") == "/de/about"
    said = [r.getMessage() for r in caplog.records if "lang_code" in r.getMessage()]
    if not debug:
        assert said == []
        return
    assert len(said) == 1
    assert "url_for('pages.about', locale='de')" in said[0]
