"""head() called from a page's templates (API.md, "The head from templates").

Each placement (top of a child template, a block after ``<head>``, an
include, a macro, an imported template, a template rendered inside the
page), the order layouts -> view -> templates, ``{{ head() }}`` writing
nothing, an htmx fragment, calls made after the head was written
(development raises, production logs once per endpoint), a page rendered
twice and ``stream_template``. Pages are parsed as a browser does (html5lib).
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import html5lib
import pytest
from flask import (
    Flask,
    Response,
    render_template,
    render_template_string,
    stream_template,
)
from jinja2 import DictLoader, Template

from flask_marmeon import Marmeon, head, render_head
from flask_marmeon._state import get_state
from flask_marmeon.head.state import head_state

from .conftest import meta, title

BASE = """<!DOCTYPE html>
<html lang="en">
<head>{{ render_head() }}</head>
<body>{% block content %}{% endblock %}</body>
</html>"""

TEMPLATES = {
    "base.html": BASE,
    # Top of a child template, then a block that renders after <head>.
    "article.html": """{% extends "base.html" %}
{% do head(title="Top of the child", description="from the top") %}
{% block content %}
  {% do head(description="from the block", open_graph={"type": "article"}) %}
  <h1>Article</h1>
{% endblock %}""",
    "with_include.html": """{% extends "base.html" %}
{% block content %}<main>{% include "card.html" %}</main>{% endblock %}""",
    "card.html": """{% do head(title="From the include") %}<p>card</p>""",
    "with_macro.html": """{% extends "base.html" %}
{% macro seo(name) %}{% do head(title=name) %}<b>{{ name }}</b>{% endmacro %}
{% block content %}{{ seo("From the macro") }}{% endblock %}""",
    "macros.html": """{% macro seo(name, text) -%}
{% do head(title=name, description=text) %}
{%- endmacro %}""",
    "with_import.html": """{% extends "base.html" %}
{% import "macros.html" as m %}
{% block content %}{{ m.seo("From the import", "imported") }}{% endblock %}""",
    "with_from_import.html": """{% extends "base.html" %}
{% from "macros.html" import seo %}
{% block content %}{{ seo("From from-import", "imported") }}{% endblock %}""",
    "writes_nothing.html": """{% extends "base.html" %}
{% block content %}<p id="out">{{ head(title="Echo") }}</p>{% endblock %}""",
    "fragment.html": """{% do head(title="Fragment") %}<li>an htmx fragment</li>""",
    "nested.html": """{% extends "base.html" %}
{% block content %}{{ render_card() }}{% endblock %}""",
    "late.html": """{% extends "base.html" %}
{% block content %}
<p>before</p>
{% do head(title="Late") %}
{% endblock %}""",
    "streamed.html": """{% extends "base.html" %}
{% do head(title="Streamed") %}
{% block content %}<p>body</p>
{% do head(description="past the head") %}{% endblock %}""",
    "streamed_ok.html": """{% extends "base.html" %}
{% do head(title="Streamed", description="before the head") %}
{% block content %}<p>body</p>{% endblock %}""",
}


def parse(document: str) -> ET.Element:
    """The whole page as a browser reads it; it must parse without an error."""
    assert "\x00" not in document  # no mark of render_head() is left
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree", ET), namespaceHTMLElements=False
    )
    root = parser.parse(document)
    assert parser.errors == [], parser.errors
    return root


def head_el(document: str) -> ET.Element:
    found = parse(document).find("head")
    assert found is not None
    return found


@pytest.fixture
def site(make_app: Callable[..., Flask]) -> Callable[..., Flask]:
    """An app with the templates above, a layout and one view per template."""

    def make(**config: Any) -> Flask:
        app = make_app(APP_URL="https://notes.example", **config)
        app.jinja_loader = DictLoader(TEMPLATES)

        @app.before_request
        def layout() -> None:
            head(title_template="%s · Notes", twitter={"site": "@notes"})

        @app.get("/t/<name>")
        def page(name: str) -> str:
            return render_template(f"{name}.html")

        return app

    return make


@pytest.mark.parametrize(
    ("name", "expected_title", "expected_description"),
    [
        ("article", "Top of the child · Notes", "from the block"),
        ("with_include", "From the include · Notes", None),
        ("with_macro", "From the macro · Notes", None),
        ("with_import", "From the import · Notes", "imported"),
        ("with_from_import", "From from-import · Notes", "imported"),
    ],
)
def test_every_placement_reaches_the_head(
    site: Callable[..., Flask],
    name: str,
    expected_title: str,
    expected_description: str | None,
) -> None:
    response = site().test_client().get(f"/t/{name}")
    assert response.status_code == 200
    el = head_el(response.text)
    assert title(el) == expected_title
    assert meta(el, "description") == (
        [expected_description] if expected_description else []
    )
    assert meta(el, "twitter:site") == ["@notes"]  # the layout's


def test_a_call_in_a_block_after_the_head_counts(site: Callable[..., Flask]) -> None:
    # Jinja writes base.html's <head> before the child's block runs.
    el = head_el(site().test_client().get("/t/article").text)
    assert meta(el, "og:type") == ["article"]
    assert meta(el, "og:description") == ["from the block"]


def test_layouts_then_the_view_then_the_templates(
    site: Callable[..., Flask],
) -> None:
    app = site()

    @app.get("/ordered")
    def ordered() -> str:
        head(
            title="The view's",
            description="the view's",
            robots={"index": False, "follow": False},
            open_graph={"site_name": "Notes", "type": "website"},
        )
        return render_template("article.html")

    el = head_el(app.test_client().get("/ordered").text)
    # The templates' calls come last: they win, key by key.
    assert title(el) == "Top of the child · Notes"
    assert meta(el, "description") == ["from the block"]
    assert meta(el, "og:type") == ["article"]
    # What the templates left alone stays the view's and the layout's.
    assert meta(el, "og:site_name") == ["Notes"]
    assert meta(el, "robots") == ["noindex, nofollow"]
    assert meta(el, "twitter:site") == ["@notes"]


def test_head_in_an_expression_writes_nothing(site: Callable[..., Flask]) -> None:
    root = parse(site().test_client().get("/t/writes_nothing").text)
    [out] = [el for el in root.iter("p") if el.get("id") == "out"]
    assert (out.text or "") == ""
    head = root.find("head")
    assert head is not None and title(head) == "Echo · Notes"


def test_markup_counts_as_the_text_it_shows(site: Callable[..., Flask]) -> None:
    app = site()

    @app.get("/markup")
    def markup() -> str:
        # Under autoescape "~" and |format make Markup, escaping the values.
        return render_template_string(
            "<!DOCTYPE html><html><head>{{ render_head() }}</head><body>"
            "{% do head(title='Notes of %s'|format(name),"
            " open_graph={'title': 'x' ~ name}) %}</body></html>",
            name="A & <B>",
        )

    el = head_el(app.test_client().get("/markup").text)
    assert title(el) == "Notes of A & <B> · Notes"
    assert meta(el, "og:title") == ["xA & <B>"]


def test_an_undefined_value_names_the_field(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    app.testing = True

    @app.get("/")
    def index() -> str:
        return render_template_string(
            "{% do head(title=post.titel) %}", post={"title": "x"}
        )

    with pytest.raises(TypeError, match="head\\(\\)'s title is undefined"):
        app.test_client().get("/")


def test_do_works_without_configuring_jinja(make_app: Callable[..., Flask]) -> None:
    app = make_app()

    @app.get("/")
    def index() -> str:
        return render_template_string("{% do head(title='x') %}ok")

    assert app.test_client().get("/").text == "ok"


def test_render_template_string_is_one_render(site: Callable[..., Flask]) -> None:
    app = site()

    @app.get("/string")
    def string() -> str:
        return render_template_string(
            "<!DOCTYPE html><html><head>{{ render_head() }}</head><body>"
            "{% do head(title='From a string') %}</body></html>"
        )

    assert title(head_el(app.test_client().get("/string").text)) == (
        "From a string · Notes"
    )


def test_a_template_rendered_inside_the_page_counts(
    site: Callable[..., Flask],
) -> None:
    app = site()
    app.jinja_env.globals["render_card"] = lambda: render_template("card.html")
    el = head_el(app.test_client().get("/t/nested").text)
    assert title(el) == "From the include · Notes"


def test_a_fragment_without_render_head_adds_to_the_requests_head(
    site: Callable[..., Flask],
) -> None:
    app = site()

    @app.get("/items")
    def items() -> str:
        # An htmx request gets the fragment alone.
        return render_template("fragment.html")

    @app.get("/list")
    def whole() -> str:
        fragment = render_template("fragment.html")
        return render_template_string(
            "<!DOCTYPE html><html><head>{{ render_head() }}</head>"
            "<body><ul>{{ fragment }}</ul></body></html>",
            fragment=fragment,
        )

    client = app.test_client()
    alone = client.get("/items", headers={"HX-Request": "true"})
    assert alone.status_code == 200
    assert alone.text == "<li>an htmx fragment</li>"
    assert title(head_el(client.get("/list").text)) == "Fragment · Notes"


def test_render_head_from_python_still_writes_at_once(
    site: Callable[..., Flask],
) -> None:
    app = site()

    @app.get("/python")
    def python() -> str:
        head(title="Python")
        return f"<!DOCTYPE html><html><head>{render_head()}</head><body></body></html>"

    assert title(head_el(app.test_client().get("/python").text)) == "Python · Notes"


def test_a_page_rendered_twice_has_its_head_both_times(
    site: Callable[..., Flask],
) -> None:
    app = site()
    pages: list[str] = []

    @app.get("/twice")
    def twice() -> str:
        head(title="Twice")
        pages.append(render_template("with_macro.html"))
        pages.append(render_template("base.html"))
        return pages[-1]

    app.test_client().get("/twice")
    # with_macro's call came in the first render; the second render (no
    # call of its own) writes the same head.
    assert [title(head_el(page)) for page in pages] == ["From the macro · Notes"] * 2


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

    with pytest.raises(RuntimeError, match=r"too_late\(\) \(.*test_templates\.py"):
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


def test_the_nonce_and_the_memo(site: Callable[..., Flask]) -> None:
    nonces = iter(f"n{i}" for i in range(10))
    app = site(MARMEON_CSP_NONCE=lambda: current[0])
    current = [""]
    client = app.test_client()
    heads = []
    for _ in range(4):
        current[0] = next(nonces)
        el = head_el(client.get("/t/article").text)
        [module] = [s for s in el.iter("script") if s.get("type") == "module"]
        assert module.get("nonce") == current[0]
        module.attrib.pop("nonce")
        heads.append(ET.tostring(el))
    # Production keeps whole heads: the page seen before comes from the memo.
    assert len(head_state(get_state(app)).pages.pages) == 1
    assert len(set(heads)) == 1


def test_an_apps_own_template_class_is_kept() -> None:
    class Mine(Template):
        pass

    app = Flask("own")
    app.jinja_env.template_class = Mine
    app.config["APP_URL"] = "https://notes.example"
    app.jinja_loader = DictLoader(TEMPLATES)
    Marmeon(app)

    @app.get("/")
    def index() -> str:
        return render_template("article.html")

    assert issubclass(app.jinja_env.template_class, Mine)
    assert title(head_el(app.test_client().get("/").text)) == "Top of the child"


def test_a_template_loaded_before_the_extension_is_loaded_again() -> None:
    app = Flask("early")
    app.jinja_loader = DictLoader(TEMPLATES)
    app.jinja_env.get_template("base.html")  # in Jinja's cache
    Marmeon(app)

    @app.get("/")
    def index() -> str:
        return render_template("article.html")

    assert title(head_el(app.test_client().get("/").text)) == "Top of the child"


def test_a_render_outside_a_request(site: Callable[..., Flask]) -> None:
    app = site()
    with app.app_context():
        html = render_template("base.html")
    el = head_el(html)
    assert title(el) is None
    assert el.find("meta") is not None  # marmeon:app-url


def test_a_failed_render_leaves_no_mark_behind(site: Callable[..., Flask]) -> None:
    app = site()

    @app.get("/fails")
    def fails() -> str:
        try:
            render_template_string("{{ render_head() }}{{ 1 / 0 }}")
        except ZeroDivisionError:
            pass
        head(title="Still in time")
        return render_template("base.html")

    el = head_el(app.test_client().get("/fails").text)
    assert title(el) == "Still in time · Notes"
