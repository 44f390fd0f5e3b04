"""The route options sitemap=, authorize=, internal= through url_rule_class."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Blueprint, Flask
from flask.views import MethodView
from werkzeug.routing import Map

from flask_marmeon import Marmeon, everyone
from flask_marmeon.routing.rule import MarmeonRule


def view() -> str:
    return "ok"


def entries() -> list[object]:
    return []


def add_with_app_route(app: Flask) -> None:
    app.route("/x", sitemap=entries, authorize=everyone, internal=True)(view)


def add_with_app_get(app: Flask) -> None:
    app.get("/x", sitemap=entries, authorize=everyone, internal=True)(view)


def add_with_add_url_rule(app: Flask) -> None:
    app.add_url_rule(
        "/x", view_func=view, sitemap=entries, authorize=everyone, internal=True
    )


def add_with_blueprint_route(app: Flask) -> None:
    bp = Blueprint("bp", __name__)
    bp.route("/x", sitemap=entries, authorize=everyone, internal=True)(view)
    app.register_blueprint(bp)


def add_with_blueprint_get(app: Flask) -> None:
    bp = Blueprint("bp", __name__)
    bp.get("/x", sitemap=entries, authorize=everyone, internal=True)(view)
    app.register_blueprint(bp)


def add_class_view(app: Flask) -> None:
    class X(MethodView):
        def get(self) -> str:
            return "ok"

    app.add_url_rule(
        "/x",
        view_func=X.as_view("x"),
        sitemap=entries,
        authorize=everyone,
        internal=True,
    )


@pytest.mark.parametrize(
    "add",
    [
        add_with_app_route,
        add_with_app_get,
        add_with_add_url_rule,
        add_with_blueprint_route,
        add_with_blueprint_get,
        add_class_view,
    ],
)
def test_every_way_of_adding_a_route_takes_the_options(
    make_app: Callable[..., Flask], add: Callable[[Flask], None]
) -> None:
    app = make_app(APP_URL="https://notes.example")
    add(app)
    (rule,) = [r for r in app.url_map.iter_rules() if r.rule == "/x"]
    assert isinstance(rule, MarmeonRule)
    assert rule.marmeon_sitemap is entries
    assert rule.marmeon_authorize is everyone
    assert rule.marmeon_internal is True
    assert rule.marmeon_localized is False


def test_a_blueprint_made_before_the_extension_gets_the_options() -> None:
    bp = Blueprint("bp", __name__)
    bp.get("/x", sitemap=True, authorize=everyone)(view)
    app = Flask("t")
    Marmeon(app)
    app.register_blueprint(bp)
    (rule,) = [r for r in app.url_map.iter_rules() if r.rule == "/x"]
    assert rule.marmeon_sitemap is True


def test_options_default_to_unmarked(app: Flask) -> None:
    app.get("/x")(view)
    (rule,) = [r for r in app.url_map.iter_rules() if r.rule == "/x"]
    assert (rule.marmeon_sitemap, rule.marmeon_authorize, rule.marmeon_internal) == (
        False,
        None,
        False,
    )


def test_copies_keep_the_options() -> None:
    rule = MarmeonRule("/x", endpoint="x", sitemap=True, authorize=everyone)
    rule.marmeon_localized = True
    copy = rule.empty()
    assert isinstance(copy, MarmeonRule)
    assert copy.marmeon_sitemap is True
    assert copy.marmeon_authorize is everyone
    assert copy.marmeon_localized is True
    Map([copy])  # the copy binds like any rule
    assert copy.get_empty_kwargs()["sitemap"] is True


@pytest.mark.parametrize(
    ("options", "culprit"),
    [
        ({"sitemap": "yes"}, "sitemap="),
        ({"authorize": "everyone"}, "authorize="),
        ({"internal": "no"}, "internal="),
    ],
)
def test_a_wrong_option_type_is_a_type_error_naming_the_route(
    app: Flask, options: dict[str, object], culprit: str
) -> None:
    with pytest.raises(TypeError, match=culprit) as info:
        app.add_url_rule("/wrong", view_func=view, **options)
    assert "'/wrong'" in str(info.value)


def test_the_authorize_decorator_is_accepted_as_the_option(app: Flask) -> None:
    from flask_marmeon import authorize

    app.get("/x", authorize=authorize(everyone))(view)
    (rule,) = [r for r in app.url_map.iter_rules() if r.rule == "/x"]
    assert rule.marmeon_authorize is everyone


def test_an_option_before_the_extension_is_werkzeugs_type_error() -> None:
    # Documented: Flask hands unknown options to werkzeug's Rule until
    # Marmeon(app) installs its rule class.
    app = Flask("t")
    with pytest.raises(TypeError, match="sitemap"):
        app.get("/x", sitemap=True)(view)


@pytest.mark.parametrize("allowed", [True, False])
def test_the_route_policy_is_enforced(app: Flask, allowed: bool) -> None:
    app.get("/x", authorize=lambda: allowed)(view)
    assert app.test_client().get("/x").status_code == (200 if allowed else 403)


@pytest.mark.parametrize(
    ("option", "suggestion"),
    [
        ("sitemapp", "sitemap"),
        ("authorise", "authorize"),
        ("strict_slash", "strict_slashes"),
    ],
)
def test_a_misspelled_route_option_names_the_right_spelling(
    app: Flask, option: str, suggestion: str
) -> None:
    with pytest.raises(TypeError) as info:
        app.add_url_rule("/a", "a", lambda: "", **{option: True})
    message = str(info.value)
    assert f"{option}=" in message and f"Did you mean {suggestion}=?" in message
