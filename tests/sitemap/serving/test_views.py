"""/sitemap.xml and /robots.txt: when they exist, what they send, and how."""

from __future__ import annotations

import gzip
import logging
import threading
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import pytest
from flask import Blueprint, Flask, Response, session
from lxml import etree

from flask_marmeon import Marmeon, SitemapEntry, everyone, localized
from flask_marmeon.sitemap.state import sitemap_of

from ..conftest import SM, crawl, locs

ORIGIN = "https://notes.example"
ReadSitemap = Callable[..., etree._Element]
ROBOTS = "User-agent: *\nDisallow: /_marmeon/\n\nSitemap: https://notes.example/sitemap.xml\n"


def page(**values: Any) -> str:
    return "page"


def mark_about(app: Flask) -> None:
    app.get("/about", sitemap=True, authorize=everyone)(page)


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


def test_no_session_and_no_cookie_whatever_the_hooks_do(app: Flask) -> None:
    app.secret_key = "secret"
    mark_about(app)
    seen: list[dict[str, Any]] = []

    @app.before_request
    def read_and_write_session() -> None:
        seen.append(dict(session))
        session["visits"] = session.get("visits", 0) + 1

    @app.after_request
    def set_cookie(response: Response) -> Response:
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
    for path in ("/sitemap.xml", "/robots.txt"):
        response = client.get(path)
        assert response.status_code == 200
        assert "Set-Cookie" not in response.headers
        assert "Cookie" not in response.headers.get("Vary", "")
    assert seen == [{}, {}]  # the hooks ran, and saw an empty session


@pytest.mark.parametrize("ttl", [300, 120])
def test_cache_control_follows_the_ttl(
    make_app: Callable[..., Flask], ttl: int
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_TTL=ttl)
    mark_about(app)
    client = app.test_client()
    for path in ("/sitemap.xml", "/robots.txt"):
        assert client.get(path).headers["Cache-Control"] == f"public, max-age={ttl}"


def test_head_works(app: Flask) -> None:
    mark_about(app)
    client = app.test_client()
    for path in ("/sitemap.xml", "/robots.txt"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == 200
        assert head.data == b""
        assert head.headers["Content-Type"] == got.headers["Content-Type"]
        assert head.headers["Content-Length"] == str(len(got.data))


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


def note_pages(count: int) -> Callable[[], Iterator[SitemapEntry]]:
    def entries() -> Iterator[SitemapEntry]:
        for n in range(1, count + 1):
            yield SitemapEntry({"n": n}, last_modified=date(2024, 1, n))

    return entries


def test_what_does_not_fit_is_left_out_and_logged(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=3)
    app.get("/n/<int:n>", sitemap=note_pages(5), authorize=everyone)(page)
    app.get("/z", endpoint="z", sitemap=True, authorize=everyone)(page)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        found = locs(read_sitemap(app))
    assert found == [f"{ORIGIN}/n/{n}" for n in (1, 2, 3)]
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "3 URLs (3 entries) left out" in warning
    assert "at most 3 URLs" in warning


def test_the_index_splits_the_sitemap(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    index_schema: etree.XMLSchema,
) -> None:
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=2, MARMEON_SITEMAP_INDEX=True
    )
    app.get("/n/<int:n>", sitemap=note_pages(5), authorize=everyone)(page)
    client = app.test_client()
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    index = etree.fromstring(response.data)
    index_schema.assertValid(index)
    assert index.tag == f"{SM}sitemapindex"
    parts = [loc.text or "" for loc in index.iter(f"{SM}loc")]
    assert parts == [f"{ORIGIN}/sitemap-{n}.xml" for n in (1, 2, 3)]
    assert [m.text for m in index.iter(f"{SM}lastmod")] == [
        "2024-01-02",
        "2024-01-04",
        "2024-01-05",
    ]
    everything: list[str] = []
    for part in parts:
        found = locs(read_sitemap(app, part.removeprefix(ORIGIN)))
        assert 1 <= len(found) <= 2
        everything += found
    assert everything == [f"{ORIGIN}/n/{n}" for n in range(1, 6)]
    assert set(crawl(app, everything, ORIGIN).values()) == {200}
    assert client.get("/sitemap-4.xml").status_code == 404
    assert client.get("/sitemap-0.xml").status_code == 404
    assert client.get("/robots.txt").text == ROBOTS


def test_the_index_files_send_no_cookie_either(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True, SECRET_KEY="secret")
    app.get("/n/<int:n>", sitemap=note_pages(2), authorize=everyone)(page)

    @app.after_request
    def set_cookie(response: Response) -> Response:
        session["seen"] = True
        response.set_cookie("tracker", "1")
        return response

    client = app.test_client()
    # /sitemap-01.xml: the part's int converter reads it as part 1 too; it
    # is not the address written, so it answers 404, without a cookie too.
    for path, status in (
        ("/sitemap.xml", 200),
        ("/sitemap-1.xml", 200),
        ("/sitemap-01.xml", 404),
    ):
        response = client.get(path)
        assert response.status_code == status, path
        assert "Set-Cookie" not in response.headers, path


def test_a_file_has_one_address_only(make_app: Callable[..., Flask]) -> None:
    # Werkzeug's int converter reads "01", "001" and other digits as 1: the
    # same file at many addresses, which a crawler counts as duplicates.
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True)
    app.get("/n/<int:n>", sitemap=note_pages(2), authorize=everyone)(page)
    client = app.test_client()
    assert client.get("/sitemap-1.xml").status_code == 200
    for path in ("/sitemap-01.xml", "/sitemap-001.xml", "/sitemap-0001.xml"):
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize(
    "digit", ["\u0661", "\uff11", "\u0967", "0\U0001d7d9"], ids=repr
)
def test_a_part_asked_for_with_other_digits_sends_no_cookie(
    make_app: Callable[..., Flask], digit: str
) -> None:
    # Werkzeug's int converter reads any Unicode digit ("\u0661" is an
    # Arabic-Indic 1): /sitemap-\u0661.xml answers part 1, public and
    # cacheable, so the edge must strip the session there too. PATH_INFO
    # is the UTF-8 bytes as latin-1 text, as WSGI servers give it.
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True, SECRET_KEY="secret")
    app.get("/n/<int:n>", sitemap=note_pages(2), authorize=everyone)(page)

    @app.before_request
    def write_session() -> None:
        session["visits"] = session.get("visits", 0) + 1

    client = app.test_client()
    path = f"/sitemap-{digit}.xml".encode().decode("latin-1")
    response = client.get("/", environ_overrides={"PATH_INFO": path})
    # Not the address written: 404 (one file, one address), no cookie.
    assert response.status_code == 404
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("//robots.txt", 200),
        ("///sitemap.xml", 200),
        ("//sitemap-1.xml", 200),
        ("//sitemap-01.xml", 404),  # one file, one address
    ],
)
def test_leading_slashes_do_not_bring_the_cookie_back(
    make_app: Callable[..., Flask], path: str, status: int
) -> None:
    # A client sends /%2Frobots.txt (the server decodes it to //robots.txt)
    # or //robots.txt: Werkzeug's routing merges the slashes and answers
    # the endpoint, public and cacheable, so the edge must strip the
    # session there too.
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True, SECRET_KEY="secret")
    app.get("/n/<int:n>", sitemap=note_pages(2), authorize=everyone)(page)
    seen: list[dict[str, Any]] = []

    @app.before_request
    def read_and_write_session() -> None:
        seen.append(dict(session))
        session["visits"] = session.get("visits", 0) + 1

    client = app.test_client()
    assert client.get("/n/1").headers.getlist("Set-Cookie")  # a normal page
    seen.clear()
    response = client.get("/", environ_overrides={"PATH_INFO": path})
    assert response.status_code == status
    if status == 200:
        assert response.headers["Cache-Control"].startswith("public")
    assert "Set-Cookie" not in response.headers
    assert "Cookie" not in response.headers.get("Vary", "")
    assert seen == [{}]


def test_without_the_index_there_are_no_parts(app: Flask) -> None:
    mark_about(app)
    assert app.test_client().get("/sitemap-1.xml").status_code == 404


def long_pages(count: int) -> Callable[[], Iterator[SitemapEntry]]:
    def entries() -> Iterator[SitemapEntry]:
        for n in range(count):
            yield SitemapEntry({"slug": f"{n}-" + "x" * 80})

    return entries


def test_the_byte_limit_leaves_the_rest_out(
    make_app: Callable[..., Flask],
    read_sitemap: ReadSitemap,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(APP_URL=ORIGIN)
    # The format's 50 MiB, scaled down through the state's slot for tests.
    sitemap_of(app).max_bytes = 600
    app.get("/p/<slug>", sitemap=long_pages(10), authorize=everyone)(page)
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        response = app.test_client().get("/sitemap.xml")
    assert len(response.data) <= 600
    found = locs(read_sitemap(app))
    assert 1 <= len(found) < 10
    assert found == [f"{ORIGIN}/p/{n}-" + "x" * 80 for n in range(len(found))]
    (warning,) = [r.getMessage() for r in caplog.records]
    assert f"{10 - len(found)} URLs ({10 - len(found)} entries) left out" in warning
    assert "600 bytes" in warning


def test_the_index_keeps_each_file_within_the_byte_limit(
    make_app: Callable[..., Flask], read_sitemap: ReadSitemap
) -> None:
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True)
    sitemap_of(app).max_bytes = 600
    app.get("/p/<slug>", sitemap=long_pages(10), authorize=everyone)(page)
    client = app.test_client()
    index = etree.fromstring(client.get("/sitemap.xml").data)
    parts = [loc.text or "" for loc in index.iter(f"{SM}loc")]
    assert len(parts) > 1
    everything: list[str] = []
    for part in parts:
        path = part.removeprefix(ORIGIN)
        assert len(client.get(path).data) <= 600
        everything += locs(read_sitemap(app, path))
    assert everything == [f"{ORIGIN}/p/{n}-" + "x" * 80 for n in range(10)]


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


# -- HTTP: validators, 304, gzip, HEAD (issue 11) ------------------------------


def index_app(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True, MARMEON_SITEMAP_MAX_URLS=2
    )
    app.get("/n/<int:n>", sitemap=note_pages(3), authorize=everyone)(page)
    return app


@pytest.mark.parametrize("path", ["/sitemap.xml", "/sitemap-1.xml", "/robots.txt"])
def test_a_strong_etag_and_last_modified_answer_304(
    make_app: Callable[..., Flask], path: str
) -> None:
    client = index_app(make_app).test_client()
    first = client.get(path)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert first.last_modified is not None
    again = client.get(path)
    assert (
        again.headers["ETag"] == etag
    )  # a hash of the file: the same file, the same tag
    for headers in (
        {"If-None-Match": etag},
        {"If-None-Match": f'"other", {etag}'},
        {"If-None-Match": "*"},
        {"If-Modified-Since": first.headers["Last-Modified"]},
    ):
        response = client.get(path, headers=headers)
        assert response.status_code == 304, headers
        assert response.data == b""
        assert response.headers["ETag"] == etag
        assert response.headers["Cache-Control"] == "public, max-age=300"
    changed = client.get(path, headers={"If-None-Match": '"other"'})
    assert changed.status_code == 200 and changed.data == first.data
    # If-None-Match wins over If-Modified-Since (RFC 9110).
    both = {
        "If-None-Match": '"other"',
        "If-Modified-Since": first.headers["Last-Modified"],
    }
    assert client.get(path, headers=both).status_code == 200
    older = "Mon, 01 Jan 2001 00:00:00 GMT"
    assert client.get(path, headers={"If-Modified-Since": older}).status_code == 200


@pytest.mark.parametrize("path", ["/sitemap.xml", "/sitemap-1.xml", "/robots.txt"])
def test_if_match_without_the_files_tag_is_a_412_no_cache_keeps(
    make_app: Callable[..., Flask], path: str
) -> None:
    client = index_app(make_app).test_client()
    first = client.get(path)
    etag = first.headers["ETag"]
    for method in ("GET", "HEAD"):
        for tag in ('"other"', f"W/{etag}", f'"other", W/{etag}'):
            failed = client.open(path, method=method, headers={"If-Match": tag})
            assert failed.status_code == 412, (method, tag)
            assert failed.data == b""
            assert failed.cache_control.no_store
            assert not failed.cache_control.public
            assert "ETag" not in failed.headers
            assert "Set-Cookie" not in failed.headers
    for tag in (etag, "*", f'"other", {etag}'):
        passed = client.get(path, headers={"If-Match": tag})
        assert passed.status_code == 200 and passed.data == first.data, tag


@pytest.mark.parametrize("path", ["/sitemap.xml", "/sitemap-1.xml", "/robots.txt"])
def test_if_unmodified_since_before_the_build_is_a_412(
    make_app: Callable[..., Flask], path: str
) -> None:
    client = index_app(make_app).test_client()
    first = client.get(path)
    modified = first.headers["Last-Modified"]
    older = "Mon, 01 Jan 2001 00:00:00 GMT"
    failed = client.get(path, headers={"If-Unmodified-Since": older})
    assert failed.status_code == 412 and failed.data == b""
    assert failed.cache_control.no_store and not failed.cache_control.public
    for since in (modified, "Fri, 01 Jan 2100 00:00:00 GMT", "not a date"):
        passed = client.get(path, headers={"If-Unmodified-Since": since})
        assert passed.status_code == 200 and passed.data == first.data, since
    # If-Match, when sent, is evaluated instead (RFC 9110, 13.2.2).
    both = {"If-Match": first.headers["ETag"], "If-Unmodified-Since": older}
    assert client.get(path, headers=both).status_code == 200


@pytest.mark.parametrize("path", ["/sitemap.xml", "/sitemap-1.xml"])
def test_gzip_for_a_client_that_accepts_it(
    make_app: Callable[..., Flask], path: str
) -> None:
    client = index_app(make_app).test_client()
    plain = client.get(path)
    assert "Content-Encoding" not in plain.headers
    assert plain.headers["Vary"] == "Accept-Encoding"
    packed = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed.data) == plain.data
    assert packed.headers["Content-Length"] == str(len(packed.data))
    # Another representation, another strong tag; each revalidates itself.
    assert packed.headers["ETag"] != plain.headers["ETag"]
    again = client.get(
        path,
        headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]},
    )
    assert again.status_code == 304
    refused = client.get(path, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers
    assert refused.data == plain.data


def test_gzip_is_made_once_per_build(make_app: Callable[..., Flask]) -> None:
    app = index_app(make_app)
    client = app.test_client()
    first = client.get("/sitemap.xml", headers={"Accept-Encoding": "gzip"})
    files = sitemap_of(app).cache.get().value
    kept = files.gzipped(0)
    second = client.get("/sitemap.xml", headers={"Accept-Encoding": "gzip"})
    assert files.gzipped(0) is kept  # the same object: compressed once
    assert first.data == second.data == kept


def test_robots_txt_stays_plain(make_app: Callable[..., Flask]) -> None:
    response = (
        index_app(make_app)
        .test_client()
        .get("/robots.txt", headers={"Accept-Encoding": "gzip"})
    )
    assert "Content-Encoding" not in response.headers
    assert response.text == ROBOTS


@pytest.mark.parametrize("path", ["/sitemap.xml", "/sitemap-2.xml", "/robots.txt"])
@pytest.mark.parametrize("encoding", ["identity", "gzip"])
def test_head_answers_like_get(
    make_app: Callable[..., Flask], path: str, encoding: str
) -> None:
    client = index_app(make_app).test_client()
    headers = {"Accept-Encoding": encoding}
    got, head = client.get(path, headers=headers), client.head(path, headers=headers)
    assert head.status_code == got.status_code == 200
    assert head.data == b""
    for name in ("Content-Type", "Content-Length", "ETag", "Last-Modified", "Vary"):
        assert head.headers.get(name) == got.headers.get(name), name
    assert head.headers.get("Content-Encoding") == got.headers.get("Content-Encoding")


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


def test_files_whose_address_the_app_takes_are_not_indexed(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # The app's own /sitemap-<year>.xml wins, as its /sitemap.xml would; the
    # index then names no address of it, and the log says why.
    app = make_app(
        APP_URL=ORIGIN, MARMEON_SITEMAP_MAX_URLS=2, MARMEON_SITEMAP_INDEX=True
    )
    app.get("/n/<int:n>", sitemap=note_pages(5), authorize=everyone)(page)
    app.get("/sitemap-<int:year>.xml", endpoint="yearly")(lambda year: "mine")
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        index = client.get("/sitemap.xml").data
    assert locs(etree.fromstring(index)) == []
    assert client.get("/sitemap-1.xml").text == "mine"
    (warning,) = [m for m in caplog.messages if "/sitemap-1.xml" in m]
    assert "'/sitemap-<int:year>.xml'" in warning


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "TRACE"])
def test_other_methods_get_no_cookie_either(
    make_app: Callable[..., Flask], method: str
) -> None:
    # 405 is the endpoint's answer too: "the endpoints send no cookie,
    # whatever a global middleware sets", whatever the method.
    app = make_app(APP_URL=ORIGIN, MARMEON_SITEMAP_INDEX=True, SECRET_KEY="secret")
    app.get("/n/<int:n>", sitemap=note_pages(3), authorize=everyone)(page)

    @app.before_request
    def write_session() -> None:
        session["visits"] = 1

    @app.after_request
    def set_cookie(response: Response) -> Response:
        response.set_cookie("tracker", "1")
        return response

    client = app.test_client()
    client.set_cookie("session", "forged")
    for path in ("/sitemap.xml", "/sitemap-1.xml", "/robots.txt"):
        response = client.open(path, method=method)
        assert response.status_code == 405, path
        assert "Set-Cookie" not in response.headers, (path, method)
