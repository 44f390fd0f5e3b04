"""HTTP for the sitemap's files and robots.txt (issue 11): strong validators,
304 and 412 answers, gzip for a client that accepts it, HEAD like GET."""

from __future__ import annotations

import gzip
from collections.abc import Callable

import pytest
from flask import Flask

from flask_marmeon.sitemap.state import sitemap_of

from .notes_site import (
    ROBOTS,
    index_app,
    mark_about,
)


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


def test_head_works(app: Flask) -> None:
    mark_about(app)
    client = app.test_client()
    for path in ("/sitemap.xml", "/robots.txt"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == 200
        assert head.data == b""
        assert head.headers["Content-Type"] == got.headers["Content-Type"]
        assert head.headers["Content-Length"] == str(len(got.data))
