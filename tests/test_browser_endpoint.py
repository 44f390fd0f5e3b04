"""The browser module's endpoint: {APPLICATION_ROOT}/marmeon.<hash>.js."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from importlib.resources import files
from urllib.robotparser import RobotFileParser

import html5lib
import pytest
from flask import Flask, render_template_string, session
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.test import Client
from werkzeug.wrappers import Response

from flask_marmeon import everyone
from flask_marmeon._state import get_state
from flask_marmeon.browser import module_path

SOURCE = files("flask_marmeon").joinpath("static").joinpath("marmeon.js").read_bytes()
DIGEST = hashlib.sha256(SOURCE).hexdigest()[:12]
PAGE = "<!doctype html><html><head>{{ render_head() }}</head><body></body></html>"


def module_src(html: str) -> str:
    """The ``src`` of the page's module script (parsed, not matched)."""
    document = html5lib.parse(html, namespaceHTMLElements=False)
    sources = [
        el.get("src") for el in document.iter("script") if el.get("type") == "module"
    ]
    assert len(sources) == 1, sources
    src = sources[0]
    assert isinstance(src, str)
    return src


def with_page(app: Flask) -> Flask:
    """Add ``/`` (in the sitemap, so robots.txt exists) writing the head."""

    @app.get("/", sitemap=True, authorize=everyone)
    def index() -> str:
        return render_template_string(PAGE)

    return app


def test_path_carries_content_hash(app: Flask) -> None:
    assert module_path(get_state(app)) == f"/marmeon.{DIGEST}.js"


def test_page_loads_the_module_from_its_address(app: Flask) -> None:
    html = with_page(app).test_client().get("/").get_data(as_text=True)
    assert module_src(html) == f"/marmeon.{DIGEST}.js"


def test_module_is_served_with_long_caching(app: Flask) -> None:
    response = app.test_client().get(f"/marmeon.{DIGEST}.js")
    assert response.status_code == 200
    assert response.data == SOURCE
    assert response.mimetype == "text/javascript"
    cache = response.cache_control
    assert cache.public and cache.immutable and cache.max_age == 31_536_000
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["ETag"] == f'"{DIGEST}"'


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


def test_a_failed_precondition_is_not_kept_by_caches(app: Flask) -> None:
    # Anybody may send If-Match: the 412 it earns must not carry the
    # module's year of public caching (nor its body), or a shared cache
    # would hand the 412 to every visitor for that year.
    client = app.test_client()
    path = module_path(get_state(app))
    for method in ("GET", "HEAD"):
        response = client.open(path, method=method, headers={"If-Match": '"nope"'})
        assert response.status_code == 412
        assert response.data == b""
        assert response.cache_control.no_store
        assert not response.cache_control.public
        assert response.cache_control.max_age is None
    for tag in (f'"{DIGEST}"', "*"):
        response = client.get(path, headers={"If-Match": tag})
        assert response.status_code == 200 and response.data == SOURCE


@pytest.mark.parametrize("digest", ["0123456789ab", DIGEST[::-1]])
def test_other_hash_is_404_and_not_cached(app: Flask, digest: str) -> None:
    assert digest != DIGEST
    response = app.test_client().get(f"/marmeon.{digest}.js")
    assert response.status_code == 404
    assert response.cache_control.no_store
    assert response.data != SOURCE


def test_nothing_under_the_internal_prefix(app: Flask) -> None:
    client = app.test_client()
    for path in (f"/_marmeon/marmeon.{DIGEST}.js", f"/_marmeon/marmeon.{DIGEST}"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.data != SOURCE


def test_robots_txt_lets_crawlers_fetch_the_module(app: Flask) -> None:
    client = with_page(app).test_client()
    robots = client.get("/robots.txt")
    assert robots.status_code == 200
    parser = RobotFileParser()
    parser.parse(robots.get_data(as_text=True).splitlines())
    src = module_src(client.get("/").get_data(as_text=True))
    for agent in ("*", "Googlebot", "bingbot"):
        assert parser.can_fetch(agent, "https://notes.example" + src)
        # The parser reads the file: it does keep crawlers out of /_marmeon/.
        assert not parser.can_fetch(agent, "https://notes.example/_marmeon/preview")


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
    @app.route("/<name>", methods=["GET", "POST"])
    def mine(name: str) -> str:
        return f"app {name}"

    client = app.test_client()
    path = module_path(get_state(app))
    assert client.post(path).get_data(as_text=True) == f"app {path[1:]}"
    # Only a twelve-digit hash is the module's: an app's own file is its own.
    for name in ("marmeon.settings.js", "marmeon..js", f"marmeon.{DIGEST}.css"):
        assert client.get("/" + name).get_data(as_text=True) == f"app {name}"


def test_turned_off(make_app: Callable[..., Flask]) -> None:
    app = with_page(
        make_app(APP_URL="https://notes.example", MARMEON_BROWSER_SCRIPT=False)
    )
    response = app.test_client().get(f"/marmeon.{DIGEST}.js")
    assert response.status_code == 404
    assert response.data != SOURCE
    html = app.test_client().get("/").get_data(as_text=True)
    assert "<script" not in html


def test_mounted_under_application_root(make_app: Callable[..., Flask]) -> None:
    # Really served under /blog: the page names /blog/marmeon.<hash>.js and
    # that address answers; the root answers nothing of the app's.
    app = with_page(make_app(APP_URL="https://notes.example", APPLICATION_ROOT="/blog"))
    outer = DispatcherMiddleware(Response("outer", status=404), {"/blog": app})
    client = Client(outer)
    html = client.get("/blog/").get_data(as_text=True)
    src = module_src(html)
    assert src == f"/blog/marmeon.{DIGEST}.js"
    response = client.get(src)
    assert response.status_code == 200
    assert response.get_data() == SOURCE
    assert client.get(f"/marmeon.{DIGEST}.js").status_code == 404
    robots = client.get("/blog/robots.txt").get_data(as_text=True)
    parser = RobotFileParser()
    parser.parse(robots.splitlines())
    assert parser.can_fetch("*", "https://notes.example" + src)


FORGED = ["//evil.example", "https://evil.example", "/evil", "\\\\evil.example"]


@pytest.mark.parametrize("prefix", FORGED)
def test_src_does_not_follow_a_forged_prefix(
    make_app: Callable[..., Flask], prefix: str
) -> None:
    # Through ProxyFix (X-Forwarded-Prefix) and as a raw SCRIPT_NAME: the
    # module's src is the configured mount path's, never the request's.
    app = with_page(make_app(APP_URL="https://notes.example"))
    app.wsgi_app = ProxyFix(app.wsgi_app, x_prefix=1)  # type: ignore[method-assign]
    client = app.test_client()
    expected = f"/marmeon.{DIGEST}.js"
    html = client.get("/", headers={"X-Forwarded-Prefix": prefix}).text
    assert module_src(html) == expected
    html = client.get("/", environ_overrides={"SCRIPT_NAME": prefix}).text
    assert module_src(html) == expected
    assert not re.search(r"evil", html)
