"""head() called from a page's templates (API.md, "The head from templates").

Each placement (top of a child template, a block after ``<head>``, an
include, a macro, an imported template, a template rendered inside the
page), the order layouts -> view -> templates, ``{{ head() }}`` writing
nothing, an htmx fragment, a page rendered twice and ``stream_template``
(calls made after the head was written: test_template_late_calls.py).
Pages are parsed as a browser does (html5lib).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from flask import (
    Flask,
    render_template,
    render_template_string,
)
from jinja2 import DictLoader, Template

from flask_marmeon import Marmeon, head, render_head
from flask_marmeon._state import get_state
from flask_marmeon.head.state import head_state

from .conftest import meta, title
from .template_site import TEMPLATES, head_el, parse


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
