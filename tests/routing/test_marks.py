"""authorize(), everyone, authenticate and api() on views and blueprints."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Blueprint, Flask, g, request
from flask.views import MethodView, View

from flask_marmeon import api, authenticate, authorize, everyone


def deny() -> bool:
    return False


def test_everyone_allows() -> None:
    assert everyone() is True


def test_authorize_on_a_view_function(app: Flask) -> None:
    @app.get("/closed")
    @authorize(deny)
    def closed() -> str:
        return "secret"

    @app.get("/open")
    @authorize(everyone)
    def open_() -> str:
        return "hello"

    client = app.test_client()
    assert client.get("/closed").status_code == 403
    assert client.get("/open").status_code == 200


def test_authorize_reads_the_request(app: Flask) -> None:
    @app.get("/admin")
    @authorize(lambda: request.headers.get("X-Admin") == "1")
    def admin() -> str:
        return "admin"

    client = app.test_client()
    assert client.get("/admin").status_code == 403
    assert client.get("/admin", headers={"X-Admin": "1"}).status_code == 200


@pytest.mark.parametrize("base", [View, MethodView])
def test_authorize_on_a_view_class(app: Flask, base: type[View]) -> None:
    @authorize(deny)
    class Closed(base):  # type: ignore[valid-type,misc]
        def dispatch_request(self, **kwargs: Any) -> str:
            return "secret"

        def get(self) -> str:
            return "secret"

    app.add_url_rule("/closed", view_func=Closed.as_view("closed"))
    assert app.test_client().get("/closed").status_code == 403


def test_authorize_on_a_blueprint_marks_every_route_and_the_route_wins(
    app: Flask,
) -> None:
    bp = Blueprint("members", __name__)
    assert authorize(deny)(bp) is bp

    @bp.get("/a")
    def a() -> str:
        return "a"

    @bp.get("/b", authorize=everyone)
    def b() -> str:
        return "b"

    app.register_blueprint(bp)
    client = app.test_client()
    assert client.get("/a").status_code == 403
    assert client.get("/b").status_code == 200


def test_a_view_mark_wins_over_the_blueprint(app: Flask) -> None:
    bp = authorize(deny)(Blueprint("members", __name__))

    @bp.get("/a")
    @authorize(everyone)
    def a() -> str:
        return "a"

    app.register_blueprint(bp)
    assert app.test_client().get("/a").status_code == 200


def test_authorize_refuses_what_is_not_a_policy() -> None:
    with pytest.raises(TypeError, match="Did you mean authorize\\(everyone\\)"):
        authorize("everyone")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Blueprint"):
        authorize(everyone)(42)


def test_authenticate_without_flask_login_reads_g_user(app: Flask) -> None:
    @app.before_request
    def load_user() -> None:
        g.user = request.headers.get("X-User")

    @app.get("/me")
    @authenticate
    def me() -> str:
        return f"hello {g.user}"

    client = app.test_client()
    assert client.get("/me").status_code == 401
    response = client.get("/me", headers={"X-User": "ada"})
    assert response.status_code == 200
    assert response.text == "hello ada"


def test_authenticate_with_flask_login(app: Flask) -> None:
    flask_login = pytest.importorskip("flask_login")

    class User(flask_login.UserMixin):  # type: ignore[misc,name-defined]
        def __init__(self, user_id: str) -> None:
            self.id = user_id

    manager = flask_login.LoginManager(app)

    @manager.request_loader
    def load(req: Any) -> User | None:
        user_id = req.headers.get("X-User")
        return User(user_id) if user_id else None

    @app.get("/me")
    @authenticate
    def me() -> str:
        return f"hello {flask_login.current_user.id}"

    client = app.test_client()
    assert client.get("/me").status_code == 401  # no login view: 401
    assert client.get("/me", headers={"X-User": "ada"}).text == "hello ada"


def test_authenticate_on_a_view_class(app: Flask) -> None:
    @authenticate
    class Me(MethodView):
        def get(self) -> str:
            return "me"

    app.add_url_rule("/me", view_func=Me.as_view("me"))
    assert app.test_client().get("/me").status_code == 401


def test_api_returns_the_same_blueprint() -> None:
    bp = Blueprint("api", __name__)
    assert api(bp) is bp
    with pytest.raises(TypeError, match="Blueprint"):
        api("api")  # type: ignore[arg-type]


def test_a_policy_reads_what_the_apps_own_hook_loads(app: Flask) -> None:
    # The app's own before_request hook, added after Marmeon(app), loads the
    # user; the policy runs after it.
    @app.before_request
    def load_user() -> None:
        g.user = request.headers.get("X-User")

    @app.get("/mine")
    @authorize(lambda: g.get("user") == "ada")
    def mine() -> str:
        return "mine"

    client = app.test_client()
    assert client.get("/mine").status_code == 403
    assert client.get("/mine", headers={"X-User": "ada"}).status_code == 200


def test_an_app_of_public_routes_runs_no_policy_hook(app: Flask) -> None:
    @app.get("/a")
    @authorize(everyone)
    def a() -> str:
        return "a"

    @app.get("/b")
    def b() -> str:
        return "b"

    hooks = list(app.before_request_funcs.get(None, ()))
    assert app.test_client().get("/a").status_code == 200
    assert list(app.before_request_funcs.get(None, ())) == hooks
