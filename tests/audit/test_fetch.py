"""Fetching: through the app itself, one fresh app context per request."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, Response, g, request

from flask_marmeon import Marmeon, StartupError
from flask_marmeon.audit import audit
from flask_marmeon.audit.fetch import Fetcher, app_origin, app_root

from .conftest import DESCRIPTION_B, ORIGIN, TITLE_B, Site, codes, urlset


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection fails the test: the audit must not need the network."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the audit opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_each_page_gets_a_fresh_app_context_even_inside_one(site: Site) -> None:
    app = site.app()
    seen: list[tuple[int, object]] = []

    @app.before_request
    def record() -> None:
        seen.append((id(g._get_current_object()), g.get("mark")))
        g.mark = "set by a request"

    with app.app_context():
        g.mark = "the caller's"
        report = audit(app)
        # The caller's context is untouched.
        assert g.mark == "the caller's"
    assert report.findings == ()
    assert len(seen) == 6  # robots.txt, sitemap, two pages, the cover, the home
    assert all(mark is None for _, mark in seen)


def test_the_origin_is_app_url_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Flask("x")
    with pytest.raises(ValueError, match="APP_URL"):
        app_origin(app)
    monkeypatch.setenv("APP_URL", "https://Notes.Example/some/path")
    assert app_origin(app) == "https://notes.example"
    app.config["APP_URL"] = "http://127.0.0.1:5000"
    assert app_origin(app) == "http://127.0.0.1:5000"
    app.config["APP_URL"] = "ftp://files.example"
    with pytest.raises(ValueError, match="ftp://files.example"):
        app_origin(app)


def test_an_app_under_a_mount_path_is_called_with_it(site: Site) -> None:
    site.config["APPLICATION_ROOT"] = "/blog/"
    blog = f"{ORIGIN}/blog"
    site.files["/robots.txt"] = (
        200,
        "text/plain",
        f"User-agent: *\nDisallow:\n\nSitemap: {blog}/sitemap.xml\n",
        {},
    )
    site.put(
        "/sitemap.xml",
        # The last one is outside the app's mount path: not the app's.
        urlset(f"{blog}/a", f"{blog}/b", f"{ORIGIN}/elsewhere"),
        type="application/xml",
    )
    site.nav = ["/blog/a", "/blog/b"]
    site.page("/a", canonical=f"{blog}/a", image=None)
    site.page(
        "/b",
        title=TITLE_B,
        description=DESCRIPTION_B,
        canonical=f"{blog}/b",
        image=None,
    )
    app = site.app()
    assert app_root(app) == "/blog"
    report = audit(app)
    assert codes(report) == []
    # The crawl starts from the home page too: the mount path's own.
    assert site.hits == ["/robots.txt", "/sitemap.xml", "/a", "/b", "/"]
    assert report.pages == 3


def test_the_query_of_a_listed_url_reaches_the_app(site: Site) -> None:
    fetcher = Fetcher(site.app(), ORIGIN, "")
    answer = fetcher.get(f"{ORIGIN}/a?page=2&q=%C3%BC")
    assert answer is not None
    assert answer.headers["X-Query"] == "page=2&q=%C3%BC"
    assert fetcher.get("https://other.example/a") is None
    assert fetcher.get("http://notes.example/a") is None  # another scheme
    assert fetcher.requests == 1


def test_an_answer_that_never_ends_is_read_up_to_the_limit(site: Site) -> None:
    # A listed address that streams (server-sent events, a generator that
    # never stops): the audit reads what a crawler would, the format's
    # 50 MiB and a little, closes the stream and goes on.
    chunk = b" " * (1 << 20)
    sent: list[int] = []
    closed: list[bool] = []

    def stream() -> Any:
        try:
            for _ in range(120):
                sent.append(len(chunk))
                yield chunk
        finally:
            closed.append(True)

    app = site.app()

    @app.get("/b")
    def endless() -> Response:
        return Response(stream(), mimetype="text/html")

    report = audit(app)
    assert report.pages == 2
    assert 50 << 20 < sum(sent) <= 52 << 20
    assert closed == [True]


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set at the end of the test: a view left waiting on it then ends."""
    event = threading.Event()
    yield event
    event.set()


def test_a_page_that_never_answers_is_reported_and_the_audit_goes_on(
    site: Site, release: threading.Event
) -> None:
    app = site.app()

    @app.before_request
    def stuck() -> None:
        if request.path == "/a":
            release.wait()  # no answer, until the test ends

    report = audit(app, timeout=0.5)
    broken, finding = report.findings
    assert (finding.code, finding.url) == ("page-status", f"{ORIGIN}/a")
    assert "Answers 504 (no answer within 0.5 s)" in finding.message
    # The home page links /a: a broken link, with the status and reason.
    assert (broken.code, broken.url) == ("link-broken", f"{ORIGIN}/")
    assert "answers 504 (no answer within 0.5 s)" in broken.message
    # The other page, the cover and the rest were fetched and checked.
    assert report.pages == 2 and "/b" in site.hits and "/cover.png" in site.hits


def test_a_stuck_robots_txt_is_reported_not_waited_for(
    site: Site, release: threading.Event
) -> None:
    app = site.app()

    @app.before_request
    def stuck() -> None:
        if request.path == "/robots.txt":
            release.wait()

    report = audit(app, timeout=0.5)
    assert codes(report)[:1] == [("robots-missing", f"{ORIGIN}/robots.txt")]
    assert "robots.txt answers 504" in report.findings[0].message


def test_a_view_that_raises_is_still_its_own_500_on_the_audits_thread(
    site: Site,
) -> None:
    app = site.app()

    @app.before_request
    def broken() -> None:
        if request.path == "/b":
            raise KeyError("gone")

    link, finding = audit(app, timeout=5).findings
    assert finding.code == "page-status"
    assert "500 (the view raised KeyError: 'gone')" in finding.message
    # The home page links /b: link-broken with the status, and the audit
    # went on.
    assert (link.code, link.url) == ("link-broken", f"{ORIGIN}/")
    assert "answers 500 (the view raised KeyError: 'gone')" in link.message


@pytest.mark.parametrize("timeout", [0, -1.0])
def test_a_timeout_must_be_above_zero(site: Site, timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout is"):
        audit(site.app(), timeout=timeout)


def test_without_a_timeout_the_app_runs_on_the_callers_thread(site: Site) -> None:
    app = site.app()
    threads: set[str] = set()

    @app.before_request
    def record() -> None:
        threads.add(threading.current_thread().name)

    assert audit(app, timeout=None).findings == ()
    assert threads == {threading.current_thread().name}
    threads.clear()
    assert audit(app).findings == ()
    assert threads == {"marmeon-audit"}


@pytest.mark.parametrize(
    "value", ["https://notes.example:99999", "https://no tes.example"]
)
def test_the_audit_refuses_the_app_url_the_extension_refuses(value: str) -> None:
    # One parser for APP_URL: the audit read these loosely, as an origin
    # the extension itself stops at (H10).
    app = Flask("x")
    app.config["APP_URL"] = value
    with pytest.raises(ValueError, match="APP_URL"):
        app_origin(app)
    with pytest.raises(StartupError):
        Marmeon(app)
