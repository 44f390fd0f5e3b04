"""The browser data (serialize.py): the contract with static/marmeon.js."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

from flask import Flask

from flask_marmeon.head.urls import decide
from flask_marmeon.page import Page

from .conftest import managed, parse_head

FULL = (
    {
        "title_template": "%s · Notes",
        "open_graph": {"site_name": "Notes", "image": {"url": "/l.png", "alt": "L"}},
        "twitter": {"card": "summary_large_image"},
        "json_ld": {"@type": "Organization", "name": "</script>"},
    },
    {
        "title": "A <note>",
        "description": "D",
        "canonical": "/notes/1?x=1",
        "robots": {"index": False},
        "open_graph": {
            "type": "article",
            "url": "//evil.example/x",
            "image": {"url": "javascript:x", "width": 10, "height": 20, "alt": "A"},
            "article": {"published_time": datetime.date(2024, 1, 1), "tags": ["t"]},
        },
        "twitter": {"image": {"url": "https://cdn.example/t.png", "alt": "TA"}},
        "json_ld": [{"@type": "Article", "bad": {1}}, {"@type": "Person"}],
    },
)
PAGE = Page(
    locale="en",
    canonical_path="/en/notes/1",
    hreflang_paths=(
        ("en", "/en/notes/1"),
        ("de", "/de/notes/1"),
        ("x-default", "/notes/1"),
    ),
)


def data_of(html: str) -> dict[str, Any]:
    el = parse_head(html)
    [script] = [s for s in el.iter("script") if s.get("id") == "marmeon-head"]
    assert script.get("type") == "application/json"
    loaded: dict[str, Any] = json.loads(script.text or "")
    return loaded


def apply_like_the_module(
    data: dict[str, Any],
) -> list[tuple[str, dict[str, str], str]]:
    """What the browser module does with the data (ARCHITECTURE.md)."""
    dropped, out = set(), []
    for item in data["head"]:
        attrs = dict(item["attrs"])
        if "url" in item:
            href = decide(attrs[item["url"]], data["appUrl"])
            if href is None:
                dropped.add(item["group"])
                continue
            attrs[item["url"]] = href
        out.append((item.get("group"), (item["tag"], attrs, item.get("text", ""))))
    return [element for group, element in out if group is None or group not in dropped]


def test_the_data_holds_the_head_raw(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app(APP_URL="https://notes.example", APP_LOCALES=["en", "de"])
    html = render_calls(app, *FULL, page=PAGE)
    assert "</script>" not in html.split('id="marmeon-head"')[1].split("</script>")[0]
    data = data_of(html)
    assert set(data) == {"v", "dev", "appUrl", "head"}
    assert data["v"] == 1 and data["dev"] is False
    assert data["appUrl"] == "https://notes.example"
    items = data["head"]
    assert items[0] == {"tag": "title", "attrs": {}, "text": "A <note> · Notes"}
    urls = [(i["field"], i["attrs"][i["url"]], i["url"]) for i in items if "url" in i]
    assert urls == [
        ("canonical", "/notes/1?x=1", "href"),
        ("hreflang", "/en/notes/1", "href"),
        ("hreflang", "/de/notes/1", "href"),
        ("hreflang", "/notes/1", "href"),
        ("open_graph.url", "//evil.example/x", "content"),
        ("open_graph.image", "javascript:x", "content"),
        ("twitter.image", "https://cdn.example/t.png", "content"),
    ]
    image = next(i for i in items if i.get("field") == "open_graph.image")
    companions = [
        i["attrs"]["property"]
        for i in items
        if i.get("group") == image["group"] and "url" not in i
    ]
    assert companions == ["og:image:width", "og:image:height", "og:image:alt"]
    assert len({i["group"] for i in items if "url" in i}) == 7
    blocks = [i for i in items if i["tag"] == "script"]
    assert [json.loads(b["text"])["@type"] for b in blocks] == [
        "Organization",
        "Person",
    ]
    assert blocks[0]["attrs"] == {"type": "application/ld+json"}
    for item in items:
        assert set(item) <= {"tag", "attrs", "text", "url", "field", "group"}
        assert "data-marmeon" not in item["attrs"] and "nonce" not in item["attrs"]


def test_the_module_gets_the_servers_head_element_for_element(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app(
        APP_URL="https://notes.example",
        APP_LOCALES=["en", "de"],
        MARMEON_CSP_NONCE=lambda: "n",
    )
    html = render_calls(app, *FULL, page=PAGE)
    server = [
        (
            el.tag,
            {k: v for k, v in el.attrib.items() if k not in ("data-marmeon", "nonce")},
            el.text or "",
        )
        for el in managed(parse_head(html))
    ]
    assert apply_like_the_module(data_of(html)) == server
    assert len(server) > 20


def test_dev_and_no_app_url(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app(APP_LOCALES=["en", "de"])
    app.debug = True
    data = data_of(render_calls(app, {"title": "T"}, page=PAGE))
    assert data["dev"] is True and data["appUrl"] is None
    # The server left the hreflang block out; the browser gets it raw.
    fields = [i["field"] for i in data["head"] if "url" in i]
    assert fields == ["canonical", "hreflang", "hreflang", "hreflang"]
