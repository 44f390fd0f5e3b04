"""In Chromium: a client visit (htmx boosted link, Turbo Drive) to a page whose
head comes from its template shows that page's head: title, description,
Open Graph, icons and theme color, set by ``{% do head(...) %}`` at the top
of the child template and in a block that renders after ``<head>``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_tools import LiveServer, server_head, wait_for_head, wait_for_module
from flask import Flask, render_template, send_file
from flask.typing import ResponseReturnValue
from jinja2 import DictLoader
from marmeon_site import VENDOR

from flask_marmeon import Marmeon, head

pytestmark = pytest.mark.browser

TEMPLATES = {
    "base.html": """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{{ render_head() }}
{%- if router == "htmx" %}
<script src="/vendor/htmx.js"></script>
{%- else %}
<script type="module" src="/vendor/turbo.js"></script>
{%- endif %}
</head>
<body{% if router == "htmx" %} hx-boost="true"{% endif %}>
{% block content %}{% endblock %}
<a id="to-first" href="/first">first</a>
<a id="to-second" href="/second">second</a>
</body>
</html>""",
    "first.html": """{% extends "base.html" %}
{% do head(title="The first page", description="Where it starts.") %}
{% block content %}
{% do head(icons="/static/first.png", theme_color="#112233") %}
<h1>First</h1>
{% endblock %}""",
    "second.html": """{% extends "base.html" %}
{% do head(title="The second page") %}
{% block content %}
{% do head(
    description="Written in a block after the head.",
    open_graph={"type": "article"},
    icons=[{"url": "/static/second.png", "sizes": "32x32", "type": "image/png"}],
    theme_color="#445566",
) %}
<h1>Second</h1>
{% endblock %}""",
}


def make_app(origin: str, router: str) -> Flask:
    app = Flask(__name__)
    app.config["APP_URL"] = origin
    app.jinja_loader = DictLoader(TEMPLATES)
    Marmeon(app)

    @app.before_request
    def layout() -> None:
        head(title_template="%s · Notes", open_graph={"site_name": "Notes"})

    @app.get("/<any(first, second):name>")
    def page(name: str) -> str:
        return render_template(f"{name}.html", router=router)

    @app.get("/vendor/<name>")
    def vendor(name: str) -> ResponseReturnValue:
        return send_file(VENDOR[name], mimetype="text/javascript")

    return app


@pytest.mark.parametrize("router", ["htmx", "turbo"])
def test_a_client_visit_shows_the_heads_of_the_templates(
    page: Any, serve: Callable[..., LiveServer], router: str
) -> None:
    site = serve(lambda origin: make_app(origin, router))
    paths = ("/first", "/second")
    expected = {path: server_head(site.fetch(path)[0]) for path in paths}
    # What the test relies on: the templates' calls are in the server's head.
    titles = {p: [el[2] for el in h if el[0] == "title"] for p, h in expected.items()}
    assert titles == {
        "/first": ["The first page · Notes"],
        "/second": ["The second page · Notes"],
    }
    page.goto(site.url + "/first")
    wait_for_module(page)
    page.evaluate("() => { window.sameDocument = true }")
    wait_for_head(page, expected["/first"])
    shown = {
        "/second": ("The second page · Notes", "#445566", "/static/second.png"),
        "/first": ("The first page · Notes", "#112233", "/static/first.png"),
    }
    for selector, path in (("#to-second", "/second"), ("#to-first", "/first")):
        page.click(selector)
        page.wait_for_url(site.url + path)
        wait_for_head(page, expected[path])
        # A visit without a page load, with the new page's title, theme
        # color and icon.
        assert page.evaluate("() => window.sameDocument") is True
        now = page.evaluate(
            """() => [
            document.title,
            document.querySelector('meta[name="theme-color"]').content,
            [...document.head.querySelectorAll('link[rel="icon"]')]
                .map((el) => new URL(el.href).pathname),
        ]"""
        )
        title, color, icon = shown[path]
        assert now == [title, color, [icon]]
