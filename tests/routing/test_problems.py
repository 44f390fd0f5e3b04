"""The H10 checks: every problem at once, before the first request."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Blueprint, Flask
from flask.views import MethodView

from flask_marmeon import (
    RouteProblem,
    SitemapEntry,
    StartupError,
    api,
    authenticate,
    authorize,
    check_routes,
    everyone,
    localized,
    raise_on_problems,
)


def view(**kwargs: object) -> str:
    return "ok"


def is_admin() -> bool:
    return False


def reasons(app: Flask) -> dict[str | None, str]:
    return {p.rule: p.reason for p in check_routes(app)}


def test_a_correct_app_has_no_problem(app: Flask) -> None:
    app.get("/about", sitemap=True, authorize=everyone)(view)
    app.get("/n/<int:n>", sitemap=lambda: [], authorize=everyone)(view)
    assert check_routes(app) == []


def test_an_app_without_marked_routes_needs_no_app_url(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app()
    app.get("/about")(view)
    assert check_routes(app) == []
    assert app.test_client().get("/about").status_code == 200


def test_not_get(app: Flask) -> None:
    app.post("/x", sitemap=True, authorize=everyone)(view)
    assert "does not answer GET" in reasons(app)["/x"]


def test_other_methods_beside_get_are_fine(app: Flask) -> None:
    app.route("/x", methods=["GET", "POST"], sitemap=True, authorize=everyone)(view)
    assert check_routes(app) == []


def test_internal(app: Flask) -> None:
    app.get("/x", sitemap=True, authorize=everyone, internal=True)(view)
    assert "internal=True" in reasons(app)["/x"]


def test_api_group(app: Flask) -> None:
    bp = api(Blueprint("api", __name__, url_prefix="/api"))
    bp.get("/x", sitemap=True, authorize=everyone)(view)
    app.register_blueprint(bp)
    assert "api group" in reasons(app)["/api/x"]


def test_authenticate(app: Flask) -> None:
    app.get("/x", sitemap=True, authorize=everyone)(authenticate(view))
    assert "signed-in user" in reasons(app)["/x"]


def test_flask_login_login_required(app: Flask) -> None:
    flask_login = pytest.importorskip("flask_login")
    app.get("/x", sitemap=True, authorize=everyone)(flask_login.login_required(view))

    class Private(MethodView):
        decorators = [flask_login.login_required]

        def get(self) -> str:
            return "private"

    class PrivateGet(MethodView):
        @flask_login.login_required
        def get(self) -> str:
            return "private"

    app.add_url_rule(
        "/y", view_func=Private.as_view("y"), sitemap=True, authorize=everyone
    )
    app.add_url_rule(
        "/z", view_func=PrivateGet.as_view("z"), sitemap=True, authorize=everyone
    )
    found = reasons(app)
    assert {"/x", "/y", "/z"} <= found.keys()
    assert all("login_required" in found[rule] for rule in ("/x", "/y", "/z"))


def test_no_policy(app: Flask) -> None:
    app.get("/x", sitemap=True)(view)
    assert "authorize=everyone" in reasons(app)["/x"]


def test_a_policy_of_its_own(app: Flask) -> None:
    app.get("/x", sitemap=True, authorize=is_admin)(view)
    assert "'is_admin'" in reasons(app)["/x"]


def test_a_blueprint_saying_everyone_counts(app: Flask) -> None:
    bp = authorize(everyone)(Blueprint("about", __name__))
    bp.get("/about", sitemap=True)(view)
    app.register_blueprint(bp)
    assert check_routes(app) == []


def test_parameters_without_a_provider(app: Flask) -> None:
    app.get("/n/<int:n>", sitemap=True, authorize=everyone)(view)

    class Show(MethodView):
        def get(self, n: int) -> str:
            return "n"

    app.add_url_rule(
        "/m/<int:n>", view_func=Show.as_view("m"), sitemap=True, authorize=everyone
    )
    found = reasons(app)
    assert "'n'" in found["/n/<int:n>"] and "function view" in found["/n/<int:n>"]
    assert "sitemap() method" in found["/m/<int:n>"]


def test_a_class_view_with_sitemap_is_a_provider(app: Flask) -> None:
    class Show(MethodView):
        def get(self, n: int) -> str:
            return "n"

        def sitemap(self) -> list[SitemapEntry]:
            return []

    app.add_url_rule(
        "/m/<int:n>", view_func=Show.as_view("m"), sitemap=True, authorize=everyone
    )
    assert check_routes(app) == []


def test_app_url_missing_when_a_route_is_marked(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app()
    app.get("/about", sitemap=True, authorize=everyone)(view)
    (problem,) = check_routes(app)
    assert problem.rule is None and "APP_URL" in problem.reason


def make_broken(make_app: Callable[..., Flask]) -> Flask:
    app = make_app()
    app.post("/form", sitemap=True, authorize=everyone)(view)
    app.get("/secret", sitemap=True)(view)
    app.get("/n/<int:n>", sitemap=True, authorize=everyone)(view)
    return app


def test_every_problem_is_returned_at_once(make_app: Callable[..., Flask]) -> None:
    problems = check_routes(make_broken(make_app))
    assert {p.rule for p in problems} == {"/form", "/secret", "/n/<int:n>", None}
    assert problems[-1].rule is None  # the app's own problem comes last
    assert all(isinstance(p, RouteProblem) and p.code == "H10" for p in problems)
    assert all("endpoint 'view'" in str(p) for p in problems[:-1])


def test_the_first_request_raises_every_problem(
    make_app: Callable[..., Flask],
) -> None:
    app = make_broken(make_app)
    with pytest.raises(StartupError) as info:
        app.test_client().get("/n/1")
    error = info.value
    assert error.code == "H10"
    assert len(error.problems) == 4
    for rule in ("'/form'", "'/secret'", "'/n/<int:n>'", "APP_URL"):
        assert rule in str(error)
    # It stays refused: the app never answers.
    with pytest.raises(StartupError):
        app.test_client().get("/secret")


def test_raise_on_problems_is_eager(make_app: Callable[..., Flask]) -> None:
    with pytest.raises(StartupError) as info:
        raise_on_problems(make_broken(make_app))
    assert len(info.value.problems) == 4
    ok = make_app(APP_URL="https://notes.example")
    ok.get("/about", sitemap=True, authorize=everyone)(view)
    raise_on_problems(ok)


def test_the_error_does_not_call_every_problem_a_marked_routes(
    make_app: Callable[..., Flask],
) -> None:
    # A locales= naming a tag APP_LOCALES lacks stops the start, whether the
    # route is marked for the sitemap or not.
    app = make_app(APP_LOCALES=["en", "de"])
    pages = localized(Blueprint("pages", __name__))
    pages.get("/about", locales=["en", "fr"])(view)
    app.register_blueprint(pages)
    with pytest.raises(StartupError) as info:
        raise_on_problems(app)
    first_line = str(info.value).splitlines()[0]
    assert "marked" not in first_line and "1 problem" in first_line
    assert "'fr'" in str(info.value)
