"""Defaults and tags of the head (resolve.py), read back from the HTML."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from flask import Flask

from .conftest import RenderFn, managed, meta, metas


def test_og_and_twitter_default_to_the_pages_title_and_description(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        app,
        {"title_template": "%s · Notes", "open_graph": {}, "twitter": {}},
        {"title": "Note", "description": "About it"},
    )
    assert meta(el, "og:title") == ["Note"]  # as written, without the template
    assert meta(el, "og:description") == ["About it"]
    assert meta(el, "twitter:title") == ["Note"]
    assert meta(el, "twitter:description") == ["About it"]


def test_twitter_never_takes_open_graphs_title(app: Flask, head_of: RenderFn) -> None:
    el = head_of(
        app,
        {"title": "Page", "open_graph": {"title": "OG", "description": "OGD"}},
        {"twitter": {"card": "summary"}},
    )
    assert meta(el, "og:title") == ["OG"]
    assert meta(el, "twitter:title") == ["Page"]
    assert meta(el, "twitter:description") == []


def test_no_og_or_twitter_tags_when_neither_is_set(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(app, {"title": "T", "description": "D", "canonical": "/x"})
    assert not [k for k, _ in metas(el) if k.startswith(("og:", "twitter:"))]


def test_og_url_has_no_default(app: Flask, head_of: RenderFn) -> None:
    el = head_of(app, {"title": "T", "canonical": "/x", "open_graph": {}})
    assert meta(el, "og:url") == []
    el = head_of(app, {"open_graph": {"url": "/x"}})
    assert meta(el, "og:url") == ["https://notes.example/x"]


def test_a_twitter_card_in_a_layout_gives_every_page_twitter_tags(
    app: Flask,
) -> None:
    from flask import render_template_string

    from flask_marmeon import head

    @app.before_request
    def layout() -> None:
        head(twitter={"card": "summary_large_image"})

    @app.get("/a")
    def a() -> str:
        head(title="A")
        return render_template_string("{{ render_head() }}")

    @app.get("/b")
    def b() -> str:
        return render_template_string("{{ render_head() }}")

    from .conftest import parse_head

    a_el = parse_head(app.test_client().get("/a").text)
    b_el = parse_head(app.test_client().get("/b").text)
    assert meta(a_el, "twitter:card") == ["summary_large_image"]
    assert meta(a_el, "twitter:title") == ["A"]
    assert meta(b_el, "twitter:card") == ["summary_large_image"]


@pytest.mark.parametrize(
    ("robots", "content"),
    [
        ({"index": False}, ["noindex"]),
        ({"index": True}, ["index"]),
        ({"follow": False}, ["nofollow"]),
        ({"index": False, "follow": True}, ["noindex, follow"]),
        ({"follow": True, "index": True}, ["index, follow"]),
        ({"follow": False, "index": False}, ["noindex, nofollow"]),
        ({}, []),
    ],
)
def test_robots_writes_only_what_was_set(
    app: Flask, head_of: RenderFn, robots: dict[str, bool], content: list[str]
) -> None:
    assert meta(head_of(app, {"robots": robots}), "robots") == content


def test_open_graph_as_property_and_twitter_as_name(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        app,
        {
            "open_graph": {
                "title": "T",
                "description": "D",
                "type": "website",
                "url": "/u",
                "site_name": "S",
                "locale": "en_US",
                "image": {"url": "/i.png", "width": 1200, "height": 630, "alt": "I"},
            },
            "twitter": {
                "card": "summary",
                "site": "@s",
                "creator": "@c",
                "title": "TT",
                "description": "TD",
                "image": {"url": "/t.png", "alt": "TA"},
            },
        },
    )
    og = [
        (m.get("property"), m.get("content"))
        for m in el.iter("meta")
        if m.get("property")
    ]
    assert og == [
        ("og:title", "T"),
        ("og:description", "D"),
        ("og:type", "website"),
        ("og:url", "https://notes.example/u"),
        ("og:site_name", "S"),
        ("og:locale", "en_US"),
        ("og:image", "https://notes.example/i.png"),
        ("og:image:width", "1200"),
        ("og:image:height", "630"),
        ("og:image:alt", "I"),
    ]
    tw = [
        (m.get("name"), m.get("content"))
        for m in el.iter("meta")
        if (m.get("name") or "").startswith("twitter:")
    ]
    assert tw == [
        ("twitter:card", "summary"),
        ("twitter:site", "@s"),
        ("twitter:creator", "@c"),
        ("twitter:title", "TT"),
        ("twitter:description", "TD"),
        ("twitter:image", "https://notes.example/t.png"),
        ("twitter:image:alt", "TA"),
    ]
    assert all(m.get("name") is None for m in el.iter("meta") if m.get("property"))


def test_alt_width_and_height_go_with_an_image_left_out_as_unsafe(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        app,
        {
            "open_graph": {
                "title": "T",
                "image": {
                    "url": "//evil.example/i.png",
                    "width": 1,
                    "height": 2,
                    "alt": "A",
                },
            },
            "twitter": {"image": {"url": "javascript:alert(1)", "alt": "B"}},
        },
    )
    keys = [k for k, _ in metas(el)]
    assert "og:title" in keys
    for gone in ("og:image", "og:image:width", "og:image:height", "og:image:alt"):
        assert gone not in keys
    assert "twitter:image" not in keys and "twitter:image:alt" not in keys


def test_article_tags_only_for_type_article(app: Flask, head_of: RenderFn) -> None:
    article = {
        "published_time": datetime.datetime(
            2024, 5, 1, 8, 0, tzinfo=datetime.timezone.utc
        ),
        "modified_time": datetime.date(2024, 5, 3),
        "authors": ["https://notes.example/ada", "https://notes.example/grace"],
        "tags": ["python", "flask", "web"],
    }
    el = head_of(app, {"open_graph": {"type": "article", "article": article}})
    assert [(k, v) for k, v in metas(el) if k.startswith("article:")] == [
        ("article:published_time", "2024-05-01T08:00:00+00:00"),
        ("article:modified_time", "2024-05-03"),
        ("article:author", "https://notes.example/ada"),
        ("article:author", "https://notes.example/grace"),
        ("article:tag", "python"),
        ("article:tag", "flask"),
        ("article:tag", "web"),
    ]
    for other in ({"type": "website"}, {}):
        el = head_of(app, {"open_graph": {**other, "article": article}})
        assert not [k for k, _ in metas(el) if k.startswith("article:")]
    # The type may come from the layout and the article from the page.
    el = head_of(
        app,
        {"open_graph": {"type": "article"}},
        {"open_graph": {"article": {"tags": ["x"]}}},
    )
    assert meta(el, "article:tag") == ["x"]


def test_the_managed_elements_carry_data_marmeon_in_order(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        app,
        {
            "title": "T",
            "description": "D",
            "canonical": "/c",
            "robots": {"index": True},
            "open_graph": {"type": "website"},
            "twitter": {"card": "summary"},
            "json_ld": {"@type": "Thing"},
        },
    )
    app_url = el.find("meta")
    assert app_url is not None and app_url.get("name") == "marmeon:app-url"
    assert "data-marmeon" not in app_url.attrib
    names = [
        e.tag
        + ":"
        + (e.get("name") or e.get("property") or e.get("rel") or e.get("type") or "")
        for e in managed(el)
    ]
    assert names == [
        "title:",
        "meta:description",
        "link:canonical",
        "meta:robots",
        "meta:og:title",
        "meta:og:description",
        "meta:og:type",
        "meta:twitter:card",
        "meta:twitter:title",
        "meta:twitter:description",
        "script:application/ld+json",
    ]


def test_app_url_meta_only_with_app_url(
    make_app: Callable[..., Flask], head_of: RenderFn
) -> None:
    el = head_of(make_app(APP_URL="https://notes.example/base/path"), {})
    assert meta(el, "marmeon:app-url") == []  # metas() leaves it out; read it:
    found = [
        m.get("content") for m in el.iter("meta") if m.get("name") == "marmeon:app-url"
    ]
    assert found == ["https://notes.example"]
    el = head_of(make_app(), {"title": "x"})
    assert not [m for m in el.iter("meta") if m.get("name") == "marmeon:app-url"]
