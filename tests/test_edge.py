"""The extension's WSGI edge (flask_marmeon._edge): front endpoints, the
start-up check, cookie-free paths, and X-Robots-Tag on a site that must not
be indexed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import pytest
from flask import Flask, abort

from flask_marmeon import Marmeon, StartupError, everyone
from flask_marmeon._edge import Edge, add_front, edge_of
from flask_marmeon._state import get_state
from flask_marmeon.browser import module_path

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

NOINDEX = "noindex, nofollow"


def test_the_extension_installs_one_edge(app: Flask) -> None:
    state = get_state(app)
    assert isinstance(app.wsgi_app, Edge)
    assert edge_of(state) is app.wsgi_app


def test_a_front_endpoint_answers_its_paths_before_the_app(app: Flask) -> None:
    seen: list[str] = []

    def hello(
        environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes] | None:
        if environ["PATH_INFO"] != "/hello/there":
            return None  # another path under the prefix: the app's
        seen.append(environ["PATH_INFO"])
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"front"]

    add_front(get_state(app), "/hello/", hello)
    app.get("/hello/<name>")(lambda name: f"app {name}")
    client = app.test_client()
    assert client.get("/hello/there").data == b"front"
    assert client.get("/hello/you").data == b"app you"
    assert client.get("/").status_code == 404
    assert seen == ["/hello/there"]


def test_the_start_check_runs_before_the_first_request(app: Flask) -> None:
    # A marked route with an argument and no provider is an H10 problem.
    app.get("/n/<int:n>", sitemap=True, authorize=everyone)(lambda n: "n")
    with pytest.raises(StartupError):
        app.test_client().get("/")


@pytest.fixture
def staging(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(APP_URL="https://notes.example", MARMEON_INDEXABLE=False)
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    app.get("/broken", endpoint="broken")(lambda: 1 / 0)
    app.get("/gone", endpoint="gone")(lambda: abort(410))
    app.config["TESTING"] = False  # a real 500, as in production
    return app


def test_every_response_says_noindex_when_not_indexable(staging: Flask) -> None:
    client = staging.test_client()
    module = module_path(get_state(staging))
    statuses = {}
    for path in (
        "/about",
        "/broken",
        "/gone",
        "/missing",
        "/sitemap.xml",
        "/robots.txt",
        module,
        "/_marmeon/marmeon.0123456789ab.js",
    ):
        response = client.get(path)
        statuses[path] = response.status_code
        assert response.headers.getlist("X-Robots-Tag") == [NOINDEX], path
    assert statuses["/broken"] == 500 and statuses["/gone"] == 410
    assert statuses[module] == 200 and statuses["/missing"] == 404
    head = client.head("/about")
    assert head.headers["X-Robots-Tag"] == NOINDEX
    assert (
        client.get("/sitemap.xml", headers={"If-None-Match": "*"}).headers[
            "X-Robots-Tag"
        ]
        == NOINDEX
    )


def test_no_x_robots_tag_on_an_indexable_site(app: Flask) -> None:
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")
    client = app.test_client()
    for path in ("/about", "/missing", "/sitemap.xml", "/robots.txt"):
        assert "X-Robots-Tag" not in client.get(path).headers, path


def test_the_environment_can_say_not_indexable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MARMEON_INDEXABLE", "false")
    app = Flask("staging")
    Marmeon(app)
    app.get("/")(lambda: "home")
    assert app.test_client().get("/").headers["X-Robots-Tag"] == NOINDEX


@pytest.mark.parametrize(
    "module",
    [
        "flask_marmeon._edge",
        "flask_marmeon.browser",
        "flask_marmeon.sitemap.serving.views",
    ],
)
def test_no_import_cycle(module: str) -> None:
    # Imported first, in a fresh interpreter: a cycle fails there.
    code = f"import {module}; import flask_marmeon; print('ok')"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_refused_host_does_not_bring_the_cookie_back(
    make_app: Callable[..., Flask],
) -> None:
    # Issue 21: the edge keeps what the routing said per path; a request
    # that TRUSTED_HOSTS refuses must not be kept as the path's answer.
    from flask import session

    app = make_app(
        APP_URL="https://notes.example",
        SECRET_KEY="x",
        TRUSTED_HOSTS=["notes.example"],
    )
    app.get("/about", sitemap=True, authorize=everyone)(lambda: "about")

    @app.before_request
    def touch() -> None:
        session["n"] = 1

    client = app.test_client()
    assert client.get("/robots.txt", base_url="http://evil.example").status_code == 400
    for _ in range(2):
        answer = client.get("/robots.txt", base_url="https://notes.example")
        assert answer.status_code == 200
        assert "Set-Cookie" not in answer.headers
    assert (
        "Set-Cookie" in client.get("/about", base_url="https://notes.example").headers
    )
