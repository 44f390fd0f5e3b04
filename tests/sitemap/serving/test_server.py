"""The cache under real concurrency: threads against a real server on 127.0.0.1."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from werkzeug.serving import make_server

from flask_marmeon import SitemapEntry, everyone
from flask_marmeon.sitemap.state import sitemap_of
from tests.processes import Response, at_once, http_get

Serve = Callable[[Flask], str]


@pytest.fixture
def serve() -> Iterator[Serve]:
    servers = []

    def start(app: Flask) -> str:
        server = make_server("127.0.0.1", 0, app, threaded=True)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{server.port}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def fetch_together(url: str, count: int = 8) -> list[Response]:
    return at_once(lambda: http_get(url), count, wait=20)


class Provider:
    def __init__(self) -> None:
        self.calls = 0
        self.fail = False
        self.lock = threading.Lock()

    def __call__(self) -> list[SitemapEntry]:
        with self.lock:
            self.calls += 1
        time.sleep(0.3)  # long enough for every request to arrive meanwhile
        if self.fail:
            raise RuntimeError("database down")
        return [SitemapEntry({"n": n}) for n in range(3)]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make(make_app: Callable[..., Flask], provider: Provider) -> Flask:
    app = make_app(APP_URL="https://notes.example")
    app.get("/n/<int:n>", sitemap=provider, authorize=everyone)(lambda n: str(n))
    return app


def test_requests_that_arrive_together_share_one_build(
    make_app: Callable[..., Flask], serve: Serve
) -> None:
    provider = Provider()
    base = serve(make(make_app, provider))
    results = fetch_together(base + "/sitemap.xml")
    assert provider.calls == 1
    assert {status for status, _, _ in results} == {200}
    assert len({body for _, _, body in results}) == 1
    assert b"https://notes.example/n/2" in results[0][2]


def test_a_failure_serves_the_last_good_file_and_is_logged_once(
    make_app: Callable[..., Flask], serve: Serve, caplog: pytest.LogCaptureFixture
) -> None:
    provider = Provider()
    app = make(make_app, provider)
    clock = Clock()
    sitemap_of(app).cache.clock = clock
    base = serve(app)
    good = fetch_together(base + "/sitemap.xml", 2)[0][2]
    provider.fail = True
    clock.now += 301  # past the TTL
    cache = sitemap_of(app).cache
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        results = fetch_together(base + "/sitemap.xml")
        # The rebuild runs in the background while the last file is served.
        assert cache.join(5)
        clock.now += 29  # still inside RETRY_AFTER
        results += fetch_together(base + "/sitemap.xml")
    assert provider.calls == 2  # the good build, then one failing one
    assert {status for status, _, _ in results} == {200}
    assert {body for _, _, body in results} == {good}
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert errors[0].exc_info is not None
    assert "database down" in str(errors[0].exc_info[1])


def test_a_failure_without_a_good_file_is_503_with_retry_after(
    make_app: Callable[..., Flask], serve: Serve, caplog: pytest.LogCaptureFixture
) -> None:
    provider = Provider()
    provider.fail = True
    base = serve(make(make_app, provider))
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        results = fetch_together(base + "/sitemap.xml")
    assert provider.calls == 1
    for status, headers, _ in results:
        assert status == 503
        assert 1 <= int(headers["Retry-After"]) <= 30
        assert headers["Cache-Control"] == "no-store"
    assert len([r for r in caplog.records if r.levelno == logging.ERROR]) == 1
