"""head() from layouts, views and error handlers; render_head() as a Jinja global."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Blueprint, Flask, g, render_template_string
from flask.views import MethodView

from flask_marmeon import head, render_head
from flask_marmeon._context import request_state

from .conftest import meta, parse_head, title

PAGE = "<!DOCTYPE html><html><head>{{ render_head() }}</head><body></body></html>"


def head_of_response(html: str) -> object:
    start, end = html.index("<head>") + 6, html.index("</head>")
    return parse_head(html[start:end])


@pytest.mark.parametrize("view_kind", ["function", "class"])
def test_layouts_then_the_view_in_call_order(
    make_app: Callable[..., Flask], view_kind: str
) -> None:
    app = make_app(APP_URL="https://notes.example")
    bp = Blueprint("notes", __name__)
    seen: list[list[str | None]] = []

    @app.before_request
    def app_layout() -> None:
        head(
            title_template="%s · Notes",
            description="app",
            open_graph={"site_name": "N"},
        )

    @bp.before_request
    def bp_layout() -> None:
        head(description="blueprint", twitter={"card": "summary"})

    def page() -> str:
        head(title="A note", open_graph={"title": "OG"})
        seen.append([f.get("description") for f in request_state("t").fragments])
        return render_template_string(PAGE)

    if view_kind == "function":
        bp.add_url_rule("/n", view_func=page)
    else:

        class Page(MethodView):
            def get(self) -> str:
                return page()

        bp.add_url_rule("/n", view_func=Page.as_view("page"))
    app.register_blueprint(bp)
    html = app.test_client().get("/n").text
    assert seen == [["app", "blueprint", None]]
    el = head_of_response(html)
    assert title(el) == "A note · Notes"
    assert meta(el, "description") == ["blueprint"]
    assert meta(el, "og:site_name") == ["N"]
    assert meta(el, "og:title") == ["OG"]
    assert meta(el, "twitter:card") == ["summary"]
    assert meta(el, "twitter:title") == ["A note"]


def test_an_error_handler_has_a_head(make_app: Callable[..., Flask]) -> None:
    app = make_app(APP_URL="https://notes.example")

    @app.before_request
    def layout() -> None:
        head(title_template="%s · Notes", robots={"follow": True})

    @app.errorhandler(404)
    def not_found(error: Exception) -> tuple[str, int]:
        head(title="Not found", robots={"index": False})
        return render_template_string(PAGE), 404

    response = app.test_client().get("/nowhere")
    assert response.status_code == 404
    el = head_of_response(response.text)
    assert title(el) == "Not found · Notes"
    assert meta(el, "robots") == ["noindex, follow"]


def test_fragments_live_on_g_per_request(app: Flask) -> None:
    with app.test_request_context("/"):
        head(title="one")
        head(title="two")
        fragments = g._flask_marmeon.fragments
        assert [f.get("title") for f in fragments] == ["one", "two"]
    with app.test_request_context("/"):
        assert "<title" not in str(render_head())


def test_render_head_is_a_jinja_global(app: Flask) -> None:
    assert app.jinja_env.globals["render_head"] is render_head


def test_render_head_outside_a_request_writes_no_page_fields(app: Flask) -> None:
    assert str(render_head()) == ""
    with app.app_context():
        html = str(render_head())
    assert html.startswith('<meta name="marmeon:app-url"')
    assert "data-marmeon " not in html and "<title" not in html


def test_a_bad_call_does_not_leave_a_fragment(app: Flask) -> None:
    with app.test_request_context("/"):
        with pytest.raises(TypeError):
            head(title=1)  # type: ignore[arg-type]
        assert request_state("t").fragments == []
