"""The IndexNow key: checked at start (H10), served at /<key>.txt like
robots.txt (issue 30, API.md "Telling search engines what changed")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from flask import Flask, Response, session

from flask_marmeon import StartupError, check_routes, everyone

if TYPE_CHECKING:
    from tests.conftest import CookieHooks

ORIGIN = "https://notes.example"
KEY = "5f1c0e7d9a2b4c6e"


def keyed_app(make_app: Callable[..., Flask], **config: object) -> Flask:
    app = make_app(**{"APP_URL": ORIGIN, "MARMEON_INDEXNOW_KEY": KEY, **config})
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    return app


def test_the_defaults_are_in_the_apps_config(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL=ORIGIN)
    assert app.config["MARMEON_INDEXNOW_KEY"] is None
    assert app.config["MARMEON_INDEXNOW_ENDPOINT"] == (
        "https://api.indexnow.org/indexnow"
    )
    assert app.test_client().get(f"/{KEY}.txt").status_code == 404


def test_the_key_is_served_alone_as_plain_text_without_cookies(
    make_app: Callable[..., Flask], cookie_hooks: CookieHooks
) -> None:
    app = keyed_app(make_app, SECRET_KEY="s")
    client, seen = cookie_hooks(app)
    response = client.get(f"/{KEY}.txt")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert response.data == KEY.encode()
    assert "Set-Cookie" not in response.headers
    assert "Cookie" not in response.headers.get("Vary", "")
    assert seen == [{}]
    # Another key's file is no file.
    assert client.get("/0000000000000000.txt").status_code == 404


def test_the_key_file_under_a_mount_path(make_app: Callable[..., Flask]) -> None:
    app = keyed_app(make_app, APPLICATION_ROOT="/blog")
    # The app's routes are below the mount path, which the server strips.
    response = app.test_client().get(
        f"/{KEY}.txt", environ_overrides={"SCRIPT_NAME": "/blog"}
    )
    assert response.status_code == 200 and response.text == KEY


def test_a_deployment_that_must_not_be_indexed_answers_404_without_cookies(
    make_app: Callable[..., Flask],
) -> None:
    app = keyed_app(make_app, MARMEON_INDEXABLE=False, SECRET_KEY="s")

    @app.after_request
    def track(response: Response) -> Response:
        session["visited"] = True
        return response

    response = app.test_client().get(f"/{KEY}.txt")
    assert response.status_code == 404
    assert KEY not in response.text
    assert "Set-Cookie" not in response.headers
    assert response.cache_control.no_store


def test_the_apps_own_route_wins(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = keyed_app(make_app)
    app.get("/<name>.txt", endpoint="mine")(lambda name: f"mine {name}")
    assert app.test_client().get(f"/{KEY}.txt").text == f"mine {KEY}"
    assert "key file" in caplog.text and "not served" in caplog.text


@pytest.mark.parametrize(
    "key",
    ["short", "x" * 129, "has space-in-it", "under_score", "ключключключ", 12345678],
)
def test_a_key_that_breaks_the_pattern_stops_the_start(
    make_app: Callable[..., Flask], key: object
) -> None:
    app = keyed_app(make_app, MARMEON_INDEXNOW_KEY=key)
    (problem,) = check_routes(app)
    assert problem.code == "H10" and problem.rule is None
    assert problem.id == "indexnow.E001"
    assert "MARMEON_INDEXNOW_KEY" in problem.message
    assert "8 to 128" in problem.hint
    with pytest.raises(StartupError, match="MARMEON_INDEXNOW_KEY"):
        app.test_client().get(f"/{key}.txt")
    result = app.test_cli_runner().invoke(args=["marmeon", "check-routes"])
    assert result.exit_code == 1 and "MARMEON_INDEXNOW_KEY" in result.output


@pytest.mark.parametrize("key", ["a" * 8, "A-9" * 42 + "ab", KEY])
def test_keys_in_the_pattern_pass(make_app: Callable[..., Flask], key: str) -> None:
    app = keyed_app(make_app, MARMEON_INDEXNOW_KEY=key)
    assert check_routes(app) == []
    assert app.test_client().get(f"/{key}.txt").text == key


@pytest.mark.parametrize(
    "endpoint", ["ftp://api.indexnow.org/indexnow", "api.indexnow.org", "", None, 3]
)
def test_an_endpoint_that_is_not_http_stops_the_start(
    make_app: Callable[..., Flask], endpoint: object
) -> None:
    app = keyed_app(make_app, MARMEON_INDEXNOW_ENDPOINT=endpoint)
    (problem,) = check_routes(app)
    assert problem.id == "indexnow.E003"
    assert "MARMEON_INDEXNOW_ENDPOINT" in problem.message
    assert "http or https" in problem.message and "bing.com" in problem.hint


def test_a_key_needs_app_url(make_app: Callable[..., Flask]) -> None:
    app = make_app(MARMEON_INDEXNOW_KEY=KEY)
    app.get("/about")(lambda: "about")
    (problem,) = check_routes(app)
    assert problem.id == "indexnow.E002"
    assert "APP_URL" in problem.message and "keyLocation" in problem.hint
