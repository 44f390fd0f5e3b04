"""A part of a paged route answers as the site's own files do: the same
for a forged request (Host, X-Forwarded-*, SCRIPT_NAME), conditional and
gzipped, and alike to every method and header."""

from __future__ import annotations

import gzip
from collections.abc import Callable

import pytest
from flask import Flask

from flask_marmeon import SitemapEntry, everyone

from .conftest import locs
from .paged_keys import Keys

ORIGIN = "https://shop.example"


def test_parts_are_conditional_and_gzipped(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule(
        "/p/<int:n>", "p", str, authorize=everyone, sitemap=Keys(list(range(1, 11)))
    )
    client = app.test_client()
    plain = client.get("/sitemap-p-1.xml")
    assert plain.headers["Cache-Control"] == "public, max-age=300"
    etag = plain.headers["ETag"]
    assert (
        client.get("/sitemap-p-1.xml", headers={"If-None-Match": etag}).status_code
        == 304
    )
    packed = client.get("/sitemap-p-1.xml", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.headers["Vary"] == "Accept-Encoding"
    head = client.head("/sitemap-p-1.xml")
    assert head.status_code == 200 and head.headers["ETag"] == etag
    assert "Set-Cookie" not in plain.headers


FORGED: list[tuple[dict[str, str], dict[str, str]]] = [
    ({"Host": "evil.example"}, {}),
    ({"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http"}, {}),
    ({"X-Forwarded-Prefix": "/evil", "X-Forwarded-Port": "8443"}, {}),
    ({"Forwarded": 'for=1.2.3.4;host=evil.example;proto="http"'}, {}),
    ({}, {"SCRIPT_NAME": "/evil"}),
]


@pytest.mark.parametrize(("headers", "environ"), FORGED)
def test_a_part_built_for_a_forged_request_is_everyones(
    make_app: Callable[..., Flask], headers: dict[str, str], environ: dict[str, str]
) -> None:
    # Behind ProxyFix the request follows these headers: the first request,
    # the one that builds the index and the part, is the forged one, and
    # what it builds (and every later answer) is APP_URL's all the same.
    from werkzeug.middleware.proxy_fix import ProxyFix

    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5)
    app.add_url_rule(
        "/p/<int:n>", "p", str, authorize=everyone, sitemap=Keys(list(range(1, 9)))
    )
    app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
        app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_port=1, x_prefix=1
    )
    client = app.test_client()
    paths = ["/sitemap.xml", "/sitemap-p-1.xml", "/sitemap-p-2.xml", "/robots.txt"]
    forged = [
        client.get(path, headers=headers, environ_overrides=environ) for path in paths
    ]
    plain = [client.get(path) for path in paths]
    for path, bad, good in zip(paths, forged, plain, strict=True):
        assert bad.status_code == good.status_code == 200, path
        assert bad.data == good.data, path
        assert bad.headers["ETag"] == good.headers["ETag"], path
        assert "evil" not in bad.text and "evil" not in good.text, path
    assert locs(plain[0].data) == [
        f"{ORIGIN}/sitemap-p-1.xml",
        f"{ORIGIN}/sitemap-p-2.xml",
    ]
    assert locs(plain[1].data) == [f"{ORIGIN}/p/{n}" for n in range(1, 6)]


HOSTILE: list[tuple[str, dict[str, str]]] = [
    ("HEAD", {}),
    ("GET", {"If-None-Match": "{tag}"}),
    ("GET", {"If-None-Match": "W/{tag}"}),
    ("GET", {"If-None-Match": '"other", {tag}'}),
    ("GET", {"If-None-Match": "*"}),
    ("GET", {"If-None-Match": '"other"'}),
    ("GET", {"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}),
    ("GET", {"If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}),
    ("GET", {"If-Modified-Since": "not a date"}),
    ("GET", {"If-Match": '"other"'}),
    ("GET", {"Range": "bytes=0-10"}),
    ("GET", {"Accept-Encoding": "gzip"}),
    ("GET", {"Accept-Encoding": "gzip;q=0"}),
    ("GET", {"Accept-Encoding": "identity;q=0"}),
    ("GET", {"Accept-Encoding": "br"}),
    ("GET", {"Accept-Encoding": "*"}),
    ("GET", {"Accept-Encoding": "gzip;q=0, *"}),
    ("POST", {}),
    ("OPTIONS", {}),
    ("TRACE", {}),
    ("PUT", {}),
]


@pytest.mark.parametrize(("method", "headers"), HOSTILE)
def test_a_part_answers_like_the_sites_own_files(
    make_app: Callable[..., Flask], method: str, headers: dict[str, str]
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=5, SECRET_KEY="s")
    app.add_url_rule(
        "/p/<int:n>", "p", str, authorize=everyone, sitemap=Keys(list(range(1, 9)))
    )
    app.add_url_rule(
        "/q/<int:n>",
        "q",
        str,
        authorize=everyone,
        sitemap=lambda: [SitemapEntry({"n": n}) for n in range(1, 9)],
    )
    app.after_request(lambda response: (response.set_cookie("t", "1"), response)[1])
    client = app.test_client()

    def answer(path: str) -> tuple[object, ...]:
        tag = client.get(path).headers["ETag"]
        sent = {name: value.format(tag=tag) for name, value in headers.items()}
        response = client.open(path, method=method, headers=sent)
        gzipped = response.headers.get("Content-Encoding") == "gzip"
        body = gzip.decompress(response.data) if gzipped else response.data
        said = {name: response.headers.get(name) for name in SAID}
        return response.status_code, said, body == client.get(path).data

    # /sitemap-1.xml holds the /q/ pages, /sitemap-p-1.xml the /p/ pages.
    part, file = answer("/sitemap-p-1.xml"), answer("/sitemap-1.xml")
    assert part == file
    assert part[1]["Set-Cookie"] is None  # type: ignore[index]


SAID = (
    "Cache-Control",
    "Content-Encoding",
    "Vary",
    "Allow",
    "Retry-After",
    "Set-Cookie",
    "Content-Type",
)
