"""The browser module's endpoint: /_marmeon/marmeon.<hash>.js."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from importlib.resources import files

import pytest
from flask import Flask, session

from flask_marmeon._state import get_state
from flask_marmeon.browser import module_path

SOURCE = files("flask_marmeon").joinpath("static").joinpath("marmeon.js").read_bytes()


def test_path_carries_content_hash(app: Flask) -> None:
    digest = hashlib.sha256(SOURCE).hexdigest()[:12]
    assert module_path(get_state(app)) == f"/_marmeon/marmeon.{digest}.js"


def test_module_is_served_with_long_caching(app: Flask) -> None:
    response = app.test_client().get(module_path(get_state(app)))
    assert response.status_code == 200
    assert response.data == SOURCE
    assert response.mimetype == "text/javascript"
    cache = response.cache_control
    assert cache.public and cache.immutable and cache.max_age == 31_536_000
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_head_request_has_no_body(app: Flask) -> None:
    response = app.test_client().head(module_path(get_state(app)))
    assert response.status_code == 200
    assert response.data == b""
    assert response.content_length == len(SOURCE)


def test_revalidation_answers_304(app: Flask) -> None:
    client = app.test_client()
    path = module_path(get_state(app))
    etag = client.get(path).headers["ETag"]
    response = client.get(path, headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.data == b""


@pytest.mark.parametrize("name", ["marmeon.0123456789ab.js", "marmeon..js"])
def test_other_hash_is_404_and_not_cached(app: Flask, name: str) -> None:
    response = app.test_client().get(f"/_marmeon/{name}")
    assert response.status_code == 404
    assert response.cache_control.no_store


def test_served_without_hooks_session_or_cookie(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(SECRET_KEY="s")
    calls: list[str] = []

    @app.before_request
    def touch_session() -> None:
        calls.append("before")
        session["seen"] = True

    client = app.test_client()
    response = client.get(module_path(get_state(app)))
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers
    assert calls == []
    # The same app sets its cookie on its own pages: the hook is live.
    assert "Set-Cookie" in client.get("/elsewhere").headers


def test_other_methods_and_paths_reach_the_app(app: Flask) -> None:
    @app.route("/_marmeon/<path:rest>", methods=["GET", "POST"])
    def mine(rest: str) -> str:
        return f"app {rest}"

    client = app.test_client()
    path = module_path(get_state(app))
    assert client.post(path).get_data(as_text=True) == f"app {path[10:]}"
    assert client.get("/_marmeon/other.js").get_data(as_text=True) == "app other.js"


def test_turned_off(make_app: Callable[..., Flask]) -> None:
    app = make_app(MARMEON_BROWSER_SCRIPT=False)
    response = app.test_client().get(module_path(get_state(app)))
    assert response.status_code == 404
    assert response.data != SOURCE


def test_mounted_below_a_prefix(app: Flask) -> None:
    path = module_path(get_state(app))
    response = app.test_client().get(path, environ_overrides={"SCRIPT_NAME": "/sub"})
    assert response.status_code == 200
    assert response.data == SOURCE
