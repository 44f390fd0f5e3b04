"""The browser data (head/html.py, output version 2): only what the page cannot say.

With APP_URL set, the managed elements are final and nothing else is
written. Without it, the elements left out for a relative URL go to the
browser module, each with its place (``at``) and its group, so that it can
resolve them against ``location.origin``.
"""

from __future__ import annotations

import datetime
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from flask import Flask

from flask_marmeon.head.url_policy import decide
from flask_marmeon.page import Page

from .conftest import managed, parse_head

ORIGIN = "https://notes.example"
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
        "canonical": "/notes/1?x=</script>",
        "robots": {"index": False},
        "open_graph": {
            "type": "article",
            "url": "//evil.example/x",
            "image": {"url": "javascript:x", "width": 10, "height": 20, "alt": "A"},
            "article": {"published_time": datetime.date(2024, 1, 1), "tags": ["t"]},
        },
        "twitter": {"image": {"url": "/t.png", "alt": "TA"}},
        "json_ld": [{"@type": "Person"}],
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

Element = tuple[str, dict[str, str], str]


def data_script(el: ET.Element) -> ET.Element | None:
    found = [s for s in el.iter("script") if "data-marmeon-data" in s.attrib]
    assert len(found) <= 1
    return found[0] if found else None


def elements(el: ET.Element) -> list[Element]:
    """The managed elements as (tag, attributes but data-marmeon/nonce, text)."""
    return [
        (
            e.tag,
            {k: v for k, v in e.attrib.items() if k not in ("data-marmeon", "nonce")},
            e.text or "",
        )
        for e in managed(el)
    ]


def apply_like_the_module(el: ET.Element, origin: str) -> list[Element]:
    """What the browser module does with a document (CONTRACT-HEAD-V2.md)."""
    out: list[tuple[int | None, Element]] = [(None, e) for e in elements(el)]
    script = data_script(el)
    items = json.loads(script.text or "")["missing"] if script is not None else []
    for item in sorted(items, key=lambda i: i["at"]):
        out.insert(item["at"], (item["group"], (item["tag"], item["attrs"], "")))
    dropped = set()
    for item in items:
        if "url" in item:
            href = decide(item["attrs"][item["url"]], origin)
            if href is None:
                dropped.add(item["group"])
            else:
                item["attrs"][item["url"]] = href
    return [element for group, element in out if group not in dropped]


def test_with_app_url_the_elements_are_final_and_there_is_no_data(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "de"])
    el = parse_head(render_calls(app, *FULL, page=PAGE))
    assert data_script(el) is None
    [app_url] = [m for m in el.iter("meta") if m.get("name") == "marmeon:app-url"]
    assert app_url.get("content") == ORIGIN and "data-marmeon" not in app_url.attrib


def test_without_app_url_the_module_rebuilds_the_servers_head(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    # The document without APP_URL plus its data, resolved against an
    # origin the way the module does, is element for element what the
    # server writes when APP_URL is that origin.
    nonce = {"MARMEON_CSP_NONCE": lambda: "n1"}
    bare = make_app(APP_LOCALES=["en", "de"], **nonce)
    html = render_calls(bare, *FULL, page=PAGE)
    assert "</script>" not in html.split("data-marmeon-data")[1].split("</script>")[0]
    el = parse_head(html)
    script = data_script(el)
    assert script is not None and script.get("type") == "application/json"
    assert script.get("nonce") == "n1" and "data-marmeon" not in script.attrib
    assert script.get("data-turbo-eval") == "false"
    data = json.loads(script.text or "")
    assert set(data) == {"v", "missing"} and data["v"] == 2
    with_url = make_app(APP_URL=ORIGIN, APP_LOCALES=["en", "de"], **nonce)
    server = elements(parse_head(render_calls(with_url, *FULL, page=PAGE)))
    assert apply_like_the_module(el, ORIGIN) == server
    assert len(server) > 20


def test_the_items_name_their_place_their_url_and_their_group(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app(APP_LOCALES=["en", "de"])
    el = parse_head(render_calls(app, *FULL, page=PAGE))
    script = data_script(el)
    assert script is not None
    items: list[dict[str, Any]] = json.loads(script.text or "")["missing"]
    for item in items:
        assert set(item) <= {"at", "tag", "attrs", "url", "group"}
        assert "data-marmeon" not in item["attrs"] and "nonce" not in item["attrs"]
    urls = [(i["attrs"][i["url"]], i["url"]) for i in items if "url" in i]
    # Raw values, the page's own paths for the default canonical and hreflang
    # (here the app's canonical wins); never the bad scheme, never the
    # scheme-relative URL, which names another host whatever the origin.
    assert urls == [
        ("/notes/1?x=</script>", "href"),
        ("/en/notes/1", "href"),
        ("/de/notes/1", "href"),
        ("/notes/1", "href"),
        ("/t.png", "content"),
    ]
    assert items[1]["attrs"] == {
        "rel": "alternate",
        "hreflang": "en",
        "href": "/en/notes/1",
    }
    # An image's alt goes with it, in the same group; javascript: is gone
    # with its width, height and alt.
    image = next(i for i in items if i["attrs"].get("content") == "/t.png")
    [alt] = [i for i in items if i["group"] == image["group"] and "url" not in i]
    assert alt["attrs"] == {"name": "twitter:image:alt", "content": "TA"}
    assert alt["at"] == image["at"] + 1
    assert all(i["attrs"].get("property") != "og:image:width" for i in items)
    assert len({i["group"] for i in items}) == 5


def test_nothing_left_out_for_being_relative_means_no_data(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app()
    call = {
        "title": "T",
        "canonical": "javascript:x",
        "twitter": {"image": "https://cdn.example/i.png"},
    }
    el = parse_head(render_calls(app, call))
    assert data_script(el) is None
    assert [e[0] for e in elements(el)] == ["title", "meta", "meta"]
