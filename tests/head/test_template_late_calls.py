"""head() called after the head was written (API.md, "The head from
templates"): in a second render, after render_head() from Python, in an
after_request hook or past the head of a streamed template. Development
raises naming the line or the hook; production keeps the page and logs once
per endpoint."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, Response, render_template, stream_template

from flask_marmeon import head, render_head

from .conftest import meta, title
from .template_site import head_el


def test_a_call_in_a_second_render_raises_in_development(
    site: Callable[..., Flask],
) -> None:
    app = site(DEBUG=True)
    app.debug = True

    @app.get("/twice")
    def twice() -> str:
        render_template("article.html")
        return render_template("article.html")

    with pytest.raises(RuntimeError) as caught:
        app.test_client().get("/twice")
    message = str(caught.value)
    # The child's top-level call, line 2, is the first call of the second render.
    assert "the template 'article.html', line 2" in message
    assert "after the page's head was written" in message


def test_the_error_names_the_line_of_the_call(site: Callable[..., Flask]) -> None:
    app = site()
    app.debug = True

    @app.get("/late")
    def late() -> str:
        render_template("base.html")
        return render_template("late.html")

    with pytest.raises(RuntimeError, match=r"'late\.html', line 4 "):
        app.test_client().get("/late")


def test_a_call_in_after_request_raises_naming_the_hook(
    site: Callable[..., Flask],
) -> None:
    app = site()
    app.debug = True

    @app.after_request
    def too_late(response: Response) -> Response:
        head(title="After")
        return response

    with pytest.raises(
        RuntimeError, match=r"too_late\(\) \(.*test_template_late_calls\.py"
    ):
        app.test_client().get("/t/article")


def test_late_calls_in_production_keep_the_page_and_log_once_per_endpoint(
    site: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = site()
    assert not app.debug

    @app.get("/twice")
    def twice() -> str:
        render_template("base.html")
        return render_template("article.html")

    @app.get("/again")
    def again() -> str:
        render_template("base.html")
        return render_template("late.html")

    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        for _ in range(3):
            response = client.get("/twice")
            assert response.status_code == 200
            # The head as it was first written: the layout's alone.
            el = head_el(response.text)
            assert title(el) is None
            assert meta(el, "twitter:site") == ["@notes"]
        assert client.get("/again").status_code == 200
        assert client.get("/again").status_code == 200
    late = [r for r in caplog.records if "after the page's head" in r.getMessage()]
    assert len(late) == 2
    assert "'article.html', line 2" in late[0].getMessage()
    assert "'twice'" in late[0].getMessage()
    assert "'late.html', line 4" in late[1].getMessage()
    assert "'again'" in late[1].getMessage()


def test_a_call_after_render_head_from_python_is_late(
    site: Callable[..., Flask],
) -> None:
    app = site()
    app.debug = True

    @app.get("/python-late")
    def python_late() -> str:
        written = str(render_head())
        head(title="Late")
        return written

    with pytest.raises(RuntimeError, match=r"python_late\(\)"):
        app.test_client().get("/python-late")


def test_stream_template_counts_calls_before_the_head(
    site: Callable[..., Flask],
) -> None:
    app = site()

    @app.get("/stream")
    def stream() -> Any:
        return stream_template("streamed_ok.html")

    el = head_el(app.test_client().get("/stream").text)
    assert title(el) == "Streamed · Notes"
    assert meta(el, "description") == ["before the head"]


def test_stream_template_past_the_head_is_late(
    site: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = site()

    @app.get("/stream")
    def stream() -> Any:
        return stream_template("streamed.html")

    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        el = head_el(app.test_client().get("/stream").text)
    assert title(el) == "Streamed · Notes"
    assert meta(el, "description") == []
    [record] = [r for r in caplog.records if "after the page's head" in r.message]
    assert "'streamed.html', line 4" in record.getMessage()
    app.debug = True
    with pytest.raises(RuntimeError, match=r"'streamed\.html', line 4"):
        app.test_client().get("/stream").get_data()
