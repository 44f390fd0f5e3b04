"""The rest of a page's head: icons, theme_color, manifest, feeds,
verification, facebook, other, and og's product (API.md, "More of a page's
head")."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask

from flask_marmeon import head

from .conftest import RenderFn, managed, meta, metas, parse_head


def _links(el: Any, rel: str) -> list[dict[str, str]]:
    return [dict(e.attrib) for e in el.iter("link") if e.get("rel") == rel]


def test_icons_in_order_each_with_its_attributes(app: Flask, head_of: RenderFn) -> None:
    el = head_of(
        app,
        {
            "icons": [
                "/favicon.ico",
                {"url": "/icon.svg", "type": "image/svg+xml", "sizes": "any"},
                {"url": "/apple.png", "rel": "apple-touch-icon", "sizes": "180x180"},
                {"url": "/mask.svg", "rel": "mask-icon", "color": "#5bbad5"},
                {"url": "/dark.png", "media": "(prefers-color-scheme: dark)"},
            ]
        },
    )
    icons = [
        dict(e.attrib)
        for e in el.iter("link")
        if e.get("rel") in ("icon", "apple-touch-icon", "mask-icon")
    ]
    base = "https://notes.example"
    assert icons == [
        {"rel": "icon", "href": f"{base}/favicon.ico", "data-marmeon": ""},
        {
            "rel": "icon",
            "href": f"{base}/icon.svg",
            "type": "image/svg+xml",
            "sizes": "any",
            "data-marmeon": "",
        },
        {
            "rel": "apple-touch-icon",
            "href": f"{base}/apple.png",
            "sizes": "180x180",
            "data-marmeon": "",
        },
        {
            "rel": "mask-icon",
            "href": f"{base}/mask.svg",
            "color": "#5bbad5",
            "data-marmeon": "",
        },
        {
            "rel": "icon",
            "href": f"{base}/dark.png",
            "media": "(prefers-color-scheme: dark)",
            "data-marmeon": "",
        },
    ]


def test_theme_color_manifest_and_feeds(app: Flask, head_of: RenderFn) -> None:
    el = head_of(
        app,
        {
            "theme_color": [
                {"color": "#ffffff", "media": "(prefers-color-scheme: light)"},
                {"color": "#000000"},
            ],
            "manifest": "/site.webmanifest",
            "feeds": [
                {"url": "/feed.xml", "type": "application/rss+xml", "title": "Posts"},
                {"url": "/atom.xml", "type": "application/atom+xml"},
                {"url": "/feed.json", "type": "application/feed+json", "title": "J"},
            ],
        },
    )
    themes = [dict(e.attrib) for e in el.iter("meta") if e.get("name") == "theme-color"]
    assert themes == [
        {
            "name": "theme-color",
            "content": "#ffffff",
            "media": "(prefers-color-scheme: light)",
            "data-marmeon": "",
        },
        {"name": "theme-color", "content": "#000000", "data-marmeon": ""},
    ]
    assert _links(el, "manifest") == [
        {
            "rel": "manifest",
            "href": "https://notes.example/site.webmanifest",
            "data-marmeon": "",
        }
    ]
    feeds = [(f["type"], f["href"], f.get("title")) for f in _links(el, "alternate")]
    assert feeds == [
        ("application/rss+xml", "https://notes.example/feed.xml", "Posts"),
        ("application/atom+xml", "https://notes.example/atom.xml", None),
        ("application/feed+json", "https://notes.example/feed.json", "J"),
    ]
    # One color as text.
    el = head_of(app, {"theme_color": "#123456"})
    assert meta(el, "theme-color") == ["#123456"]


def test_verification_facebook_and_other(app: Flask, head_of: RenderFn) -> None:
    el = head_of(
        app,
        {
            "verification": {
                "google": "g1",
                "bing": ["b1", "b2"],
                "yandex": "y",
                "pinterest": "p",
                "facebook": "f",
            },
            "facebook": {"app_id": "1234"},
            "other": {"rating": "adult", "format-detection": ["telephone=no"]},
        },
    )
    found = [(k, v) for k, v in metas(el)]
    assert found == [
        ("google-site-verification", "g1"),
        ("msvalidate.01", "b1"),
        ("msvalidate.01", "b2"),
        ("yandex-verification", "y"),
        ("p:domain_verify", "p"),
        ("facebook-domain-verification", "f"),
        ("rating", "adult"),
        ("format-detection", "telephone=no"),
        ("fb:app_id", "1234"),
    ]
    fb = [e for e in el.iter("meta") if e.get("property") == "fb:app_id"]
    assert len(fb) == 1


def test_every_new_tag_carries_the_marker(app: Flask, head_of: RenderFn) -> None:
    el = head_of(
        app,
        {
            "icons": "/favicon.ico",
            "theme_color": "#fff",
            "manifest": "/m.json",
            "feeds": [{"url": "/f.xml", "type": "application/rss+xml"}],
            "verification": {"google": "g"},
            "facebook": {"app_id": "1"},
            "other": {"rating": "general"},
        },
    )
    unmarked = [
        e.attrib
        for e in el
        if e.tag in ("meta", "link")
        and e.get("name") != "marmeon:app-url"
        and "data-marmeon" not in e.attrib
    ]
    assert unmarked == []
    assert len(managed(el)) == 7


def _product(**product: Any) -> dict[str, Any]:
    return {"open_graph": {"type": "product", "product": product}}


def test_product_tags_only_for_the_product_type(app: Flask, head_of: RenderFn) -> None:
    product = {
        "price": {"amount": Decimal("1.999E+1"), "currency": "EUR"},
        "availability": "in stock",
        "condition": "refurbished",
        "brand": "Acme",
        "retailer_item_id": "SKU-1",
    }
    el = head_of(app, _product(**product))
    assert [m for m in metas(el) if m[0].startswith("product:")] == [
        ("product:price:amount", "19.99"),
        ("product:price:currency", "EUR"),
        ("product:availability", "in stock"),
        ("product:condition", "refurbished"),
        ("product:brand", "Acme"),
        ("product:retailer_item_id", "SKU-1"),
    ]
    assert meta(el, "og:type") == ["product"]
    # Another type: no product:* tag.
    el = head_of(app, {"open_graph": {"type": "article", "product": product}})
    assert not [m for m in metas(el) if m[0].startswith("product:")]


@pytest.mark.parametrize(
    ("amount", "written"), [(12, "12"), ("9.50", "9.50"), (Decimal("3"), "3")]
)
def test_a_price_takes_an_int_a_decimal_or_text(
    app: Flask, head_of: RenderFn, amount: Any, written: str
) -> None:
    el = head_of(app, _product(price={"amount": amount, "currency": "USD"}))
    assert meta(el, "product:price:amount") == [written]


def test_merge_rules(app: Flask, head_of: RenderFn) -> None:
    layout = {
        "icons": ["/a.ico", "/b.png"],
        "theme_color": "#111",
        "feeds": [{"url": "/site.xml", "type": "application/rss+xml"}],
        "verification": {"google": "g", "bing": "b"},
        "facebook": {"app_id": "1"},
        "other": {"rating": "general", "referrer": "origin"},
        "open_graph": {
            "type": "product",
            "product": {"brand": "Acme", "availability": "in stock"},
        },
    }
    page = {
        "icons": "/c.ico",
        "theme_color": [{"color": "#222"}],
        "feeds": [{"url": "/page.xml", "type": "application/atom+xml"}],
        "verification": {"bing": "b2"},
        "other": {"rating": "adult"},
        "open_graph": {"product": {"availability": "preorder"}},
    }
    el = head_of(app, layout, page)
    # Replaced whole.
    assert [i["href"] for i in _links(el, "icon")] == ["https://notes.example/c.ico"]
    assert meta(el, "theme-color") == ["#222"]
    assert [f["href"] for f in _links(el, "alternate")] == [
        "https://notes.example/page.xml"
    ]
    # Key by key.
    assert meta(el, "google-site-verification") == ["g"]
    assert meta(el, "msvalidate.01") == ["b2"]
    assert meta(el, "fb:app_id") == ["1"]
    assert meta(el, "rating") == ["adult"]
    assert meta(el, "referrer") == ["origin"]
    assert meta(el, "product:brand") == ["Acme"]
    assert meta(el, "product:availability") == ["preorder"]


@pytest.mark.parametrize(
    ("name", "use"),
    [
        ("description", "head(description=...)"),
        ("Robots", "head(robots=...)"),
        ("theme-color", "head(theme_color=...)"),
        ("twitter:card", "head(twitter=...)"),
        ("twitter:anything", "head(twitter=...)"),
        ("og:title", "head(open_graph=...)"),
        ("google-site-verification", "head(verification=...)"),
        ("msvalidate.01", "head(verification=...)"),
        ("fb:app_id", "head(facebook=...)"),
    ],
)
def test_other_refuses_a_name_the_head_writes(app: Flask, name: str, use: str) -> None:
    with app.test_request_context("/"), pytest.raises(TypeError) as raised:
        head(other={name: "x"})
    assert use in str(raised.value)
    assert repr(name) in str(raised.value)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        ({"other": {"a\nb": "x"}}, ValueError, "line break"),
        ({"other": {"a": "x\ny"}}, ValueError, "line break"),
        ({"other": {"a": ["ok", "x\x07"]}}, ValueError, "control character"),
        ({"other": {"": "x"}}, ValueError, "empty name"),
        ({"other": {1: "x"}}, TypeError, "meta name is text"),
        ({"verification": {"google": "g\r"}}, ValueError, "line break"),
        ({"facebook": {"app_id": "1\n"}}, ValueError, "line break"),
        ({"theme_color": "red\n"}, ValueError, "line break"),
        ({"icons": [{"url": "/i", "sizes": "1\n2"}]}, ValueError, "line break"),
        ({"verification": {"gogle": "g"}}, TypeError, "'google'"),
        ({"facebook": {"appid": "1"}}, TypeError, "'app_id'"),
        ({"icons": [{"url": "/i", "rell": "icon"}]}, TypeError, "'rel'"),
        ({"feeds": [{"url": "/f", "type": "rss"}]}, ValueError, "application/rss"),
        ({"feeds": "/f.xml"}, TypeError, "feeds must be"),
        ({"feeds": [{"url": "/f"}]}, TypeError, "needs the key 'type'"),
        ({"icons": [{"url": "/i", "rel": "icn"}]}, ValueError, "'icon'"),
        ({"icons": [{"url": "/i", "color": "red"}]}, ValueError, "mask icon"),
        ({"icon": "/i"}, TypeError, "'icons'"),
        ({"open_graph": {"produkt": {}}}, TypeError, "'product'"),
        (_product(availability="instock"), ValueError, "'in stock'"),
        (_product(condition="broken"), ValueError, "'used'"),
        (_product(price={"amount": 1.5, "currency": "EUR"}), TypeError, "float"),
        (_product(price={"amount": "abc", "currency": "EUR"}), ValueError, "number"),
        (_product(price={"amount": Decimal("NaN"), "currency": "EUR"}), ValueError, ""),
        (_product(price={"amount": 1, "currency": "euro"}), ValueError, "ISO 4217"),
        (_product(price={"amount": 1}), TypeError, "'currency'"),
        (_product(price={"amount": 1, "curency": "EUR"}), TypeError, "'currency'"),
    ],
)
def test_bad_values_are_refused(
    app: Flask, call: dict[str, Any], error: type[Exception], words: str
) -> None:
    with app.test_request_context("/"), pytest.raises(error) as raised:
        head(**call)
    assert words in str(raised.value)


@pytest.mark.parametrize(
    "bad", ["javascript:alert(1)", "//other.example/i.png", "/\\other.example/i.png"]
)
def test_urls_follow_the_head_policy_with_the_development_warning(
    make_app: Callable[..., Flask],
    render_calls: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
    bad: str,
) -> None:
    app = make_app(APP_URL="https://notes.example")
    app.debug = True
    with caplog.at_level(logging.WARNING, logger="flask_marmeon"):
        el = parse_head(
            render_calls(
                app,
                {
                    "icons": [{"url": bad, "sizes": "32x32"}, "/ok.ico"],
                    "manifest": bad,
                    "feeds": [{"url": bad, "type": "application/rss+xml"}],
                },
            )
        )
    assert [i["href"] for i in _links(el, "icon")] == ["https://notes.example/ok.ico"]
    assert _links(el, "manifest") == []
    assert _links(el, "alternate") == []
    said = " ".join(r.getMessage() for r in caplog.records)
    for field in ("icons", "manifest", "feeds"):
        assert field in said
    assert repr(bad) in said


def test_without_app_url_a_relative_icon_goes_to_the_browser_with_its_attributes(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app()
    html = render_calls(app, {"icons": [{"url": "/i.png", "sizes": "16x16"}]})
    el = parse_head(html)
    assert _links(el, "icon") == []
    (data,) = [e for e in el.iter("script") if "data-marmeon-data" in e.attrib]
    (item,) = json.loads(data.text or "")["missing"]
    assert item["tag"] == "link"
    assert item["attrs"] == {"rel": "icon", "href": "/i.png", "sizes": "16x16"}
    assert item["url"] == "href"


def test_the_memo_keeps_pages_apart_by_the_new_fields(
    make_app: Callable[..., Flask], render_calls: Callable[..., str]
) -> None:
    app = make_app(APP_URL="https://notes.example")
    calls = [
        {"title": "P", **_product(price={"amount": 1, "currency": "EUR"})},
        {"title": "P", **_product(price={"amount": 2, "currency": "EUR"})},
        {"title": "P", "other": {"rating": "adult"}},
        {"title": "P", "other": {"rating": "general"}},
    ]
    first = [render_calls(app, call) for call in calls]
    assert len(set(first)) == len(calls)
    for _ in range(3):
        assert [render_calls(app, call) for call in calls] == first


def test_other_takes_a_name_that_only_shares_a_lone_names_prefix(
    app: Flask, head_of: RenderFn
) -> None:
    # p:domain_verify and fb:app_id are names of their own, not namespaces.
    el = head_of(app, {"other": {"p:other": "x", "fb:pages": "123"}})
    assert meta(el, "p:other") == ["x"]
    assert meta(el, "fb:pages") == ["123"]
    with app.test_request_context("/"), pytest.raises(TypeError, match="product"):
        head(other={"product:color": "red"})
