"""Fixtures that build apps; every test gets a fresh one."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask, Response, session
from flask.testing import FlaskClient, FlaskCliRunner

from flask_marmeon import Marmeon


@pytest.fixture(autouse=True)
def _clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite must not depend on the developer's shell.
    monkeypatch.delenv("APP_URL", raising=False)
    monkeypatch.delenv("APP_LOCALES", raising=False)
    monkeypatch.delenv("MARMEON_INDEXABLE", raising=False)


@pytest.fixture(params=["constructor", "init_app"])
def make_app(request: pytest.FixtureRequest) -> Callable[..., Flask]:
    """Build an app with the extension, as ``Marmeon(app)`` or ``init_app``.

    Keyword arguments go into ``app.config``. Routes may be added afterwards.
    """

    def make(**config: Any) -> Flask:
        app = Flask("testapp")
        app.config["TESTING"] = True
        app.config.update(config)
        if request.param == "constructor":
            Marmeon(app)
        else:
            Marmeon().init_app(app)
        return app

    return make


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """An app with APP_URL set and the extension installed."""
    return make_app(APP_URL="https://notes.example")


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as client:
        yield client


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


#: What ``cookie_hooks`` gives: a logged-in client, the sessions the hooks see.
CookieHooks = Callable[[Flask], tuple[FlaskClient, list[dict[str, Any]]]]


@pytest.fixture
def cookie_hooks() -> CookieHooks:
    """Give an app what a cookie middleware does: hooks that read and write
    the session and set a tracking cookie on every answer, and a /login page.
    Returns a client that logged in (it holds a session cookie, so a page
    that keeps cookies would send one) and the sessions the hooks see from
    then on."""

    def install(app: Flask) -> tuple[FlaskClient, list[dict[str, Any]]]:
        app.secret_key = app.secret_key or "secret"
        seen: list[dict[str, Any]] = []

        @app.before_request
        def read_and_write_session() -> None:
            seen.append(dict(session))
            session["visits"] = session.get("visits", 0) + 1

        @app.after_request
        def set_cookie(response: Response) -> Response:
            session["seen"] = True
            response.set_cookie("tracker", "1")
            return response

        @app.get("/login")
        def login() -> str:
            session["user"] = "ada"
            return "in"

        client = app.test_client()
        assert client.get("/login").headers.getlist("Set-Cookie")  # a normal page
        assert client.get_cookie("session") is not None
        seen.clear()
        return client, seen

    return install


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Debian Chromium, driven by Playwright, for the whole run.

    Shared by every browser test: Playwright's sync API keeps one driver per
    thread, so a second one started beside it would fail.
    """
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: `make test` installs it.")
        pytest.skip(f"{CHROMIUM} is not installed: run `make browser-deps`.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """One real PostgreSQL server for the whole run (``tests.postgres``):
    Debian's, in a temporary folder, on a free port, stopped by its pid.
    Tests that need a database of their own take ``postgres_url``."""
    from tests.postgres import PostgresServer, binaries

    if binaries() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is missing: `make test` installs it.")
        pytest.skip("PostgreSQL is not installed: run `make server-deps`.")
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres: Any) -> str:
    """The SQLAlchemy URL (``postgresql+psycopg://``) of a new, empty
    database on the session's PostgreSQL server, for this test alone."""
    return str(postgres.new_database())


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """The SQLAlchemy URL of a new, empty database of each kind: a SQLite
    file, then a database on the real PostgreSQL (``postgres_url``). A test
    that takes it, directly or through a fixture, runs on both."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def redis_server(tmp_path: Any) -> Iterator[Any]:
    """One real redis-server for this test (``tests.sitemap.servers``), in
    memory only, on a free port of 127.0.0.1, stopped by its pid."""
    from tests.sitemap.servers import RedisServer

    server = RedisServer(tmp_path)
    yield server
    server.stop()
