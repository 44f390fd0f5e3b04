"""/sitemap.xml and /robots.txt: when they exist, what they send, and when
their provider fails."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Blueprint, Flask
from lxml import etree

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized
from flask_marmeon.sitemap.state import sitemap_of

from ..conftest import locs
from .notes_site import (
    ORIGIN,
    ROBOTS,
    ReadSitemap,
    mark_about,
    page,
)


def test_no_endpoints_without_a_marked_route(app: Flask) -> None:
    app.get("/about")(page)
    client = app.test_client()
    assert client.get("/sitemap.xml").status_code == 404
    assert client.get("/robots.txt").status_code == 404


def test_robots_txt_is_exactly_the_specifications(app: Flask) -> None:
    mark_about(app)
    response = app.test_client().get("/robots.txt")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.text == ROBOTS


def test_the_apps_own_routes_win(app: Flask) -> None:
    mark_about(app)
    app.get("/robots.txt", endpoint="my_robots")(lambda: "User-agent: *\nAllow: /\n")
    app.get("/sitemap.xml", endpoint="my_sitemap")(lambda: "mine")
    client = app.test_client()
    assert client.get("/robots.txt").text == "User-agent: *\nAllow: /\n"
    assert client.get("/sitemap.xml").text == "mine"


def test_the_apps_own_robots_txt_leaves_the_sitemap(
    app: Flask, read_sitemap: ReadSitemap
) -> None:
    mark_about(app)
    app.get("/robots.txt", endpoint="my_robots")(lambda: "mine")
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/about"]


def test_a_catch_all_that_is_not_localized_wins(app: Flask) -> None:
    mark_about(app)
    app.get("/<path:anything>", endpoint="catch_all")(
        lambda anything: f"caught {anything}"
    )
    client = app.test_client()
    assert client.get("/sitemap.xml").text == "caught sitemap.xml"
    assert client.get("/robots.txt").text == "caught robots.txt"


def test_a_localized_catch_all_does_not(
    make_app: Callable[..., Flask], read_sitemap: ReadSitemap
) -> None:
    app = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "de"])
    mark_about(app)
    pages = localized(Blueprint("pages", __name__))
    pages.get("/<path:anything>")(lambda anything: "caught")
    app.register_blueprint(pages)
    assert locs(read_sitemap(app)) == [f"{ORIGIN}/about"]
    assert app.test_client().get("/robots.txt").text == ROBOTS


@pytest.mark.parametrize("ttl", [300, 120])
def test_cache_control_follows_the_ttl(
    make_app: Callable[..., Flask], ttl: int
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_TTL=ttl)
    mark_about(app)
    client = app.test_client()
    for path in ("/sitemap.xml", "/robots.txt"):
        assert client.get(path).headers["Cache-Control"] == f"public, max-age={ttl}"


def test_a_failing_provider_without_a_good_file_is_503(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    calls = 0

    def broken() -> list[SitemapEntry]:
        nonlocal calls
        calls += 1
        raise RuntimeError("database down")

    app.get("/n/<int:n>", sitemap=broken, authorize=everyone)(page)
    client = app.test_client()
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        first, second = client.get("/sitemap.xml"), client.get("/sitemap.xml")
    for response in (first, second):
        assert response.status_code == 503
        assert response.headers["Retry-After"].isdigit()
        assert 1 <= int(response.headers["Retry-After"]) <= 30
        assert response.headers["Cache-Control"] == "no-store"
    assert calls == 1
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None


def test_a_host_matching_app_serves_both_on_app_urls_host() -> None:
    app = Flask("hosts", host_matching=True, static_host="notes.example")
    app.config.update(APP_URL=ORIGIN, TESTING=True)
    Marmeon(app)
    app.get("/about", host="notes.example", sitemap=True, authorize=everyone)(page)
    # Two arguments in one segment: the router is asked, on APP_URL's host.
    app.get(
        "/t/<a>-<b>",
        host="notes.example",
        sitemap=lambda: [SitemapEntry({"a": "x", "b": "y"})],
        authorize=everyone,
    )(page)
    client = app.test_client()
    response = client.get("/sitemap.xml", base_url=ORIGIN)
    assert response.status_code == 200
    found = locs(etree.fromstring(response.data))
    assert sorted(found) == [f"{ORIGIN}/about", f"{ORIGIN}/t/x-y"]
    assert client.get("/t/x-y", base_url=ORIGIN).status_code == 200
    assert client.get("/robots.txt", base_url=ORIGIN).text == ROBOTS


def test_robots_txt_under_a_mount_path(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL=ORIGIN, APPLICATION_ROOT="/blog")
    mark_about(app)
    # The request's SCRIPT_NAME is a stranger's: configuration decides.
    response = app.test_client().get(
        "/robots.txt", environ_overrides={"SCRIPT_NAME": "/evil"}
    )
    assert response.text == (
        "User-agent: *\nDisallow: /blog/_marmeon/\n\n"
        "Sitemap: https://notes.example/blog/sitemap.xml\n"
    )


def test_robots_txt_of_a_site_that_must_not_be_indexed(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_INDEXABLE=False)
    app.get("/about")(page)  # no marked route: robots.txt says so all the same
    response = app.test_client().get("/robots.txt")
    assert response.status_code == 200
    assert response.text == "User-agent: *\nDisallow: /\n"
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"


def test_robots_txt_of_a_mounted_site_that_must_not_be_indexed(
    make_app: Callable[..., Flask],
) -> None:
    # Like every line it writes, under the mount path: the app disallows
    # itself, not the other apps of its host.
    app = make_app(APP_URL=ORIGIN, MARMEON_INDEXABLE=False, APPLICATION_ROOT="/blog/")
    app.get("/about")(page)
    response = app.test_client().get(
        "/robots.txt", environ_overrides={"SCRIPT_NAME": "/evil"}
    )
    assert response.text == "User-agent: *\nDisallow: /blog/\n"


def test_a_provider_that_yields_garbage_keeps_the_last_good_file(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_TTL=0)
    garbage = False

    def entries() -> Iterator[Any]:
        yield SitemapEntry({"n": 1})
        if garbage:
            yield object()

    app.get("/n/<int:n>", sitemap=entries, authorize=everyone)(page)
    client = app.test_client()
    good = client.get("/sitemap.xml").data
    cache = sitemap_of(app).cache
    garbage = True
    with caplog.at_level(logging.ERROR, logger="flask_marmeon"):
        for _ in range(3):
            response = client.get("/sitemap.xml")
            assert response.status_code == 200 and response.data == good
            assert cache.join(5)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1  # then paused for MARMEON_SITEMAP_RETRY_AFTER


def test_a_cold_start_that_outlasts_the_wait_is_503(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_WAIT=0.2)
    release = threading.Event()

    def slow() -> list[SitemapEntry]:
        release.wait(5)
        return [SitemapEntry({"n": 1})]

    app.get("/n/<int:n>", sitemap=slow, authorize=everyone)(page)
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        response = client.get("/sitemap.xml")
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) >= 1
    assert response.headers["Cache-Control"] == "no-store"
    assert "ETag" not in response.headers
    assert any("MARMEON_SITEMAP_WAIT" in r.getMessage() for r in caplog.records)
    assert client.get("/n/1").status_code == 200  # pages answer meanwhile
    release.set()
    assert sitemap_of(app).cache.join(5)
    assert client.get("/sitemap.xml").status_code == 200


@pytest.mark.parametrize("where", ["constructor", "init_app"])
def test_sitemap_cache_must_be_a_cache(where: str) -> None:
    app = Flask("wrong")
    with pytest.raises(TypeError, match="sitemap_cache must be a Flask-Caching Cache"):
        if where == "constructor":
            Marmeon(app, sitemap_cache={"CACHE_TYPE": "RedisCache"})  # type: ignore[arg-type]
        else:
            Marmeon().init_app(app, sitemap_cache="redis://")  # type: ignore[arg-type]
