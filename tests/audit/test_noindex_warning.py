"""The development warning: a route marked for the sitemap renders noindex."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from flask import Flask, Response, render_template_string

from flask_marmeon import everyone, head

PAGE = "<!doctype html><html><head>{{ render_head() }}</head><body></body></html>"


def build(make_app: Callable[..., Flask], *, debug: bool, **config: object) -> Flask:
    app = make_app(
        APP_URL="https://notes.example", MARMEON_BROWSER_SCRIPT=False, **config
    )
    app.debug = debug

    @app.get("/hidden", sitemap=True, authorize=everyone)
    def hidden() -> str:
        head(title="Hidden", robots={"index": False})
        return render_template_string(PAGE)

    @app.get("/by-hand", sitemap=True, authorize=everyone)
    def by_hand() -> str:
        return '<html><head><meta name="robots" content="noindex"></head></html>'

    @app.get("/header", sitemap=True, authorize=everyone)
    def header() -> Response:
        return Response("<p>x</p>", headers={"X-Robots-Tag": "none"})

    @app.get("/fine", sitemap=True, authorize=everyone)
    def fine() -> str:
        head(title="Fine")
        return render_template_string(PAGE)

    @app.get("/search")
    def search() -> str:
        head(title="Search", robots={"index": False})
        return render_template_string(PAGE)

    return app


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "flask_marmeon" and r.levelno == logging.WARNING
    ]


@pytest.mark.parametrize("path", ["/hidden", "/by-hand", "/header"])
def test_a_marked_route_that_renders_noindex_is_said_once(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture, path: str
) -> None:
    client = build(make_app, debug=True).test_client()
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        for _ in range(3):
            assert client.get(path).status_code == 200
    (message,) = warnings(caplog)
    assert repr(path) in message
    assert "noindex" in message or "X-Robots-Tag: none" in message


def test_unmarked_and_indexable_routes_are_quiet(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    client = build(make_app, debug=True).test_client()
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        client.get("/fine")
        client.get("/search")
    assert warnings(caplog) == []


def test_production_says_nothing(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = build(make_app, debug=False)
    client = app.test_client()
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        client.get("/hidden")
        # Development is read at call time.
        app.debug = True
        client.get("/hidden")
    assert len(warnings(caplog)) == 1


def test_a_deployment_that_must_not_be_indexed_is_not_warned_about(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # MARMEON_INDEXABLE=0 make run: every page says noindex on purpose.
    client = build(make_app, debug=True, MARMEON_INDEXABLE=False).test_client()
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        for path in ("/hidden", "/fine"):
            assert client.get(path).status_code == 200
    assert not [w for w in warnings(caplog) if "noindex" in w]


def test_production_requests_pass_no_hook_of_the_warning(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    # The hook is installed at the first request handled in development,
    # so a production request costs nothing of it.
    app = build(make_app, debug=False)
    client = app.test_client()
    client.get("/hidden")
    assert app.after_request_funcs.get(None, []) == []
    app.debug = True
    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        client.get("/hidden")
        client.get("/hidden")
    assert len(app.after_request_funcs[None]) == 1
    assert len(warnings(caplog)) == 1


def test_the_warning_sees_the_answer_of_every_hook_of_the_app(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    app = build(make_app, debug=True)

    @app.after_request
    def hide(response: Response) -> Response:
        response.headers["X-Robots-Tag"] = "noindex"
        return response

    with caplog.at_level(logging.WARNING, "flask_marmeon"):
        assert app.test_client().get("/fine").status_code == 200
    assert len(warnings(caplog)) == 1
