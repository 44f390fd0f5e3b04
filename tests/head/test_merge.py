"""Layouts and pages: the merging rules (merge.py)."""

from __future__ import annotations

from flask import Flask

from flask_marmeon.head.field_kinds import Image
from flask_marmeon.head.fragment import build_fragment
from flask_marmeon.head.merge import MergedHead, merge

from .conftest import RenderFn, links, meta, title


def test_simple_fields_last_wins() -> None:
    merged = merge(
        [
            build_fragment({"title": "L", "description": "L", "canonical": "/l"}),
            build_fragment({"title": "P"}),
            build_fragment({"canonical": "/p", "title_template": "%s | A"}),
            build_fragment({"title_template": "%s | B"}),
        ]
    )
    assert merged.get("title") == "P"
    assert merged.get("description") == "L"
    assert merged.get("canonical") == "/p"
    assert merged.get("title_template") == "%s | B"


def test_objects_merge_key_by_key_and_the_article_too() -> None:
    merged = merge(
        [
            build_fragment(
                {
                    "robots": {"index": True, "follow": False},
                    "open_graph": {
                        "site_name": "Notes",
                        "type": "article",
                        "article": {"tags": ["a"], "authors": ["x"]},
                    },
                    "twitter": {"card": "summary", "site": "@notes"},
                }
            ),
            build_fragment(
                {
                    "robots": {"index": False},
                    "open_graph": {"title": "T", "article": {"tags": ["b"]}},
                    "twitter": {"card": "summary_large_image"},
                }
            ),
        ]
    )
    assert merged.get("robots") == {"index": False, "follow": False}
    assert merged.get("open_graph") == {
        "site_name": "Notes",
        "type": "article",
        "title": "T",
        "article": {"tags": ("b",), "authors": ("x",)},
    }
    assert merged.get("twitter") == {"card": "summary_large_image", "site": "@notes"}


def test_an_image_is_replaced_whole() -> None:
    merged = merge(
        [
            build_fragment(
                {"open_graph": {"image": {"url": "/a", "width": 1, "alt": "A"}}}
            ),
            build_fragment({"open_graph": {"image": "/b"}}),
        ]
    )
    assert merged.get("open_graph") == {"image": (Image("/b"),)}


def test_json_ld_blocks_accumulate_in_call_order() -> None:
    one, two, three = {"@type": "A"}, {"@type": "B"}, {"@type": "C"}
    merged = merge(
        [
            build_fragment({"json_ld": one}),
            build_fragment({"json_ld": [two, three]}),
            build_fragment({"title": "x"}),
        ]
    )
    assert merged.get("json_ld") == (one, two, three)


def test_nothing_set_is_an_empty_head() -> None:
    assert merge([]) == MergedHead()
    assert merge([build_fragment({})]) == MergedHead()


def test_merging_never_changes_a_fragment() -> None:
    first = build_fragment({"open_graph": {"title": "a", "article": {"tags": ["x"]}}})
    merge([first, build_fragment({"open_graph": {"title": "b", "article": {}}})])
    assert first["open_graph"] == {"title": "a", "article": {"tags": ("x",)}}


def test_the_page_wins_over_its_layout_in_the_html(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(
        app,
        {
            "title_template": "%s · Notes",
            "description": "Layout",
            "canonical": "/layout",
            "open_graph": {
                "site_name": "Notes",
                "image": {"url": "/l.png", "alt": "L"},
            },
        },
        {"title": "Page", "open_graph": {"title": "OG", "image": "/p.png"}},
    )
    assert title(el) == "Page · Notes"
    assert meta(el, "description") == ["Layout"]
    assert [link["href"] for link in links(el, "canonical")] == [
        "https://notes.example/layout"
    ]
    assert meta(el, "og:site_name") == ["Notes"]
    assert meta(el, "og:title") == ["OG"]
    assert meta(el, "og:image") == ["https://notes.example/p.png"]
    assert meta(el, "og:image:alt") == []  # the layout's image went whole


def test_title_template_replaces_every_percent_s_plainly(
    app: Flask, head_of: RenderFn
) -> None:
    el = head_of(app, {"title_template": "%s – 100% %d %s"}, {"title": "a%sb"})
    assert title(el) == "a%sb – 100% %d a%sb"


def test_no_title_no_title_element(app: Flask, head_of: RenderFn) -> None:
    el = head_of(app, {"title_template": "%s · Notes", "description": "d"})
    assert el.find("title") is None
    assert meta(el, "description") == ["d"]
