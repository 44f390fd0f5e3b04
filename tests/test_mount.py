"""The mount path (issue 9, API.md "The mount path"): every address the
extension writes starts with APP_URL's origin and APPLICATION_ROOT, and never
with the request's SCRIPT_NAME, which a client can set.

Each forged prefix is sent through Werkzeug's ProxyFix (``X-Forwarded-Prefix``
with ``x_prefix=1``) and as a raw ``SCRIPT_NAME`` in the environ, on every
kind of response: a page's head, the redirect, an error page, the sitemap
(plain, localized, index and parts) and robots.txt. Then the site is really
mounted under /blog (Werkzeug's DispatcherMiddleware, and gunicorn with
``SCRIPT_NAME``) and crawled from its sitemap.
"""

from __future__ import annotations

import http.client
import os
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from mount_site import ORIGIN, create_app
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.test import Client, TestResponse

from tests.documents import parse_head
from tests.processes import gunicorn

FORGED = ["//evil.example", "https://evil.example", "/evil", r"\\evil.example"]
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"

#: A GET through the test client: (app, path, prefix) -> response.
Get = Callable[[Flask, str, str], TestResponse]


def through_proxy_fix(app: Flask, path: str, prefix: str) -> TestResponse:
    app.wsgi_app = ProxyFix(app.wsgi_app, x_prefix=1)  # type: ignore[method-assign]
    return app.test_client().get(path, headers={"X-Forwarded-Prefix": prefix})


def as_raw_script_name(app: Flask, path: str, prefix: str) -> TestResponse:
    return app.test_client().get(path, environ_overrides={"SCRIPT_NAME": prefix})


@pytest.fixture(params=[through_proxy_fix, as_raw_script_name])
def get(request: pytest.FixtureRequest) -> Get:
    deliver: Get = request.param
    return deliver


@pytest.fixture(params=FORGED)
def forged(request: pytest.FixtureRequest) -> str:
    value: str = request.param
    return value


@pytest.fixture(params=["/", "/blog"])
def root(request: pytest.FixtureRequest) -> str:
    value: str = request.param
    return value


def mount(root: str) -> str:
    return ORIGIN + root.rstrip("/")


def head_urls(el: ET.Element) -> dict[str, Any]:
    return {
        "canonical": [
            link.get("href")
            for link in el.iter("link")
            if link.get("rel") == "canonical"
        ],
        "hreflang": {
            link.get("hreflang"): link.get("href")
            for link in el.iter("link")
            if link.get("rel") == "alternate"
        },
        "og:url": [
            m.get("content") for m in el.iter("meta") if m.get("property") == "og:url"
        ],
        "module": [
            s.get("src") for s in el.iter("script") if s.get("type") == "module"
        ],
    }


def assert_nothing_follows(response: TestResponse) -> None:
    """No part of the forged prefix in the body or any header.

    The module's src has a test of its own (:func:`test_the_modules_src`),
    since another step writes it.
    """
    text = response.get_data(as_text=True)
    if response.mimetype == "text/html":
        for src in head_urls(parse_head(text))["module"]:
            text = text.replace(f'src="{src}"', "")
    assert "evil" not in text
    for name, value in response.headers.items():
        assert "evil" not in value, (name, value)


def locs(xml: bytes) -> list[str]:
    return [el.text or "" for el in ET.fromstring(xml).iter(f"{SM}loc")]


# -- forged prefixes, on every kind of response -----------------------------


def test_a_localized_pages_head(get: Get, forged: str, root: str) -> None:
    response = get(create_app(root), "/en/about", forged)
    assert response.status_code == 200
    assert_nothing_follows(response)
    urls = head_urls(parse_head(response.text))
    base = mount(root)
    assert urls["canonical"] == [f"{base}/en/about"]
    assert urls["hreflang"] == {
        "en": f"{base}/en/about",
        "de": f"{base}/de/about",
        "x-default": f"{base}/about",
    }
    assert urls["og:url"] in ([], [f"{base}/en/about"])


def test_the_modules_src(get: Get, forged: str, root: str) -> None:
    # Fixed by the head teams (the module's src from Settings.root).
    response = get(create_app(root), "/en/about", forged)
    (src,) = head_urls(parse_head(response.text))["module"]
    assert "evil" not in src
    assert src.startswith(root.rstrip("/") + "/") and not src.startswith("//")


def test_the_redirects_location(get: Get, forged: str, root: str) -> None:
    response = get(create_app(root), "/notes/3?x=1", forged)
    assert response.status_code == 302
    assert response.headers["Location"] == f"{root.rstrip('/')}/en/notes/3?x=1"
    assert_nothing_follows(response)


@pytest.mark.parametrize("path", ["/de/no-such-page", "/en/notes/9", "/de/notes/3"])
def test_an_error_page(get: Get, forged: str, root: str, path: str) -> None:
    response = get(create_app(root), path, forged)
    assert response.status_code == 404
    assert_nothing_follows(response)
    urls = head_urls(parse_head(response.text))
    assert urls["canonical"] == [] and urls["hreflang"] == {}


def test_the_sitemap(get: Get, forged: str, root: str) -> None:
    # Fixed by the sitemap teams under a mount path (<loc>s from Settings.root).
    response = get(create_app(root), "/sitemap.xml", forged)
    assert response.status_code == 200
    assert_nothing_follows(response)
    base = mount(root)
    assert sorted(locs(response.data)) == sorted(
        [
            f"{base}/",
            f"{base}/en/about",
            f"{base}/de/about",
            f"{base}/en/notes/1",
            f"{base}/de/notes/1",
            f"{base}/en/notes/2",
            f"{base}/de/notes/2",
            f"{base}/en/notes/3",
        ]
    )
    links = {
        link.get("href") for link in ET.fromstring(response.data).iter(f"{XHTML}link")
    }
    assert f"{base}/about" in links
    assert all(str(href).startswith(base + "/") for href in links)


def test_the_sitemap_index_and_its_parts(get: Get, forged: str, root: str) -> None:
    # Fixed by the sitemap teams under a mount path.
    app = create_app(root, index=True)
    response = get(app, "/sitemap.xml", forged)
    assert response.status_code == 200
    assert_nothing_follows(response)
    base = mount(root)
    parts = locs(response.data)
    assert parts and all(p.startswith(f"{base}/sitemap-") for p in parts)
    for part in parts:
        answer = get(app, part[len(base) :], forged)
        assert answer.status_code == 200, part
        assert_nothing_follows(answer)
        assert all(loc.startswith(base + "/") for loc in locs(answer.data))


def test_robots_txt(get: Get, forged: str, root: str) -> None:
    # Fixed by the sitemap teams under a mount path.
    response = get(create_app(root), "/robots.txt", forged)
    assert response.status_code == 200
    assert_nothing_follows(response)
    assert f"Sitemap: {mount(root)}/sitemap.xml" in response.text.splitlines()


# -- really mounted under /blog ---------------------------------------------


def crawl(fetch: Callable[[str], tuple[int, dict[str, str], bytes]], base: str) -> int:
    """Crawl the sitemap at ``base``: every <loc> answers 200 and its page's
    canonical is the <loc>. Returns the number of pages."""
    status, _, body = fetch(f"{base}/sitemap.xml")
    assert status == 200
    pending = locs(body)
    pages: list[str] = []
    while pending:
        loc = pending.pop()
        assert loc.startswith(base + "/"), loc
        status, headers, body = fetch(loc)
        assert status == 200, loc
        if headers.get("content-type", "").startswith("application/xml"):
            pending += locs(body)  # a part of an index
            continue
        pages.append(loc)
        urls = head_urls(parse_head(body.decode()))
        assert urls["canonical"] == [loc]
        for href in urls["hreflang"].values():
            assert fetch(href)[0] in (200, 302), href
        for src in urls["module"]:
            assert fetch(ORIGIN + src)[0] == 200, src
    return len(pages)


@pytest.mark.parametrize("index", [False, True])
def test_mounted_under_blog_with_dispatcher_middleware(index: bool) -> None:
    app = create_app("/blog", index=index)
    outer = DispatcherMiddleware(NotFound(), {"/blog": app.wsgi_app})
    client = Client(outer)

    def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
        assert url.startswith(ORIGIN + "/")
        response = client.get(url[len(ORIGIN) :])
        return (
            response.status_code,
            {k.lower(): v for k, v in response.headers.items()},
            response.data,
        )

    assert crawl(fetch, f"{ORIGIN}/blog") == 8
    status, _, robots = fetch(f"{ORIGIN}/blog/robots.txt")
    assert f"Sitemap: {ORIGIN}/blog/sitemap.xml" in robots.decode().splitlines()
    # The app answers nothing outside its mount.
    assert fetch(f"{ORIGIN}/en/about")[0] == 404


@pytest.fixture(scope="module")
def gunicorn_blog() -> Iterator[int]:
    """The site under a real gunicorn, mounted at /blog with SCRIPT_NAME."""
    env = {**os.environ, "SCRIPT_NAME": "/blog"}
    env.pop("APP_URL", None)
    tests = Path(__file__).parent
    with gunicorn("mount_site:create_app(root='/blog')", tests, env) as port:
        yield port


def http_get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return (
            response.status,
            {k.lower(): v for k, v in response.getheaders()},
            response.read(),
        )
    finally:
        connection.close()


def test_mounted_under_blog_with_gunicorn(gunicorn_blog: int) -> None:
    def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
        assert url.startswith(ORIGIN + "/")
        return http_get(gunicorn_blog, url[len(ORIGIN) :])

    assert crawl(fetch, f"{ORIGIN}/blog") == 8


@pytest.mark.parametrize("forged", ["//evil.example", "/evil"])
def test_gunicorns_script_name_header_is_not_followed(
    gunicorn_blog: int, forged: str
) -> None:
    # gunicorn takes a SCRIPT_NAME header from its forwarded_allow_ips
    # (127.0.0.1 by default): the request path must start with it.
    headers = {"SCRIPT_NAME": forged}
    status, _, body = http_get(gunicorn_blog, f"{forged}/en/about", headers)
    assert status == 200
    urls = head_urls(parse_head(body.decode()))
    assert urls["canonical"] == [f"{ORIGIN}/blog/en/about"]
    assert urls["hreflang"]["x-default"] == f"{ORIGIN}/blog/about"
    status, response_headers, _ = http_get(gunicorn_blog, f"{forged}/about", headers)
    assert status == 302
    assert response_headers["location"] == "/blog/en/about"


@pytest.mark.parametrize("forged", ["//evil.example", "/evil"])
def test_gunicorns_script_name_header_and_the_module(
    gunicorn_blog: int, forged: str
) -> None:
    # Fixed by the head teams (the module's src from Settings.root).
    headers = {"SCRIPT_NAME": forged}
    _, _, body = http_get(gunicorn_blog, f"{forged}/en/about", headers)
    assert b"evil" not in body
    (src,) = head_urls(parse_head(body.decode()))["module"]
    assert src.startswith("/blog/")
