"""The private API the head uses (speedups.py): behind a probe, beside its
plain twin; both ways give the same text."""

from __future__ import annotations

import random
from collections import ChainMap, defaultdict
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import markupsafe
import pytest
from flask import Flask, render_template, render_template_string
from jinja2 import DictLoader, Environment, Template

from flask_marmeon import Marmeon, head
from flask_marmeon.head import html, speedups, templates

from .conftest import parse_head, title


def texts(count: int) -> list[str]:
    rng = random.Random(2929)
    pool = list("ab &<>\"'=/é😀\n\t;#%\x7f\u2028") + ["&amp;", "</script>", "\\"]
    return [
        "".join(rng.choice(pool) for _ in range(rng.randint(0, 16)))
        for _ in range(count)
    ]


def blocks() -> list[Any]:
    rng = random.Random(2930)
    out: list[Any] = []
    for text in texts(200):
        out.append(
            {
                "@type": "Article",
                "headline": text,
                "n": rng.randint(-(2**53 - 1), 2**53 - 1),
                "x": rng.random(),
                "flags": [True, False, None],
                "author": {"@type": "Person", "name": text[::-1]},
                "tuple": (1, text),
            }
        )
    return out


def test_the_probe_finds_markupsafes_c_function_on_this_version() -> None:
    # MarkupSafe 3 has it; on 2.1 escape() is the C function itself and
    # the plain way is as fast.
    if hasattr(markupsafe, "_escape_inner"):
        assert speedups.escape_text is markupsafe._escape_inner
    else:  # pragma: no cover - MarkupSafe 2.1
        assert speedups.escape_text is speedups.plain_escape


def test_escape_both_ways_alike() -> None:
    fast = speedups.probed_escape()
    for text in [*texts(500), "", "plain", "https://notes.example/a?b=1&c=2"]:
        plain = speedups.plain_escape(text)
        assert plain == str(markupsafe.escape(text))
        assert type(plain) is str
        if fast is not None:
            assert fast(text) == plain
            assert type(fast(text)) is str


@pytest.mark.parametrize(
    "inner",
    [
        lambda text: text,  # escapes nothing
        lambda text: markupsafe.Markup(markupsafe.escape(text)),  # not a str
        lambda text, quote: text,  # another signature
        "not callable",
    ],
)
def test_a_c_function_that_answers_otherwise_is_not_used(
    monkeypatch: pytest.MonkeyPatch, inner: object
) -> None:
    monkeypatch.setattr(markupsafe, "_escape_inner", inner, raising=False)
    assert speedups.probed_escape() is None


def test_a_markupsafe_without_the_c_function_gets_the_plain_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(markupsafe, "_escape_inner", raising=False)
    assert speedups.probed_escape() is None


def test_whole_heads_are_the_same_both_ways(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app(APP_URL="https://notes.example")
    pages = [
        {
            "title": text or "t",
            "description": text[::-1] or "d",
            "canonical": "/notes/1?a=1&b=<2>",
            "open_graph": {
                "title": text or "t",
                "image": {"url": "/i.png", "alt": text},
            },
            "json_ld": block,
        }
        for text, block in zip(texts(60), blocks(), strict=False)
    ]
    fast = [render_calls(app, page) for page in pages]
    monkeypatch.setattr(html, "_escape_str", speedups.plain_escape)
    plain = [render_calls(app, page) for page in pages]
    assert plain == fast
    for text in plain:
        parse_head(text)


def globals_maps() -> list[Any]:
    """Globals maps as Jinja makes them (a template's own over the
    environment's), with keys in both, and what the quick way hands back."""
    env = {"range": range, "url_for": "u", "head": "h", "site": "env"}
    return [
        ChainMap({}, env),
        ChainMap({"site": "template", "own": 1}, env),
        ChainMap({"a": 1}, {"b": 2}, {"a": 3, "c": 4}),
        ChainMap(),
        ChainMap({}, Environment().globals),
        # Not dicts, or not a ChainMap: the plain way.
        ChainMap({}, defaultdict(int, env)),
        ChainMap({}, MappingProxyType(env)),
        dict(env),
        MappingProxyType(env),
    ]


@pytest.mark.parametrize("globals_", globals_maps(), ids=repr)
@pytest.mark.parametrize(
    "vars_", [{}, {"note": 1}, {"site": "vars", "url_for": None}], ids=repr
)
def test_template_vars_both_ways_alike(globals_: Any, vars_: dict[str, Any]) -> None:
    plain = speedups.plain_template_vars(globals_, vars_)
    quick = speedups.template_vars(globals_, vars_)
    assert plain == dict(globals_, **vars_)  # Jinja's own copy
    assert quick == plain
    assert list(quick) == list(plain)
    assert type(quick) is dict
    # A copy: the context's variables are its own.
    assert quick is not vars_ and all(quick is not m for m in globals_maps())


def test_template_vars_refuse_a_key_that_is_not_a_str_alike() -> None:
    bad: dict[Any, Any] = {1: "one"}
    for way in (speedups.plain_template_vars, speedups.template_vars):
        with pytest.raises(TypeError):
            way(ChainMap({}, {"a": 1}), bad)


class OwnContext(Template):
    """An app's template class with a new_context of its own."""

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = super().new_context(*args, **kwargs)
        context.vars["own"] = "kept"
        return context


@pytest.mark.parametrize("template_class", [Template, OwnContext])
def test_pages_render_the_same_with_and_without_the_quick_context(
    template_class: type[Template], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Globals of the app, of one template and of Jinja, variables over
    globals, includes, imports and macros: the same page both ways (and an
    app's own new_context is kept)."""

    def pages() -> list[str]:
        app = Flask(__name__)
        app.jinja_env.template_class = template_class
        app.config["APP_URL"] = "https://notes.example"
        app.jinja_env.globals["site"] = "Notes"
        app.jinja_loader = DictLoader(
            {
                "base.html": "<head>{{ render_head() }}</head>"
                "{% block body %}{% endblock %}",
                "page.html": '{% extends "base.html" %}'
                '{% import "m.html" as m %}{% block body %}'
                "{{ site }}|{{ tag }}|{{ own }}|{{ range(2)|list }}|"
                '{% include "part.html" %}|{{ m.shout(site) }}{% endblock %}',
                "part.html": "{{ site }}{{ tag }}",
                "m.html": "{% macro shout(x) %}{{ x|upper }}{{ site }}{% endmacro %}",
            }
        )
        Marmeon(app)
        # Only over Jinja's own new_context.
        quick_vars = app.jinja_env.template_class.quick_vars  # type: ignore[attr-defined]
        assert quick_vars is (template_class is Template)

        @app.get("/")
        def index() -> str:
            head(title="Home")
            page = app.jinja_env.get_template("page.html", globals={"tag": "t"})
            return render_template(page, site="from the view")

        @app.get("/plain")
        def plain() -> str:
            return render_template_string("{{ site }}{{ own }}{{ url_for('plain') }}")

        client = app.test_client()
        return [client.get("/").text, client.get("/plain").text]

    quick = pages()
    own = "kept" if template_class is OwnContext else ""
    head_html, body = quick[0].removeprefix("<head>").split("</head>")
    assert title(parse_head(head_html)) == "Home"
    assert body == f"from the view|t|{own}|[0, 1]|from the viewt|FROM THE VIEWNotes"
    assert quick[1] == f"Notes{own}/plain"
    monkeypatch.setattr(templates, "template_vars", speedups.plain_template_vars)
    assert pages() == quick
