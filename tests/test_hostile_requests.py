"""Issue 21, point 1: the edge decides what it serves as the routing does.

Under gunicorn with ``SCRIPT_NAME=/blog``, ``GET /blogrobots.txt`` reaches
the app as ``PATH_INFO="robots.txt"``, and under ``flask run`` the request
line ``GET robots.txt HTTP/1.1`` does the same: Werkzeug's routing serves
/robots.txt for both. The public, cacheable answer must never carry the
session cookie that the site sets on every other answer. Real servers, raw
HTTP over sockets (a client library would fix the target up).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import free_port, gunicorn, wait_for_port
from tests.raw_http import RawAnswer, raw_request

TESTS = Path(__file__).parent
COOKIE = {"Cookie": "session=eyJ2aXNpdHMiOjF9.forged.value"}


def site_env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(TESTS.parent)}
    for name in ("APP_URL", "APP_LOCALES", "FLASK_DEBUG"):
        env.pop(name, None)
    return env


@pytest.fixture(scope="module")
def gunicorn_blog() -> Iterator[int]:
    """hostile_site under gunicorn, mounted with SCRIPT_NAME=/blog as
    docs/deployment.rst shows, two workers."""
    env = {**site_env(), "SCRIPT_NAME": "/blog"}
    with gunicorn("hostile_site:create_app()", TESTS, env, workers=2) as port:
        yield port


@pytest.fixture(scope="module")
def flask_run() -> Iterator[int]:
    """hostile_site under ``flask run`` (Werkzeug's server), mounted at /."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "hostile_site:create_app('/')"]
        + ["run", "--port", str(port), "--no-reload"],
        cwd=TESTS,
        env={**site_env(), "PYTHONPATH": f"{TESTS}{os.pathsep}{TESTS.parent}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process, "flask run", timeout=60)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def fetch_ready(port: int, target: str) -> RawAnswer:
    """GET ``target`` with a session cookie, again while the sitemap is
    being built (503)."""
    deadline = time.monotonic() + 30
    while True:
        answer = raw_request(port, target, COOKIE)
        if answer.status != 503 or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


def assert_public_without_cookie(answer: RawAnswer, target: str) -> None:
    assert answer.status == 200, (target, answer)
    assert answer.one("Cache-Control") is not None, target
    assert "public" in (answer.one("Cache-Control") or ""), target
    assert answer.get("Set-Cookie") == [], (target, answer.headers)
    assert "cookie" not in (answer.one("Vary") or "").lower(), target


@pytest.mark.parametrize(
    "target",
    [
        "/blogrobots.txt",
        "/blogsitemap.xml",
        "/blogsitemap-1.xml",
        "/blogsitemap-2.xml",
        "/blog/robots.txt",
        "/blog/sitemap.xml",
        "/blog//sitemap-1.xml",
        "/blog///robots.txt",
    ],
)
def test_no_cookie_on_the_endpoints_under_gunicorn(
    gunicorn_blog: int, target: str
) -> None:
    answer = fetch_ready(gunicorn_blog, target)
    assert_public_without_cookie(answer, target)
    if "robots" in target:
        assert b"Sitemap: https://notes.example/blog/sitemap.xml" in answer.body


def test_the_site_sets_its_cookie_elsewhere_under_gunicorn(gunicorn_blog: int) -> None:
    # The hook is live: the same shapes of target on a page get the cookie.
    for target in ("/blog/en/about", "/blogen/about", "/blognotes/1"):
        answer = raw_request(gunicorn_blog, target, COOKIE)
        assert answer.status == 200, target
        assert answer.get("Set-Cookie"), target


@pytest.mark.parametrize(
    "target",
    [
        "robots.txt",
        "sitemap.xml",
        "sitemap-1.xml",
        "//robots.txt",
        "http://evil.example/robots.txt",
        "http://evil.example//sitemap.xml",
    ],
)
def test_no_cookie_on_the_endpoints_under_flask_run(
    flask_run: int, target: str
) -> None:
    assert_public_without_cookie(fetch_ready(flask_run, target), target)


def test_the_site_sets_its_cookie_elsewhere_under_flask_run(flask_run: int) -> None:
    for target in ("en/about", "/en/about", "notes/1"):
        answer = raw_request(flask_run, target, COOKIE)
        assert answer.status == 200, target
        assert answer.get("Set-Cookie"), target


@pytest.mark.parametrize(
    ("target", "location"),
    [
        ("/blog/notes//1", "/blog/notes/1"),
        ("/blognotes//1?x=1", "/blog/notes/1?x=1"),
        ("/blog//de//about", "/blog/de/about"),
        ("/blog/de/guide", "/blog/de/guide/"),
        ("/blogde/guide", "/blog/de/guide/"),
    ],
)
def test_the_routings_redirects_under_gunicorn(
    gunicorn_blog: int, target: str, location: str
) -> None:
    # Issue 21, point 2: the Location never follows the Host header.
    answer = raw_request(gunicorn_blog, target, {"Host": "evil.example"})
    assert answer.status == 308, (target, answer)
    assert answer.one("Location") == location


def test_the_routings_redirects_under_flask_run(flask_run: int) -> None:
    answer = raw_request(flask_run, "notes//1", {"Host": "evil.example"})
    assert answer.status == 308
    assert answer.one("Location") == "/notes/1"
