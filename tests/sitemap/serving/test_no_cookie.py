"""The sitemap's files and robots.txt carry no session and set no cookie,
whatever the app's hooks do, at every address and with every method that
reaches them; and each file has one address only."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask, Response, session

from flask_marmeon import everyone

if TYPE_CHECKING:
    from tests.conftest import CookieHooks

from .notes_site import (
    ORIGIN,
    mark_about,
    note_pages,
    page,
)


def test_no_session_and_no_cookie_whatever_the_hooks_do(
    app: Flask, cookie_hooks: CookieHooks
) -> None:
    mark_about(app)
    client, seen = cookie_hooks(app)
    for path in ("/sitemap.xml", "/robots.txt"):
        response = client.get(path)
        assert response.status_code == 200
        assert "Set-Cookie" not in response.headers
        assert "Cookie" not in response.headers.get("Vary", "")
    assert seen == [{}, {}]  # the hooks ran, and saw an empty session


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
